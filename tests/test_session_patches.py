"""The dashboard and the projector follow a move at one table without rebuilding their payload:
the dashboard is sent that table's row (``tables``), the projector the newest moments
(``moments``); a match that ends (a status change) still brings the whole payload."""
from __future__ import annotations

import pytest

from classrooms import selectors, services, ticket_progress
from classrooms.models import Participant
from games import services as match_services
from games import state_cache
from games.engines import get_game
from games.models import Match
from games.selectors import current_state
from games.snapshot import snapshot
from tests.support.clients import class_at_one_table, moved, played_to_end, receive, run_async
from tests.support.rounds import play_out


@pytest.fixture(autouse=True)
def fresh_caches():
    """Match ids are reused between tests (rolled back): no state or analysis of another test."""
    for cache in (state_cache._states, ticket_progress._analyses):
        cache.clear()
    yield
    for cache in (state_cache._states, ticket_progress._analyses):
        cache.clear()


def started_match(classroom, game_slug: str) -> tuple:
    session = services.open_session(classroom, game_slug)
    for name in ("Ada", "Bo"):
        Participant.objects.create(session=session, display_name=name)
    services.auto_pair(session)
    services.start_all(session)
    return session, Match.objects.get(table__session=session)


@pytest.mark.parametrize("game_slug", ["quantum-tictactoe", "qtris", "quantum-ticket-to-ride"])
def test_the_row_patched_from_a_moves_snapshot_is_the_row_a_rebuild_reads(classroom, game_slug,
                                                                           django_assert_num_queries):
    session, match = started_match(classroom, game_slug)
    [before] = selectors.tables_summary(session)
    game, state = get_game(match.game), current_state(match)
    seat = game.to_act(state)[0]
    match_services.submit_action(match.pk, seat, match.seq, game.legal_actions(state, seat)[0])
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    snap = snapshot(match, current_state(match))
    ticket_progress._analyses.clear()  # the patch runs the engine's analysis itself
    with django_assert_num_queries(0):
        patched = selectors.patched_row(before, snap)
    [rebuilt] = selectors.tables_summary(session)
    assert patched == rebuilt
    assert patched["moves"] == match.seq > before["moves"] and patched["to_act"] != before["to_act"]
    if game_slug == "quantum-ticket-to-ride":
        names = {s["index"]: s["name"] for s in patched["seats"]}  # (auto_pair seats in any order)
        assert [p["name"] for p in patched["ticket"]["players"]] == [names[0], names[1]]  # (the analysis ran)
        assert sorted(names.values()) == ["Ada", "Bo"]


@pytest.mark.server
def test_a_move_patches_the_dashboards_row_and_the_end_of_the_match_rebuilds_it(server, teacher):
    owner, session, match_id, seat = class_at_one_table(server)

    async def scenario():
        desk = await owner.socket(f"/ws/sessions/{session['id']}/")
        first = await receive(desk, "dashboard")
        assert first["tables"][0]["moves"] == 0 and first["tables"][0]["to_act"] == [0]
        moved(seat[0], match_id)
        patch = await receive(desk, "tables", where=lambda m: m["tables"][0]["moves"] >= 1)
        [row] = patch["tables"]
        assert row["match"] == match_id and row["status"] == "playing" and row["to_act"] == [1]
        assert row["seats"] == first["tables"][0]["seats"] and set(row) == set(first["tables"][0])
        state = played_to_end(seat, match_id)  # its status changes: the whole dashboard comes
        final = await receive(desk, "dashboard", where=lambda m: m["tables"][0]["status"] == "finished", timeout=15)
        assert final["tables"][0]["moves"] == state["seq"] and final["standings"]["students"][0]["played"] == 1
        await desk.close()

    run_async(scenario())


@pytest.mark.server
def test_a_patched_row_is_in_the_teachers_language_as_the_whole_dashboard_is(server, teacher):
    from django.conf import settings

    owner, session, match_id, seat = class_at_one_table(server, "entanglion", variant="easy")
    owner.http.cookies.set(settings.LANGUAGE_COOKIE_NAME, "pl")

    async def scenario():
        desk = await owner.socket(f"/ws/sessions/{session['id']}/")
        first = await receive(desk, "dashboard")
        assert first["tables"][0]["summary"]["text"].startswith("komponenty: 0 z ")
        to_act = first["tables"][0]["to_act"][0]
        moved(seat[to_act], match_id)
        [row] = (await receive(desk, "tables"))["tables"]
        assert row["summary"]["text"].startswith("komponenty: ") and row["moves"] >= 1
        await desk.close()

    run_async(scenario())


def first_moves(match_id: int, moves: int) -> None:
    """The first legal action of the seat to act, ``moves`` times."""
    for _ in range(moves):
        match = Match.objects.get(pk=match_id)
        game, state = get_game(match.game), current_state(match)
        seat = game.to_act(state)[0]
        match_services.submit_action(match.pk, seat, match.seq, game.legal_actions(state, seat)[0])


def test_a_payload_that_reads_only_the_moved_tables_again_is_the_payload_of_a_whole_read(classroom):
    """The dashboard and the projector keep the tables their last payload read and read again only
    those whose matches changed since (``selectors.tables_after``): what they send is what a read
    of every table would give, after moves at one table and the end of another."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    session = services.open_session(classroom, "quantum-tictactoe")
    for name in ("Ada", "Bo", "Chen", "Dara", "Emil", "Fatou"):
        Participant.objects.create(session=session, display_name=name)
    services.auto_pair(session)
    services.start_all(session)
    kept = session.seated_tables()
    first, ended, idle = (t.match_id for t in kept)
    made, _ = selectors.dashboard_payload_and_seating(session, kept)  # (the last payload)
    _, made_moments = selectors.screen_payload_and_moments(session, kept)
    first_moves(first, 2)
    play_out(ended)
    assert Match.objects.get(pk=ended).status == Match.Status.FINISHED

    def without_clock(payload: dict) -> dict:
        return {k: v for k, v in payload.items() if k != "now_ms"}

    with CaptureQueriesContext(connection) as queries:
        tables = selectors.tables_after(session, kept, {first, ended})
    read = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "classrooms_table"')]
    assert len(read) == 1 and '"match_id" IN' in read[0], read
    assert [t.match_id for t in tables] == [first, ended, idle]
    assert tables[2] is kept[2] and tables[0] is not kept[0]
    dashboard, _ = selectors.dashboard_payload_and_seating(session, tables)
    assert without_clock(dashboard) == without_clock(selectors.dashboard_payload(session))
    assert dashboard["tables"][1]["status"] == "finished" and dashboard["tables"][0]["moves"] == 2
    screen, moments = selectors.screen_payload_and_moments(session, tables)
    assert screen == selectors.screen_payload(session)
    # what the last payload made of the kept table (its row, its moments) is not made again
    assert dashboard["tables"][2]["seats"] is made["tables"][2]["seats"]
    assert dashboard["tables"][0]["seats"] is not made["tables"][0]["seats"]
    assert moments[idle] is made_moments[idle] and moments[first] is not made_moments[first]
    # a match that the kept tables do not hold (a table seated since): every table read again
    with CaptureQueriesContext(connection) as queries:
        assert [t.match_id for t in selectors.tables_after(session, kept[:2], {idle})] == [first, ended, idle]
    assert not any('"match_id" IN' in q["sql"] for q in queries.captured_queries
                   if q["sql"].startswith('SELECT "classrooms_table"'))


def test_a_teachers_socket_reads_every_table_after_a_change_that_names_no_match_and_every_while():
    """What a dashboard's next payload reads: the moved matches' tables again, or all of them
    after a command or a join (a change without a match), every ``WHOLE_READ_SECONDS``, at first,
    and while another payload is being built."""
    import asyncio

    from classrooms.consumers import WHOLE_READ_SECONDS, SessionConsumer

    async def scenario():
        desk = SessionConsumer()
        desk.is_teacher = True
        assert desk.tables_to_read() == (None, set())  # the first payload reads them all
        desk.tables = kept = ["tables of the last payload"]
        desk.note_change({"type": "session.changed", "teacher_only": True,
                          "snapshot": {"match": 7, "status": "playing", "seq": 3}})
        desk.note_change({"type": "session.changed", "teacher_only": False,
                          "snapshot": {"match": 9, "status": "finished", "seq": 5}})
        assert desk.tables_to_read() == (kept, {7, 9})
        assert desk.tables_to_read() == (kept, set())
        desk.note_change({"type": "session.changed", "teacher_only": False, "snapshot": None})  # a command
        assert desk.tables_to_read() == (None, set())
        desk.read_at -= WHOLE_READ_SECONDS
        assert desk.tables_to_read() == (None, set())
        desk.building = 1
        assert desk.tables_to_read() == (None, set())
        lobby = SessionConsumer()  # a student's lobby keeps no tables
        lobby.note_change({"type": "session.changed", "teacher_only": False,
                           "snapshot": {"match": 9, "status": "finished", "seq": 5}})
        assert lobby.moved == set()

    asyncio.run(scenario())


def test_of_two_payloads_read_at_once_the_second_reads_every_table_and_its_tables_are_kept():
    """A payload begun while another is being read (a "sync", the "finish in" timer) reads every
    table (the first one took the moves noted until then), and its tables are kept for the next."""
    import asyncio
    import threading

    from classrooms.consumers import SessionConsumer

    async def scenario():
        desk = SessionConsumer()
        desk.is_teacher, desk.session_id = True, 1
        desk.tables, desk.read_all, desk.read_at = ["kept"], False, asyncio.get_running_loop().time()
        desk.moved = {7}
        gate, asked = threading.Event(), []

        def slow(session_id, kept, moved):
            asked.append((kept, moved))
            gate.wait(5)
            return "payload", ["first"]

        def quick(session_id, kept, moved):
            asked.append((kept, moved))
            return "payload", ["second"]

        first = asyncio.ensure_future(desk.read_tables(slow))
        await asyncio.sleep(0.05)
        desk.moved.add(9)
        second = asyncio.ensure_future(desk.read_tables(quick))
        await asyncio.sleep(0.05)
        gate.set()
        assert await first == ["payload"] and await second == ["payload"]
        assert asked == [(["kept"], {7}), (None, {9})]
        assert desk.tables == ["second"]

    asyncio.run(scenario())


def test_a_table_read_again_in_place_makes_its_parts_again(classroom):
    """``Table.made``: what a payload made of a table object holds until the object is read again."""
    session = services.open_session(classroom, "quantum-tictactoe")
    for name in ("Ada", "Bo"):
        Participant.objects.create(session=session, display_name=name)
    services.auto_pair(session)
    services.start_all(session)
    [table] = session.seated_tables()
    first = table.made("row", object)
    assert table.made("row", object) is first and table.has_made("row")
    table.refresh_from_db()
    assert not table.has_made("row") and table.made("row", object) is not first

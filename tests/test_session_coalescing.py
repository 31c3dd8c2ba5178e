"""A session socket (the teacher's dashboard, the projector) folds the moves that come
close together into one payload (``classrooms.consumers.COALESCE_SECONDS``), yet always shows the
last one (the trailing edge)."""
from __future__ import annotations

import asyncio
import json

import pytest

from classrooms.consumers import COALESCE_SECONDS
from games.models import Match
from tests.support.clients import class_at_one_table, receive, run_async

MOVES = 8


async def payloads_until_quiet(ws, *kinds: str, quiet: float = 3 * COALESCE_SECONDS + 1) -> list[dict]:
    """Every message of one of ``kinds`` until none came for ``quiet`` seconds."""
    got = []
    while True:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), quiet))
        except TimeoutError:
            return got
        if message.get("type") in kinds:
            got.append(message)


@pytest.mark.server
def test_close_moves_reach_the_dashboard_and_projector_in_fewer_payloads_ending_with_the_last(server, teacher):
    owner, session, match_id, seat = class_at_one_table(server)

    async def scenario():
        desk = await owner.socket(f"/ws/sessions/{session['id']}/")
        screen = await owner.socket(f"/ws/sessions/{session['id']}/screen/")
        await receive(desk, "dashboard")
        await receive(screen, "screen")
        moves = 0
        for _ in range(MOVES):  # as fast as the API answers: well inside the window each
            state = next(iter(seat.values())).api("GET", f"/api/matches/{match_id}/").json()
            if state["outcome"] is not None:
                break
            who = state["to_act"][0]
            legal = seat[who].api("GET", f"/api/matches/{match_id}/").json()["legal"]
            moved = seat[who].api("POST", f"/api/matches/{match_id}/actions/",
                                  {"seq": state["seq"], "action": legal[0]})
            assert moved.status_code == 200, moved.text
            moves += 1
        # a move that leaves the match playing: the moved table's row, the newest moments
        dashboards, screens = await asyncio.gather(payloads_until_quiet(desk, "dashboard", "tables"),
                                                   payloads_until_quiet(screen, "screen", "moments"))
        await desk.close()
        await screen.close()
        return moves, dashboards, screens

    moves, dashboards, screens = run_async(scenario())
    final = next(iter(seat.values())).api("GET", f"/api/matches/{match_id}/").json()["seq"]
    assert moves >= 5 and final >= moves
    assert dashboards and dashboards[-1]["tables"][0]["moves"] == final  # the last move is shown
    assert len(dashboards) < moves, [d["tables"][0]["moves"] for d in dashboards]
    assert screens and len(screens) < moves
    if Match.objects.get(pk=match_id).status == Match.Status.PLAYING:
        assert {d["type"] for d in dashboards} == {"tables"} and {s["type"] for s in screens} == {"moments"}



@pytest.mark.django_db(transaction=True)
def test_a_moves_session_message_carries_its_state_so_another_process_rebuilds_no_log(classroom):
    """The dashboard's process may not be the one that applied the move: the change's message
    carries the match's state (server-side), so the rebuild reads no action log."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from classrooms import selectors, services
    from classrooms.broadcast import session_group
    from classrooms.consumers import remember_snapshot
    from classrooms.models import Participant
    from games import services as match_services
    from games import state_cache
    from games.engines import get_game
    from games.models import Match
    from games.selectors import current_state

    session = services.open_session(classroom, "quantum-tictactoe")
    for name in ("Ada", "Bo"):
        Participant.objects.create(session=session, display_name=name)
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get(table__session=session)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(session_group(session.pk, teachers=True), channel)
    game, state = get_game(match.game), current_state(match)
    seat = game.to_act(state)[0]
    match_services.submit_action(match.pk, seat, match.seq, game.legal_actions(state, seat)[0])
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "session.changed" and message["teacher_only"]
    assert message["snapshot"]["seq"] == 1

    def log_reads() -> list[str]:
        state_cache.clear()  # as in a process that has not seen the move
        remember(message)
        with CaptureQueriesContext(connection) as queries:
            assert selectors.dashboard_payload(session)["tables"][0]["moves"] == 1
        return [q["sql"] for q in queries.captured_queries if "games_action" in q["sql"]]

    remember = remember_snapshot
    assert not log_reads(), "the table's log was replayed"
    remember = lambda message: None  # noqa: E731 (without the state carried: the log is read)
    assert log_reads()


@pytest.mark.django_db
def test_a_dashboard_and_a_projector_payload_read_the_tables_and_seats_once_whatever_their_number(classroom):
    """The rows, the standings (recomputed: a game just ended), the concept grid and the moments
    of a dashboard or projector payload come from one read of the tables and one of their seats,
    and no query per table or per seat follows, whichever of their fields a payload reads: a
    lesson's many tables cost the same number of round trips, at 6 tables as at 2."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from classrooms import selectors, services
    from classrooms.models import Participant

    def queries(students: int) -> dict[str, int]:
        session = services.open_session(classroom, "quantum-tictactoe")
        for n in range(students):
            Participant.objects.create(session=session, display_name=f"S{n}")
        services.auto_pair(session)
        services.start_all(session)
        counts = {}
        for name, build in (("dashboard", selectors.dashboard_payload), ("screen", selectors.screen_payload)):
            cache.clear()  # the standings computed, the moments read, not taken from the cache
            with CaptureQueriesContext(connection) as captured:
                payload = build(session)
            sql = [q["sql"] for q in captured.captured_queries]
            tables = [s for s in sql if s.startswith('SELECT "classrooms_table"')]
            seats = [s for s in sql if s.startswith('SELECT "games_seat"')]
            assert len(tables) == 1 and len(seats) == 1, (name, "\n".join(tables + seats))
            counts[name] = len(captured)
        assert len(payload["students"]) == students  # (the projector's standings)
        dashboard = selectors.dashboard_payload(session)
        assert len(dashboard["tables"]) == students // 2 and len(dashboard["standings"]["students"]) == students
        return counts

    assert queries(12) == queries(4)


@pytest.mark.django_db
def test_a_dashboard_and_a_projector_payload_read_the_participants_once_and_count_them_alike(classroom):
    """A dashboard payload reads the session's participants once (its roster, the concept grid's
    names and the standings' cache key come from that one read), a projector payload counts them
    once (the standings' key and the number joined); both count the same rows as the standings'
    own count, merged, removed and waiting students included, so the two share the cache entry."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from classrooms import selectors, services
    from classrooms.models import Participant
    from classrooms.standings import counts_of, people_counts

    session = services.open_session(classroom, "quantum-tictactoe")
    ada, bo, cy, di, ed = (Participant.objects.create(session=session, display_name=n)
                           for n in ("Ada", "Bo", "Cy", "Di", "Ed"))
    services.merge_participants(session, di.pk, ed.pk)
    services.auto_pair(session)
    services.start_all(session)
    services.remove_participant(session, cy.pk)
    Participant.objects.create(session=session, display_name="Fay", admitted=False)
    counted = people_counts(session)
    assert counted == {"n": 6, "gone": 2, "waiting": 1, "joined": 3}  # (a merged row counts as removed)
    assert counts_of(list(session.participants.all())) == counted

    selectors.dashboard_payload(session), selectors.screen_payload(session)  # (the standings cached)
    for build in (selectors.dashboard_payload, selectors.screen_payload):
        with CaptureQueriesContext(connection) as captured:
            payload = build(session)
        reads = [q["sql"] for q in captured.captured_queries if 'FROM "classrooms_participant"' in q["sql"]]
        assert len(reads) == 1, (build.__name__, "\n".join(reads))
    assert payload["joined"] == 3
    roster = selectors.dashboard_payload(session)["participants"]
    assert [p["name"] for p in roster] == ["Ada", "Bo", "Cy", "Ed", "Fay"]  # (Di merged into Ed)

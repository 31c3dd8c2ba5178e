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

"""A lesson's "finish in" never leaks into tables seated after it: once its time has run out
and its tables have ended, the session's countdown is cleared, and a next round, an auto-pair,
a late joiner's table or a homework table starts with fresh time. A new round starts with fresh
time even while a countdown still runs (it was for the tables that were playing). Through the
dashboard's own command handler and payload (``classrooms.consumers``), as a teacher's clicks
reach them."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from classrooms import consumers as session_consumers
from classrooms import services
from classrooms.models import ClassSession, Participant
from games import services as match_services
from games.engines import FINISH_ACTION, get_game
from games.models import Action, Match
from games.selectors import current_state, match_payload
from tests.test_pace import in_memory_layer  # noqa: F401  (fixture: the in-memory layer, short choices)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_memory_layer")]




def command(session: ClassSession, **message) -> None:
    error = session_consumers._command(session.pk, message)
    assert error is None, error and error.message


def dashboard(session: ClassSession) -> dict:
    """What the teacher's dashboard socket sends (it enforces overdue tables first)."""
    return session_consumers._payload(session.pk, True, None)


def time_runs_out(session: ClassSession) -> None:
    """The "finish in" countdown ran out a moment ago (the session's and its tables' end)."""
    past = timezone.now() - timedelta(milliseconds=10)
    ClassSession.objects.filter(pk=session.pk, ends_at__isnull=False).update(ends_at=past)
    Match.objects.filter(table__session=session, ends_at__isnull=False).update(ends_at=past)


def one_move(match: Match) -> None:
    """The player to act makes a legal move (quantum tic-tac-toe: a spooky mark)."""
    match.refresh_from_db()
    state = current_state(match)
    seat = get_game(match.game).to_act(state)[0]
    match_services.submit_action(match.pk, seat, match.seq, get_game(match.game).legal_actions(state, seat)[0])


def round_matches(session: ClassSession, number: int) -> list[Match]:
    return [t.match for t in session.tables.filter(round__number=number).select_related("match")]


def class_of(session: ClassSession, *names: str) -> list[Participant]:
    return [Participant.objects.create(session=session, display_name=n) for n in names]


def assert_fresh(match: Match) -> None:
    """The table has no end, plays on after a move, and nothing ends it by time."""
    match.refresh_from_db()
    assert match.ends_at is None and match.finish_left_ms is None
    assert match_payload(match, 0).get("clock") is None or match_payload(match, 0)["clock"]["finish_left_ms"] is None
    one_move(match)
    assert match_services.enforce_time(match.pk) is None
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.seq >= 1
    assert not Action.objects.filter(match=match, action=FINISH_ACTION).exists()


def test_finish_in_then_next_round_the_new_tables_start_with_fresh_time(classroom):
    session = services.open_session(classroom, "quantum-tictactoe")
    class_of(session, "Ada", "Bo", "Cy", "Di")
    command(session, type="next_round")
    command(session, type="finish_in", seconds=4)
    time_runs_out(session)
    payload = dashboard(session)  # the dashboard's timer: every table ended by the game's rule
    assert all(m.status == Match.Status.FINISHED for m in round_matches(session, 1))
    assert payload["session"]["pace"]["finish_left_ms"] is None  # the countdown is over
    session.refresh_from_db()
    assert session.ends_at is None and session.finish_left_ms is None

    command(session, type="next_round")
    for match in round_matches(session, 2):
        assert_fresh(match)
    assert services.enforce_overdue(session) == 0
    assert all(m.status == Match.Status.PLAYING for m in round_matches(session, 2))


def test_a_countdown_run_out_with_no_dashboard_open_is_not_passed_on(classroom):
    """The tables' own sockets ended them (no dashboard reloaded): the next round still starts
    with fresh time."""
    session = services.open_session(classroom, "quantum-tictactoe")
    class_of(session, "Ada", "Bo")
    command(session, type="next_round")
    command(session, type="finish_in", seconds=4)
    time_runs_out(session)
    (match,) = round_matches(session, 1)
    assert match_services.enforce_time(match.pk).finished  # a match socket's timer
    command(session, type="next_round")
    (fresh,) = round_matches(session, 2)
    assert_fresh(fresh)
    session.refresh_from_db()
    assert session.ends_at is None


def test_next_round_while_the_countdown_still_runs_starts_with_fresh_time(classroom):
    """Every table finished before the time was up: the countdown was for them; the teacher
    sees it gone from the dashboard and may set a new one for the new round."""
    session = services.open_session(classroom, "quantum-tictactoe")
    class_of(session, "Ada", "Bo")
    command(session, type="next_round")
    command(session, type="finish_in", seconds=300)
    (match,) = round_matches(session, 1)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, finished_at=timezone.now(),
                                             outcome={"scores": [1, 0], "winners": [0]})
    command(session, type="next_round")
    session.refresh_from_db()
    assert session.ends_at is None and dashboard(session)["session"]["pace"]["finish_left_ms"] is None
    (fresh,) = round_matches(session, 2)
    assert_fresh(fresh)
    command(session, type="finish_in", seconds=60)  # a countdown for the new round
    fresh.refresh_from_db()
    assert timedelta(seconds=59) < fresh.ends_at - timezone.now() <= timedelta(seconds=60)


def test_finish_in_with_no_table_in_play_is_refused_and_says_why(classroom):
    session = services.open_session(classroom, "quantum-tictactoe")
    class_of(session, "Ada", "Bo")
    error = session_consumers._command(session.pk, {"type": "finish_in", "seconds": 60})
    assert error.code == "nothing_to_finish" and "No table is playing" in error.message
    session.refresh_from_db()
    assert session.ends_at is None and session.finish_left_ms is None


def test_a_late_joiners_table_shares_a_running_countdown_but_not_one_that_ran_out(classroom):
    session = services.open_session(classroom, "quantum-tictactoe")
    class_of(session, "Ada", "Bo")
    command(session, type="auto_pair")
    command(session, type="start_all")
    command(session, type="finish_in", seconds=60)
    session.refresh_from_db()
    class_of(session, "Cy", "Di")
    command(session, type="auto_pair")  # seated while the countdown runs: the same end
    late = session.tables.order_by("-number").first().match
    assert late.ends_at == session.ends_at

    time_runs_out(session)
    dashboard(session)  # every table ended (the waiting one had not started: nothing to end)
    late.refresh_from_db()
    assert late.status == Match.Status.WAITING
    command(session, type="start_all")  # it starts after the time was up: fresh time
    assert_fresh(late)

    class_of(session, "Eve", "Fay")
    command(session, type="auto_pair")
    command(session, type="start_all")
    assert_fresh(session.tables.order_by("-number").first().match)


def test_a_table_seated_after_the_time_ran_out_starts_fresh_even_before_the_dashboard_noticed(classroom):
    session = services.open_session(classroom, "quantum-tictactoe")
    class_of(session, "Ada", "Bo")
    command(session, type="auto_pair")
    command(session, type="start_all")
    command(session, type="finish_in", seconds=4)
    time_runs_out(session)
    class_of(session, "Cy", "Di")
    command(session, type="auto_pair")  # nothing enforced the end yet
    command(session, type="start_all")
    session.refresh_from_db()
    assert session.ends_at is None
    assert_fresh(session.tables.order_by("-number").first().match)


def test_a_pause_after_the_time_ran_out_keeps_no_countdown_for_later_tables(classroom):
    session = services.open_session(classroom, "quantum-tictactoe")
    class_of(session, "Ada", "Bo")
    command(session, type="next_round")
    command(session, type="finish_in", seconds=4)
    time_runs_out(session)
    command(session, type="pause_all")
    session.refresh_from_db()
    assert session.paused and session.finish_left_ms is None  # not "0 ms left"
    (match,) = round_matches(session, 1)
    match.refresh_from_db()
    assert match.paused and match.finish_left_ms == 0  # its own end is still owed
    command(session, type="resume_all")
    assert match_services.enforce_time(match.pk).finished
    command(session, type="next_round")
    (fresh,) = round_matches(session, 2)
    assert_fresh(fresh)


def test_a_homework_table_never_inherits_a_countdown(classroom):
    """A homework session is self-paced: even a stale end on its row reaches no table."""
    from classrooms import cards, homework

    cards.set_cards_enabled(classroom, True)
    (member,) = cards.add_members(classroom, "Ada")
    assignment = homework.create_assignment(classroom, "game:quantum-tictactoe:basic", bot_level="random",
                                            due_at=timezone.now() + timedelta(days=1))
    ClassSession.objects.filter(pk=assignment.session_id).update(ends_at=timezone.now() - timedelta(minutes=5))
    assignment.session.refresh_from_db()
    table = homework.start_game(assignment, member, {})
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.PLAYING and match.ends_at is None
    assignment.session.refresh_from_db()
    assert assignment.session.ends_at is None

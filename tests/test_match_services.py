"""Match services on the database: previews respect hidden odds; bots play their turns."""
from __future__ import annotations

import copy

import pytest

from games import services
from games.errors import AppError
from games.models import Match
from tests.engines.test_qtris_preview import OPTIONS

pytestmark = pytest.mark.django_db


def qtris_match(**fields) -> Match:
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("qtris", holders, variant="advanced", options=copy.deepcopy(OPTIONS), **fields)
    services.start_match(match.pk)
    return match


def test_a_preview_shows_the_odds_only_where_players_may_see_them():
    match = qtris_match()
    shown = services.preview_action(match.pk, 0, {"card": "X", "squares": [1]})
    assert "analysis" in shown and "delta" in shown
    Match.objects.filter(pk=match.pk).update(show_odds=False)
    hidden = services.preview_action(match.pk, 0, {"card": "X", "squares": [1]})
    assert "analysis" not in hidden and "delta" not in hidden
    assert hidden["board"]
    assert Match.objects.get(pk=match.pk).seq == 0  # a preview applies nothing


def test_an_illegal_preview_raises_the_app_error_and_a_game_without_previews_says_so():
    match = qtris_match()
    with pytest.raises(AppError) as refused:
        services.preview_action(match.pk, 1, {"card": "Z", "squares": [1]})
    assert refused.value.message and refused.value.status == 400
    with pytest.raises(AppError) as junk:
        services.preview_action(match.pk, 0, ["not", "an", "object"])
    assert junk.value.code == "bad_action"
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    qttt = services.create_match("quantum-tictactoe", holders)
    with pytest.raises(AppError) as none:
        services.preview_action(qttt.pk, 0, {"squares": [1, 2]})
    assert none.value.code == "no_preview"
    with pytest.raises(AppError) as gone:
        services.preview_action(10**9, 0, {"squares": [1, 2]})
    assert gone.value.code == "gone" and gone.value.status == 404


def test_bots_play_their_turns_inside_the_same_transaction():
    holders = [services.SeatHolder("Bot", bot="strong"), services.SeatHolder("Ada", participant_id=1)]
    match = services.create_match("quantum-tictactoe", holders)
    applied = services.start_match(match.pk)
    assert applied.seq == 1 and match.actions.get().by_bot  # X is the bot: it opened
    applied = services.submit_action(match.pk, 1, 1, {"squares": [4, 5]},
                                     participant_ids=(1,))
    assert applied.seq >= 3 or Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    with pytest.raises(services.ActionRejected) as stale:
        services.submit_action(match.pk, 1, 1, {"squares": [6, 7]}, participant_ids=(1,))
    assert stale.value.code == "stale"


def test_a_bot_on_a_team_leaves_the_decisions_to_its_human_teammate():
    options = copy.deepcopy(OPTIONS)
    options["hands"] = [["U", "CX", "X", "H"], ["Z", "Y", "I", "X"]]
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bot B", bot="random"),
               services.SeatHolder("Bot A", bot="random"), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("qtris", holders, variant="advanced", options=options)
    applied = services.start_match(match.pk)
    assert applied.seq == 0  # side A (seats 0 and 2) is to act: Ada decides, her bot waits
    applied = services.submit_action(match.pk, 0, 0, {"card": "X", "squares": [1]}, participant_ids=(1,))
    assert Match.objects.get(pk=match.pk).actions.filter(by_bot=True).count() == 0


def two_students_tictactoe() -> Match:
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    return match


def assert_nothing_applied(match: Match, seq: int) -> None:
    match.refresh_from_db()
    assert match.seq == seq and match.actions.count() == seq


def test_the_service_refuses_a_move_based_on_a_board_ahead_of_the_stored_one():
    """Stale either way: ``seq`` must equal the log length (not just not be behind it)."""
    match = two_students_tictactoe()
    for seq in (match.seq + 1, match.seq + 5):
        with pytest.raises(services.ActionRejected) as ahead:
            services.submit_action(match.pk, 0, seq, {"squares": [1, 2]}, participant_ids=(1,))
        assert ahead.value.code == "stale" and ahead.value.message and ahead.value.status == 409
        assert_nothing_applied(match, 0)
    applied = services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(1,))
    assert applied.seq == 1
    for seq in (0, 2):                                   # behind, then ahead, of move 1
        with pytest.raises(services.ActionRejected) as stale:
            services.submit_action(match.pk, 1, seq, {"squares": [3, 4]}, participant_ids=(2,))
        assert stale.value.code == "stale"
        assert_nothing_applied(match, 1)


def test_the_service_refuses_a_move_for_another_seat_even_when_that_seat_is_to_act():
    match = two_students_tictactoe()
    # X (seat 0, Ada) is to act and the move is legal for seat 0: only the holder may make it
    with pytest.raises(services.ActionRejected) as other:
        services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(2,))
    assert other.value.code == "not_your_seat" and other.value.message and other.value.status == 403
    assert_nothing_applied(match, 0)
    for seat in (1, 2, -1):                              # Bo's own seat is not to act; no such seats
        with pytest.raises(services.ActionRejected) as refused:
            services.submit_action(match.pk, seat, 0, {"squares": [1, 2]}, participant_ids=(1,))
        assert refused.value.code == "not_your_seat"
        assert_nothing_applied(match, 0)
    assert services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(1,)).seq == 1


def test_the_service_refuses_a_move_for_a_seat_a_bot_has_taken_over():
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bot", bot="random")]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(1,))
    match.refresh_from_db()
    seq = match.seq
    with pytest.raises(services.ActionRejected) as refused:
        services.submit_action(match.pk, 1, seq, {"squares": [3, 4]}, participant_ids=(1,))
    assert refused.value.code == "not_your_seat"
    assert_nothing_applied(match, seq)


def test_each_reader_gets_the_analysis_its_game_declares_for_it():
    """The hidden-information policy the engines declare (``Abilities``), applied by the
    platform: QuantumPoker's odds from public knowledge reach its players while the teacher
    shows the odds, its exact (teacher-only) odds never do; QTris's analysis is all public;
    quantum tic-tac-toe's teaching panel is the teacher's."""
    from games.selectors import match_payload

    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    poker = services.create_match("quantum-poker", holders, variant="classic",
                                  options={"physics_mode": True})
    services.start_match(poker.pk)
    poker.refresh_from_db()
    student = match_payload(poker, 0)["analysis"]
    assert set(student) == {"hand", "phase", "mode", "expected_public", "p_win_public"}
    teacher = match_payload(poker, None, is_teacher=True)["analysis"]
    assert {"expected_exact", "p_win", "qubits"} <= set(teacher)
    assert student == {k: teacher[k] for k in student}
    Match.objects.filter(pk=poker.pk).update(show_odds=False)
    poker.refresh_from_db()
    assert "analysis" not in match_payload(poker, 0)
    assert "p_win" in match_payload(poker, None, is_teacher=True)["analysis"]

    qtris = qtris_match()
    full = match_payload(qtris, None, is_teacher=True)["analysis"]
    assert match_payload(qtris, 1)["analysis"] == full

    qttt = services.create_match("quantum-tictactoe", holders)
    services.start_match(qttt.pk)
    qttt.refresh_from_db()
    assert "analysis" not in match_payload(qttt, 0)
    assert "squares" in match_payload(qttt, None, is_teacher=True)["analysis"]


@pytest.mark.django_db(transaction=True)  # (on_commit runs: the move's transaction really commits)
def test_a_committed_move_is_answered_applied_even_when_a_follower_of_the_change_fails():
    """The dashboard's broadcast after the commit goes through Redis: with Redis down it raises,
    yet the move is committed, so the mover must hear "applied", never "nothing was applied"."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    from games.signals import match_changed

    def redis_is_down(**kwargs):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    match_changed.connect(redis_is_down, dispatch_uid="test-redis-is-down")
    try:
        applied = services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(1,))
    finally:
        match_changed.disconnect(dispatch_uid="test-redis-is-down")
    assert applied.seq == 1 and Match.objects.get(pk=match.pk).seq == 1
    assert list(match.actions.values_list("seq", flat=True)) == [0]


@pytest.mark.django_db(transaction=True)
def test_a_rest_move_is_answered_applied_when_the_channel_layer_is_unreachable(client):
    """Redis really unreachable (a port nothing listens on) as channel layer and as cache: the
    move is committed, the answer says so; pages and the match's state still answer (no 500)."""
    from django.test import override_settings

    from games.access import PARTICIPANT_IDS_KEY
    from tests.support.server import free_port

    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    session = client.session
    session[PARTICIPANT_IDS_KEY] = [1]
    session.save()
    nowhere = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]}}}
    no_cache = {"default": {"BACKEND": "core.cache.OutageTolerantRedisCache",
                            "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}}
    with override_settings(CHANNEL_LAYERS=nowhere, CACHES=no_cache):
        answer = client.post(f"/api/matches/{match.pk}/actions/", {"seq": 0, "action": {"squares": [1, 2]}},
                             content_type="application/json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["seq"] == 1 and Match.objects.get(pk=match.pk).seq == 1
        assert client.get(f"/api/matches/{match.pk}/").json()["seq"] == 1
        assert client.get("/join/").status_code == 200


def test_news_sent_without_waiting_from_a_database_thread_reaches_the_group_and_a_failure_is_only_logged(caplog):
    """``send_to_group(wait=False)`` from a consumer's trip to the database: the thread goes on at
    once, the process's event loop sends it; a layer that fails is logged, never raised."""
    import asyncio
    import time

    from asgiref.sync import sync_to_async
    from channels.layers import InMemoryChannelLayer

    from games.broadcast import send_to_group

    class Failing(InMemoryChannelLayer):
        async def group_send(self, group, message):
            raise ConnectionError("Redis is gone")

    class Slow(InMemoryChannelLayer):  # a busy Redis
        async def group_send(self, group, message):
            await asyncio.sleep(1)
            await super().group_send(group, message)

    async def scenario():
        layer = Slow()
        channel = await layer.new_channel()
        await layer.group_add("session.1", channel)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("games.broadcast.get_channel_layer", lambda: layer)
            started = time.monotonic()
            handed = await sync_to_async(send_to_group, thread_sensitive=False)(
                "session.1", {"type": "session.changed", "n": 1}, wait=False)
            assert time.monotonic() - started < 0.5  # the thread did not wait for the send
            heard = await asyncio.wait_for(layer.receive(channel), 3)
            patch.setattr("games.broadcast.get_channel_layer", lambda: Failing())
            failed = await sync_to_async(send_to_group, thread_sensitive=False)(
                "session.1", {"type": "session.changed", "n": 2}, wait=False)
            await asyncio.sleep(0.1)  # (the loop runs the send)
        return handed, heard, failed

    handed, heard, failed = asyncio.run(scenario())
    assert handed is True and heard["n"] == 1
    assert failed is True and "broadcast to session.1 failed" in caplog.text

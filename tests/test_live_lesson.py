"""The first real lesson, service level: removing a student, the live
dashboard's data and announcements, the end of a session, the event log rebuilt from the log."""
from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from classrooms import consumers as session_consumers
from classrooms import selectors, services
from classrooms.broadcast import session_group
from classrooms.models import Participant
from games import services as match_services
from games.bots import bot_levels
from games.broadcast import match_group
from games.engines import get_game
from games.models import Action, Match, Seat
from games.selectors import current_state, events_for
from games.snapshot import seats_summary

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_memory_layer(settings):
    """These tests read the layer from the test thread: the in-memory layer, whatever the run uses
    (the Redis layer's queues belong to one event loop, and every ``async_to_sync`` makes another)."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()




def joined(session, *names) -> dict[str, Client]:
    browsers = {}
    for name in names:
        browser = Client()
        response = browser.post(reverse("classrooms:join"), {"code": session.join_code, "name": name})
        assert response.status_code == 302
        browsers[name] = browser
    return browsers


def student(name: str) -> Participant:
    return Participant.objects.get(display_name=name)


def listen(group: str):
    """A channel of the in-memory layer added to ``group``; returns a function reading its messages."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)

    def received() -> list[dict]:
        messages = []
        while True:
            try:
                messages.append(async_to_sync(_receive_now)(layer, channel))
            except TimeoutError:
                return messages
    return received


async def _receive_now(layer, channel):
    import asyncio

    return await asyncio.wait_for(layer.receive(channel), 0.05)


# ---------------------------------------------------------------- removing a student

def test_a_removed_student_is_never_seated_again_by_auto_pair_the_waiting_list_or_by_hand(session):
    joined(session, "Ada", "Bo", "Cy")
    services.remove_participant(session, student("Ada").pk)
    assert [p.display_name for p in services.waiting_participants(session)] == ["Bo", "Cy"]
    tables = services.auto_pair(session)
    assert len(tables) == 1  # Bo and Cy: Ada, removed, is not put at a table with a bot
    seated = set(Seat.objects.exclude(participant_id=None).values_list("participant_id", flat=True))
    assert student("Ada").pk not in seated
    services.start_all(session)
    Match.objects.update(status=Match.Status.FINISHED)  # their game is over: everyone waits again
    assert [p.display_name for p in services.waiting_participants(session)] == ["Bo", "Cy"]
    services.auto_pair(session)
    assert student("Ada").pk not in set(Seat.objects.values_list("participant_id", flat=True))
    with pytest.raises(services.SessionError, match="not in this session"):
        services.seat_table(session, [student("Ada")], bots=1)
    # the dashboard's "seat selected together" command as well
    refused = session_consumers._command(session.pk, {"type": "seat_table", "participants": [student("Ada").pk],
                                                      "bots": 1})
    assert refused and refused.code == "bad_table"


def test_a_removed_students_browser_cannot_join_again_under_another_name(session):
    browsers = joined(session, "Ada", "Bo")
    services.remove_participant(session, student("Ada").pk)
    again = browsers["Ada"].post(reverse("classrooms:join"), {"code": session.join_code, "name": "Ada2"}, follow=True)
    assert again.status_code == 200  # the lobby of the removed student, which follows the teacher's answer
    assert "Your teacher removed you from this session." in again.content.decode()
    assert not Participant.objects.filter(display_name="Ada2").exists()
    assert services.find_joinable(session.join_code) is not None  # others still join
    joined(session, "Cy")


def test_the_removed_students_seat_reads_bot_was_their_name_on_every_page(session):
    browsers = joined(session, "Ada", "Bo")
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get()
    services.remove_participant(session, student("Ada").pk)
    seat = Seat.objects.get(match=match, name="Ada")
    assert seat.participant_id is None and seat.former_participant_id == student("Ada").pk
    names = {s["name"] for s in seats_summary(match.seats.all())}
    assert names == {"Bo", "Bot (was Ada)"}
    table = selectors.dashboard_payload(session)["tables"][0]
    assert {s["name"] for s in table["seats"]} == {"Bo", "Bot (was Ada)"}
    page = browsers["Bo"].get(reverse("games:play", args=[match.pk]))
    assert page.status_code == 200
    api = browsers["Bo"].get(f"/api/matches/{match.pk}/").json()
    assert {s["name"] for s in api["seats"]} == {"Bo", "Bot (was Ada)"}
    match.refresh_from_db()
    if match.status != Match.Status.FINISHED:
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    replay = browsers["Bo"].get(reverse("games:replay", args=[match.pk])).content.decode()
    assert "Bot (was Ada)" in replay


def test_removal_hands_only_the_game_in_play_to_a_bot_a_finished_game_stays_the_students(session):
    """Removed in round 2 and let back in: the round-1 game (over) is still theirs — its seat,
    its points in the standings, its replay in their lobby; only the game in play went to a bot."""
    from classrooms.standings import records
    from tests.support.rounds import play_out

    joined(session, "Ada", "Bo")
    services.auto_pair(session)
    services.start_all(session)
    first = Match.objects.get()
    play_out(first.pk)
    services.auto_pair(session)
    services.start_all(session)
    second = Match.objects.exclude(pk=first.pk).get()
    assert second.status == Match.Status.PLAYING
    services.remove_participant(session, student("Ada").pk)
    assert Seat.objects.get(match=first, name="Ada").participant_id == student("Ada").pk
    lost = Seat.objects.get(match=second, former_participant_id=student("Ada").pk)
    assert lost.bot and lost.participant_id is None
    services.readmit(session, student("Ada").pk)
    assert records(session)[student("Ada").pk].played == 1
    session.status = session.Status.ENDED
    session.save(update_fields=["status"])
    replays = selectors.lobby_payload(session, student("Ada"))["replays"]
    assert [r["url"] for r in replays] == [reverse("games:replay", args=[first.pk])]


def test_reloading_a_page_after_removal_shows_the_apps_own_clear_page(session):
    browsers = joined(session, "Ada", "Bo")
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get()
    services.remove_participant(session, student("Ada").pk)
    for url in (reverse("games:play", args=[match.pk]), reverse("classrooms:lobby", args=[session.pk]),
                reverse("games:replay", args=[match.pk])):
        page = browsers["Ada"].get(url)
        assert page.status_code == 403, url
        assert "Your teacher removed you from this session." in page.content.decode()
    # a stranger still gets a plain "not found"
    assert Client().get(reverse("games:play", args=[match.pk])).status_code == 404


def test_removal_closes_the_students_match_sockets_and_names_the_bot_on_waiting_tables(
        session, django_capture_on_commit_callbacks):
    joined(session, "Ada", "Bo")
    services.auto_pair(session)  # not started: the table waits
    match = Match.objects.get()
    received = listen(match_group(match.pk))
    with django_capture_on_commit_callbacks(execute=True):
        services.remove_participant(session, student("Ada").pk)
    messages = received()
    lost = [m for m in messages if m["type"] == "match.seat_lost"]
    assert lost == [{"type": "match.seat_lost", "participant": student("Ada").pk}]
    changed = [m for m in messages if m["type"] == "match.changed"]
    assert changed and {s["name"] for s in changed[0]["snapshot"]["seats"]} == {"Bo", "Bot (was Ada)"}


# ---------------------------------------------------------------- the live dashboard

def test_the_dashboard_shows_roster_states_and_who_is_to_act(session):
    joined(session, "Ada", "Bo", "Cy", "Dee")
    services.seat_table(session, [student("Ada"), student("Bo")])
    services.seat_table(session, [student("Cy"), student("Dee")])
    payload = selectors.dashboard_payload(session)
    assert {p["name"]: p["state"] for p in payload["participants"]} == {
        "Ada": "seated", "Bo": "seated", "Cy": "seated", "Dee": "seated"}
    services.start_all(session)
    services.remove_participant(session, student("Dee").pk)
    Match.objects.filter(seats__participant_id=student("Ada").pk).update(status=Match.Status.FINISHED)
    payload = selectors.dashboard_payload(session)
    states = {p["name"]: p["state"] for p in payload["participants"]}
    assert states == {"Ada": "finished", "Bo": "finished", "Cy": "playing", "Dee": "removed"}
    playing = next(t for t in payload["tables"] if t["status"] == "playing")
    match = Match.objects.get(pk=playing["match"])
    assert playing["to_act"] == get_game(match.game).to_act(current_state(match))
    assert playing["to_act"]  # someone is awaited
    assert next(t for t in payload["tables"] if t["status"] == "finished")["to_act"] == []


def test_a_move_is_announced_to_the_dashboard_only_and_the_end_of_a_game_to_everyone(
        session, django_capture_on_commit_callbacks):
    joined(session, "Ada", "Bo")
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get()
    received = listen(session_group(session.pk, teachers=True))  # the dashboard and projector
    lobbies = listen(session_group(session.pk))  # every socket of the session
    with django_capture_on_commit_callbacks(execute=True):
        state = current_state(match)
        seat = get_game(match.game).to_act(state)[0]
        action = get_game(match.game).legal_actions(state, seat)[0]
        match_services.submit_action(match.pk, seat, match.seq, action)
    got = received()  # (with the match's snapshot, for the dashboards in other processes)
    assert [{k: v for k, v in m.items() if k != "snapshot"} for m in got] == [
        {"type": "session.changed", "teacher_only": True}]
    assert lobbies() == []  # not woken for a move
    assert got[0]["snapshot"]["seq"] == 1 and got[0]["snapshot"]["match"] == match.pk
    # play on (first legal actions) to the end: the last move is announced to the lobbies too
    announced = []
    for _ in range(40):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        state = current_state(match)
        seat = get_game(match.game).to_act(state)[0]
        with django_capture_on_commit_callbacks(execute=True):
            match_services.submit_action(match.pk, seat, match.seq,
                                         get_game(match.game).legal_actions(state, seat)[0])
        announced = received() + lobbies()
    assert match.status == Match.Status.FINISHED
    assert [{k: v for k, v in m.items() if k != "snapshot"} for m in announced] == [
        {"type": "session.changed", "teacher_only": False}]  # (once: to everyone's group)


def test_ending_the_session_tells_the_game_pages_and_lists_the_students_replays(
        session, django_capture_on_commit_callbacks):
    joined(session, "Ada", "Bo")
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get()
    state = current_state(match)
    seat = get_game(match.game).to_act(state)[0]
    match_services.submit_action(match.pk, seat, match.seq, get_game(match.game).legal_actions(state, seat)[0])
    received = listen(match_group(match.pk))
    with django_capture_on_commit_callbacks(execute=True):
        services.set_status(session, "ended")
    assert [m["type"] for m in received()] == ["match.changed"]
    lobby = selectors.lobby_payload(session, student("Ada"))
    assert lobby["status"] == "ended"
    assert lobby["replays"] == [{"table": "Table 1", "status": "abandoned",
                                 "url": reverse("games:replay", args=[match.pk])}]
    assert selectors.dashboard_payload(session)["session"]["join_code"] is None


# ---------------------------------------------------------------- the event log

def bots_only_poker_with_a_private_event(teacher=None) -> Match:
    """A QuantumPoker match played by bots to the end whose log holds an event for one seat only."""
    level = next(iter(bot_levels("quantum-poker")))
    for seed in range(1, 80):
        match = match_services.create_match("quantum-poker", [match_services.SeatHolder("A", bot=level),
                                                              match_services.SeatHolder("B", bot=level)],
                                            variant="classic", seed=seed, teacher=teacher)
        match_services.start_match(match.pk)
        if any("visible_to" in e for a in Action.objects.filter(match=match) for e in a.events):
            return Match.objects.get(pk=match.pk)
    raise AssertionError("no private event in 80 seeds")


def test_the_rebuilt_event_log_holds_only_what_each_seat_may_see():
    from games.selectors import event_history

    match = bots_only_poker_with_a_private_event()
    stored = [e for a in match.actions.order_by("seq") for e in a.events]
    private = [e for e in stored if "visible_to" in e]
    owner = private[0]["visible_to"][0]
    other = 1 - owner
    public = [e for e in stored if "visible_to" not in e]
    assert event_history(match, None) == public  # teacher, spectators
    mine = event_history(match, owner)
    assert mine == events_for(stored, owner) and private[0] in mine
    theirs = event_history(match, other)
    assert private[0] not in theirs and theirs == events_for(stored, other)


def test_a_watch_socket_opened_late_starts_with_the_public_log():
    from games.consumers import _open

    teacher = User.objects.create_user("ms-noether", password="symmetry-1918-Emmy")
    match = bots_only_poker_with_a_private_event(teacher)
    access, payload, _enforced = _open(match.pk, teacher, {})
    assert access.is_teacher and access.view_seat is None
    stored = [e for a in match.actions.order_by("seq") for e in a.events]
    assert payload["history"] == [e for e in stored if "visible_to" not in e]
    assert len(payload["history"]) < len(stored)

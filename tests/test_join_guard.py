"""Joining under attack: wrong codes cannot lock a school out of its class, and a session filled
by a script has the teacher's defences (the waiting room, removing the last N minutes' joins, the
lock, the burst shown on the dashboard)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classrooms import cards, selectors, services, standings
from classrooms import consumers as session_consumers
from classrooms.broadcast import session_group
from classrooms.models import ClassSession, Participant
from games.models import Seat

pytestmark = pytest.mark.django_db

SCHOOL = "203.0.113.7"  # one NAT address for the whole school


def browser(address: str = SCHOOL, n: int = 0) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.cookies["csrftoken"] = f"browser{n:04}".ljust(32, "x")  # a well-formed CSRF secret of its own
    return client


def join(client: Client, code: str, name: str = "", card: str = ""):
    return client.post(reverse("classrooms:join"), {"code": code, "name": name, "card": card})


def command(session, **message) -> None:
    error = session_consumers._command(session.pk, message)
    assert error is None, error and error.message


def states(session) -> dict[str, str]:
    return {row["name"]: row["state"] for row in selectors.dashboard_payload(session)["participants"]}


# ---------------------------------------------------------------- lock-outs as a weapon

def test_sixty_wrong_codes_from_the_schools_address_do_not_lock_out_its_students(classroom, session):
    cards.set_cards_enabled(classroom, True)
    [ana] = cards.add_members(classroom, "Ana")
    for i in range(60):  # a prankster on the school's network, a new cookie each time
        join(browser(n=1000 + i), f"WRONG{i % 9 + 1}", "x")
    slowed = join(browser(n=2000), "WRONG7", "x")
    assert slowed.status_code == 429 and "Slow down" in slowed.content.decode()  # wrong codes: slowed down
    for i in range(25):  # the honest students behind the same address still join
        assert join(browser(n=i), session.join_code, f"Student {i}").status_code == 302
    assert join(browser(n=99), session.join_code, card=ana.card_code).status_code == 302  # and cards work
    prankster = browser(n=1000)
    for _ in range(12):
        join(prankster, "WRONG9", "x")
    assert join(prankster, session.join_code, "Late but right").status_code == 302  # never a correct code
    assert session.participants.count() == 27


def test_a_browser_that_guessed_too_many_cards_is_slowed_down_on_cards_only(classroom, session, settings):
    cards.set_cards_enabled(classroom, True)
    settings.JOIN_WRONG_CODES_PER_MINUTE = 3
    guesser = browser(n=1)
    for _ in range(3):
        assert join(guesser, session.join_code, card="AAAA-AAAA").status_code == 403
    assert join(guesser, session.join_code, card="AAAA-AAAB").status_code == 429
    assert join(browser(n=2), session.join_code, card="AAAA-AAAB").status_code == 403  # its neighbour is not
    assert join(guesser, session.join_code, "Eve").status_code == 302  # a name with the right code joins


# ---------------------------------------------------------------- the waiting room

def test_students_in_the_waiting_room_wait_unpaired_unseated_unranked_until_let_in(classroom):
    session = services.open_session(classroom, "quantum-tictactoe", waiting_room=True)
    clients = {name: browser(n=i) for i, name in enumerate(["Ada", "Bo", "Cy", "Eve"])}
    for name, client in clients.items():
        assert join(client, session.join_code, name).status_code == 302
    assert set(states(session).values()) == {"waiting"}
    page = clients["Ada"].get(reverse("classrooms:lobby", args=[session.pk]))
    assert page.status_code == 200 and "wait for your teacher to let you in" in page.content.decode()
    assert services.auto_pair(session) == []  # nobody to pair
    with pytest.raises(services.SessionError, match="waiting room"):
        services.seat_table(session, [Participant.objects.get(display_name="Ada")], bots=1)
    with pytest.raises(services.SessionError, match="No student to pair"):
        services.next_round(session)
    assert standings.session_standings(session)["students"] == []
    assert selectors.screen_payload(session)["joined"] == 0

    ada, bo, eve = (Participant.objects.get(display_name=n) for n in ("Ada", "Bo", "Eve"))
    command(session, type="admit", participants=[ada.pk, bo.pk])  # some, with one click
    command(session, type="turn_away", participants=[eve.pk])
    assert states(session) == {"Ada": "joined", "Bo": "joined", "Cy": "waiting", "Eve": "removed"}
    lobby = session_consumers._payload(session.pk, False, ada.pk)
    assert not lobby.get("waiting_room") and not lobby["removed"]
    assert session_consumers._payload(session.pk, False, eve.pk)["removed"]
    [table] = services.auto_pair(session)
    assert set(Seat.objects.filter(match_id=table.match_id).values_list("participant_id", flat=True)) == {ada.pk, bo.pk}
    assert [r["name"] for r in standings.session_standings(session)["students"]] == ["Ada", "Bo"]
    command(session, type="admit", participants="all")  # everyone left
    assert states(session)["Cy"] == "joined"


def test_the_waiting_room_is_a_session_setting_and_bad_commands_change_nothing(session):
    command(session, type="waiting_room", on=True)
    session.refresh_from_db()
    assert session.waiting_room and selectors.dashboard_payload(session)["session"]["waiting_room"]
    join(browser(n=1), session.join_code, "Ada")
    for bad in ({"type": "waiting_room", "on": "yes"}, {"type": "admit"}, {"type": "admit", "participants": [1.5]},
                {"type": "admit", "participants": [10**9]}, {"type": "turn_away", "participants": "some"}):
        error = session_consumers._command(session.pk, bad)
        assert error is not None and error.message
    assert states(session) == {"Ada": "waiting"}
    command(session, type="waiting_room", on=False)  # off: new students come straight in, Ada still waits
    join(browser(n=2), session.join_code, "Bo")
    assert states(session) == {"Ada": "waiting", "Bo": "joined"}


def test_letting_a_student_in_reaches_their_lobby_socket(session, settings, django_capture_on_commit_callbacks):
    """The lobby's socket is in the session's group: letting the student in is news there, and
    what the socket then sends (``_payload``) is the lobby without the waiting room."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    try:
        services.set_waiting_room(session, True)
        join(browser(n=1), session.join_code, "Ada")
        ada = Participant.objects.get()
        assert session_consumers._payload(session.pk, False, ada.pk)["waiting_room"]
        layer = get_channel_layer()
        channel = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(session_group(session.pk), channel)
        with django_capture_on_commit_callbacks(execute=True):
            command(session, type="admit", participants=[ada.pk])
        assert async_to_sync(layer.receive)(channel)["type"] == "session.changed"
        assert not session_consumers._payload(session.pk, False, ada.pk).get("waiting_room")
    finally:
        channel_layers.backends.clear()


def test_the_api_admits_and_turns_away_for_the_owning_teacher_only(classroom, django_user_model):
    session = services.open_session(classroom, "quantum-tictactoe", waiting_room=True)
    join(browser(n=1), session.join_code, "Ada")
    ada = Participant.objects.get()
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("other", password="pw-12345678"))
    url = f"/api/sessions/{session.pk}/admit/"
    assert stranger.post(url, {"participants": [ada.pk]}, content_type="application/json").status_code == 404
    teacher = Client()
    teacher.force_login(classroom.teacher)
    bad = teacher.post(url, {"participants": "everyone"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["message"]
    assert teacher.post(url, {"participants": "all"}, content_type="application/json").status_code == 200
    ada.refresh_from_db()
    assert ada.admitted
    created = teacher.post("/api/sessions/", {"classroom": classroom.pk, "game": "quantum-tictactoe",
                                              "waiting_room": True}, content_type="application/json")
    assert created.status_code == 201 and ClassSession.objects.get(pk=created.json()["id"]).waiting_room


# ---------------------------------------------------------------- a session filled by a script

def test_remove_everyone_who_joined_in_the_last_minutes_frees_the_places(classroom):
    session = services.open_session(classroom, "quantum-tictactoe", max_participants=31)
    cards.set_cards_enabled(classroom, True)
    [ana] = cards.add_members(classroom, "Ana")
    for i in range(5):
        join(browser(n=i), session.join_code, f"Student {i}")
    Participant.objects.update(joined_at=timezone.now() - timedelta(minutes=20))  # the class, earlier
    join(browser(n=50), session.join_code, card=ana.card_code)  # a card holder, just now
    for i in range(25):  # a script with the real code, a new cookie each time
        join(browser("198.51.100.9", 100 + i), session.join_code, f"Fake {i}")
    refused = join(browser(n=98), session.join_code, "Honest latecomer")
    assert refused.status_code == 403 and "full" in refused.content.decode()
    payload = selectors.dashboard_payload(session)
    now = payload["now_ms"]
    recent = [p for p in payload["participants"] if p["joined_ms"] > now - 60_000 and not p["card"]]
    assert len(recent) == 25 >= payload["burst"]["per_minute"]  # the dashboard shows the burst

    table = services.seat_table(session, list(Participant.objects.filter(display_name__in=["Fake 0", "Fake 1"])))
    command(session, type="remove_recent", minutes=2)
    left = {name for name, state in states(session).items() if state != "removed"}
    assert left == {"Student 0", "Student 1", "Student 2", "Student 3", "Student 4", "Ana"}
    assert not Seat.objects.filter(match_id=table.match_id, participant_id__isnull=False).exists()  # bots sit there
    assert join(browser(n=98), session.join_code, "Honest latecomer").status_code == 302  # the places are free
    error = session_consumers._command(session.pk, {"type": "remove_recent", "minutes": 0})
    assert error.code == "bad_minutes"
    assert session_consumers._command(session.pk, {"type": "remove_recent", "minutes": "5"}).code == "bad_minutes"


def test_the_lock_stops_new_joins_but_not_a_removed_students_request(session):
    first = browser(n=1)
    join(first, session.join_code, "Zoë")
    services.remove_participant(session, Participant.objects.get().pk)
    command(session, type="lock")
    refused = join(browser(n=2), session.join_code, "Newcomer")
    assert refused.status_code == 403 and "locked" in refused.content.decode()
    assert join(browser(n=3), session.join_code, "Zoë").status_code == 302  # asks to come back
    assert Participant.objects.get().comeback == Participant.Comeback.NEW
    assert Participant.objects.count() == 1

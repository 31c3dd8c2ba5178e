"""One student stays one student: a class card takes over the same member's name join, a removed
student coming back (same browser or a fresh one, by name or card) stays removed and asks the
teacher, and the teacher merges two rows of one student (seats, moves, results, browsers)."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from classrooms import cards, selectors, services, standings
from classrooms import consumers as session_consumers
from classrooms.models import Participant
from games import services as match_services
from games.models import Match, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def carded(classroom):
    cards.set_cards_enabled(classroom, True)
    return classroom


def join(client: Client, code: str, name: str = "", card: str = ""):
    return client.post(reverse("classrooms:join"), {"code": code, "name": name, "card": card})


def rows(session) -> list[dict]:
    return selectors.dashboard_payload(session)["participants"]


def names(session) -> list[str]:
    return [row["name"] for row in rows(session)]


def lobby_of(client: Client, session):
    return client.get(reverse("classrooms:lobby", args=[session.pk]))


def play_to_the_end(match_id: int) -> None:
    from games.engines import get_game
    from games.selectors import current_state

    match = Match.objects.get(pk=match_id)
    game = get_game(match.game)
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return
        state = current_state(match)
        seat = game.to_act(state)[0]
        match_services.submit_action(match.pk, seat, match.seq, game.legal_actions(state, seat)[0])


# ---------------------------------------------------------------- a card takes over a name join

def test_a_card_join_takes_over_the_same_members_name_join_with_its_seats_and_games(carded, session):
    [ana] = cards.add_members(carded, "Ana María")
    laptop, phone, other = Client(), Client(), Client()
    assert join(laptop, session.join_code, "ana maría").status_code == 302  # forgot the card
    assert join(other, session.join_code, "Bo").status_code == 302
    name_join = Participant.objects.get(display_name="ana maría")
    [table] = services.auto_pair(session)
    services.start_all(session)

    assert join(phone, session.join_code, card=ana.card_code).status_code == 302
    assert names(session) == ["Ana María", "Bo"]  # not "Ana María 2": one row, named as on the card
    took = Participant.objects.get(member=ana, session=session)
    assert took.pk == name_join.pk  # the same participant: the same seat at the same game
    assert Seat.objects.get(match_id=table.match_id, participant_id=took.pk).name == "Ana María"
    assert lobby_of(phone, session).status_code in (200, 302)
    for browser in (laptop, phone):  # both browsers are her, at her table
        assert services.returning_participant(session, browser.session).pk == took.pk


def test_a_name_join_with_the_name_of_a_card_member_already_in_the_session_is_refused(carded, session):
    [ana] = cards.add_members(carded, "Ana")
    assert join(Client(), session.join_code, card=ana.card_code).status_code == 302
    refused = join(Client(), session.join_code, "ANA")
    assert refused.status_code == 403 and "class card" in refused.content.decode()
    assert names(session) == ["Ana"]


# ---------------------------------------------------------------- a removed student comes back

def test_a_removed_student_back_from_a_fresh_browser_stays_removed_and_asks_to_come_back(session):
    first = Client()
    join(first, session.join_code, "Zoë")
    zoe = Participant.objects.get()
    services.remove_participant(session, zoe.pk)

    fresh = Client()
    asked = join(fresh, session.join_code, "zoë")
    assert asked.status_code == 302
    assert Participant.objects.count() == 1  # no "Zoë 2"
    page = lobby_of(fresh, session)
    assert page.status_code == 200 and "asked them to let you back in" in page.content.decode()
    [row] = rows(session)
    assert (row["name"], row["state"], row["comeback"]) == ("Zoë", "removed", "new")  # "from another browser"
    assert services.playing_participants(session).count() == 0

    services.readmit(session, zoe.pk)  # the teacher lets her in: the fresh browser is Zoë
    assert services.returning_participant(session, fresh.session).pk == zoe.pk
    assert lobby_of(fresh, session).status_code == 200
    assert [r["comeback"] for r in rows(session)] == [""]


def test_the_teacher_can_say_no_and_a_refused_student_does_not_ask_again(session):
    browser = Client()
    join(browser, session.join_code, "Zoë")
    zoe = Participant.objects.get()
    services.remove_participant(session, zoe.pk)
    join(browser, session.join_code, "Another name")  # the same browser, any name: the same request
    zoe.refresh_from_db()
    assert zoe.comeback == Participant.Comeback.SAME and Participant.objects.count() == 1
    assert session_consumers._command(session.pk, {"type": "refuse_comeback", "participant": zoe.pk}) is None
    join(Client(), session.join_code, "Zoë")
    zoe.refresh_from_db()
    assert zoe.comeback == Participant.Comeback.REFUSED and zoe.removed
    page = lobby_of(browser, session)
    assert page.status_code == 403 and "has not let you back in" in page.content.decode()
    bad = session_consumers._command(session.pk, {"type": "refuse_comeback", "participant": zoe.pk})
    assert bad is not None and bad.code == "no_request"
    assert session_consumers._command(session.pk, {"type": "refuse_comeback", "participant": "x"}).code == "bad_message"


def test_a_removed_card_member_asks_to_come_back_instead_of_joining_again(carded, session):
    [zoe] = cards.add_members(carded, "Zoë")
    join(Client(), session.join_code, card=zoe.card_code)
    participant = Participant.objects.get()
    services.remove_participant(session, participant.pk)
    assert join(Client(), session.join_code, card=zoe.card_code).status_code == 302
    participant.refresh_from_db()
    assert participant.removed and participant.comeback == Participant.Comeback.NEW
    assert Participant.objects.count() == 1


def test_the_lobby_socket_of_a_student_asking_to_come_back_stays_open_for_the_answer(session):
    browser = Client()
    join(browser, session.join_code, "Zoë")
    zoe = Participant.objects.get()
    services.remove_participant(session, zoe.pk)
    plain = session_consumers._payload(session.pk, False, zoe.pk)
    assert plain["removed"] and not plain["comeback"]  # the socket closes on this one
    join(browser, session.join_code, "Zoë")
    asking = session_consumers._payload(session.pk, False, zoe.pk)
    assert asking["removed"] and asking["comeback"]  # ...and stays open on this one
    services.readmit(session, zoe.pk)
    assert not session_consumers._payload(session.pk, False, zoe.pk)["removed"]


# ---------------------------------------------------------------- merging two rows

def test_merging_moves_seats_moves_results_and_the_browser_to_the_kept_row(session):
    sam_laptop, sam_phone, bo, cy = Client(), Client(), Client(), Client()
    join(sam_laptop, session.join_code, "Sam")
    join(bo, session.join_code, "Bo")
    sam, bo_p = Participant.objects.get(display_name="Sam"), Participant.objects.get(display_name="Bo")
    table = services.seat_table(session, [sam, bo_p])
    services.start_all(session)
    play_to_the_end(table.match_id)
    join(sam_phone, session.join_code, "Sam")  # a fresh browser: another row
    join(cy, session.join_code, "Cy")
    sam2 = Participant.objects.get(display_name="Sam 2")
    cy_p = Participant.objects.get(display_name="Cy")
    second = services.seat_table(session, [sam2, cy_p])  # "Sam 2" plays on; "Sam" (finished) has no live seat
    services.start_all(session)

    error = session_consumers._command(session.pk, {"type": "merge", "participant": sam2.pk, "into": sam.pk})
    assert error is None
    assert names(session) == ["Sam", "Bo", "Cy"]  # one row per person
    assert Seat.objects.get(match_id=second.match_id, participant_id=sam.pk).name == "Sam"
    assert not Seat.objects.filter(participant_id=sam2.pk).exists()
    # the first game's result stays his, the second table is his now (and its moves with it)
    [row] = [r for r in standings.session_standings(session)["students"] if r["name"] == "Sam"]
    assert row["played"] == 1
    assert services.seated_participant_ids(session) >= {sam.pk}
    # the phone's lobby socket is told to go to the lobby, whose page makes the phone "Sam"
    assert session_consumers._payload(session.pk, False, sam2.pk)["moved"]
    page = lobby_of(sam_phone, session)
    assert page.status_code == 302 and page.url == reverse("games:play", args=[second.match_id])
    assert services.returning_participant(session, sam_phone.session).pk == sam.pk
    assert sam_phone.get(page.url).status_code == 200  # he plays on at his table from the phone


def test_merging_is_refused_when_both_have_live_seats_or_met_and_bad_input_changes_nothing(session):
    browsers = {name: Client() for name in ("Sam", "Sam 2", "Bo", "Cy")}
    for name, client in browsers.items():
        join(client, session.join_code, name)
    sam, sam2, bo, cy = (Participant.objects.get(display_name=n) for n in ("Sam", "Sam 2", "Bo", "Cy"))
    t1 = services.seat_table(session, [sam, bo])
    t2 = services.seat_table(session, [sam2, cy])
    before = list(Seat.objects.order_by("pk").values_list("pk", "participant_id", "name"))

    live = session_consumers._command(session.pk, {"type": "merge", "participant": sam2.pk, "into": sam.pk})
    assert live.code == "merge_live"
    assert f"Table {t1.number}" in live.message and f"Table {t2.number}" in live.message
    met = session_consumers._command(session.pk, {"type": "merge", "participant": bo.pk, "into": sam.pk})
    assert met.code == "bad_merge" and "same table" in met.message
    for bad in ({"type": "merge", "participant": sam2.pk}, {"type": "merge", "participant": "1", "into": sam.pk},
                {"type": "merge", "participant": sam.pk, "into": sam.pk},
                {"type": "merge", "participant": sam2.pk, "into": 10**9}):
        assert session_consumers._command(session.pk, bad) is not None
    assert list(Seat.objects.order_by("pk").values_list("pk", "participant_id", "name")) == before
    assert Participant.objects.filter(merged_into__isnull=False).count() == 0
    assert len(rows(session)) == 4


def test_merge_over_the_api_needs_the_owning_teacher(session, django_user_model):
    for name in ("Sam", "Sam 2"):
        join(Client(), session.join_code, name)
    sam, sam2 = Participant.objects.get(display_name="Sam"), Participant.objects.get(display_name="Sam 2")
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("other", password="pw-12345678"))
    url = f"/api/sessions/{session.pk}/merge/"
    body = {"participant": sam2.pk, "into": sam.pk}
    assert stranger.post(url, body, content_type="application/json").status_code == 404
    owner = Client()
    owner.force_login(session.classroom.teacher)
    bad = owner.post(url, {"participant": sam2.pk, "into": "x"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["message"]
    done = owner.post(url, body, content_type="application/json")
    assert done.status_code == 200 and [p["name"] for p in done.json()["participants"]] == ["Sam"]


def test_deleting_a_member_deletes_the_rows_merged_into_theirs(carded, session):
    [ana] = cards.add_members(carded, "Ana")
    join(Client(), session.join_code, card=ana.card_code)
    join(Client(), session.join_code, "Annie")
    kept, alias = Participant.objects.get(member=ana), Participant.objects.get(display_name="Annie")
    services.merge_participants(session, alias.pk, kept.pk)
    cards.delete_member(ana)
    assert not Participant.objects.filter(pk__in=[kept.pk, alias.pk]).exists()

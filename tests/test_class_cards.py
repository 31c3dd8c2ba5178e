"""Class cards: a class's roster of nicknames with cards, joining with a card, re-issue,
and a member's data rights (deletion leaves nothing of them; retention covers members)."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classrooms import cards, services
from classrooms.models import ClassMember, Classroom, Participant
from classrooms.retention import purge_expired
from games import services as match_services
from games.access import PARTICIPANT_IDS_KEY
from games.models import Action, Match, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def carded(classroom):
    cards.set_cards_enabled(classroom, True)
    return classroom


def card_join(client, code, card, name=""):
    return client.post(reverse("classrooms:join"), {"code": code, "card": card, "name": name})


def teacher_client(classroom) -> Client:
    client = Client()
    client.force_login(classroom.teacher)
    return client


def test_card_codes_are_two_groups_of_unambiguous_characters():
    drawn = {cards.new_card_code() for _ in range(200)}
    assert len(drawn) == 200
    for code in drawn:
        assert len(code) == 9 and code[4] == "-"
        assert not set(code.replace("-", "")) & set("0O1IL")
    assert cards.card_hash("k7qh m3wx") == cards.card_hash("K7QH-M3WX")


def test_the_teacher_turns_cards_on_and_adds_nicknames(carded):
    client = teacher_client(carded)
    page = client.get(reverse("classrooms:classroom", args=[carded.pk])).content.decode()
    assert "Nicknames, one a line" in page
    client.post(reverse("classrooms:members-add", args=[carded.pk]), {"nicknames": "Ada\n\n  Bo  \nCy"})
    members = list(ClassMember.objects.filter(classroom=carded).order_by("nickname"))
    assert [m.nickname for m in members] == ["Ada", "Bo", "Cy"]
    assert len({m.card_code for m in members}) == 3
    assert all(m.card_code_hash == cards.card_hash(m.card_code) and m.card_code not in m.card_code_hash
               for m in members)
    # the print page has every card with a QR code of a join link carrying the card
    page = client.get(reverse("classrooms:cards", args=[carded.pk])).content.decode()
    for m in members:
        assert m.nickname in page and m.card_code in page
    assert page.count("<svg") >= 3 and "@media print" not in page  # the print rules are in app.css


def test_cards_are_off_until_the_teacher_turns_them_on(classroom):
    client = teacher_client(classroom)
    client.post(reverse("classrooms:members-add", args=[classroom.pk]), {"nicknames": "Ada"})
    assert not ClassMember.objects.exists()
    client.post(reverse("classrooms:cards-enable", args=[classroom.pk]), {"enabled": "1"})
    classroom.refresh_from_db()
    assert classroom.cards_enabled


@pytest.mark.parametrize("typed, reason", [
    ("Ada\nBo\nada", "twice in the list"),
    ("Ada\n!!!", "at least one letter"),
    ("Ada\n" + "x" * 30, "at most 20"),
    ("", "at least one nickname"),
])
def test_bad_nicknames_are_refused_and_nothing_is_half_added(carded, typed, reason):
    with pytest.raises(services.AppError, match=reason):
        cards.add_members(carded, typed)
    assert not ClassMember.objects.exists()


def test_a_nickname_already_in_the_class_is_refused(carded):
    cards.add_members(carded, "Ada")
    client = teacher_client(carded)
    response = client.post(reverse("classrooms:members-add", args=[carded.pk]), {"nicknames": "Bo\nADA"}, follow=True)
    assert "already in the class" in response.content.decode()
    assert list(ClassMember.objects.values_list("nickname", flat=True)) == ["Ada"]


def test_a_card_on_two_browsers_is_the_same_member_and_participant(carded, session):
    (ada,) = cards.add_members(carded, "Ada")
    phone, laptop = Client(), Client()
    assert card_join(phone, session.join_code, ada.card_code).status_code == 302
    assert card_join(laptop, session.join_code, ada.card_code.lower().replace("-", " ")).status_code == 302
    participant = Participant.objects.get()
    assert participant.member == ada and participant.display_name == "Ada"
    for browser in (phone, laptop):  # both browsers keep working
        assert browser.get(reverse("classrooms:lobby", args=[session.pk])).status_code == 200
    # the next lesson: the same member again
    later = services.open_session(carded, "quantum-tictactoe")
    card_join(Client(), later.join_code, ada.card_code)
    assert set(Participant.objects.values_list("member", flat=True)) == {ada.pk}
    assert Participant.objects.filter(session=later, member=ada).exists()


def test_a_card_of_another_class_is_refused(carded, session, teacher_user):
    other = Classroom.objects.create(teacher=teacher_user, name="9B", cards_enabled=True)
    (stranger,) = cards.add_members(other, "Eve")
    response = card_join(Client(), session.join_code, stranger.card_code)
    assert response.status_code == 403 and "does not belong to this class" in response.content.decode()
    assert not Participant.objects.exists()


def test_a_reissued_card_replaces_the_old_one(carded, session):
    (ada,) = cards.add_members(carded, "Ada")
    old = ada.card_code
    teacher_client(carded).post(reverse("classrooms:member-reissue", args=[carded.pk, ada.pk]))
    ada.refresh_from_db()
    assert ada.card_code != old
    assert card_join(Client(), session.join_code, old).status_code == 403
    assert not Participant.objects.exists()
    assert card_join(Client(), session.join_code, ada.card_code).status_code == 302


def test_wrong_cards_are_throttled_like_wrong_codes(carded, session, settings):
    settings.JOIN_WRONG_CODES_PER_MINUTE = 3
    client = Client()
    for _ in range(3):
        assert card_join(client, session.join_code, "AAAA-AAAA").status_code == 403
    assert card_join(client, session.join_code, "BBBB-BBBB").status_code == 429


def test_joining_without_a_card_still_works(carded, session):
    cards.add_members(carded, "Ada")
    response = Client().post(reverse("classrooms:join"), {"code": session.join_code, "name": "Ada"})
    assert response.status_code == 302
    assert Participant.objects.get().member is None


def _play_with_a_timeout(session) -> Match:
    """Both students seated; the first mover's clock ran out, so the log carries their name."""
    services.set_move_clock(session, 15)
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get(table__session=session)
    for _ in range(2):  # each seat's clock runs out once: the log names both
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(milliseconds=10))
        assert match_services.enforce_time(match.pk) is not None
    return match


def _everything_stored() -> list[tuple[str, str, object]]:
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, (models.CharField, models.TextField, models.JSONField, models.IntegerField,
                                  models.ForeignKey)):
                for pk, value in model.objects.values_list("pk", field.attname):
                    found.append((f"{model._meta.label}.{field.attname}#{pk}", field, value))
    return found


def test_deleting_a_member_leaves_nothing_of_them_in_any_table(carded, session):
    zed, _other = cards.add_members(carded, "Zorblax\nKeeper")
    card_join(Client(), session.join_code, zed.card_code)
    card_join(Client(), session.join_code, _other.card_code)
    participant_ids = list(Participant.objects.filter(member=zed).values_list("pk", flat=True))
    match = _play_with_a_timeout(session)
    assert Seat.objects.filter(participant_id__in=participant_ids).exists()
    assert Seat.objects.filter(name="Zorblax").exists()
    assert Seat.objects.filter(match=match, name="Zorblax").exists()
    assert "Zorblax" in json.dumps(list(Action.objects.filter(match=match).values_list("events", flat=True)))
    ids = {zed.pk, *participant_ids}

    response = teacher_client(carded).post(reverse("classrooms:member-delete", args=[carded.pk, zed.pk]))
    assert response.status_code == 302

    leftovers = []
    for where, field, value in _everything_stored():
        if isinstance(field, (models.CharField, models.TextField, models.JSONField)):
            if "zorblax" in json.dumps(value, ensure_ascii=False).lower() or zed.card_code_hash in str(value):
                leftovers.append(where)
        elif value in ids and (field.attname.endswith("participant_id") or field.attname == "member_id"
                               or (field.related_model is not None
                                   and field.related_model in (ClassMember, Participant))):
            leftovers.append(where)
    assert leftovers == []
    # nor in the browsers' stored sessions (encoded, so looked at decoded)
    from django.contrib.sessions.models import Session

    remembered = [s.get_decoded() for s in Session.objects.all()]
    assert len(remembered) == 3  # the two students, the teacher
    assert not any(set(d.get(services.SESSION_PARTICIPANTS_KEY, {}).values()) & ids for d in remembered)
    assert not any(set(d.get(PARTICIPANT_IDS_KEY, [])) & ids for d in remembered)
    assert not ClassMember.objects.filter(pk=zed.pk).exists()
    # the game and the other student are untouched; the seat plays on as a neutral former student
    assert Match.objects.filter(pk=match.pk).exists() and Participant.objects.filter(member=_other).exists()
    (former,) = Seat.objects.filter(match=match, name=cards.FORMER_STUDENT)
    match.refresh_from_db()
    assert match.status == "playing" and former.bot == session.bot_level  # a bot took the seat: play goes on


def test_retention_deletes_members_inactive_for_the_retention_period(carded, session, settings):
    settings.RETENTION_DAYS = 30
    idle, active, never, fresh = cards.add_members(carded, "Idle\nActive\nNever\nFresh")
    card_join(Client(), session.join_code, idle.card_code)
    card_join(Client(), session.join_code, active.card_code)
    long_ago = timezone.now() - timedelta(days=31)
    ClassMember.objects.filter(pk=idle.pk).update(last_seen_at=long_ago)
    ClassMember.objects.filter(pk=never.pk).update(issued_at=long_ago)
    done = purge_expired()
    assert done["class_members"] == 2
    assert set(ClassMember.objects.values_list("nickname", flat=True)) == {"Active", "Fresh"}
    assert list(Participant.objects.values_list("display_name", flat=True)) == ["Active"]


def test_member_pages_are_the_owning_teachers_only(carded, django_user_model):
    (ada,) = cards.add_members(carded, "Ada")
    intruder = Client()
    intruder.force_login(django_user_model.objects.create_user("eve", password="x-Very-long-1"))
    assert intruder.get(reverse("classrooms:cards", args=[carded.pk])).status_code == 404
    assert intruder.post(reverse("classrooms:member-delete", args=[carded.pk, ada.pk])).status_code == 404
    assert intruder.post(reverse("classrooms:member-reissue", args=[carded.pk, ada.pk])).status_code == 404
    assert Client().get(reverse("classrooms:cards", args=[carded.pk])).status_code == 302
    assert ClassMember.objects.get().card_code == ada.card_code


def test_deleting_a_member_leaves_the_other_players_names_whole(carded, session):
    al, alice = cards.add_members(carded, "Al\nAlice")
    for member in (al, alice):
        card_join(Client(), session.join_code, member.card_code)
    match = _play_with_a_timeout(session)
    cards.delete_member(al)
    events = [e for entry in Action.objects.filter(match=match) for e in entry.events if e["code"] == "timed_out"]
    assert sorted(e["params"]["name"] for e in events) == ["Alice", cards.FORMER_STUDENT]
    texts = " ".join(e["text"] for e in events)
    assert "Time ran out for Alice:" in texts and f"Time ran out for {cards.FORMER_STUDENT}:" in texts
    assert set(Seat.objects.filter(match=match).values_list("name", flat=True)) == {"Alice", cards.FORMER_STUDENT}


def test_deleting_the_class_deletes_its_members(carded, session):
    (ada,) = cards.add_members(carded, "Ada")
    card_join(Client(), session.join_code, ada.card_code)
    teacher_client(carded).post(reverse("classrooms:delete-classroom", args=[carded.pk]))
    assert not ClassMember.objects.exists() and not Participant.objects.exists()

"""Teachers, classes, class sessions, join codes, names, throttling, pairing, privacy."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from classrooms import codes, names, services
from classrooms.models import Classroom, ClassSession, Participant
from games.models import Action, Match, Seat
from tests.support.server import collected_static_root

pytestmark = pytest.mark.django_db




def join(client, code, name):
    return client.post(reverse("classrooms:join"), {"code": code, "name": name})


def test_join_codes_are_long_unambiguous_and_unique_among_live_sessions(classroom):
    sessions = [services.open_session(classroom, "quantum-tictactoe") for _ in range(30)]
    seen = {s.join_code for s in sessions}
    assert len(seen) == 30
    for code in seen:
        assert len(code) >= 6 and set(code) <= set(codes.ALPHABET)
    assert not set("0O1IL") & set(codes.ALPHABET)


def test_a_code_taken_by_a_live_session_is_redrawn(classroom, monkeypatch):
    first = services.open_session(classroom, "quantum-tictactoe")
    draws = iter([first.join_code, first.join_code, "ZZZZZ9"])
    monkeypatch.setattr(codes, "new_code", lambda: next(draws))
    second = services.open_session(classroom, "quantum-tictactoe")
    assert second.join_code == "ZZZZZ9"


def test_an_ended_session_code_is_dead(client, session):
    services.set_status(session, ClassSession.Status.ENDED)
    response = join(client, session.join_code, "Ada")
    assert response.status_code == 404
    assert "No open class session has that code" in response.content.decode()


def test_students_join_with_code_and_name_into_the_lobby(client, session):
    response = join(client, session.join_code.lower(), "  Ada   Lovelace ")
    assert response.status_code == 302 and response.url == reverse("classrooms:lobby", args=[session.pk])
    participant = Participant.objects.get()
    assert participant.display_name == "Ada Lovelace"
    assert client.get(response.url).status_code == 200


def test_the_same_browser_coming_back_is_the_same_participant(client, session):
    join(client, session.join_code, "Ada")
    again = join(client, session.join_code, "Someone Else")
    assert again.status_code == 302
    assert Participant.objects.count() == 1
    revisit = client.get(reverse("classrooms:join") + f"?code={session.join_code}")
    assert revisit.status_code == 302


def test_names_are_checked_and_deduplicated(client, session, django_user_model):
    from django.test import Client

    for _ in range(3):
        join(Client(), session.join_code, "Sam")
    assert sorted(Participant.objects.values_list("display_name", flat=True)) == ["Sam", "Sam 2", "Sam 3"]
    assert names.clean_name("  <b>Max</b> ") == "<b>Max</b>"
    with pytest.raises(names.BadName, match="invisible"):
        names.clean_name("Max\u200b")
    with pytest.raises(names.BadName):
        names.clean_name("   ")
    with pytest.raises(names.BadName):
        names.clean_name("shithead")
    response = join(Client(), session.join_code, "!!!")
    assert response.status_code == 400 and "at least one letter" in response.content.decode()
    with pytest.raises(names.BadName, match="at most 20 characters"):
        names.clean_name("x" * 21)
    assert names.clean_name("x" * 20) == "x" * 20


@pytest.mark.parametrize("typed", ["Zoë", "Łukasz", "José", "Ngọc Ánh", "Сергій", "李小龙", "O'Brien-Smith",
                                   "<b>x</b>", "a&b", "Ana (2)", "Zoe\u0308"])
def test_a_name_is_stored_as_typed(session, typed):
    """Any alphabet, punctuation and markup: every character is kept (unicode in NFC)."""
    import unicodedata

    from django.test import Client

    response = join(Client(), session.join_code, typed)
    assert response.status_code == 302, response.content.decode()[:400]
    assert Participant.objects.get().display_name == unicodedata.normalize("NFC", typed)


@pytest.mark.parametrize(("typed", "reason"), [("Maximilian Alexander X", "at most 20 characters (this one has 22)"),
                                               ("Eve\u202egnirts", "invisible"), ("!!!", "at least one letter")])
def test_a_name_that_cannot_be_kept_is_refused_with_the_reason(session, typed, reason):
    from django.test import Client

    response = join(Client(), session.join_code, typed)
    assert response.status_code == 400 and reason in response.content.decode()
    assert not Participant.objects.exists()


def test_a_long_name_keeps_every_character_when_a_number_is_added(session):
    from django.test import Client

    for _ in range(2):
        assert join(Client(), session.join_code, "Alexandra-Maximilia1").status_code == 302
    assert sorted(Participant.objects.values_list("display_name", flat=True)) == [
        "Alexandra-Maximilia1", "Alexandra-Maximilia1 2"]


def test_wrong_codes_are_throttled_per_browser_but_a_correct_code_still_joins(client, session):
    for _ in range(10):
        assert join(client, "WRONG9", "Eve").status_code == 404
    slowed = join(client, "WRONG8", "Eve")
    assert slowed.status_code == 429 and "Slow down" in slowed.content.decode()
    assert not Participant.objects.exists()
    assert join(client, session.join_code, "Eve").status_code == 302  # a correct code is never throttled


def test_wrong_attempts_on_one_code_are_throttled_but_a_correct_code_never(client, session, settings):
    settings.JOIN_ATTEMPTS_PER_CODE_PER_MINUTE = 3
    from django.test import Client

    for i in range(3):
        assert join(Client(REMOTE_ADDR=f"10.0.0.{i}"), "WRONG9", f"S{i}").status_code == 404
    assert join(Client(REMOTE_ADDR="10.0.0.9"), "WRONG9", "Late").status_code == 429
    for i in range(5):  # correct joins are not attempts against the code
        assert join(Client(REMOTE_ADDR=f"10.0.1.{i}"), session.join_code, f"S{i}").status_code == 302


def test_a_locked_session_takes_no_new_students_but_keeps_its_own(client, session):
    join(client, session.join_code, "Ada")
    services.set_status(session, ClassSession.Status.LOCKED)
    from django.test import Client

    refused = join(Client(), session.join_code, "Bo")
    assert refused.status_code == 403 and "locked" in refused.content.decode()
    assert join(client, session.join_code, "Ada").status_code == 302


def test_teacher_pages_need_a_teacher_login_and_only_show_own_sessions(client, session):
    for url in [reverse("classrooms:teacher-home"), reverse("classrooms:dashboard", args=[session.pk]),
                reverse("classrooms:report", args=[session.pk])]:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response.url
    User.objects.create_user("intruder", password="not-the-teacher-42")
    client.login(username="intruder", password="not-the-teacher-42")
    assert client.get(reverse("classrooms:dashboard", args=[session.pk])).status_code == 404
    assert client.get("/api/sessions/").json()["results"] == []
    assert client.get(f"/api/sessions/{session.pk}/").status_code == 404


def test_teacher_signup_login_class_and_session_pages(client):
    response = client.post(reverse("signup"), {"username": "ms-noether", "email": "",
                                               "password1": "symmetry-conservation-1918",
                                               "password2": "symmetry-conservation-1918"})
    assert response.status_code == 302
    response = client.post(reverse("classrooms:teacher-home"), {"name": "Year 10"})
    classroom = Classroom.objects.get(name="Year 10")
    assert response.url == reverse("classrooms:classroom", args=[classroom.pk])
    response = client.post(response.url, {"game": "quantum-tictactoe", "variant": "basic", "table_size": 2,
                                          "bot_level": "strong", "show_odds": "on", "options": ""})
    session = ClassSession.objects.get()
    assert response.url == reverse("classrooms:dashboard", args=[session.pk])
    page = client.get(response.url).content.decode()
    assert session.join_code in page and "<svg" in page and f"?code={session.join_code}" in page


def test_bad_session_options_get_a_clear_error(client, classroom):
    client.force_login(classroom.teacher)
    response = client.post(reverse("classrooms:classroom", args=[classroom.pk]),
                           {"game": "quantum-tictactoe", "variant": "basic", "bot_level": "strong", "options": "{nope"})
    assert response.status_code == 200 and "not valid JSON" in response.content.decode()
    api = client.post("/api/sessions/", {"classroom": classroom.pk, "game": "quantum-tictactoe", "variant": "nine"},
                      content_type="application/json")
    assert api.status_code == 400 and "no variant" in api.content.decode()
    assert not ClassSession.objects.exists()


def test_auto_pair_seats_an_odd_student_with_a_bot_and_start_all_starts(session):
    from django.test import Client

    for name in ["Ada", "Bo", "Cy"]:
        join(Client(), session.join_code, name)
    tables = services.auto_pair(session)
    assert len(tables) == 2
    seats = Seat.objects.filter(match__table__session=session)
    assert seats.filter(participant_id__isnull=False).count() == 3
    assert seats.exclude(bot="").count() == 1
    assert services.start_all(session) == 2
    assert set(Match.objects.values_list("status", flat=True)) <= {"playing", "finished"}
    bot_seat = seats.exclude(bot="").get()
    bot_match = bot_seat.match
    if bot_seat.index == 0:  # the bot is X: it has moved already
        assert Action.objects.filter(match=bot_match, by_bot=True).exists()


def test_seating_by_hand_and_refusals(session):
    from django.test import Client

    for name in ["Ada", "Bo", "Cy"]:
        join(Client(), session.join_code, name)
    ada, bo, cy = Participant.objects.order_by("id")
    services.seat_table(session, [ada, cy])
    with pytest.raises(services.SessionError, match="already has a table"):
        services.seat_table(session, [ada, bo])
    with pytest.raises(services.SessionError, match="seats 2"):
        services.seat_table(session, [bo])


def test_removing_a_student_hands_their_seat_to_a_bot(session):
    from django.test import Client

    for name in ["Ada", "Bo"]:
        join(Client(), session.join_code, name)
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get()
    leaver = Participant.objects.get(display_name="Bo")
    services.remove_participant(session, leaver.pk)
    seat = Seat.objects.get(match=match, name="Bo")
    assert seat.participant_id is None and seat.bot == "strong"
    match.refresh_from_db()
    from games.engines import get_game
    from games.selectors import current_state

    assert seat.index not in get_game("quantum-tictactoe").to_act(current_state(match)) or match.status == "finished"


def test_deleting_a_session_deletes_its_students_and_games(client, session):
    join(client, session.join_code, "Ada")
    join(__import__("django.test", fromlist=["Client"]).Client(), session.join_code, "Bo")
    services.auto_pair(session)
    services.start_all(session)
    client.force_login(session.classroom.teacher)
    response = client.post(reverse("classrooms:delete-session", args=[session.pk]))
    assert response.status_code == 302
    assert not ClassSession.objects.exists() and not Participant.objects.exists()
    assert not Match.objects.exists() and not Action.objects.exists() and not Seat.objects.exists()


def test_session_report_and_csv(client, session):
    from django.test import Client

    for name in ["Ada", "Bo"]:
        join(Client(), session.join_code, name)
    services.auto_pair(session)
    client.force_login(session.classroom.teacher)
    page = client.get(reverse("classrooms:report", args=[session.pk])).content.decode()
    assert "Ada" in page and "replay" in page
    csv_text = client.get(reverse("classrooms:report", args=[session.pk]) + "?format=csv").content.decode()
    assert csv_text.startswith("\ufeff")  # a UTF-8 BOM: a spreadsheet reads the names as UTF-8
    assert csv_text[1:].splitlines()[0] == "table,seat,name,bot,status,score,winner,place,summary"
    assert len(csv_text.splitlines()) == 3


@pytest.mark.parametrize("lang, header, status, winner", [
    ("es", ["mesa", "asiento", "nombre", "bot", "estado", "puntuación", "ganador", "posición", "resumen"],
     "esperando para empezar", "no"),
    ("pl", ["stolik", "miejsce", "imię", "bot", "stan", "wynik punktowy", "zwycięzca", "pozycja", "podsumowanie"],
     "czeka na start", "nie"),
])
def test_the_session_report_csv_reads_in_the_readers_language_and_spreadsheet(lang, header, status, winner,
                                                                              client, session):
    """Like the progress and statistics exports: a UTF-8 BOM, the headers and words (status,
    winner) in the reader's language and, for es / pl, ";" between cells."""
    import csv
    import io

    from django.test import Client

    for name in ["Zoë", "Bo"]:
        join(Client(), session.join_code, name)
    services.auto_pair(session)
    client.force_login(session.classroom.teacher)
    text = client.get(reverse("classrooms:report", args=[session.pk]) + "?format=csv",
                      HTTP_ACCEPT_LANGUAGE=lang).content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows[0] == header
    assert {r[2] for r in rows[1:]} == {"Zoë", "Bo"}
    assert {(r[4], r[6]) for r in rows[1:]} == {(status, winner)}


def test_api_schema_and_docs(client, teacher_user):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ["/api/classes/", "/api/sessions/", "/api/matches/{match_id}/", "/api/matches/{match_id}/replay/"]:
        assert path in text
    client.force_login(teacher_user)
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/classes/", HTTP_ACCEPT="text/html").status_code == 200


def test_api_needs_a_teacher_login(client):
    assert client.get("/api/classes/").status_code == 403
    assert client.post("/api/sessions/", {}, content_type="application/json").status_code == 403


def test_check_deploy_with_the_production_environment_reports_nothing():
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, DEBUG="0", SECRET_KEY="x" * 20 + "-a-long-random-production-secret-key-0123456789",
               ALLOWED_HOSTS="classroom.example.org", DATABASE_URL=os.environ.get(
                   "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test"),
               REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
               STATIC_ROOT=str(collected_static_root()))  # (after collectstatic)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the test process only (see conftest)
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_after_their_game_students_can_be_seated_for_another_round(session):
    from django.test import Client

    for name in ["Ada", "Bo"]:
        join(Client(), session.join_code, name)
    first = services.auto_pair(session)
    services.start_all(session)
    assert services.auto_pair(session) == []  # everyone is at a live table
    Match.objects.filter(pk=first[0].match_id).update(status=Match.Status.FINISHED)
    second = services.auto_pair(session)
    assert len(second) == 1 and second[0].number == 2
    from classrooms.selectors import dashboard_payload, lobby_payload

    assert {p["table"] for p in dashboard_payload(session)["participants"]} == {2}
    assert lobby_payload(session, Participant.objects.first())["match"] == second[0].match_id

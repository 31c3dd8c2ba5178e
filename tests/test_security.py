"""Safe to put on the internet: production defaults fail closed, joining cannot be
abused, data really goes, bad input is a 400, CSV cells are inert, CSP, socket caps."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from classrooms import services
from classrooms.models import Classroom, ClassSession, Exercise, Participant, Table
from games.models import Action, Match, Seat
from simulator.models import IBMCredential, QuantumPolicy, Run
from tests.support.server import collected_static_root, fresh_shell_env

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]




@pytest.fixture
def teacher_client(teacher_user):
    client = Client()
    client.force_login(teacher_user)
    return client


def run_python(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


# ----------------------------------------------------------------- production defaults fail closed

def test_debug_is_off_unless_set():
    code = "import os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'\n" \
           "from django.conf import settings; print('DEBUG', settings.DEBUG)"
    assert "DEBUG False" in run_python(code, fresh_shell_env()).stdout
    assert "DEBUG True" in run_python(code, fresh_shell_env(DEBUG="1")).stdout


def test_the_app_refuses_to_start_on_the_built_in_key_with_debug_off():
    refused = run_python("import config.asgi", fresh_shell_env())
    assert refused.returncode != 0 and "SECRET_KEY is the built-in development key" in refused.stderr
    ok = run_python("import config.asgi", fresh_shell_env(SECRET_KEY="k" * 60, STATIC_ROOT=str(collected_static_root())))
    assert ok.returncode == 0, ok.stderr
    dev = run_python("import config.asgi, gc; print('young', gc.get_threshold()[0])", fresh_shell_env(DEBUG="1"))
    assert dev.returncode == 0, dev.stderr
    assert int(dev.stdout.split("young")[1]) >= 10_000  # the served process collects cycles seldom (config/asgi.py)
    served = subprocess.run([sys.executable, "manage.py", "serve", "--no-demo", "--port", "1"], cwd=ROOT,
                            env=fresh_shell_env(), capture_output=True, text=True, timeout=120)
    assert served.returncode != 0 and "SECRET_KEY is the built-in development key" in served.stderr
    assert "Traceback" not in served.stderr  # one clear line for whoever starts it


def test_check_deploy_reports_the_built_in_key():
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT,
                            env=fresh_shell_env(ALLOWED_HOSTS="classroom.example.org"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "qc.E001" in result.stdout + result.stderr


def test_make_run_sets_the_development_values_itself():
    makefile = (ROOT / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert "DEBUG=$${DEBUG:-1}" in run_recipe and "manage.py serve" in run_recipe


def serve(monkeypatch, tmp_path, settings, debug: bool) -> str:
    from core.management.commands import serve as serve_command

    settings.DEBUG = debug
    monkeypatch.setenv("LAN_ADDRESS", "")  # (serve --lan hands the address to its workers here: put back after)
    monkeypatch.setattr(serve_command, "DEMO_PASSWORD_FILE", tmp_path / "demo-password")
    monkeypatch.setattr("daphne.cli.CommandLineInterface.run", lambda self, args: None)
    out = io.StringIO()
    call_command("serve", stdout=out)
    return out.getvalue()


def test_the_demo_teacher_exists_only_in_development_with_a_random_password(monkeypatch, tmp_path, settings):
    settings.SECRET_KEY = "k" * 60
    output = serve(monkeypatch, tmp_path, settings, debug=False)
    assert not User.objects.filter(username="teacher").exists() and "Demo teacher" not in output

    output = serve(monkeypatch, tmp_path, settings, debug=True)
    password = output.split("Demo teacher login: teacher / ")[1].split()[0]
    assert password != "quantum-demo" and len(password) >= 12
    assert Client().login(username="teacher", password=password)
    again = serve(monkeypatch, tmp_path, settings, debug=True)
    assert f"teacher / {password}" in again  # the same database keeps its password

    User.objects.filter(username="teacher").delete()  # a new database gets a new one
    fresh = serve(monkeypatch, tmp_path, settings, debug=True)
    assert f"teacher / {password}" not in fresh
    assert "quantum-demo" not in (ROOT / "core/management/commands/serve.py").read_text()


# ----------------------------------------------------------------- data really goes

def join(client, code, name, **extra):
    return client.post(reverse("classrooms:join"), {"code": code, "name": name}, **extra)


def test_deleting_a_class_deletes_every_row_of_it(classroom, teacher_client):
    other = Classroom.objects.create(teacher=classroom.teacher, name="Other")
    kept = services.open_session(other, "quantum-tictactoe")
    for c in (classroom, other):
        s = c.sessions.first() or services.open_session(c, "quantum-tictactoe")
        for name in ("Ada", "Bo"):
            join(Client(), s.join_code, name)
        services.auto_pair(s)
        services.start_all(s)
    Exercise.objects.create(classroom=classroom, name="Puzzle", options={})
    QuantumPolicy.objects.create(classroom=classroom, students_may_run=True)
    IBMCredential.objects.create(classroom=classroom, token_encrypted="x")
    match = Match.objects.get(table__session__classroom=classroom)
    Run.objects.create(match=match, action_number=0, backend="exact", seed=1, request_key="k")

    response = teacher_client.delete(f"/api/classes/{classroom.pk}/")
    assert response.status_code == 204
    assert not Classroom.objects.filter(pk=classroom.pk).exists()
    session_ids = [kept.pk]
    assert list(ClassSession.objects.values_list("pk", flat=True)) == session_ids
    assert set(Participant.objects.values_list("session_id", flat=True)) == {kept.pk}
    assert set(Table.objects.values_list("session_id", flat=True)) == {kept.pk}
    kept_match = Table.objects.get().match_id
    assert list(Match.objects.values_list("pk", flat=True)) == [kept_match]
    assert set(Seat.objects.values_list("match_id", flat=True)) == {kept_match}
    assert set(Action.objects.values_list("match_id", flat=True)) <= {kept_match}
    assert not Run.objects.exists()
    assert not Exercise.objects.exists() and not QuantumPolicy.objects.exists()
    assert not IBMCredential.objects.exists()
    for url in (f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/replay/", f"/matches/{match.pk}/replay/"):
        assert teacher_client.get(url).status_code in (403, 404)
    # the class page's button does the same
    page = teacher_client.post(reverse("classrooms:delete-classroom", args=[other.pk]))
    assert page.status_code == 302 and not Classroom.objects.exists()
    for model in (ClassSession, Participant, Table, Match, Seat, Action, Run):
        assert not model.objects.exists(), model


# ----------------------------------------------------------------- bad input never gives a 500

DEEP = "[" * 100_000 + "]" * 100_000


def test_deeply_nested_or_huge_json_is_a_400_with_a_message(classroom, teacher_client, session):
    for body in (DEEP, json.dumps({"x": "y" * 300_000})):
        for url in ("/api/sessions/", "/api/classes/", "/api/runs/"):
            response = teacher_client.post(url, body, content_type="application/json")
            assert response.status_code == 400, (url, response.content[:200])
            assert "too" in response.json()["message"]
        response = teacher_client.post(reverse("classrooms:exercise-validate", args=[classroom.pk]), body,
                                       content_type="application/json")
        assert response.status_code == 400 and "too" in response.json()["message"]
    form = teacher_client.post(reverse("classrooms:classroom", args=[classroom.pk]),
                               {"game": "qtris", "variant": "basic", "bot_level": "strong",
                                "options": "[" * 5000 + "]" * 5000})
    assert form.status_code == 200 and "nested too deeply" in form.content.decode()
    assert ClassSession.objects.count() == 1


def test_a_100_kb_json_body_is_too_large_for_the_api(classroom, teacher_client, settings):
    """Past the API's JSON cap but short of Django's own body limit, so that the API's parser
    (core/parsers.py) is what refuses it: a 400 in words, nothing created."""
    body = json.dumps({"name": "9B", "padding": "y" * 100_000})
    assert len(body) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    for url in ("/api/classes/", "/api/sessions/"):
        response = teacher_client.post(url, body, content_type="application/json")
        assert response.status_code == 400, (url, response.content[:200])
        assert "too large" in response.json()["message"]
    assert Classroom.objects.count() == 1 and not ClassSession.objects.exists()


def test_socket_messages_nested_too_deeply_are_refused_in_words():
    from classrooms.consumers import _decode
    from games.consumers import parse_message

    message, problem = parse_message('{"type": "act", "action": ' + "[" * 2000 + "]" * 2000 + "}", None)
    assert message == {} and "nested too deeply" in problem
    assert _decode('{"type": "sync", "x": ' + "[" * 1500 + "]" * 1500 + "}") is None


def test_a_qtris_deck_of_200000_cards_is_refused_whatever_the_entry_point(classroom, teacher_client):
    from classrooms import exercises
    from games import services as match_services

    huge = {"deck": ["I"] * 200_000}
    with pytest.raises(services.SessionError, match="200000 entries"):
        services.open_session(classroom, "qtris", variant="basic", options=huge)
    with pytest.raises(exercises.ExerciseError, match="200000 entries"):
        exercises.validate("qtris", "basic", huge)
    with pytest.raises(match_services.ActionRejected, match="200000 entries"):
        match_services.create_match("qtris", [match_services.SeatHolder("A"), match_services.SeatHolder("B")],
                                    variant="basic", options=huge)
    api = teacher_client.post("/api/sessions/", {"classroom": classroom.pk, "game": "qtris", "variant": "basic",
                                                 "options": {"deck": ["I"] * 5000}},
                              content_type="application/json")
    assert api.status_code == 400 and "options.deck has 5000 entries" in api.content.decode()
    assert not ClassSession.objects.exists() and not Match.objects.exists()


def test_api_lists_are_paginated(classroom, teacher_client):
    for i in range(60):
        Classroom.objects.create(teacher=classroom.teacher, name=f"C{i:02}")
    page = teacher_client.get("/api/classes/").json()
    assert page["count"] == 61 and len(page["results"]) == 50 and page["next"]
    rest = teacher_client.get(page["next"]).json()
    assert len(rest["results"]) == 11


# ----------------------------------------------------------------- smaller

def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(session, teacher_client):
    from core.csvcells import safe_cell

    join(Client(), session.join_code, "-Ada")
    join(Client(), session.join_code, "Bo")
    services.auto_pair(session)
    text = teacher_client.get(reverse("classrooms:report", args=[session.pk]) + "?format=csv").content.decode()
    names = {row["name"] for row in csv.DictReader(io.StringIO(text))}
    assert "'-Ada" in names and "-Ada" not in names and "Bo" in names
    for raw in ("=HYPERLINK(\"x\")", "+1+1", "@SUM(A1)", "\tx", "\rx", "-2+3"):
        assert safe_cell(raw) == "'" + raw
    assert safe_cell("-0.5000") == "-0.5000" and safe_cell(-3) == -3 and safe_cell("Ada") == "Ada"


# ----------------------------------------------------------------- teacher accounts

def signup(client, username="ms-noether", **extra):
    return client.post(reverse("signup"), {"username": username, "email": "", "password1": "symmetry-conservation-1918",
                                           "password2": "symmetry-conservation-1918", **extra})


def test_signup_is_closed_in_production_by_default():
    code = ("import os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'\n"
            "from django.conf import settings; print('SIGNUP', settings.TEACHER_SIGNUP, settings.PASSWORD_RESET_ENABLED)")
    assert "SIGNUP closed False" in run_python(code, fresh_shell_env(SECRET_KEY="k" * 60)).stdout
    assert "SIGNUP open" in run_python(code, fresh_shell_env(SECRET_KEY="k" * 60, TEACHER_SIGNUP="open")).stdout


def test_closed_signup_makes_no_account(settings):
    settings.TEACHER_SIGNUP = "closed"
    response = signup(Client())
    assert response.status_code == 403 and "closed" in response.content.decode()
    assert not User.objects.exists()
    assert "Create a teacher account" not in Client().get(reverse("login")).content.decode()


def test_invite_signup_needs_the_invitation_code(settings):
    settings.TEACHER_SIGNUP = "invite"
    settings.TEACHER_INVITE_CODE = "let-me-teach-2026"
    refused = signup(Client(), invite="guess")
    assert refused.status_code == 200 and "invitation code is not valid" in refused.content.decode()
    assert not User.objects.exists()
    assert signup(Client(), invite="let-me-teach-2026").status_code == 302
    assert User.objects.count() == 1


def test_signup_does_not_reveal_whether_a_username_exists():
    User.objects.create_user("ms-noether", password="an-existing-teacher-1")
    taken, free = Client(), Client()
    answers = [signup(taken, "ms-noether"), signup(free, "mr-feynman")]
    assert [a.status_code for a in answers] == [302, 302]
    assert answers[0].url == answers[1].url
    names = [c.get(reverse("classrooms:teacher-home")).context["user"].username for c in (taken, free)]
    assert names[0].startswith("ms-noether-") and names[1].startswith("mr-feynman-")
    assert User.objects.filter(username="ms-noether").count() == 1 and User.objects.count() == 3
    page = Client().post(reverse("signup"), {"username": "ms-noether", "password1": "x", "password2": "y"})
    assert "already exists" not in page.content.decode()


def test_login_is_throttled_per_username_and_per_address(settings):
    settings.LOGIN_ATTEMPTS_PER_USERNAME_PER_MINUTE = 3
    settings.LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE = 5
    User.objects.create_user("ms-curie", password="radium-1898-Polonium")
    for i in range(3):  # from different addresses
        bad = Client(REMOTE_ADDR=f"10.1.0.{i}").post(reverse("login"), {"username": "ms-curie", "password": "x"})
        assert bad.status_code == 200
    right = Client(REMOTE_ADDR="10.1.0.9").post(reverse("login"), {"username": "ms-curie",
                                                                   "password": "radium-1898-Polonium"})
    assert right.status_code == 429 and "wait a minute" in right.content.decode()
    for i in range(5):  # one address, many usernames
        Client(REMOTE_ADDR="10.2.0.1").post(reverse("login"), {"username": f"user{i}", "password": "x"})
    slowed = Client(REMOTE_ADDR="10.2.0.1").post(reverse("login"), {"username": "someone", "password": "x"})
    assert slowed.status_code == 429


def test_signup_is_throttled(settings):
    settings.LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE = 3
    for i in range(3):
        Client().post(reverse("signup"), {"username": f"t{i}", "password1": "a", "password2": "b"})
    assert signup(Client(), "late").status_code == 429 and not User.objects.exists()


def test_password_reset_is_not_offered_without_a_mail_server(settings):
    assert settings.PASSWORD_RESET_ENABLED is False  # the test environment sets no EMAIL_HOST
    assert Client().get("/accounts/password_reset/").status_code == 404
    assert "Forgot your password" not in Client().get(reverse("login")).content.decode()
    code = ("import os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'\nimport django; django.setup()\n"
            "from django.test import Client; r = Client().get('/accounts/password_reset/'); print('RESET', r.status_code)\n"
            "from django.conf import settings; print(settings.EMAIL_BACKEND)")
    result = run_python(code, fresh_shell_env(DEBUG="1", EMAIL_HOST="smtp.example.org", ALLOWED_HOSTS="testserver"))
    assert "RESET 200" in result.stdout and "smtp" in result.stdout, result.stderr[-2000:]


# ----------------------------------------------------------------- joining a class

def test_a_correct_code_is_never_throttled_by_other_peoples_wrong_attempts(session, settings):
    settings.JOIN_ATTEMPTS_PER_CODE_PER_MINUTE = 2
    for _ in range(5):  # a prankster floods the class's code with bad names
        Client(REMOTE_ADDR="10.9.9.9").post(reverse("classrooms:join"), {"code": session.join_code, "name": "!!!"})
    for _ in range(5):  # and guesses codes
        Client(REMOTE_ADDR="10.9.9.9").post(reverse("classrooms:join"), {"code": "WRONG9", "name": "x"})
    assert join(Client(REMOTE_ADDR="10.0.0.1"), session.join_code, "Ada").status_code == 302


def students(n, address="203.0.113.7"):
    """Browsers of a school behind one NAT address, each with its own cookie."""
    for i in range(n):
        client = Client(REMOTE_ADDR=address)
        client.cookies["csrftoken"] = f"browser{i:04}".ljust(32, "x")  # a well-formed CSRF secret
        yield client


def test_a_school_behind_one_address_joins_thirty_students_in_a_minute(session):
    for i, client in enumerate(students(30)):
        assert join(client, session.join_code, f"Student {i}").status_code == 302
    assert session.participants.count() == 30


def test_one_person_cannot_fill_a_class_with_fake_names(session, settings):
    client = next(students(1))
    answers = [join(client, session.join_code, f"Fake {i}").status_code for i in range(5)]
    # the same browser is the same participant...
    assert answers == [302] * 5 and session.participants.count() == 1
    settings.JOIN_NEW_PARTICIPANTS_PER_ADDRESS_PER_MINUTE = 10
    for i, c in enumerate(students(12, address="198.51.100.1")):  # ...and fresh cookies meet the address cap
        join(c, session.join_code, f"Bot {i}")
    assert session.participants.count() == 1 + 10
    refused = join(next(students(1, address="198.51.100.1")), session.join_code, "One more")
    assert refused.status_code == 429 and "wait a minute" in refused.content.decode()


def test_a_session_has_a_participant_cap_the_teacher_can_change(classroom, teacher_client):
    assert services.open_session(classroom, "quantum-tictactoe").max_participants == 60
    session = services.open_session(classroom, "quantum-tictactoe", max_participants=3)
    for i, c in enumerate(students(3)):
        assert join(c, session.join_code, f"S{i}").status_code == 302
    full = join(Client(REMOTE_ADDR="10.0.0.2"), session.join_code, "Fourth")
    assert full.status_code == 403 and "full" in full.content.decode()
    api = teacher_client.post(f"/api/sessions/{session.pk}/participant-cap/", {"max_participants": 4},
                              content_type="application/json")
    assert api.status_code == 200
    assert join(Client(REMOTE_ADDR="10.0.0.2"), session.join_code, "Fourth").status_code == 302
    bad = teacher_client.post(f"/api/sessions/{session.pk}/participant-cap/", {"max_participants": 10**9},
                              content_type="application/json")
    assert bad.status_code == 400 and "from 1 to" in bad.json()["message"]
    created = teacher_client.post("/api/sessions/", {"classroom": classroom.pk, "game": "quantum-tictactoe",
                                                     "max_participants": 100000}, content_type="application/json")
    assert created.status_code == 400
    form = teacher_client.post(reverse("classrooms:classroom", args=[classroom.pk]),
                               {"game": "quantum-tictactoe", "variant": "basic", "bot_level": "strong",
                                "max_participants": 25, "options": ""})
    assert form.status_code == 302 and ClassSession.objects.order_by("-pk").first().max_participants == 25


def test_x_forwarded_for_is_believed_only_from_trusted_proxies(session, settings):
    from core.clientip import client_address

    assert client_address({"REMOTE_ADDR": "198.51.100.5", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}) == "198.51.100.5"
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    assert client_address({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.9, 10.1.1.1"}) \
        == "203.0.113.9"
    assert client_address({"REMOTE_ADDR": "127.0.0.1"}) == "127.0.0.1"
    # through the proxy, each real client has its own wrong-code count
    settings.JOIN_WRONG_CODES_PER_ADDRESS_PER_MINUTE = 3
    settings.JOIN_WRONG_CODES_PER_MINUTE = 100
    for _ in range(3):
        Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9").post(
            reverse("classrooms:join"), {"code": "WRONG9", "name": "x"})
    other = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.10")
    assert join(other, session.join_code, "Ada").status_code == 302
    guesser = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert join(guesser, "WRONG8", "Eve").status_code == 429
    # an untrusted sender cannot pick its own address with the header
    settings.TRUSTED_PROXIES = []
    for i in range(3):
        Client(REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=f"7.7.7.{i}").post(
            reverse("classrooms:join"), {"code": "WRONG9", "name": "x"})
    assert join(Client(REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="7.7.7.200"), "WRONG8",
                "Mallory").status_code == 429


def test_joining_cycles_the_session_key(session):
    client = Client()
    client.get(reverse("classrooms:join"))
    client.session.save()
    before = client.session.session_key
    assert join(client, session.join_code, "Ada").status_code == 302
    assert client.session.session_key != before
    assert client.get(reverse("classrooms:lobby", args=[session.pk])).status_code == 200


def test_a_removed_student_cannot_rejoin_from_the_same_browser_until_readmitted(session, teacher_client):
    client = Client()
    join(client, session.join_code, "Ada")
    ada = Participant.objects.get()
    services.remove_participant(session, ada.pk)
    again = join(client, session.join_code, "Ada Again")
    assert again.status_code == 302  # to the lobby, which says so (and that the teacher was asked)
    page = client.get(again.url)
    assert page.status_code == 200 and "removed you" in page.content.decode()  # a page that works: it follows the answer live
    assert Participant.objects.count() == 1
    readmit = teacher_client.post(f"/api/sessions/{session.pk}/readmit/", {"participant": ada.pk},
                                  content_type="application/json")
    assert readmit.status_code == 200
    back = join(client, session.join_code, "Ada")
    assert back.status_code == 302 and Participant.objects.count() == 1
    assert Participant.objects.get().removed is False


# ----------------------------------------------------------------- retention

def test_retention_deletes_old_ended_sessions_and_expired_browser_sessions(classroom, settings):
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from config.celery import app

    settings.RETENTION_DAYS = 30
    old, recent, live = (services.open_session(classroom, "quantum-tictactoe") for _ in range(3))
    for s in (old, recent, live):
        for name in ("Ada", "Bo"):
            join(Client(), s.join_code, name)
        services.auto_pair(s)
        services.start_all(s)
    for s in (old, recent):
        services.set_status(s, ClassSession.Status.ENDED)
    ClassSession.objects.filter(pk=old.pk).update(ended_at=timezone.now() - timedelta(days=31))
    old_match = Table.objects.get(session=old).match_id
    Session.objects.filter().update(expire_date=timezone.now() - timedelta(days=1))
    assert Session.objects.exists()

    out = io.StringIO()
    call_command("purge_expired", stdout=out)
    assert "Deleted 1 ended class session" in out.getvalue()
    assert set(ClassSession.objects.values_list("pk", flat=True)) == {recent.pk, live.pk}
    assert not Participant.objects.filter(session_id=old.pk).exists()
    assert not Match.objects.filter(pk=old_match).exists() and not Seat.objects.filter(match_id=old_match).exists()
    assert not Action.objects.filter(match_id=old_match).exists()
    assert not Session.objects.exists()
    # the same job is on Celery beat's daily schedule
    entry = settings.CELERY_BEAT_SCHEDULE["purge-expired-data"]
    app.loader.import_default_modules()  # what a worker does at start: autodiscovery
    assert entry["task"] in app.tasks and entry["schedule"] <= 24 * 60 * 60
    assert app.tasks[entry["task"]]() == {"idle_sessions_ended": 0, "class_sessions": 0, "assignments": 0,
                                          "class_members": 0, "browser_sessions": 0}


# ----------------------------------------------------------------- circuit runs: clamps and quotas

@pytest.fixture
def qtris_match(teacher_user):
    from tests.test_simulator_fixtures import class_table, finished_qtris

    m = finished_qtris(teacher_user)
    class_table(teacher_user, m)
    return m


def ask_run(match, user, seed):
    from simulator import services as runs
    from tests.test_simulator_fixtures import teacher_access

    return runs.request_run(runs.RunRequest(match.pk, "aer", shots=100, seed=seed), teacher_access(match), user=user)


def test_student_max_shots_is_clamped_by_the_api_as_by_the_form(qtris_match, teacher_client):
    classroom = qtris_match.table.session.classroom
    url = f"/api/classes/{classroom.pk}/quantum-policy/"
    for bad in (10**9, 0, -5):
        response = teacher_client.put(url, {"student_max_shots": bad}, content_type="application/json")
        assert response.status_code == 400, bad
    assert not QuantumPolicy.objects.exists() or QuantumPolicy.objects.get().student_max_shots == 4096
    ok = teacher_client.put(url, {"student_max_shots": 100_000}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["student_max_shots"] == 100_000


def test_runs_have_a_rate_limit_per_requester(qtris_match, teacher_user, settings):
    from simulator import services as runs

    settings.RUNS_PER_REQUESTER_PER_MINUTE = 2
    ask_run(qtris_match, teacher_user, 1)
    ask_run(qtris_match, teacher_user, 2)
    again, created = ask_run(qtris_match, teacher_user, 2)  # asking again for a run is free
    assert not created
    with pytest.raises(runs.RunRequestError, match="new runs a minute"):
        ask_run(qtris_match, teacher_user, 3)
    assert Run.objects.count() == 2


def test_runs_have_quotas_per_requester_and_per_class(qtris_match, teacher_user, teacher_client, settings):
    from simulator import services as runs

    settings.RUNS_ACTIVE_PER_REQUESTER = 2
    ask_run(qtris_match, teacher_user, 1)
    ask_run(qtris_match, teacher_user, 2)  # (not executed: both stay queued)
    with pytest.raises(runs.RunRequestError, match="runs waiting or running"):
        ask_run(qtris_match, teacher_user, 3)
    response = teacher_client.post("/api/runs/", {"match": qtris_match.pk, "backend": "aer", "shots": 10, "seed": 9},
                                   content_type="application/json")
    assert response.status_code == 400 and "runs waiting or running" in response.json()["message"]

    settings.RUNS_ACTIVE_PER_REQUESTER = 100
    settings.RUNS_ACTIVE_PER_CLASS = 3
    ask_run(qtris_match, teacher_user, 4)
    with pytest.raises(runs.RunRequestError, match="This class already has 3"):
        ask_run(qtris_match, teacher_user, 5)
    Run.objects.update(status=Run.Status.DONE)
    settings.RUNS_PER_CLASS_PER_DAY = 3
    with pytest.raises(runs.RunRequestError, match="used its 3 runs for today"):
        ask_run(qtris_match, teacher_user, 6)


def test_check_deploy_warns_when_runs_would_execute_in_the_web_process():
    env = fresh_shell_env(SECRET_KEY="k" * 60, ALLOWED_HOSTS="x.example.org")
    for broker in ("REDIS_URL", "CELERY_BROKER_URL"):  # no broker: runs would execute in-process
        env.pop(broker, None)
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert "qc.W001" in result.stdout + result.stderr


def test_throttles_count_over_a_sliding_minute_not_from_a_fresh_window(monkeypatch):
    """Attempts just before a minute's boundary still count just after it (a fixed window would
    forget them, letting a burst of twice the limit through and a test straddling it pass)."""
    from core import throttle

    clock = [120.0 * 60 - 1]  # one second before a minute's boundary
    monkeypatch.setattr(throttle.time, "time", lambda: clock[0])
    for _ in range(3):
        throttle.record("test", "10.9.9.9")
    assert throttle.over("test", "10.9.9.9", 3)
    clock[0] += 2  # the next minute has begun
    assert throttle.over("test", "10.9.9.9", 3)
    clock[0] += 59  # a whole minute after the attempts: they no longer count
    assert not throttle.over("test", "10.9.9.9", 3)

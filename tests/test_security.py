"""Issue 9, safe to put on the internet: production defaults fail closed, joining cannot be
abused, data really goes, bad input is a 400, CSV cells are inert, CSP, socket caps."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from classrooms import services
from classrooms.models import Classroom, ClassSession, Exercise, Participant, Table
from games.models import Action, Match, Seat
from simulator.models import IBMCredential, QuantumPolicy, Run

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def teacher_user():
    return User.objects.create_user("mr-bohr", password="complementarity-1927")


@pytest.fixture
def classroom(teacher_user):
    return Classroom.objects.create(teacher=teacher_user, name="9A")


@pytest.fixture
def session(classroom):
    return services.open_session(classroom, "quantum-tictactoe")


@pytest.fixture
def teacher_client(teacher_user):
    client = Client()
    client.force_login(teacher_user)
    return client


def production_env(**extra) -> dict:
    """The environment of a fresh shell: none of the development values the tests set."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}}
    env.update(extra)
    return env


def run_python(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


# ----------------------------------------------------------------- production defaults fail closed

def test_debug_is_off_unless_set():
    code = "import os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'\n" \
           "from django.conf import settings; print('DEBUG', settings.DEBUG)"
    assert "DEBUG False" in run_python(code, production_env()).stdout
    assert "DEBUG True" in run_python(code, production_env(DEBUG="1")).stdout


def test_the_app_refuses_to_start_on_the_built_in_key_with_debug_off():
    refused = run_python("import config.asgi", production_env())
    assert refused.returncode != 0 and "SECRET_KEY is the built-in development key" in refused.stderr
    ok = run_python("import config.asgi", production_env(SECRET_KEY="k" * 60))
    assert ok.returncode == 0, ok.stderr
    dev = run_python("import config.asgi", production_env(DEBUG="1"))
    assert dev.returncode == 0, dev.stderr


def test_check_deploy_reports_the_built_in_key():
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT,
                            env=production_env(ALLOWED_HOSTS="classroom.example.org"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "qc.E001" in result.stdout + result.stderr


def test_make_run_sets_the_development_values_itself():
    makefile = (ROOT / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert "DEBUG=$${DEBUG:-1}" in run_recipe and "manage.py serve" in run_recipe


def serve(monkeypatch, tmp_path, settings, debug: bool) -> str:
    from classrooms.management.commands import serve as serve_command

    settings.DEBUG = debug
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
    assert "quantum-demo" not in (ROOT / "classrooms/management/commands/serve.py").read_text()


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
    from classrooms.csvcells import safe_cell

    join(Client(), session.join_code, "-Ada")
    join(Client(), session.join_code, "Bo")
    services.auto_pair(session)
    text = teacher_client.get(reverse("classrooms:report", args=[session.pk]) + "?format=csv").content.decode()
    names = {row["name"] for row in csv.DictReader(io.StringIO(text))}
    assert "'-Ada" in names and "-Ada" not in names and "Bo" in names
    for raw in ("=HYPERLINK(\"x\")", "+1+1", "@SUM(A1)", "\tx", "\rx", "-2+3"):
        assert safe_cell(raw) == "'" + raw
    assert safe_cell("-0.5000") == "-0.5000" and safe_cell(-3) == -3 and safe_cell("Ada") == "Ada"

"""Malformed requests to every page and API endpoint, from a teacher, a student and a stranger:
never a server error, and nothing changes in the class's data."""
from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from classrooms import services
from classrooms.models import Classroom, ClassSession, Participant
from games.models import Action, Match

pytestmark = pytest.mark.django_db

JUNK = [None, True, 0, -1, 1.5, 10**20, "", "x" * 5000, [], {}, {"a": 1}, [1, 2], "qtris", "quantum-poker",
        {"board": "nope"}, {"table_size": 99}, {"hands": -1}, {"community_cards": 0}, "\x00", {"$": {"$": []}}]
FIELDS = ["classroom", "game", "variant", "options", "seq", "action", "seat", "code", "name", "shots", "backend",
          "device", "what", "token", "json", "at", "participant"]


def junk_request(client: Client, url: str, rng: random.Random):
    body = {k: rng.choice(JUNK) for k in rng.sample(FIELDS, 4)}
    kind = rng.randrange(3)
    if kind == 0:
        return client.get(url, {k: json.dumps(v) for k, v in body.items()})
    if kind == 1:
        return client.post(url, json.dumps(body), content_type="application/json")
    return client.post(url, {k: json.dumps(v) for k, v in body.items()})


def snapshot_of_data() -> tuple:
    return (list(ClassSession.objects.values_list("id", "status", "join_code")),
            list(Participant.objects.values_list("id", "removed")),
            list(Match.objects.values_list("id", "seq", "status")), Action.objects.count())


def test_junk_everywhere_never_errors_and_changes_nothing():
    rng = random.Random(1)
    owner = User.objects.create_user("t", password="pw-long-enough-1")
    stranger_teacher = User.objects.create_user("o", password="pw-long-enough-1")
    classroom = Classroom.objects.create(teacher=owner, name="A")
    other_class = Classroom.objects.create(teacher=stranger_teacher, name="B")
    session = services.open_session(classroom, "quantum-tictactoe")
    student = Client()
    student.post("/join/", {"code": session.join_code, "name": "Ada"})
    Client().post("/join/", {"code": session.join_code, "name": "Bo"})
    services.auto_pair(session)
    services.start_all(session)
    match = Match.objects.get().pk
    teacher = Client()
    teacher.force_login(owner)
    s, c, oc = session.pk, classroom.pk, other_class.pk
    urls = [
        "/api/classes/", "/api/sessions/", f"/api/sessions/{s}/", f"/api/sessions/{s}/dashboard/",
        f"/api/matches/{match}/", f"/api/matches/{match}/actions/", f"/api/matches/{match}/replay/",
        "/join/", f"/lobby/{s}/", "/lobby/999/", f"/matches/{match}/", f"/matches/{match}/replay/",
        f"/teacher/classes/{c}/", f"/teacher/classes/{oc}/", f"/teacher/sessions/{s}/", "/teacher/",
        f"/matches/{match}/stats/", f"/matches/{match}/circuit/", f"/matches/{match}/circuit.qasm",
        f"/teacher/sessions/{s}/statistics/", f"/teacher/classes/{c}/quantum/", f"/teacher/classes/{c}/exercises/new/",
        f"/teacher/classes/{c}/exercises/validate/", "/api/runs/", "/api/runs/1/", "/api/runs/1/cancel/",
        f"/api/matches/{match}/odds/", f"/api/matches/{match}/circuit/", "/api/quantum/devices/",
        f"/api/sessions/{s}/statistics/", f"/api/classes/{c}/ibm-token/", f"/api/classes/{c}/quantum-policy/",
        f"/api/classes/{oc}/ibm-token/", "/api/games/",
        f"/teacher/classes/{c}/progress/", f"/teacher/classes/{oc}/progress/",
        f"/teacher/classes/{c}/members/1/progress/",
    ]
    before = snapshot_of_data()
    for client in (teacher, student, Client()):
        for url in urls:
            for _ in range(12):
                response = junk_request(client, url, rng)
                assert response.status_code < 500, (url, response.status_code)
    assert snapshot_of_data() == before

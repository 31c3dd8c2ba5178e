"""Every address a person can reach answers with a page in the app's words, whatever the method:
a GET of a form's action (a reload after posting, a bookmark, a link typed, e.g.
``/homework/<id>/play/``) goes back to the page the action belongs to and does nothing; any
other method an address does not take is answered with the app's 405 page (its error template,
the Allow header), never Django's blank 405. Every route of the app is walked, as the owning
teacher, as a student and as nobody."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone

from classrooms import cards, exercises, homework, services
from classrooms.models import Classroom, Participant, TicketMap
from tests.support.ticket_to_ride import small_map

pytestmark = pytest.mark.django_db

# the app's form actions: a GET of their address goes back to the page they belong to
ACTIONS = {
    "teacher/classes/<int:class_id>/delete/": "/teacher/classes/{class_id}/",
    "teacher/sessions/<int:session_id>/delete/": "/teacher/sessions/{session_id}/",
    "teacher/classes/<int:class_id>/exercises/validate/": "/teacher/classes/{class_id}/exercises/new/",
    "teacher/classes/<int:class_id>/exercises/<int:exercise_id>/open/": "/teacher/classes/{class_id}/",
    "teacher/classes/<int:class_id>/exercises/<int:exercise_id>/delete/": "/teacher/classes/{class_id}/",
    "teacher/classes/<int:class_id>/maps/<int:map_id>/delete/": "/teacher/classes/{class_id}/maps/",
    "teacher/classes/<int:class_id>/cards/enable/": "/teacher/classes/{class_id}/#cards",
    "teacher/classes/<int:class_id>/members/add/": "/teacher/classes/{class_id}/#cards",
    "teacher/classes/<int:class_id>/members/<int:member_id>/reissue/": "/teacher/classes/{class_id}/#cards",
    "teacher/classes/<int:class_id>/members/<int:member_id>/delete/": "/teacher/classes/{class_id}/#cards",
    "teacher/classes/<int:class_id>/homework/new/": "/teacher/classes/{class_id}/#homework",
    "teacher/classes/<int:class_id>/homework/<int:assignment_id>/delete/":
        "/teacher/classes/{class_id}/homework/{assignment_id}/",
    "homework/forget/": "/homework/",
    "homework/<int:assignment_id>/play/": "/homework/",
}


def routes() -> list[str]:
    """Every route of the app's pages (the API answers in JSON, the admin is Django's own)."""
    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            else:
                yield prefix + str(p.pattern)
    return [r for r in walk(get_resolver().url_patterns) if not r.startswith(("api/", "admin/"))]


@pytest.fixture
def world(teacher_user):
    """One of everything a route names, owned by the teacher; a student of the session."""
    classroom = Classroom.objects.create(teacher=teacher_user, name="9A")
    cards.set_cards_enabled(classroom, True)
    (member,) = cards.add_members(classroom, "Ada")
    session = services.open_session(classroom, "quantum-tictactoe")
    ada, bo = (Participant.objects.create(session=session, display_name=n) for n in ("Ada", "Bo"))
    table = services.seat_table(session, [ada, bo])
    exercise = exercises.create_exercise(classroom, "Opening", "qtris", "advanced",
                                         {"board": ["W", "B", "R", "L", "W", "B", "R", "L", "W"]})
    ticket_map = TicketMap.objects.create(classroom=classroom, name="Small", data=small_map())
    assignment = homework.create_assignment(classroom, "game:quantum-tictactoe:basic", bot_level="random",
                                            due_at=timezone.now() + timedelta(days=2))
    ids = {"class_id": classroom.pk, "session_id": session.pk, "exercise_id": exercise.pk,
           "map_id": ticket_map.pk, "member_id": member.pk, "assignment_id": assignment.pk,
           "match_id": table.match_id}
    teacher = Client()
    teacher.force_login(teacher_user)
    student = Client()
    student.post(reverse("classrooms:homework"), {"card": member.card_code})
    return ids, {"teacher": teacher, "student": student, "nobody": Client()}


def address(route: str, ids: dict) -> str:
    path = route
    for name, value in {**ids, "language": "es", "version": "0", "slug": "qtris"}.items():
        for kind in ("int", "str", "slug"):
            path = path.replace(f"<{kind}:{name}>", str(value))
    assert "<" not in path, f"no value for a part of {route}"
    return "/" + path


def assert_app_page(response, what: str) -> None:
    """An answer a person can read: a redirect, or a page of the app (never a blank one)."""
    if response.status_code in (301, 302, 303):
        return
    body = response.content.decode(errors="replace")
    assert response.status_code != 405 or 'data-status="405"' in body, f"a blank 405: {what}"
    if response.status_code == 405:
        assert "error-page" in body and response["Allow"], what
    kind = response.get("Content-Type", "")
    if response.status_code >= 400 and "json" not in kind:
        if kind.startswith("text/plain"):  # a file's address (circuit.qasm) says why in a sentence
            assert body.strip().endswith(".") and len(body) > 20, f"{response.status_code}: {what}"
        else:
            assert "<html" in body and 'class="panel' in body, f"{response.status_code} without the app's page: {what}"


def test_a_get_of_homework_play_goes_back_to_the_homework_page(world):
    ids, clients = world
    response = clients["student"].get(f"/homework/{ids['assignment_id']}/play/")
    assert response.status_code == 302 and response.url == "/homework/"
    page = clients["student"].get(response.url)
    assert page.status_code == 200 and "Start a game" in page.content.decode()
    assert not Participant.objects.filter(session__assignment__pk=ids["assignment_id"]).exists()  # nothing done


@pytest.mark.parametrize("route", ACTIONS)
def test_a_get_of_a_forms_action_goes_back_to_its_page_and_does_nothing(world, route):
    ids, clients = world
    client = clients["student" if route.startswith("homework/") else "teacher"]
    before = {name: str(value) for name, value in ids.items()}
    response = client.get(address(route, ids))
    assert response.status_code == 302, (route, response.status_code)
    assert response.url == ACTIONS[route].format(**ids)
    follow = client.get(response.url.split("#")[0])
    assert follow.status_code == 200, (route, response.url, follow.status_code)
    # nothing was done: the objects the action names are all still there
    assert Classroom.objects.filter(pk=before["class_id"]).exists()
    assert TicketMap.objects.filter(pk=before["map_id"]).exists()


def test_every_address_answers_every_method_with_a_page(world):
    ids, clients = world
    seen = 0
    for route in routes():
        path = address(route, ids)
        for who, client in clients.items():
            for method in ("get", "put", "patch", "delete"):
                response = getattr(client, method)(path)
                assert_app_page(response, f"{method.upper()} {path} as {who}")
                if method == "get":
                    assert response.status_code != 405, f"GET {path} as {who}"
                seen += 1
    assert seen > 150


def test_a_method_an_action_does_not_take_gets_the_405_page_in_the_readers_language(world):
    ids, clients = world
    response = clients["student"].put(f"/homework/{ids['assignment_id']}/play/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 405 and response["Allow"] == "POST"
    body = response.content.decode()
    assert 'data-status="405"' in body and 'lang="es"' in body


def test_opening_the_logout_address_shows_its_button_and_logs_nobody_out(world):
    ids, clients = world
    page = clients["teacher"].get("/accounts/logout/")
    assert page.status_code == 200 and "data-logout" in page.content.decode()
    assert clients["teacher"].get(f"/teacher/classes/{ids['class_id']}/").status_code == 200  # still logged in
    assert clients["nobody"].get("/accounts/logout/").url == "/accounts/login/"
    clients["teacher"].post("/accounts/logout/")  # the button logs out
    assert clients["teacher"].get(f"/teacher/classes/{ids['class_id']}/").status_code == 302

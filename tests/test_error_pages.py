"""The app's own error pages: in words a student understands, with DEBUG on and off; pages that
choose their own error status keep it; the API keeps answering in JSON."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import Client
from django.urls import path

from classrooms import services
from classrooms.models import Classroom
from config import urls as app_urls

pytestmark = pytest.mark.django_db


def _boom(request):
    raise RuntimeError("the flux capacitor")


def _forbidden(request):
    raise PermissionDenied


def _gone(request):
    raise Http404("This table was cleared by your teacher.")


urlpatterns = [path("boom/", _boom), path("forbidden/", _forbidden), path("gone/", _gone),
               *app_urls.urlpatterns]
handler500 = "core.pages.server_error"


@pytest.fixture(params=[True, False], ids=["debug-on", "debug-off"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


def _friendly(response, status: int) -> str:
    body = response.content.decode()
    assert response.status_code == status
    assert f'data-status="{status}"' in body, body[:600]
    assert "Traceback" not in body and "Using the URLconf" not in body and "technical" not in body.lower()
    return body


@pytest.mark.parametrize("url", ["/no-such-page/", "/lobby/999999/", "/matches/999999/",
                                 "/matches/999999/replay/", "/matches/999999/stats/",
                                 "/matches/999999/circuit/"])
def test_a_missing_page_is_the_apps_own_404(debug, url):
    body = _friendly(Client().get(url), 404)
    assert "This page is not here" in body
    assert 'href="/join/"' in body  # a way back for a student


def test_the_apps_own_words_are_shown_but_not_djangos(debug, settings):
    body = _friendly(Client().get("/lobby/999999/"), 404)
    assert "You have not joined this session" in body
    other = User.objects.create_user("mr-bohr", password="complementarity-1927")
    session = services.open_session(Classroom.objects.create(teacher=other, name="9A"), "quantum-tictactoe")
    teacher = Client()
    teacher.force_login(User.objects.create_user("ms-noether", password="symmetry-1918"))
    body = _friendly(teacher.get(f"/teacher/sessions/{session.pk}/"), 404)
    assert "matches the given query" not in body and "ClassSession" not in body
    assert 'href="/teacher/"' in body or "My classes" in body


@pytest.mark.urls(__name__)
def test_403_and_404_raised_anywhere_and_500_are_friendly(debug):
    client = Client(raise_request_exception=False)
    _friendly(client.get("/forbidden/"), 403)
    assert "This table was cleared by your teacher." in _friendly(client.get("/gone/"), 404)
    if not debug:  # with DEBUG on a developer sees the traceback of a real crash
        body = _friendly(client.get("/boom/"), 500)
        assert "flux capacitor" not in body and "Something went wrong on our side" in body


def test_a_page_with_its_own_error_status_keeps_it(debug):
    response = Client().post("/join/", {"code": "WRONG9", "name": "Ada"})
    assert response.status_code == 404 and "No open class session has that code" in response.content.decode()


def test_the_api_still_answers_in_json(debug):
    response = Client().get("/api/no-such-endpoint/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_stale_form_is_explained(debug):
    client = Client(enforce_csrf_checks=True)
    body = _friendly(client.post("/join/", {"code": "ABC234", "name": "Ada"}), 403)
    assert "This form is too old" in body


def test_an_address_without_its_slash_still_redirects(debug):
    response = Client().get("/join")
    assert response.status_code == 301 and response["Location"] == "/join/"

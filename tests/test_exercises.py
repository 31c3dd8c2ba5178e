"""Exercise mode: compose / validate / save a QTris starting position and open a session from it;
bad JSON or a bad position gives the engine's clear error and saves nothing; teachers only."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from classrooms import exercises
from classrooms.models import Classroom, ClassSession, Exercise
from games.engines import get_game
from tests.support.browser import shot

pytestmark = pytest.mark.django_db

POSITION = {
    "board": ["W", "B", "R", "L", ["W", "R"], "U:W", "W", None, None],
    "pairs": [{"squares": [8, 9], "state": "psi-", "decoration": "H"}],
    "hands": [["U", "CX", "X", "H"], ["Z", "Y", "I", "X"]],
    "deck": ["I"] * 24,
    "first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True,
}


@pytest.fixture
def teacher_user():
    return User.objects.create_user("ms-noether", password="symmetry-1918-Emmy")


@pytest.fixture
def classroom(teacher_user):
    return Classroom.objects.create(teacher=teacher_user, name="10B")


@pytest.fixture
def client_in(client, teacher_user):
    client.force_login(teacher_user)
    return client


def urls(classroom, exercise=None):
    out = {"new": reverse("classrooms:exercise-new", args=[classroom.pk]),
           "validate": reverse("classrooms:exercise-validate", args=[classroom.pk]),
           "class": reverse("classrooms:classroom", args=[classroom.pk])}
    if exercise is not None:
        out["open"] = reverse("classrooms:exercise-open", args=[classroom.pk, exercise.pk])
        out["delete"] = reverse("classrooms:exercise-delete", args=[classroom.pk, exercise.pk])
    return out


def test_editor_page_has_the_rulebook_examples(client_in, classroom):
    page = client_in.get(urls(classroom)["new"])
    assert page.status_code == 200
    text = page.content.decode()
    assert "Exercise 3.4.4" in text and "exercise-editor.js" in text
    assert 'id="ex-json"' in text


def test_examples_are_valid_positions():
    for ex in exercises.EXAMPLES:
        options, state = exercises.validate(ex["game"], ex["variant"], ex["options"])
        assert state["phase"] == "operations"


def test_validate_returns_the_starting_board(client_in, classroom):
    reply = client_in.post(urls(classroom)["validate"], {"variant": "advanced", "options": POSITION},
                           content_type="application/json").json()
    assert reply["ok"] is True
    view = reply["payload"]["view"]
    assert view["hand"] is None and "deck" not in view  # a spectator's view: nothing hidden
    assert view["board"]["squares"][7]["members"][0]["decoration"] == "H"
    assert reply["payload"]["analysis"]["p_white"][4] == pytest.approx(0.75)
    assert Exercise.objects.count() == 0  # validating saves nothing


def test_save_then_open_a_session_that_plays_the_position(client_in, classroom):
    response = client_in.post(urls(classroom)["new"], {"name": "Kittens mix", "variant": "advanced",
                                                       "options": json.dumps(POSITION)})
    assert response.status_code == 302 and response["Location"] == urls(classroom)["class"]
    ex = Exercise.objects.get()
    assert ex.classroom == classroom and ex.game == "qtris" and ex.variant == "advanced"
    assert ex.options == POSITION
    page = client_in.get(urls(classroom)["class"]).content.decode()
    assert "Kittens mix" in page and urls(classroom, ex)["open"] in page

    response = client_in.post(urls(classroom, ex)["open"])
    assert response.status_code == 302
    session = ClassSession.objects.get()
    assert response["Location"] == reverse("classrooms:dashboard", args=[session.pk])
    assert session.game == "qtris" and session.variant == "advanced"
    assert session.options["board"] == POSITION["board"] and session.options["table_size"] == 2
    # every table's engine starts from exactly this position
    game = get_game("qtris")
    opts = {k: v for k, v in session.options.items() if k != "table_size"}
    for seed in (1, 2, 99):
        state = game.setup(players=2, variant="advanced", seed=seed, options=opts)
        assert state["hands"][1] == POSITION["hands"][1] and state["phase"] == "operations"
        assert state["board"][4]["members"] == [{"tile": "W", "weight": "1/2"}, {"tile": "R", "weight": "1/2"}]


def test_open_session_from_an_example_via_services(classroom):
    ex = exercises.create_exercise(classroom, "3.4.4", "qtris", "advanced", exercises.EXAMPLES[0]["options"])
    session = exercises.open_session_from(ex, show_odds=False)
    assert session.options["hands"] == exercises.EXAMPLES[0]["options"]["hands"]
    assert session.show_odds is False


@pytest.mark.parametrize("text, words", [
    ("{\"board\": [", "not valid JSON: line 1"),
    ("[1, 2]", "must be a JSON object"),
    ("", "empty"),
])
def test_bad_json_is_a_clear_error_and_nothing_is_saved(client_in, classroom, text, words):
    response = client_in.post(urls(classroom)["new"], {"name": "Broken", "variant": "advanced", "options": text})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert 'data-testid="exercise-error"' in response.content.decode()
    assert Exercise.objects.count() == 0


@pytest.mark.parametrize("change, words", [
    ({"board": ["W"] * 8}, "board must be a list of 9 entries"),
    ({"board": ["W", "B", "R", "Q", "W", "B", "R", "L", "W"], "pairs": []}, "'Q' is not a tile of this variant"),
    ({"hands": [["U", "CX", "X"], ["Z", "Y", "I", "X"]]}, "hand 1 has 3 cards, not 4"),
    ({"pairs": [{"squares": [8, 9], "state": "bell"}]}, "state must be one of"),
    ({"colors": ["white", "white"]}, "different colours"),
    ({"teleport": True}, "Options this game does not know: teleport."),
])
def test_bad_position_shows_the_engines_error_and_saves_nothing(client_in, classroom, change, words):
    options = {**POSITION, **change}
    response = client_in.post(urls(classroom)["new"], {"name": "Bad", "variant": "advanced",
                                                       "options": json.dumps(options)})
    assert response.status_code == 400
    assert words in response.content.decode().replace("&#x27;", "'")
    assert Exercise.objects.count() == 0
    reply = client_in.post(urls(classroom)["validate"], {"variant": "advanced", "options": options},
                           content_type="application/json").json()
    assert reply["ok"] is False and words in reply["message"]


def test_a_u_tile_is_not_in_the_basic_variant(client_in, classroom):
    response = client_in.post(urls(classroom)["new"], {"name": "Basic U", "variant": "basic",
                                                       "options": json.dumps(POSITION)})
    assert response.status_code == 400 and Exercise.objects.count() == 0


def test_teachers_only(client, classroom, teacher_user):
    ex = exercises.create_exercise(classroom, "Mine", "qtris", "advanced", POSITION)
    u = urls(classroom, ex)
    # anonymous: sent to the login page, nothing happens
    for method, url in (("get", u["new"]), ("post", u["validate"]), ("post", u["open"]), ("post", u["delete"])):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    # another teacher: not found, nothing opened or deleted
    other = User.objects.create_user("mr-dirac", password="antimatter-1928-Paul")
    client.force_login(other)
    assert client.get(u["new"]).status_code == 404
    assert client.post(u["validate"], {"options": POSITION}, content_type="application/json").status_code == 404
    assert client.post(u["open"]).status_code == 404
    assert client.post(u["delete"]).status_code == 404
    assert client.post(u["new"], {"name": "x", "variant": "advanced", "options": json.dumps(POSITION)}).status_code == 404
    assert client.get(u["new"] + f"?from={ex.pk}").status_code == 404
    assert ClassSession.objects.count() == 0 and Exercise.objects.count() == 1
    # the owner may delete it
    client.force_login(teacher_user)
    assert client.get(u["new"] + f"?from={ex.pk}").status_code == 200
    assert client.post(u["delete"]).status_code == 302
    assert Exercise.objects.count() == 0


@pytest.mark.browser
@pytest.mark.server
def test_editor_in_a_browser_loads_an_example_validates_and_saves(chromium, server, teacher):
    from playwright.sync_api import expect

    from tests.support.clients import Teacher
    from tests.support.tables import TEACHER

    web = Teacher(server)
    web.login(*TEACHER)
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    context = chromium.new_context(viewport={"width": 1400, "height": 1100})
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in web.http.cookies])
    page = context.new_page()
    page.goto(server.url + reverse("classrooms:classroom", args=[classroom.pk]))
    page.click("[data-testid=new-exercise]")
    page.select_option("#ex-example", "0")
    expect(page.locator("#ex-result")).to_have_attribute("data-state", "ok")
    expect(page.locator("#board .qtris-board")).to_be_visible()
    # the visual editor: put a U-decorated kitten on square 1, see it in the JSON
    page.click("[data-tile='U:R']")
    page.click(".ex-sq[data-square='1']")
    assert json.loads(page.locator("#ex-json").input_value())["board"][0] == "U:R"
    expect(page.locator("#ex-result")).to_have_attribute("data-state", "ok")
    # a broken position pasted as JSON: the engine's error, before saving
    page.fill("#ex-json", json.dumps({**POSITION, "hands": [["U"], ["X"]]}))
    page.click("#ex-validate")
    expect(page.locator("#ex-result")).to_contain_text("hand 1 has 1 card, not 4")
    page.click("#ex-load-json")  # back to a good one from the example list
    page.select_option("#ex-example", "1")
    expect(page.locator("#ex-result")).to_have_attribute("data-state", "ok")
    shot(page, "qtris-exercise-editor.png", full_page=True)
    page.click("#ex-save")
    expect(page.locator("#exercises")).to_contain_text("Exercise 3.4.4")
    page.click("[data-open-exercise]")
    expect(page.locator("[data-testid=join-code]")).to_be_visible()
    session = ClassSession.objects.get()
    assert session.game == "qtris" and session.options["skip_mulligan"] is True


@pytest.mark.parametrize("lang, change, words", [
    ("es", "{\"board\": [", "La posición no es un JSON válido: línea 1, columna 12: se esperaba un valor."),
    ("pl", "{\"board\": [1,]", "Pozycja nie jest poprawnym JSON-em: wiersz 1, kolumna 14: brak oczekiwanej wartości."),
    ("es", {"board": ["W", "B", "R", "Q", "W", "B", "R", "L", "W"], "pairs": []},
     "casilla 4: 'Q' no es una ficha de esta variante (permitidas: W, B, R, L"),
    ("pl", {"board": ["W"] * 8}, "board musi być listą 9 pozycji, po jednej na pole 1–9"),
    ("pl", {"board": ["W", "B", "R", "UP", "W", "B", "R", "L", "W"], "pairs": []},
     "pole 4: 'UP' nie jest płytką tego wariantu (dozwolone: W, B, R, L"),
    ("es", {"pairs": [{"squares": [8, 9], "state": "psi-", "decoration": "H"}, {"squares": [9, 7], "state": "phi+"}],
            "board": ["W", "B", "R", "L", "W", "B", None, None, None]}, "la casilla 9 está en dos pares"),
    ("pl", {"teleport": True}, "Ustawienia nieznane w tej grze: teleport."),
])
def test_the_editors_refusals_read_in_the_readers_language(client_in, classroom, lang, change, words):
    """The editor's refusals, the engine's board errors (UP / DOWN tiles named as kittens) and
    the JSON parser's own words included, in the reader's language."""
    text = change if isinstance(change, str) else json.dumps({**POSITION, **change})
    response = client_in.post(urls(classroom)["new"], {"name": "Bad", "variant": "advanced", "options": text},
                              HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 400
    assert words in response.content.decode().replace("&#x27;", "'")
    reply = client_in.post(urls(classroom)["validate"], {"variant": "advanced", "options": text},
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang).json()
    assert reply["ok"] is False and words in reply["message"]


def test_a_copy_is_named_in_the_readers_language(client_in, classroom):
    ex = exercises.create_exercise(classroom, "Mine", "qtris", "advanced", POSITION)
    page = client_in.get(urls(classroom)["new"] + f"?from={ex.pk}", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'value="Mine (kopia)"' in page and "(copy)" not in page

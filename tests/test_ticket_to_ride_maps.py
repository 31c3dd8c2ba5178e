"""Teachers upload Quantum Ticket-to-Ride maps: a good map is stored on the class and can be
chosen for a session (its tables are dealt on it); every broken upload names its problem and
stores nothing; a student cannot reach the page; the dashboard (teacher) shows claimed routes
and who is closest to a mission; the session report lists missions completed with circuits."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from classrooms import services, ticket_maps
from classrooms.models import Classroom, ClassSession, TicketMap
from games.engines import get_game
from games.models import Match
from games.selectors import current_state
from games.services import start_match, submit_action
from tests.support.ticket_to_ride import (
    OTHER_MISSION,
    RUNNER_MISSION,
    quick_seed,
    scripted_action,
    small_map,
)

pytestmark = pytest.mark.django_db
GAME = "quantum-ticket-to-ride"



@pytest.fixture(autouse=True)
def fresh_state_cache():
    """Tests reuse match ids (rolled back) with chosen seeds: the in-process state cache, keyed by
    (match id, seed), must not hand one test's state to the next."""
    from classrooms import ticket_progress
    from games import state_cache

    for cache in (state_cache._states, ticket_progress._analyses):
        cache.clear()
    yield
    for cache in (state_cache._states, ticket_progress._analyses):
        cache.clear()

@pytest.fixture
def teacher_client(classroom):
    c = Client()
    c.force_login(classroom.teacher)
    return c


def upload(client, classroom, content, name="Central Europe", filename="map.json"):
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    return client.post(f"/teacher/classes/{classroom.pk}/maps/",
                       {"name": name, "map_file": SimpleUploadedFile(filename, data, "application/json")})


def test_a_good_map_is_stored_and_a_session_of_the_class_is_dealt_on_it(teacher_client, classroom):
    response = upload(teacher_client, classroom, small_map())
    assert response.status_code == 302
    stored = TicketMap.objects.get()
    assert stored.classroom == classroom and stored.name == "Central Europe"
    assert [c["name"] for c in stored.data["cities"]][:2] == ["Berlin", "Munich"]
    page = teacher_client.get(f"/teacher/classes/{classroom.pk}/maps/").content.decode()
    assert "Central Europe" in page
    # the open-session form offers it; the session's tables play on it, at the level chosen
    form = teacher_client.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    assert f'<option value="{stored.pk}">Central Europe</option>' in form
    response = teacher_client.post(f"/teacher/classes/{classroom.pk}/", {
        "game": GAME, "variant": "basic", "table_size": 2, "bot_level": "strong",
        "max_participants": 30, "ticket_map": str(stored.pk), "options": ""})
    assert response.status_code == 302, response.content.decode()[:2000]
    session = ClassSession.objects.get(game=GAME)
    assert session.variant == "basic" and session.options["map"]["name"] == "Central Europe (test)"
    for name in ("Ada", "Bo"):
        Client().post("/join/", {"code": session.join_code, "name": name})
    table = services.auto_pair(session)[0]
    state = current_state(table.match)
    assert {m["id"] for m in state["missions"]} == {RUNNER_MISSION, OTHER_MISSION}
    assert len(state["map"]["routes"]) == 6


def test_a_session_without_a_map_uses_europe_and_the_variant_is_the_mission_level(teacher_client, classroom):
    response = teacher_client.post(f"/teacher/classes/{classroom.pk}/", {
        "game": GAME, "variant": "advanced", "table_size": 2, "bot_level": "strong",
        "max_participants": 30, "ticket_map": "", "options": ""})
    assert response.status_code == 302
    session = ClassSession.objects.get(game=GAME)
    assert "map" not in session.options and session.variant == "advanced"
    state = get_game(GAME).setup(players=2, variant=session.variant, seed=3, options=services.engine_options(session))
    assert all(m["level"] == "advanced" and m["qubits"] == 2 for m in state["missions"])


def test_a_map_of_another_class_cannot_be_chosen(teacher_client, classroom):
    other = Classroom.objects.create(teacher=User.objects.create_user("other", password="pw-123456789"), name="B")
    foreign = TicketMap.objects.create(classroom=other, name="theirs", data=small_map())
    with pytest.raises(ticket_maps.MapError) as exc:
        ticket_maps.session_options(classroom, str(foreign.pk))
    assert exc.value.code == "no_map"
    response = teacher_client.post(f"/teacher/classes/{classroom.pk}/", {
        "game": GAME, "variant": "basic", "table_size": 2, "bot_level": "strong",
        "max_participants": 30, "ticket_map": str(foreign.pk), "options": ""})
    assert response.status_code == 200 and not ClassSession.objects.exists()


def broken(change):
    data = small_map()
    change(data)
    return data


BROKEN = {
    "disconnected": (lambda: broken(lambda m: m["cities"].append({"name": "Reykjavik", "x": 20, "y": 20})),
                     "not connected"),
    "unknown gate": (lambda: broken(lambda m: m["routes"][3].update(gate="T")), "unknown gate 'T'"),
    "length 0": (lambda: broken(lambda m: m["routes"][4].update(length=0)), "length must be a whole number"),
    "unknown city": (lambda: broken(lambda m: m["routes"][5].update(b="Atlantis")), "(Madrid–Atlantis): 'b' is not a city"),
    # no route changes |0⟩ into |1⟩ between Paris and Madrid except through Berlin... all I and Y²
    "unsolvable mission": (lambda: broken(lambda m: m["missions"][1].update(target_state="1")), OTHER_MISSION),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_map_names_its_problem_and_nothing_is_stored(teacher_client, classroom, case):
    make, problem = BROKEN[case]
    response = upload(teacher_client, classroom, make())
    assert response.status_code == 400
    page = response.content.decode()
    assert "The map was not saved" in page and problem in page.replace("&#x27;", "'"), page[-3000:]
    assert not TicketMap.objects.exists()


def test_every_problem_of_a_map_is_listed_at_once(teacher_client, classroom):
    data = broken(lambda m: (m["routes"][3].update(gate="T"), m["routes"][4].update(length=0),
                             m["routes"][5].update(b="Atlantis")))
    page = upload(teacher_client, classroom, data).content.decode().replace("&#x27;", "'")
    for problem in ("unknown gate 'T'", "length must be a whole number", "Atlantis"):
        assert problem in page
    assert page.count("<li>") >= 3 and not TicketMap.objects.exists()


@pytest.mark.parametrize("content, problem", [
    (b"{cities: [Berlin", "not valid JSON"),
    (b"\xff\xfe\x00garbage", "not text"),
    (b"", "The map is empty"),
    (b"[1, 2, 3]", "must be a JSON object"),
    (b'{"cities": ' + b"[" * 40 + b"]" * 40 + b"}", "nested too deeply"),
])
def test_an_upload_that_is_not_a_json_map_is_refused(teacher_client, classroom, content, problem):
    response = upload(teacher_client, classroom, content)
    assert response.status_code == 400 and problem in response.content.decode()
    assert not TicketMap.objects.exists()


def test_a_map_file_over_the_cap_is_refused_by_its_size(teacher_client, classroom):
    data = small_map()
    data["description"] = "x" * 400
    text = json.dumps(data, indent=1).encode()
    padded = text[:-1] + b" " * (ticket_maps.MAX_MAP_BYTES + 10 - len(text)) + b"}"
    response = upload(teacher_client, classroom, padded)
    assert response.status_code == 400
    assert "too large" in response.content.decode() and not TicketMap.objects.exists()


def test_pasted_json_works_too_and_a_map_can_be_deleted(teacher_client, classroom):
    response = teacher_client.post(f"/teacher/classes/{classroom.pk}/maps/",
                                   {"name": "", "map_json": json.dumps(small_map())})
    assert response.status_code == 302
    stored = TicketMap.objects.get()
    assert stored.name == "Central Europe (test)"  # the map's own name when none is typed
    assert teacher_client.post(f"/teacher/classes/{classroom.pk}/maps/{stored.pk}/delete/").status_code == 302
    assert not TicketMap.objects.exists()


def test_students_and_other_teachers_cannot_reach_the_map_page(classroom, session):
    student = Client()
    student.post("/join/", {"code": session.join_code, "name": "Ada"})
    url = f"/teacher/classes/{classroom.pk}/maps/"
    for response in (student.get(url), student.post(url, {"map_json": json.dumps(small_map())})):
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    other = Client()
    other.force_login(User.objects.create_user("other", password="pw-123456789"))
    assert other.get(url).status_code == 404
    assert other.post(url, {"map_json": json.dumps(small_map())}).status_code == 404
    assert not TicketMap.objects.exists()


def test_the_upload_needs_the_csrf_token(classroom):
    c = Client(enforce_csrf_checks=True)
    c.force_login(classroom.teacher)
    response = c.post(f"/teacher/classes/{classroom.pk}/maps/", {"map_json": json.dumps(small_map())})
    assert response.status_code == 403 and not TicketMap.objects.exists()


# ------------------------------------------------------------------ class use

def play_scripted(match: Match, until_claims: int | None = None) -> None:
    """The tests' script (see tests.support.ticket_to_ride) through the platform's services."""
    game = get_game(GAME)
    while True:
        match.refresh_from_db()
        state = current_state(match)
        if state["finished"] or (until_claims is not None and sum(o is not None for o in state["owners"]) >= until_claims):
            return
        seat = game.to_act(state)[0]
        submit_action(match.pk, seat, match.seq, scripted_action(state, seat))


@pytest.fixture
def ticket_table(classroom):
    session = services.open_session(classroom, GAME, options={"map": small_map()}, bot_level="strong")
    for name in ("Ada", "Bo"):
        Client().post("/join/", {"code": session.join_code, "name": name})
    table = services.auto_pair(session)[0]
    Match.objects.filter(pk=table.match_id).update(seed=quick_seed())
    start_match(table.match_id)
    return session, table.match


def test_the_dashboard_shows_claimed_routes_and_who_is_closest_to_the_teacher_only(
        teacher_client, ticket_table):
    session, match = ticket_table
    play_scripted(match, until_claims=3)
    dashboard = teacher_client.get(f"/api/sessions/{session.pk}/dashboard/").json()
    ticket = dashboard["tables"][0]["ticket"]
    state = current_state(match)
    owned = [(r, o) for r, o in enumerate(state["owners"]) if o is not None]
    assert [(c["route"], c["owner"]) for c in ticket["claimed"]] == owned
    names = {s.index: s.name for s in match.seats.all()}
    assert {c["owner_name"] for c in ticket["claimed"]} <= set(names.values())
    analysis = get_game(GAME).analysis(state)
    assert ticket["closest"] == analysis["closest"] and ticket["closest"]
    needed = {p["seat"]: p["cards_needed"] for p in ticket["players"]}
    assert needed == {p["seat"]: p["cards_needed"] for p in analysis["players"]}
    assert any("Berlin |0⟩ → Rome |1⟩" == p["mission"] for p in ticket["players"])
    # a student's lobby (the same socket's other payload) never carries the missions
    from classrooms.models import Participant
    from classrooms.selectors import lobby_payload

    lobby = json.dumps(lobby_payload(session, Participant.objects.first()), ensure_ascii=False)
    assert RUNNER_MISSION not in lobby and "Rome |1⟩" not in lobby and "ticket" not in lobby


def test_the_report_lists_the_missions_completed_with_their_circuits(teacher_client, ticket_table):
    session, match = ticket_table
    play_scripted(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome["reason"] == "mission"
    page = teacher_client.get(f"/teacher/sessions/{session.pk}/report/").content.decode()
    assert 'id="missions-completed"' in page
    assert "Berlin |0⟩ → Rome |1⟩" in page and "Berlin → Munich → Vienna → Rome" in page
    assert "|0⟩ → H → Z → H → |1⟩?" in page  # the circuit: the path's gates, measured against |1⟩
    assert f"/matches/{match.pk}/circuit/" in page


def test_the_api_opens_a_session_on_a_stored_map(teacher_client, classroom):
    stored = TicketMap.objects.create(classroom=classroom, name="small", data=small_map())
    response = teacher_client.post("/api/sessions/", {"classroom": classroom.pk, "game": GAME, "variant": "basic",
                                                      "ticket_map": stored.pk}, content_type="application/json")
    assert response.status_code == 201, response.content
    assert ClassSession.objects.get(pk=response.json()["id"]).options["map"]["cities"][0]["name"] == "Berlin"
    response = teacher_client.post("/api/sessions/", {"classroom": classroom.pk, "game": GAME,
                                                      "ticket_map": stored.pk + 99}, content_type="application/json")
    assert response.status_code == 400 and "no_map" in response.content.decode()
    response = teacher_client.post("/api/sessions/", {"classroom": classroom.pk, "game": "qtris", "ticket_map": stored.pk},
                                   content_type="application/json")
    assert response.status_code == 400 and "Only Quantum Ticket-to-Ride" in response.content.decode()
    assert ClassSession.objects.count() == 1


def test_the_dashboard_seats_one_table_on_a_map_of_the_class(teacher_client, classroom):
    from classrooms.consumers import _command
    from classrooms.models import Participant

    session = services.open_session(classroom, GAME, bot_level="strong")  # the session: Europe
    stored = TicketMap.objects.create(classroom=classroom, name="small", data=small_map())
    for name in ("Ada", "Bo", "Cy", "Di"):
        Client().post("/join/", {"code": session.join_code, "name": name})
    ada, bo, cy, di = Participant.objects.filter(session=session).order_by("id")
    page = teacher_client.get(f"/teacher/sessions/{session.pk}/").content.decode()
    assert f'<option value="{stored.pk}">small</option>' in page
    assert _command(session.pk, {"type": "seat_table", "participants": [ada.pk, bo.pk], "ticket_map": stored.pk}) is None
    assert _command(session.pk, {"type": "seat_table", "participants": [cy.pk, di.pk]}) is None
    first, second = [t.match for t in session.tables.order_by("number")]
    assert first.options["map"]["name"] == "Central Europe (test)" and "map" not in second.options
    assert len(current_state(first)["map"]["cities"]) == 6 and len(current_state(second)["map"]["cities"]) == 27
    # a map that is not one of the class's seats nobody
    assert _command(session.pk, {"type": "seat_table", "participants": [], "ticket_map": stored.pk + 9}).code == "no_map"
    assert session.tables.count() == 2

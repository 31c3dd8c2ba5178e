"""The projector view in a real browser: the join code and QR while the lobby is open,
students counted as they join, then live standings and the teaching moments of the game as it
is played (no reload), and a podium when every table has finished; axe passes and a 375 px
phone needs no sideways scrolling in every state."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.support.axe import assert_no_serious_violations
from tests.support.browser import log_in, shot
from tests.support.clients import Student, Teacher, students_joined
from tests.support.phone import phone_problems
from tests.support.tables import TEACHER

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = 375
NO_SIDEWAYS = f"() => Math.max(document.documentElement.scrollWidth, innerWidth) - {PHONE}"


def check_state(page, name: str) -> None:
    """axe at the projector's size, then no sideways scrolling on a phone."""
    assert_no_serious_violations(page, f"projector view: {name}")
    size = page.viewport_size
    page.set_viewport_size({"width": PHONE, "height": 740})
    assert page.evaluate(NO_SIDEWAYS) <= 0, f"{name}: wider than a {PHONE} px phone"
    page.set_viewport_size(size)


def play(student: Student, match_id: int, action: dict) -> None:
    seq = Match.objects.get(pk=match_id).seq
    response = student.api("POST", f"/api/matches/{match_id}/actions/", {"seq": seq, "action": action})
    assert response.status_code == 200, response.text


def test_the_projector_follows_the_lesson_from_join_code_to_podium(chromium, server, teacher):
    owner = Teacher(server)
    owner.login(*TEACHER)
    session = owner.open_session("quantum-tictactoe")
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    log_in(page, server.url)
    page.goto(server.url + f"/teacher/sessions/{session['id']}/")
    with page.context.expect_page() as opened:
        page.click("#projector-link")   # opens in a new tab
    screen = opened.value
    expect(screen.locator("[data-testid=screen-code]")).to_have_text(session["join_code"])
    expect(screen.locator("#screen-join .qr svg")).to_be_visible()
    controls = screen.locator("button:visible, input:visible, select:visible, a:visible")
    assert controls.count() <= 1 and all(c.get_attribute("id") == "screen-fullscreen" for c in controls.all())
    check_state(screen, "lobby")

    students = students_joined(server, session["join_code"])
    expect(screen.locator("#screen-joined")).to_have_text("2 students have joined")   # live, no reload

    assert owner.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    match_id = owner.api("POST", f"/api/sessions/{session['id']}/start-all/").json()["tables"][0]["match"]
    expect(screen.locator("#screen-join")).to_be_hidden()          # play started: the big code leaves the board
    corner = screen.locator("[data-testid=screen-join-corner]")      # ... for a small one in a corner
    expect(corner).to_be_visible()
    expect(corner.locator(".corner-code")).to_have_text(session["join_code"])
    expect(corner.locator(".qr svg")).to_be_visible()
    expect(screen.locator("[data-testid=screen-tables] li[data-table='1']")).to_have_attribute("data-status", "playing")
    expect(screen.locator("[data-testid=standings] tbody tr")).to_have_count(2)
    check_state(screen, "playing")
    # from the back of the room, on a 1920 × 1080 projector: the results are 32 px and more, and
    # the corner with the code sits in the top right quarter
    screen.set_viewport_size({"width": 1920, "height": 1080})
    for part in ("#standings", "#screen-tables", "[data-testid=screen-join-corner]"):
        assert phone_problems(screen, within=part, min_text=32)["tiny"] == [], part
    box = corner.bounding_box()
    assert box["x"] >= 1920 / 2 and box["y"] + box["height"] <= 1080 / 2, box
    shot(screen, "projector-playing.png")
    screen.set_viewport_size({"width": 1280, "height": 800})

    seat = {s.api("GET", f"/api/matches/{match_id}/").json()["seat"]: s for s in students}
    # X and O both put their marks on 1 and 2: a 2-cycle; X chooses where O's mark lands
    for who, action in ((0, {"squares": [1, 2]}), (1, {"squares": [1, 2]}), (0, {"collapse": 2})):
        play(seat[who], match_id, action)
    moment = screen.locator("[data-testid=moments] li[data-kind=cycle_collapse]")
    expect(moment).to_have_count(1)
    expect(moment).to_contain_text("Table 1: A 2-cycle collapsed (1-2-1)")
    expect(screen.locator("[data-testid=announce]")).to_contain_text("A 2-cycle collapsed")

    for _ in range(30):   # play on, the first legal move each time, until the game is over
        state = owner.api("GET", f"/api/matches/{match_id}/").json()
        if state["status"] != "playing":
            break
        who = state["to_act"][0]
        legal = seat[who].api("GET", f"/api/matches/{match_id}/").json()["legal"]
        play(seat[who], match_id, legal[0])
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED
    podium = screen.locator("[data-testid=podium] li")
    expect(screen.locator("#screen-podium")).to_be_visible()
    winners = match.outcome["winners"]
    expect(podium).to_have_count(2)
    rows = screen.locator("[data-testid=standings] tbody tr")
    if len(winners) == 1:   # a win: first and second place; a draw: both first, and it says so
        expect(podium.locator(".podium-place")).to_have_text(["Place 1", "Place 2"])
        expect(rows.locator(".tied")).to_have_count(0)
    else:
        expect(podium.locator(".podium-place")).to_have_text(["Place 1, tied", "Place 1, tied"])
        expect(rows.locator("td.place")).to_have_text(["1 tied", "1 tied"])
    expect(rows.first).to_have_attribute("data-place", "1")
    check_state(screen, "podium")
    # the session locked: nobody can join, the corner with the code goes
    expect(corner).to_be_visible()
    assert owner.api("POST", f"/api/sessions/{session['id']}/lock/").status_code == 200
    expect(corner).to_be_hidden()

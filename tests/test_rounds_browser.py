"""Rounds in Chromium: a teacher and four students (one on a 375 px phone) play two rounds of
quantum tic-tac-toe; the students are re-paired, moved to their new tables live, and the
standings update live on the dashboard and in the lobbies; axe on the dashboard with standings.

``rounds_class`` returns the session id and the pages, so other pages of the session (the
projector's ``/sessions/<id>/screen/``) can be opened beside them."""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from tests.support.axe import assert_no_serious_violations
from tests.support.browser import log_in_teacher, student_joins
from tests.support.clients import Teacher
from tests.support.tables import TEACHER

pytestmark = [pytest.mark.server, pytest.mark.browser]

NAMES = ("Ada", "Bo", "Cy", "Di")


@dataclass
class RoundsClass:
    session_id: int
    teacher: Teacher  # the same teacher over the API
    dashboard: object  # the teacher's page
    students: dict  # name -> page (the last one a 375 px phone)


def rounds_class(chromium, server, game: str = "quantum-tictactoe", names=NAMES, **session_extra) -> RoundsClass:
    """A session whose students have joined in their own browsers, the dashboard open."""
    teacher = Teacher(server)
    teacher.login(*TEACHER)
    session = teacher.open_session(game, **session_extra)
    dashboard = log_in_teacher(chromium, server)
    dashboard.goto(server.url + f"/teacher/sessions/{session['id']}/")
    students = {}
    for i, name in enumerate(names):
        phone = i == len(names) - 1
        students[name] = student_joins(chromium, server, session["join_code"], name,
                                       viewport=(375, 740) if phone else (1024, 800))
    expect(dashboard.locator("li.student")).to_have_count(len(names))
    return RoundsClass(session["id"], teacher, dashboard, students)


def _api(page, method: str, path: str, body: dict | None = None) -> dict:
    """The student's own browser (its cookies) over the match API."""
    token = next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), "")
    base = re.match(r"https?://[^/]+", page.url)[0]
    response = page.request.fetch(base + path, method=method, data=body,
                                  headers={"X-CSRFToken": token, "Referer": base + "/"})
    assert response.ok, response.text()
    return response.json()


def match_of(page) -> int:
    page.wait_for_url("**/matches/**", timeout=15000)
    return int(re.search(r"/matches/(\d+)/", page.url)[1])


def play_round(pages: dict) -> None:
    """Every student's game played to its end through their own browsers (first legal move)."""
    tables: dict[int, list] = {}
    for page in pages.values():
        tables.setdefault(match_of(page), []).append(page)
    for match_id, players in tables.items():
        turn = 0  # whose page acts; the answer to a move is the mover's next view
        seen = _api(players[turn], "GET", f"/api/matches/{match_id}/")
        for _ in range(200):
            if seen["status"] != "playing":
                break
            if not seen["legal"]:
                turn = (turn + 1) % len(players)
                seen = _api(players[turn], "GET", f"/api/matches/{match_id}/")
                continue
            seen = _api(players[turn], "POST", f"/api/matches/{match_id}/actions/",
                        {"seq": seen["seq"], "action": seen["legal"][0]})
        else:
            raise AssertionError(f"match {match_id} did not end")


def pairs(teacher: Teacher, session_id: int, round_number: int) -> set[frozenset]:
    tables = teacher.api("GET", f"/api/sessions/{session_id}/dashboard/").json()["tables"]
    return {frozenset(s["participant"] for s in t["seats"] if s["participant"])
            for t in tables if t["round"] == round_number}


def test_two_rounds_repair_students_live_with_standings_on_dashboard_and_lobby(chromium, server, teacher):
    rc = rounds_class(chromium, server)
    dash = rc.dashboard
    screen = dash.context.new_page()  # the projector, open all lesson long
    screen.goto(server.url + f"/sessions/{rc.session_id}/screen/")
    expect(screen.locator("#screen-joined")).to_have_text("4 students have joined")
    expect(dash.locator("#round-status")).to_contain_text("Not running as rounds yet")
    dash.locator("#next-round").click()
    expect(dash.locator("#round-status")).to_contain_text("Round 1")
    expect(dash.locator("#round-status")).to_contain_text("Still playing: Table 1, Table 2")
    expect(dash.locator("#next-round")).to_have_text("Next round (round 2)")
    for page in rc.students.values():  # the lobbies take everyone to their table
        match_of(page)
    # too early: refused with the tables named
    dash.locator("#next-round").click()
    expect(dash.locator("#dash-error")).to_contain_text("still playing: Table 1, Table 2")

    play_round(rc.students)
    expect(dash.locator("#round-status")).to_contain_text("Every table has finished")
    rows = dash.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    expect(dash.locator("#standings tbody tr td:nth-child(4)")).to_have_text(["1"] * 4)
    assert_no_serious_violations(dash, "dashboard with standings after round 1")
    on_screen = screen.locator("[data-testid=standings] tbody tr")
    expect(on_screen).to_have_count(4)  # live on the projector too
    expect(screen.locator("#screen-round")).to_contain_text("1")

    # one student went back to the lobby: their place and points, live
    ada = rc.students["Ada"]
    ada.get_by_role("link", name="Back to the lobby (next game)").click()
    expect(ada.locator("#lobby-standing")).to_contain_text("Round 1.")
    expect(ada.locator("#lobby-standing")).to_contain_text("of 4")

    first = pairs(rc.teacher, rc.session_id, 1)
    dash.locator("#next-round").click()
    expect(dash.locator("#round-status")).to_contain_text("Round 2")
    phone = rc.students["Di"]  # on the finished game's page: told of the next table, live
    expect(phone.locator("#session-notice")).to_contain_text("Your next game is ready")
    phone.locator("#session-notice").get_by_role("link", name="Go to my table").click()
    for name, page in rc.students.items():
        if name not in ("Ada", "Di"):
            page.locator("#session-notice").get_by_role("link", name="Go to my table").click()
    match_of(ada)  # the lobby moved Ada by itself
    second = pairs(rc.teacher, rc.session_id, 2)
    assert len(second) == 2 and not first & second, "re-paired: nobody meets the same opponent"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375

    play_round(rc.students)
    expect(dash.locator("#standings tbody tr td:nth-child(4)")).to_have_text(["2"] * 4)
    expect(dash.locator("#round-status")).to_contain_text("Every table has finished")
    points = [float(x) for x in dash.locator("#standings tbody td.points").all_inner_texts()]
    assert sum(points) == 4 and points == sorted(points, reverse=True)
    assert_no_serious_violations(dash, "dashboard with standings after round 2")
    phone.goto(server.url + f"/lobby/{rc.session_id}/")
    expect(phone.locator("#lobby-standing")).to_contain_text("Round 2.")
    assert_no_serious_violations(phone, "lobby with the student's standing on a phone")
    # the projector: the same standings, and the podium once the last round's tables have finished
    expect(screen.locator("#screen-round")).to_contain_text("2")
    expect(screen.locator("#screen-podium")).to_be_visible()
    leader = dash.locator("#standings tbody tr").first.locator("th").inner_text()
    expect(screen.locator("[data-testid=podium] li").filter(has_text=leader).first).to_be_visible()
    assert_no_serious_violations(screen, "projector after two rounds")
    for page in [dash, *rc.students.values()]:
        chromium.give_back(page.context)

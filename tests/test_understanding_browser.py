"""What each student understood, in a real browser: the teacher watches the dashboard's concept
grid fill in live while a student plays a misconception (closing a cycle that hands the other
player the win), opens the report, opens that cell by keyboard and follows its move to the
replay at that step; the projector's debrief names nobody until the teacher chooses, and
replays the moment step by step from the state before the move to the state after it. axe
passes and a 375 px phone is served (targets, text, no sideways page) on each page."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines.quantum_tictactoe import actions_from_history
from games.models import Match
from tests.support.axe import assert_no_serious_violations
from tests.support.browser import log_in, shot, wait_for_boot
from tests.support.phone import assert_phone_friendly
from tests.support.tables import open_table

pytestmark = [pytest.mark.browser, pytest.mark.server]

# O's last move closes a cycle whose collapse X chooses and one of its outcomes wins X the game
GIFT = "X1+(8,9) O2+(1,2) X3+(6,7) O4+(7,8) X5+(3,8) O6+(7,9)"


def play(student, match_id: int, action: dict) -> None:
    seq = Match.objects.get(pk=match_id).seq
    response = student.api("POST", f"/api/matches/{match_id}/actions/", {"seq": seq, "action": action})
    assert response.status_code == 200, response.text


def on_a_phone(page, name: str, within: str | None = None) -> None:
    size = page.viewport_size
    page.set_viewport_size({"width": 375, "height": 740})
    assert_phone_friendly(page, name, within=within)
    shot(page, f"understanding-{name.replace(' ', '-')}.png", full_page=True)
    page.set_viewport_size(size)


def test_the_grid_fills_in_live_the_report_opens_a_cell_to_its_move_and_the_debrief_replays_it(chromium, server, teacher):
    table = open_table(server)
    session_id = table.session["id"]
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(page, server.url)
    page.goto(server.url + f"/teacher/sessions/{session_id}/")
    wait_for_boot(page)
    expect(page.locator("#evidence-live-none")).to_be_visible()  # nothing shown yet

    moves = actions_from_history(GIFT.split())
    for seat, action in moves[:-1]:
        play(table.students[seat], table.match_id, action)
    o_name = table.students[1].api("GET", f"/api/matches/{table.match_id}/").json()["seats"][1]["name"]
    row = page.locator("#evidence-live tbody tr", has_text=o_name)
    cell = row.locator("td[data-concept=measurement]")
    # O4 joined two groups of marks: entanglement shown, live; no misconception yet
    expect(row.locator("td[data-concept=entanglement]")).to_have_attribute("data-shows", "1")
    expect(cell).to_have_attribute("data-misconception", "0")
    play(table.students[1], table.match_id, moves[-1][1])  # the misconception, as the teacher watches

    expect(cell).to_have_attribute("data-misconception", "1")  # live: no reload
    expect(cell).to_contain_text("✗1")
    expect(cell.locator(".sr-only")).to_have_text("1 misconception, may need help")
    assert_no_serious_violations(page, "dashboard with the concept grid")
    on_a_phone(page, "dashboard's concept grid", within="#understanding-live")

    page.click("a:text-is('Report')")
    page.wait_for_url("**/report/")
    expect(page.locator("#understanding-note")).to_contain_text("not a grade")
    summary = page.locator(f"#evidence-grid tr:has(th:text-is('{o_name}')) td[data-concept=measurement] summary")
    summary.focus()
    page.keyboard.press("Enter")  # the disclosure opens by keyboard
    link = page.locator(f"#evidence-grid tr:has(th:text-is('{o_name}')) td[data-concept=measurement] .ev-moves a")
    expect(link).to_be_visible()
    expect(link).to_have_text("Table 1, step 6")
    assert_no_serious_violations(page, "session report with a cell open")
    on_a_phone(page, "session report")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/matches/{table.match_id}/replay/?step=6")
    wait_for_boot(page)
    expect(page.locator("#step")).to_have_text("step 6 / 6")  # the board just after that move

    page.goto(server.url + f"/sessions/{session_id}/screen/debrief/")
    moments = page.locator("#debrief-moments > li")
    expect(moments.first).to_have_attribute("data-kind", "misconception")
    expect(page.locator("#debrief-moments")).not_to_contain_text(o_name)  # nobody named
    assert_no_serious_violations(page, "debrief")
    on_a_phone(page, "debrief")
    page.click("#debrief-names")
    expect(page.locator("#debrief-moments > li").first).to_contain_text(o_name)  # the teacher's choice
    page.click("#debrief-names")
    expect(page.locator("#debrief-moments")).not_to_contain_text(o_name)
    page.click("[data-testid=debrief-show-1]")
    wait_for_boot(page)
    expect(page.locator("#moment-phase")).to_have_text("Before the move")
    expect(page.locator("#replay-players")).not_to_contain_text(o_name)
    page.click("#next")
    expect(page.locator("#moment-phase")).to_have_text("After the move")
    expect(page.locator("#step")).to_have_text("step 6 / 6")
    page.keyboard.press("ArrowLeft")  # step back by keyboard
    expect(page.locator("#moment-phase")).to_have_text("Before the move")
    assert_no_serious_violations(page, "debrief replaying a moment")
    on_a_phone(page, "debrief replaying a moment")

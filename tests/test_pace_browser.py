"""Clocks and pace in real browsers: a teacher and two students at a quantum
tic-tac-toe table with a 2-second clock (the server is started with short clock and "finish in"
choices). A student lets the time run out: the random bot's move appears, marked, in both logs;
the teacher gives every table, then this table alone (its card's clock, by keyboard), a longer
clock; the teacher pauses all tables: the pages say "Paused" on the turn line and lock the board;
resume; "finish in 3 s": both pages count down with the game's rule, and the game ends by
it. A 375 px phone fits; axe passes on the paused and the counting-down pages."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engines import FINISH_ACTION
from games.models import Action, Match, Seat
from tests.support.axe import assert_no_serious_violations
from tests.support.browser import log_in, student_joins
from tests.support.clients import Teacher
from tests.support.server import LiveServer
from tests.support.tables import TEACHER

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture
def pace_server(transactional_db):
    """A server whose teachers may give 2-second clocks and finish in 3 seconds."""
    server = LiveServer(extra_env={"MOVE_CLOCK_CHOICES": "2,15,30", "FINISH_IN_CHOICES": "3,60"})
    server.start()
    yield server
    server.stop()


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_clock_pause_and_finish_in_reach_every_page_live(chromium, pace_server, teacher):
    server = pace_server
    client = Teacher(server)
    client.login(*TEACHER)
    session = client.open_session("quantum-tictactoe", move_seconds=2)
    dashboard = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    log_in(dashboard, server.url, then=f"/teacher/sessions/{session['id']}/")
    expect(dashboard.locator("#move-clock")).to_have_value("2")
    ada = student_joins(chromium, server, session["join_code"], "Ada", viewport=(375, 800))
    bo = student_joins(chromium, server, session["join_code"], "Bo")
    dashboard.click("button[data-cmd=auto_pair]")
    expect(dashboard.locator(".table-card")).to_have_count(1)
    dashboard.click("button[data-cmd=start_all]")
    pages = (ada, bo)
    for page in pages:
        expect(page.locator(".qttt-board")).to_be_visible(timeout=10_000)
    match = Match.objects.get()
    x_name = Seat.objects.get(match=match, index=0).name
    x_page = ada if x_name == "Ada" else bo
    expect(x_page.locator("#pace-move-text")).to_contain_text("Your time for this move")

    # X lets the 2 seconds run out: the random bot moves for them, marked in both logs
    forced = f"Time ran out for {x_name}: the random bot moved for them."
    for page in pages:
        expect(page.locator("#log .log-line.timeout").first).to_have_text(forced, timeout=6000)
    entry = Action.objects.filter(match=match).order_by("seq").first()
    assert entry.timed_out and entry.by_bot and entry.seat == 0
    # the teacher gives the table a longer clock before O's runs out too
    dashboard.select_option("#move-clock", "15")
    for page in pages:
        expect(page.locator("#pace-move-text")).to_contain_text(re.compile(r"0:1[0-5]"))
    # from now on the longer clock holds: no time-out within the old clock's 2 seconds and more
    # (how many ran out before the teacher's change took effect depends on the machine's load)
    settled_count = Action.objects.filter(match=match, timed_out=True).count()
    pages[0].wait_for_timeout(3000)
    assert Action.objects.filter(match=match, timed_out=True).count() == settled_count
    # a ticking clock runs no animation between its ticks (a transition restarted at each
    # quarter-second tick kept every clocked page drawing 60 frames a second, on every phone)
    for page in pages:
        assert page.evaluate("() => document.getAnimations().filter((a) => a.playState === 'running')"
                             ".map((a) => a.effect.target.className)") == []
    # and it redraws once a second, when the seconds it shows change, not more often (each redraw
    # costs a phone's CPU: four a second kept a page at 4 % of a core)
    redraws = pages[0].evaluate("""() => new Promise((done) => {
        let n = 0;
        const seen = new MutationObserver((records) => { n += records.length; });
        seen.observe(document.getElementById("pace-move-text"), { childList: true, characterData: true, subtree: true });
        setTimeout(() => { seen.disconnect(); done(n); }, 3000); })""")
    assert 1 <= redraws <= 5, redraws
    # then this table alone a clock of its own (its card's choice; the session's stays at 15 s)
    table_clock = dashboard.get_by_label("Clock at table 1")
    expect(table_clock).to_have_value("15")
    table_clock.evaluate("(n) => { n.dataset.drawn = 'before'; n.focus(); }")
    dashboard.keyboard.press("ArrowDown")  # by keyboard: 15 s -> 30 s
    for page in pages:
        expect(page.locator("#pace-move-text")).to_contain_text(re.compile(r"0:(30|2\d)"))
    expect(table_clock).to_have_value("30")
    # the card is drawn again live (a new select): the focus stays on it
    expect(dashboard.locator("[data-table-clock='1']:not([data-drawn])")).to_be_focused()
    expect(dashboard.locator("#move-clock")).to_have_value("15")
    assert Match.objects.get().move_seconds == 30
    dashboard.set_viewport_size({"width": 375, "height": 800})
    card_right = dashboard.locator(".table-card").evaluate("(n) => n.getBoundingClientRect().right")
    assert card_right <= 375 and table_clock.bounding_box()["x"] + table_clock.bounding_box()["width"] <= card_right
    dashboard.set_viewport_size({"width": 1400, "height": 1000})

    # pause all tables: both pages say so on the turn line; the mover's board is locked (a
    # click sends nothing and nudges the line)
    mover = ada if ada.locator("#turn.mine").count() else bo
    # (the boards are not drawn again by a pause or a resume: the same square stays under a finger)
    mover.locator("g.cell.playable").first.evaluate("(n) => { n.dataset.kept = '1'; }")
    dashboard.click("#pause-btn")
    for page in pages:
        expect(page.locator("#pace-paused")).to_contain_text("Paused by your teacher")
        expect(page.locator("#turn")).to_contain_text("Paused by your teacher")
    expect(dashboard.locator("#pause-btn")).to_have_text("Resume all tables")
    seq = Match.objects.get().seq
    expect(mover.locator("g.cell.playable").first).to_have_attribute("aria-disabled", "true")
    mover.locator("g.cell.playable").first.click(force=True)
    expect(mover.locator("#turn")).to_have_class(re.compile(r"\bnudge\b"))
    expect(mover.locator("g.cell.picked")).to_have_count(0)
    assert Match.objects.get().seq == seq
    assert fits(ada)
    assert_no_serious_violations(ada, "play page, paused")
    assert_no_serious_violations(dashboard, "dashboard, paused")

    dashboard.click("#pause-btn")
    for page in pages:
        expect(page.locator("#pace-paused")).to_be_hidden()
        expect(page.locator("#pace-move")).to_be_visible()
    expect(mover.locator("g.cell.playable").first).to_have_attribute("data-kept", "1")
    expect(mover.locator("g.cell.playable").first).not_to_have_attribute("aria-disabled", "true")

    # finish in 3 s: both pages count down with the game's rule, then the game ends by it
    dashboard.select_option("#finish-in", "3")
    dashboard.click("#finish-btn")
    rule = "When time is up, a pending cycle collapses by chance"
    for page in pages:
        expect(page.locator("#pace-finish-text")).to_contain_text(re.compile(r"Time is up in 0:0[1-3]"))
        expect(page.locator("#pace-rule")).to_contain_text(rule)
    expect(dashboard.locator("#finish-countdown")).to_contain_text("Time is up in")
    assert fits(ada)
    assert_no_serious_violations(ada, "play page, counting down")
    for page in pages:
        expect(page.locator("#turn")).to_have_text("Game over", timeout=8000)
        expect(page.locator("#log")).to_contain_text("Time is up: a pending cycle collapses by chance")
        expect(page.locator("#pace")).to_be_hidden()
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    assert match.actions.order_by("seq").last().action == FINISH_ACTION
    expect(dashboard.locator(".table-card")).to_have_attribute("data-status", "finished")


# pace.js's countdown on a simulated clock whose timers take their delay in whole milliseconds,
# rounded down (as browsers do; a timer fires up to a millisecond early), and whose every step
# takes 0.05 ms: the seconds it draws, each time it draws
EARLY_TIMERS = """async () => {
  const { countdown } = await import("/static/js/pace.js");
  const realNow = performance.now, realSetTimeout = window.setTimeout, realClear = window.clearTimeout;
  let now = 1000;
  const timers = [];
  performance.now = () => now;
  window.setTimeout = (fn, delay) => { timers.push({ at: now + Math.floor(delay), fn }); return timers.length; };
  window.clearTimeout = () => {};
  const drawn = [];
  try {
    countdown((left) => drawn.push(Math.ceil(left / 1000))).set(4500.4);
    while (timers.length && drawn.length < 50) {
      const next = timers.shift();
      now = Math.max(now + 0.05, next.at);
      next.fn();
    }
  } finally {
    performance.now = realNow; window.setTimeout = realSetTimeout; window.clearTimeout = realClear;
  }
  return drawn;
}"""


def test_a_countdown_draws_each_second_once_though_its_timers_fire_early(chromium, server):
    page = chromium.new_page()
    page.goto(server.url + "/join/")
    assert page.evaluate(EARLY_TIMERS) == [5, 4, 3, 2, 1, 0]

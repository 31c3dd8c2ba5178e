"""Quantum Ticket-to-Ride in real browsers: two students (Ada on a 375 px phone, Bo on a laptop)
join a class session on a small map, sit at one table, and play it by keyboard only: they draw
and claim routes; the one holding the Berlin → Rome mission plans a run with the path picker
(its circuit and the Bloch vector after each route: H·Z·H turns |0⟩ into |1⟩, checked against
the engine's own trace), runs it and wins. At every step neither page contains the other's
secret mission. The teacher's dashboard shows the claimed routes and who is closest; the replay
renders every frame.

The engine takes no given deck or hands, so the deal is chosen by the match's seed (set before
the table starts): ``tests.support.ticket_to_ride.quick_seed``."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engines import get_game
from games.models import Match
from games.selectors import current_state
from tests.support.browser import log_in_teacher, shot, student_joins
from tests.support.clients import Teacher
from tests.support.phone import SMALL_PHONE, assert_phone_friendly, phone_page_of
from tests.support.tables import TEACHER, open_table
from tests.support.ticket_to_ride import (
    OTHER_MISSION,
    RUNNER_MISSION,
    RUNNER_PATH,
    quick_seed,
    runner_seat,
    scripted_action,
    small_map,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]
GAME = "quantum-ticket-to-ride"
PHONE = (375, 760)


def seq_of(page) -> int | None:
    raw = page.evaluate("() => document.querySelector('#board').dataset.seq ?? null")
    return None if raw is None else int(raw)


def wait_for_seq(page, seq: int) -> None:
    page.wait_for_function(f"() => document.querySelector('#board').dataset.seq === '{seq}'", timeout=10_000)


def press(page, selector: str) -> None:
    """Keyboard only: focus the control and press Enter."""
    target = page.locator(selector)
    expect(target).to_be_visible()
    target.focus()
    page.keyboard.press("Enter")


# every control the student may use now: is a tap at its centre (after scrolling it into view)
# on it, not on something drawn over it?
# (a route is a line: its target is a thumb wide when taps 8 px beside its middle land on it too)
TAPS = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  el.scrollIntoView({ block: "center", inline: "center" });
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const on = (px, py) => { const hit = document.elementFromPoint(px, py); return !!hit && (hit === el || el.contains(hit)); };
  const route = el.dataset.route !== undefined;
  return { key: el.dataset.route ?? el.dataset.city ?? el.textContent, tapped: on(x, y),
           big: route ? [[8, 0], [-8, 0], [0, 8], [0, -8]].every(([dx, dy]) => on(x + dx, y + dy))
                      : Math.min(r.width, r.height) >= 24 };
})"""


def taps(page, selector: str) -> None:
    for target in page.evaluate(TAPS, selector):
        assert target["tapped"] and target["big"], (selector, target)


def no_leak(pages: dict[int, object], state: dict) -> None:
    """Each student's page holds its own mission and never the other's."""
    for seat, page in pages.items():
        html = page.content()
        mine = state["missions"][seat]["id"]
        other = state["missions"][1 - seat]["id"]
        assert mine in html, f"seat {seat} should see its mission"
        assert other not in html, f"seat {seat}'s page holds the other student's mission {other}"
        if other == OTHER_MISSION:
            assert "Paris |0⟩ → Madrid" not in html
        else:
            assert "Berlin |0⟩ → Rome" not in html


def fits(page, width: int) -> None:
    scroll = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll}px wide on a {width}px screen"


def plan_and_run(page, state: dict, seat: int) -> None:
    """The path picker, by keyboard: Enter on "Plan a run…", then Enter on each next city (the
    focus moves to it); each step's Bloch vector is the engine's; then Enter on "Run this path"."""
    view = get_game(GAME).view(state, seat)
    trace = next(t for t in view["run_paths"] if t["cities"] == RUNNER_PATH)
    press(page, "[data-plan]")
    picker = page.locator(".ttr-picker")
    expect(picker).to_be_visible()
    for k, city in enumerate(RUNNER_PATH[1:], start=1):
        if page.viewport_size["width"] == PHONE[0]:
            taps(page, ".ttr-city.next")
            page.locator(f".ttr-city[data-city='{city}']").focus()
        focused = page.evaluate("() => document.activeElement.dataset.city || null")
        assert focused == city, f"the focus should be on the next city {city}, not {focused}"
        page.keyboard.press("Enter")
        expect(picker.locator(".ttr-step")).to_have_count(k + 1)
        shown = [float(x) for x in picker.locator(f".ttr-step[data-step='{k}']").get_attribute("data-bloch").split(",")]
        assert shown == pytest.approx(trace["steps"][k - 1]["bloch"], abs=1e-9)
    # H·Z·H: |0⟩ → |+⟩ → |−⟩ → |1⟩, on the Bloch sphere x, −x, then the south pole
    bloch = [picker.locator(f".ttr-step[data-step='{k}']").get_attribute("data-bloch") for k in range(4)]
    assert bloch == ["0.000000,0.000000,1.000000", "1.000000,0.000000,0.000000",
                     "-1.000000,0.000000,0.000000", "0.000000,0.000000,-1.000000"]
    expect(picker.locator(".ttr-circuit .gate")).to_have_count(3)
    assert [picker.locator(".ttr-circuit .gate").nth(i).get_attribute("data-gate") for i in range(3)] == ["H", "Z", "H"]
    expect(picker.locator(".ttr-verdict")).to_contain_text("this run completes the mission")
    assert picker.locator(".ttr-verdict").get_attribute("data-fidelity") == "1.000000"
    assert page.evaluate("() => document.activeElement.dataset.run") == "1"
    if page.viewport_size["width"] == PHONE[0]:
        fits(page, PHONE[0])
    shot(page, "ttr-path-picker.png", full_page=True)
    page.keyboard.press("Enter")


def test_two_students_claim_routes_and_one_completes_a_mission_by_a_run(chromium, server, teacher):
    t = Teacher(server)
    t.login(*TEACHER)
    session = t.open_session(GAME, variant="basic", options={"map": small_map()}, bot_level="strong")
    ada = student_joins(chromium, server, session["join_code"], "Ada", viewport=PHONE)
    bo = student_joins(chromium, server, session["join_code"], "Bo", viewport=(1280, 900))
    assert t.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    match = Match.objects.get()
    ada_seat = match.seats.get(name="Ada").index  # Ada, on the phone, gets the Berlin → Rome mission
    Match.objects.filter(pk=match.pk).update(seed=quick_seed(runner=ada_seat))  # the deal the script needs
    assert t.api("POST", f"/api/sessions/{session['id']}/start-all/").status_code == 200
    for page in (ada, bo):
        expect(page.locator(".ttr-svg")).to_be_visible(timeout=10_000)
        expect(page.locator(".ttr-route")).to_have_count(6)
    seat_of = {s.name: s.index for s in match.seats.all()}
    pages = {seat_of["Ada"]: ada, seat_of["Bo"]: bo}
    fits(ada, PHONE[0])

    # the teacher watches the dashboard
    dashboard = log_in_teacher(chromium, server)
    dashboard.goto(server.url + f"/teacher/sessions/{session['id']}/")
    watcher = dashboard.context.new_page()  # and the table itself, with every mission's progress
    watcher.goto(server.url + f"/matches/{match.pk}/")
    expect(watcher.locator(".ttr-teacher li")).to_have_count(2, timeout=10_000)
    expect(watcher.locator(".ttr-teacher")).to_contain_text("Berlin |0⟩ → Rome |1⟩")
    expect(watcher.locator(".ttr-teacher .closest")).not_to_have_count(0)

    game = get_game(GAME)
    claims = {0: 0, 1: 0}
    for _ in range(30):
        match.refresh_from_db()
        state = current_state(match)
        if state["finished"]:
            break
        for page in pages.values():
            wait_for_seq(page, match.seq)
        no_leak(pages, state)
        for page in pages.values():
            assert page.locator(".ttr-teacher").count() == 0  # the analysis is the teacher's only
        seat = game.to_act(state)[0]
        page = pages[seat]
        action = scripted_action(state, seat)
        if page is ada:  # the phone: every claimable route and every button takes a thumb
            taps(page, ".ttr-route.claimable")
            taps(page, ".ttr-controls button")
        if "draw" in action:
            press(page, "[data-draw]")
        elif "claim" in action:
            route = action["claim"]
            press(page, f".ttr-route[data-route='{route}']")  # selects it (the preview says what it costs)
            expect(page.locator(f".ttr-route[data-route='{route}']")).to_have_attribute("aria-pressed", "true")
            expect(page.locator(".ttr-live")).to_contain_text("Claim")
            press(page, f"[data-claim='{route}']")
            claims[seat] += 1
        elif "pass" in action:
            press(page, "[data-pass]")
        else:
            plan_and_run(page, state, seat)
        wait_for_seq(page, match.seq + 1)
    match.refresh_from_db()
    state = current_state(match)
    assert state["finished"] and match.outcome["reason"] == "mission"
    runner = runner_seat(state)
    assert match.outcome["winners"] == [runner] == [ada_seat] and claims[0] >= 1 and claims[1] >= 1

    # both pages: the verdict; the claimed routes in their owners' colours
    winner = "Ada" if runner == seat_of["Ada"] else "Bo"
    for page in (ada, bo):
        expect(page.locator("#result")).to_contain_text(f"{winner} wins!", timeout=10_000)
        for r, owner in enumerate(state["owners"]):
            if owner is not None:
                expect(page.locator(f".ttr-route[data-route='{r}']")).to_have_class(f"ttr-route g-{state['map']['routes'][r]['gate']} claimed owner-{owner}" + (" mine" if pages[owner] is page else ""))
    expect(pages[runner].locator("[data-last-run][data-match='1']")).to_contain_text("Mission complete")
    # at the end the missions are revealed to everyone
    for page in (ada, bo):
        expect(page.locator(".ttr-revealed")).to_contain_text("Berlin |0⟩ → Rome |1⟩")
    fits(ada, PHONE[0])
    shot(ada, "ttr-phone-end.png", full_page=True)
    shot(bo, "ttr-desktop-end.png", full_page=True)
    shot(watcher, "ttr-teacher-watch.png", full_page=True)
    shot(dashboard, "ttr-dashboard.png", full_page=True)

    # the dashboard (teacher only): the claimed routes and the completed mission
    card = dashboard.locator(".table-card .ticket")
    expect(card.locator(".ttr-claimed li")).to_have_count(sum(o is not None for o in state["owners"]))
    expect(card.locator(".completed")).to_contain_text(f"{winner} completed Berlin |0⟩ → Rome |1⟩")
    assert RUNNER_MISSION not in ada.content() or runner == seat_of["Ada"]

    # the replay renders every frame
    bo.goto(server.url + f"/matches/{match.pk}/replay/")
    expect(bo.locator(".ttr-svg")).to_be_visible()
    steps = match.seq
    for _ in range(steps):
        bo.click("#next")
    expect(bo.locator("#step")).to_have_text(f"step {steps} / {steps}")
    expect(bo.locator(".ttr-route.claimed")).to_have_count(sum(o is not None for o in state["owners"]))
    bo.click("#first")
    expect(bo.locator(".ttr-route.claimed")).to_have_count(0)

    # the statistics page of the winning run draws the final board and the exact answer
    watcher.goto(server.url + f"/matches/{match.pk}/stats/")
    expect(watcher.locator("#stats-board .ttr-svg")).to_be_visible(timeout=10_000)
    expect(watcher.locator(".verdict")).to_contain_text("exact fidelity with the target 1.000")


# every route's tap target (a band across its middle): its size in CSS px, and the pairs of
# targets that overlap (separating axis test on the bands' corners, in map units)
BANDS = """() => {
  const svg = document.querySelector(".ttr-svg"), m = svg.getScreenCTM(), scale = Math.hypot(m.a, m.b);
  const bands = [...document.querySelectorAll(".ttr-route .ttr-hit")].map((p) => ({
    route: p.closest(".ttr-route").dataset.route,
    pts: p.getAttribute("points").trim().split(/\\s+/).map((xy) => xy.split(",").map(Number)) }));
  const side = (b, i) => Math.hypot(b.pts[i + 1][0] - b.pts[i][0], b.pts[i + 1][1] - b.pts[i][1]) * scale;
  const axes = (b) => [0, 1].map((i) => { const dx = b.pts[i + 1][0] - b.pts[i][0], dy = b.pts[i + 1][1] - b.pts[i][1]; return [-dy, dx]; });
  const apart = (a, b) => [...axes(a), ...axes(b)].some(([ax, ay]) => {
    const pa = a.pts.map(([x, y]) => x * ax + y * ay), pb = b.pts.map(([x, y]) => x * ax + y * ay);
    return Math.max(...pa) <= Math.min(...pb) + 1e-6 || Math.max(...pb) <= Math.min(...pa) + 1e-6;
  });
  const overlaps = [];
  bands.forEach((a, i) => bands.slice(i + 1).forEach((b) => { if (!apart(a, b)) overlaps.push([a.route, b.route]); }));
  return { sizes: bands.map((b) => [b.route, side(b, 0), side(b, 1)]), overlaps, scale };
}"""
# a finger on the middle of a route's drawing (its gate tag), after scrolling it into view
TAG_CENTRE = """(i) => {
  const tag = document.querySelector(`.ttr-vis[data-vis-route="${i}"] .ttr-tag`);
  tag.scrollIntoView({ block: "center", inline: "center" });
  const r = tag.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""


def test_phone_map_pans_zooms_and_every_route_takes_a_thumb(chromium, server, teacher):
    """The Europe map on a 375 × 667 touch phone: it opens zoomed in (on the student's start)
    inside its own box, says it moves (a cue, the zoom buttons), and every route's tap target is
    a band across its middle of at least 24 × 24 CSS px that overlaps no other; a tap on the
    middle of the routes that used to pick a neighbour (Prague–Vienna, the Lisbon routes) picks
    them; "Whole map", + and a pinch zoom; a route can be picked from a list (the map shows it,
    Claim is offered). The page passes the phone check at 375 and 320 px."""
    table = open_table(server, game=GAME)
    seat, actor = next((s, st) for s, st in table.students.items()
                       if st.api("GET", f"/api/matches/{table.match_id}/").json()["legal"])
    page = phone_page_of(chromium, server, actor, f"/matches/{table.match_id}/")
    expect(page.locator(".ttr-route")).not_to_have_count(0, timeout=10_000)
    box = page.locator(".ttr-map")
    expect(box).to_have_class(re.compile(r"\bzoomed\b"))
    expect(page.locator(".ttr-map-cue")).to_be_visible()
    expect(page.get_by_role("button", name="Zoom in")).to_be_visible()
    sizes = page.evaluate("() => [document.querySelector('.ttr-svg').getBoundingClientRect().width, document.querySelector('.ttr-map').clientWidth]")
    assert sizes[0] > 2 * sizes[1], sizes  # zoomed in: the map is wider than its box
    bands = page.evaluate(BANDS)
    assert bands["overlaps"] == []
    small = [s for s in bands["sizes"] if min(s[1], s[2]) < 24 - 0.5]
    assert len(bands["sizes"]) == len(get_game(GAME).setup(players=2, variant="basic", seed=1, options={})["map"]["routes"])
    assert not small, small
    assert_phone_friendly(page, "Ticket-to-Ride on a phone")
    shot(page, "ttr-phone-map.png")

    def route_between(a, b):
        sel = f".ttr-route[data-a='{a}'][data-b='{b}'], .ttr-route[data-a='{b}'][data-b='{a}']"
        return page.locator(sel).first.get_attribute("data-route")

    for a, b in (("Prague", "Vienna"), ("Prague", "Budapest"), ("Vienna", "Budapest"), ("Lisbon", "Madrid"),
                 ("Lisbon", "Barcelona"), ("Madrid", "Barcelona")):
        route = route_between(a, b)
        x, y = page.evaluate(TAG_CENTRE, int(route))
        page.touchscreen.tap(x, y)
        expect(page.locator(".ttr-route[aria-pressed=true]")).to_have_attribute("data-route", route)

    # zoom: the whole map fits the box; + zooms in; a pinch (two fingers apart) zooms in
    svg_width = "() => document.querySelector('.ttr-svg').getBoundingClientRect().width"
    page.get_by_role("button", name="Whole map").tap()
    assert page.evaluate(svg_width) <= page.evaluate("() => document.querySelector('.ttr-map').clientWidth") + 1
    expect(box).not_to_have_class(re.compile(r"\bzoomed\b"))
    whole = page.evaluate(svg_width)
    page.get_by_role("button", name="Zoom in").tap()
    assert page.evaluate(svg_width) == pytest.approx(whole * 1.4, rel=0.02)
    page.get_by_role("button", name="Whole map").tap()
    box.scroll_into_view_if_needed()
    b = box.bounding_box()
    cx, cy = b["x"] + b["width"] / 2, b["y"] + min(b["height"], 300) / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind, points):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})
    touch("touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for k in range(1, 8):
        touch("touchMove", [(cx - 30 - 10 * k, cy), (cx + 30 + 10 * k, cy)])
    touch("touchEnd", [])
    pinched = page.evaluate(svg_width)
    assert pinched == pytest.approx(whole * 200 / 60, rel=0.05), (whole, pinched)  # fingers 60 → 200 px apart
    expect(box).to_have_class(re.compile(r"\bzoomed\b"))

    # the list: a route picked by name is selected (Claim offered) and shown in the map's middle
    target = page.evaluate("() => document.querySelector('.ttr-route-select optgroup option').value")
    listed = page.get_by_label("Pick a route from the list")
    listed.select_option(target)
    expect(page.locator(".ttr-route[aria-pressed=true]")).to_have_attribute("data-route", target)
    expect(page.locator(f"[data-claim='{target}']")).to_be_visible()
    expect(listed).to_be_focused()
    assert page.evaluate("""(i) => { const t = document.querySelector(`.ttr-vis[data-vis-route="${i}"] .ttr-tag`).getBoundingClientRect(),
      b = document.querySelector('.ttr-map').getBoundingClientRect();
      return t.left >= b.left && t.right <= b.right && t.top >= b.top && t.bottom <= b.bottom; }""", target)
    shot(page, "ttr-phone-list.png")
    seq = page.locator("#board").get_attribute("data-seq")
    page.locator(f"[data-claim='{target}']").tap()
    expect(page.locator("#board")).not_to_have_attribute("data-seq", seq)

    small_phone = phone_page_of(chromium, server, actor, f"/matches/{table.match_id}/", SMALL_PHONE)
    expect(small_phone.locator(".ttr-route")).not_to_have_count(0, timeout=10_000)
    assert_phone_friendly(small_phone, "Ticket-to-Ride on a 320 px phone")

"""Phones and keyboards, in real browsers (one context per student): every game fits a 375×812 phone
and every legal target takes a tap; quantum tic-tac-toe says what a half-made move is and why a
click did nothing; a correct step (the control of a CX) is a prompt, not an error; the result
appears after the measurement animation; the boards play by keyboard with the hover previews and
a visible focus ring."""
from __future__ import annotations

import json
import random
import re

import pytest
from playwright.sync_api import expect

from games.engines import get_game
from games.models import Match
from tests.support.browser import shot
from tests.support.clients import receive, run_async
from tests.support.phone import PHONE as PHONE_SE
from tests.support.phone import SMALL_PHONE, assert_phone_friendly, phone_context
from tests.support.tables import open_table
from tests.test_qtris_board_browser import OPTIONS as QTRIS_OPTIONS

pytestmark = [pytest.mark.browser, pytest.mark.server]
PHONE = {"width": 375, "height": 812}
FOCUS_BLUE = "rgb(29, 78, 216)"

# For every element matching the selector: scrolled into view (as a thumb would scroll; or where it
# is, with scroll=False), is it
# wholly on screen, and does a tap at its centre land on it (not on something drawn over it)?
TAP_CHECK = """([sel, scroll]) => [...document.querySelectorAll(sel)].map((el) => {
  if (scroll) el.scrollIntoView({ block: "center", inline: "center" });
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { key: el.dataset.square || el.dataset.card || `${el.dataset.seat}:${el.dataset.slot}` || el.id,
           onScreen: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
           tapped: !!hit && (hit === el || el.contains(hit)),
           coveredBy: hit && hit !== el && !el.contains(hit) ? hit.outerHTML.slice(0, 80) : null };
})"""
# how far the page is wider than the phone (a mobile browser zooms out to show an overflowing
# page, so innerWidth grows with it: compare with the phone's own width)
NO_SIDEWAYS = f"() => Math.max(document.documentElement.scrollWidth, innerWidth) - {PHONE['width']}"

# timestamps of the first moment the animation starts and of the result showing
WATCH_RESULT = """(start) => {
  window.__t = {};
  const mark = () => {
    const now = performance.now();
    if (!__t.start && document.querySelector(start)) __t.start = now;
    const result = document.querySelector("#result");
    if (!__t.result && result && !result.classList.contains("hidden")) __t.result = now;
  };
  new MutationObserver(mark).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def page_for(chromium, server, client, match_id, viewport=None, phone=False):
    options = {"viewport": viewport or {"width": 1280, "height": 900}}
    if phone:
        options.update(viewport=PHONE, has_touch=True, is_mobile=True)
    context = chromium.new_context(**options)
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in client.http.cookies])
    page = context.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    expect(page.locator("#conn")).to_have_text("live", timeout=10_000)
    return page


def assert_all_tappable(page, selector, at_least=1, scroll=True):
    rows = page.evaluate(TAP_CHECK, [selector, scroll])
    assert len(rows) >= at_least, f"{selector}: only {len(rows)} targets"
    bad = [r for r in rows if not (r["onScreen"] and r["tapped"])]
    assert not bad, f"{selector}: not tappable on a phone: {bad}"
    return rows


def api_act(client, match_id, action):
    seq = client.api("GET", f"/api/matches/{match_id}/").json()["seq"]
    response = client.api("POST", f"/api/matches/{match_id}/actions/", {"seq": seq, "action": action})
    assert response.status_code == 200, response.text
    return response.json()


def focus_ring(page, selector):
    """The computed focus styling of the focused element (or of its background shape, for SVG)."""
    return page.evaluate("""(sel) => {
      const el = document.activeElement;
      if (!el || !el.matches(sel)) return null;
      const shape = el.querySelector("rect") || el;
      const s = getComputedStyle(el), r = getComputedStyle(shape);
      return { outline: s.outlineStyle + " " + s.outlineWidth + " " + s.outlineColor, stroke: r.stroke, strokeWidth: r.strokeWidth };
    }""", selector)


# ----------------------------------------------------------------------------- phones

def test_phone_quantum_tictactoe_every_square_and_choice_takes_the_tap(chromium, server, teacher):
    table = open_table(server, game="quantum-tictactoe")
    ada = page_for(chromium, server, table.students[0], table.match_id, phone=True)
    expect(ada.locator("#turn")).to_have_class("turn mine")
    assert ada.evaluate(NO_SIDEWAYS) <= 0
    assert_all_tappable(ada, "g.cell.playable", at_least=9)
    for sq in range(1, 10):  # a tap picks the square, a second tap puts it back
        ada.locator(f"g.cell[data-square='{sq}']").tap()
        expect(ada.locator(f"g.cell.picked[data-square='{sq}']")).to_have_count(1)
        ada.locator(f"g.cell[data-square='{sq}']").tap()
        expect(ada.locator("g.cell.picked")).to_have_count(0)
    # a cycle: the collapse choices on the board and their buttons take the tap too
    api_act(table.students[0], table.match_id, {"squares": [1, 2]})
    api_act(table.students[1], table.match_id, {"squares": [1, 2]})
    expect(ada.locator("g.cell.choice")).to_have_count(2)
    assert_all_tappable(ada, "g.cell.choice", at_least=2)
    assert_all_tappable(ada, "button[data-collapse]", at_least=2)
    assert ada.evaluate(NO_SIDEWAYS) <= 0
    shot(ada, "phone-qttt.png")
    # a touch screen has no hover: the first tap previews the choice (ghost marks, the outcome
    # highlighted, the hint says what it does), the second tap chooses it
    ada.locator("g.cell.choice[data-square='2']").tap()
    expect(ada.locator("g.cell[data-square='2'] .mark.ghost")).to_have_text("O2")
    expect(ada.locator("[data-outcome='2']")).to_have_class("outcome hover")
    expect(ada.locator("#qttt-hint")).to_have_text("Preview: O2 lands on 2, X1 lands on 1. Tap square 2 again to choose it.")
    expect(ada.locator("#turn")).to_contain_text("Tap square 2 again")
    assert Match.objects.get(pk=table.match_id).seq == 2
    ada.locator("g.cell.choice[data-square='1']").tap()  # another choice: its preview instead
    expect(ada.locator("g.cell[data-square='1'] .mark.ghost")).to_have_text("O2")
    ada.locator("g.cell.choice[data-square='1']").tap()  # its own preview redraws it mid-tap
    expect(ada.locator("g.cell[data-square='1'] .mark.classical")).to_have_count(1)


def test_phone_qtris_hand_sits_with_the_board_and_every_target_takes_the_tap(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    alice = page_for(chromium, server, table.students[0], table.match_id, phone=True)
    expect(alice.locator("#turn")).to_have_class("turn mine")
    expect(alice.locator(".qcard")).to_have_count(6)
    assert alice.evaluate(NO_SIDEWAYS) <= 0
    # the whole hand and the whole board fit on one screen: no scrolling between card and square
    span = alice.evaluate("""() => {
      const b = document.querySelector(".qtris-board").getBoundingClientRect();
      const cards = [...document.querySelectorAll(".qcard")].map((c) => c.getBoundingClientRect());
      return { top: Math.min(b.top, ...cards.map((c) => c.top)), bottom: Math.max(b.bottom, ...cards.map((c) => c.bottom)) };
    }""")
    assert span["bottom"] - span["top"] <= PHONE["height"], span
    alice.evaluate("() => document.querySelector('.qtris-board').scrollIntoView({ block: 'start' })")
    for card, controls in (("U", False), ("CX", True)):
        assert_all_tappable(alice, f".qcard[data-card={card}]", scroll=False)  # on screen with the board
        alice.locator(f".qcard[data-card={card}]").tap()
        expect(alice.locator(f".qcard.picked[data-card={card}]")).to_have_count(1)
        rows = assert_all_tappable(alice, "g.sq.target", at_least=2, scroll=False)  # all on screen already
        if controls:  # CX: a control, then every target of that control
            alice.locator(f"g.sq.target[data-square='{rows[0]['key']}']").tap()
            expect(alice.locator("g.sq.control")).to_have_count(1)
            assert_all_tappable(alice, "g.sq.target", at_least=1, scroll=False)
        shot(alice, f"phone-qtris-{card}.png")
        alice.locator(f".qcard[data-card={card}]").tap()  # put the card back
        expect(alice.locator(".qcard.picked")).to_have_count(0)
    # no hover on a touch screen: the first tap on a square previews the play (what the gate
    # would do and the odds, on the board and under the hand, on screen), a second tap or
    # "Play" plays it
    seq = alice.locator(".qtris").get_attribute("data-seq")
    alice.locator(".qcard[data-card=U]").tap()
    alice.locator("g.sq.target[data-square='5']").tap()
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("Preview: U on square 5")
    expect(alice.locator("[data-testid=ghost]")).to_have_count(1)
    expect(alice.locator("#turn")).to_contain_text("Tap square 5 again, or press Play, to play U.")
    play = alice.locator("[data-testid=confirm-play]")
    expect(play).to_be_in_viewport()
    assert_all_tappable(alice, "[data-testid=confirm-play]", scroll=False)
    assert alice.locator(".qtris").get_attribute("data-seq") == seq
    shot(alice, "phone-qtris-tap-preview.png")
    alice.locator("g.sq.target[data-square='4']").tap()  # another square: its preview instead
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("Preview: U on square 4")
    alice.locator("g.sq.target[data-square='5']").tap()
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("Preview: U on square 5")
    play.tap()
    expect(alice.locator("g.sq[data-square='5'] .deco-u")).to_have_count(1)
    # CX: the control is a step (no preview), the target's first tap previews, the second plays
    expect(alice.locator("#turn")).to_have_class("turn mine")
    alice.locator(".qcard[data-card=CX]").tap()
    alice.locator("g.sq[data-square='3']").tap()
    expect(alice.locator("g.sq.control[data-square='3']")).to_have_count(1)
    alice.locator("g.sq.target[data-square='6']").tap()
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("control 3 → target 6")
    expect(alice.locator("path.link.pair[data-link='3-6']")).to_have_count(0)
    alice.locator("g.sq.target[data-square='6']").tap()
    expect(alice.locator("path.link.pair[data-link='3-6']")).to_have_count(1)


def test_phone_qtris_one_tap_plays_only_the_play_on_show(chromium, server, teacher):
    """A tap arms only the play it previews, and only a tap arms: a focus that moves the preview
    to another square (the page's own, putting the focus back after a new state, or a
    keyboard's) disarms the square tapped before, and a finger held on a square over the 700 ms
    after the tap before is still a tap (that tap's time used to end this press: its focus was
    taken for a keyboard's, the square redrawn under the finger, the click lost, and the square
    tapped before stayed armed, so that the next single tap on it played the move: the occasional
    failure of the test above). The held finger is sent by CDP, timed against the page's clock."""
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    alice = page_for(chromium, server, table.students[0], table.match_id, phone=True)
    expect(alice.locator("#turn")).to_have_class("turn mine")
    alice.evaluate("""() => { window.__up = 0; addEventListener("pointerup", () => { window.__up = performance.now(); }, true);
      document.querySelector(".qtris-board").scrollIntoView({ block: "start" }); }""")
    board = alice.locator(".qtris")
    seq = board.get_attribute("data-seq")
    preview, turn = alice.locator("[data-testid=preview-result]"), alice.locator("#turn")

    def armed_on(square):
        expect(preview).to_contain_text(f"Preview: U on square {square}")
        expect(turn).to_contain_text(f"Tap square {square} again, or press Play, to play U.")
        assert board.get_attribute("data-seq") == seq, "a first tap played the move"

    alice.locator(".qcard[data-card=U]").tap()
    alice.locator("g.sq.target[data-square='5']").tap()
    armed_on(5)
    # the page puts the focus on another square (play.js's restoreFocus: focus(), no pointer):
    # its preview shows, and square 5 is no longer armed
    alice.evaluate("() => document.querySelector(\"g.sq[data-square='4']\").focus({ preventScroll: true })")
    expect(preview).to_contain_text("Preview: U on square 4")
    expect(turn).not_to_contain_text("Tap square 5 again")
    # one tap on square 5: a preview again, not the move; and at once a finger down on square 4
    # from 350 ms after that tap's pointerup to 820 ms (under a long press): the tap's 700 ms
    # end inside this press
    cdp = alice.context.new_cdp_session(alice)
    alice.locator("g.sq.target[data-square='5']").tap()
    box = alice.locator("g.sq.target[data-square='4']").bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    alice.wait_for_timeout(max(0, 350 - alice.evaluate("() => performance.now() - window.__up")))
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    alice.wait_for_timeout(470)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    armed_on(4)  # the press's own click armed square 4 (its focus did not redraw the square away)
    alice.locator("g.sq.target[data-square='5']").tap()  # square 5 was disarmed: a preview only
    armed_on(5)
    alice.locator("g.sq.target[data-square='5']").tap()  # the second tap plays
    expect(alice.locator("g.sq[data-square='5'] .deco-u")).to_have_count(1)
    assert board.get_attribute("data-seq") != seq


def test_qtris_odds_with_their_changes_fit_a_320_px_phone_in_spanish(chromium, server, teacher):
    """After a move the odds table shows each figure's change beside it; on the smallest phone, in
    the language with the longest words, the table stays inside the screen (it made the page
    16 px wider)."""
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    context = phone_context(chromium, SMALL_PHONE, locale="es-ES")
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in table.students[0].http.cookies])
    alice = context.new_page()
    alice.goto(f"{server.url}/matches/{table.match_id}/")
    expect(alice.locator("#turn")).to_have_class("turn mine")
    alice.locator(".qcard[data-card=U]").tap()
    alice.locator("g.sq.target[data-square='5']").tap()
    alice.locator("[data-testid=confirm-play]").tap()
    expect(alice.locator("#qtris-odds .delta").first).to_be_visible()
    right = alice.evaluate("() => Math.max(...[...document.querySelectorAll('#qtris-odds *')]"
                           ".map((e) => e.getBoundingClientRect().right))")
    assert right <= SMALL_PHONE["width"], f"the odds reach {right:.0f} px on a {SMALL_PHONE['width']} px phone"
    assert_phone_friendly(alice, "QTris odds with changes", within="#qtris-odds")
    assert alice.evaluate("() => Math.max(document.documentElement.scrollWidth, innerWidth)") <= SMALL_PHONE["width"]


def poker_table(server, community_cards=10, seed_wants=None):
    """Two students at a QuantumPoker table; with seed_wants, a seed whose deal satisfies it."""
    table = open_table(server, game="quantum-poker", variant="classic",
                       options={"table_size": 2, "hands": 1, "community_cards": community_cards})
    if seed_wants:
        game = get_game("quantum-poker")
        match = Match.objects.get(pk=table.match_id)
        seed = next(s for s in range(1, 5000) if seed_wants(game.setup(players=2, variant="classic", seed=s,
                                                                       options=match.options)))
        Match.objects.filter(pk=match.pk).update(seed=seed)
    return table


def test_phone_poker_every_card_and_target_takes_the_tap(chromium, server, teacher):
    kinds = lambda state: {c["kind"] for c in state["hand"]["community"]}  # noqa: E731
    table = poker_table(server, seed_wants=lambda st: {"SWAP", "CX", "H"} <= kinds(st))
    pages = {seat: page_for(chromium, server, table.students[seat], table.match_id, phone=True) for seat in (0, 1)}
    for page in pages.values():
        expect(page.locator(".qp-seat")).to_have_count(2)
        assert page.evaluate(NO_SIDEWAYS) <= 0
    actor = next(p for p in pages.values() if p.locator("#turn.mine").count())
    cards = assert_all_tappable(actor, ".qp-pauli.playable", at_least=3)
    seen = set()
    for row in cards:
        card = actor.locator(f".qp-pauli[data-card='{row['key']}']")
        kind = card.get_attribute("data-kind")
        card.tap()
        expect(actor.locator(".qp-pauli.picked")).to_have_count(1)
        targets = assert_all_tappable(actor, ".qp-qubit.target", at_least=4)
        if kind == "SWAP":  # own qubit first, then every qubit of the other player
            actor.locator(f".qp-qubit.target[data-seat='{targets[0]['key'].split(':')[0]}'][data-slot='{targets[0]['key'].split(':')[1]}']").tap()
            expect(actor.locator(".qp-qubit.own-picked")).to_have_count(1)
            assert_all_tappable(actor, ".qp-qubit.target", at_least=4)
        if kind not in seen:
            shot(actor, f"phone-poker-{kind}.png")
            seen.add(kind)
        card.tap()  # put the card back
        expect(actor.locator(".qp-pauli.picked")).to_have_count(0)
    assert {"SWAP", "CX", "H"} <= seen
    # a real tap plays
    seq = actor.locator("#board").get_attribute("data-seq")
    actor.locator(".qp-pauli.playable[data-kind=CX]").first.tap()
    actor.locator(".qp-qubit.target").first.tap()
    expect(actor.locator("#board")).not_to_have_attribute("data-seq", seq)


def test_phone_replay_controls_fit_and_take_the_tap(chromium, server, teacher):
    table = poker_table(server, community_cards=1)
    actor = next(st for st in table.students.values()
                 if st.api("GET", f"/api/matches/{table.match_id}/").json()["legal"])
    legal = actor.api("GET", f"/api/matches/{table.match_id}/").json()["legal"]
    api_act(actor, table.match_id, legal[0])
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED
    page = page_for(chromium, server, table.students[0], table.match_id, phone=True)
    page.goto(f"{server.url}/matches/{table.match_id}/replay/")
    expect(page.locator(".qp-table")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS) <= 0
    assert_all_tappable(page, ".replay-controls button, .replay-controls input", at_least=5)
    page.locator("#next").tap()
    expect(page.locator("#step")).to_contain_text("step 1")
    shot(page, "phone-replay.png")


def test_phone_header_is_compact_and_switches_language_by_keyboard(chromium, server, teacher):
    """The header takes at most two short rows on a 375 and a 320 px phone (it took 150 px):
    brand, links and a small language select with a ✓ submit named "Change language"."""
    for size in (PHONE_SE, SMALL_PHONE):
        page = phone_context(chromium, size).new_page()
        page.goto(server.url + "/join/")
        assert page.locator(".topbar").bounding_box()["height"] <= 72, size
        assert_phone_friendly(page, f"join page header at {size['width']} px", within=".topbar")
        expect(page.get_by_role("button", name="Change language")).to_be_visible()
        expect(page.get_by_role("link", name="⟨ψ| Quantum Classroom")).to_be_visible()
    page.locator("#language-switcher select").focus()
    page.keyboard.press("ArrowDown")  # English → Español
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("button", name="Cambiar idioma")).to_be_visible()


# a control each game's player to act would use first
FIRST_CONTROL = {
    "quantum-tictactoe": "g.cell.playable", "qtris": ".qcard", "quantum-poker": ".qp-pauli.playable",
    "entanglion": "button.ent-card", "quantum-ticket-to-ride": "[data-draw]",
}
PAUSE_GAMES = [("quantum-tictactoe", {}), ("qtris", {"variant": "advanced", "options": QTRIS_OPTIONS}),
               ("quantum-poker", {"variant": "classic", "options": {"table_size": 2, "hands": 1, "community_cards": 4}}),
               ("entanglion", {}), ("quantum-ticket-to-ride", {})]


def teacher_command(table, command: dict) -> None:
    """The table's teacher sends a dashboard command over the session socket and waits until the
    dashboard it gets back reflects it (pause_all / resume_all)."""
    paused = command["type"] == "pause_all"

    async def send():
        ws = await table.teacher.socket(f"/ws/sessions/{table.session['id']}/")
        await receive(ws, "dashboard")
        await ws.send(json.dumps(command))
        await receive(ws, "dashboard", where=lambda m: m["session"]["pace"]["paused"] == paused)
        await ws.close()
    run_async(send())


@pytest.mark.parametrize("game,extra", PAUSE_GAMES, ids=[g for g, _ in PAUSE_GAMES])
def test_phone_pause_is_said_on_the_turn_line_and_locks_the_board(chromium, server, teacher, game, extra):
    """Paused by the teacher, on a phone: the turn line (where the student looks) says so instead
    of "Your turn", every control of the board is disabled and a tap on one does nothing (the
    line nudges); the resume is said in the live region and the controls come back."""
    table = open_table(server, game=game, **extra)
    actor = next(s for s in table.students.values() if s.api("GET", f"/api/matches/{table.match_id}/").json()["legal"])
    page = page_for(chromium, server, actor, table.match_id, phone=True)
    control = page.locator(FIRST_CONTROL[game]).first
    expect(control).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("Your turn")
    seq = Match.objects.get(pk=table.match_id).seq

    teacher_command(table, {"type": "pause_all"})
    turn = page.locator("#turn")
    expect(turn).to_contain_text("Paused by your teacher")
    expect(turn).not_to_contain_text("Your turn")
    expect(turn).to_have_class(re.compile(r"\bpaused\b"))
    expect(page.locator("#announce")).to_contain_text("Paused by your teacher")
    locked = page.evaluate("""() => {
      const board = document.querySelector("#board");
      const buttons = [...board.querySelectorAll("button")];
      const svg = [...board.querySelectorAll("[role=button]")];
      return { buttons: buttons.length, enabled: buttons.filter((b) => !b.disabled).map((b) => b.outerHTML.slice(0, 80)),
               svg: svg.length, live: svg.filter((n) => n.getAttribute("aria-disabled") !== "true").map((n) => n.outerHTML.slice(0, 80)) };
    }""")
    assert locked["buttons"] + locked["svg"] > 0 and not locked["enabled"] and not locked["live"], locked
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(turn).to_have_class(re.compile(r"\bnudge\b"))
    assert page.locator("#board .picked, #board [aria-pressed=true]").count() == 0
    expect(page.locator("#error")).to_be_hidden()
    assert_phone_friendly(page, f"{game} paused", within="#turn")
    shot(page, f"phone-paused-{game}.png")
    assert Match.objects.get(pk=table.match_id).seq == seq

    teacher_command(table, {"type": "resume_all"})
    expect(page.locator("#announce")).to_contain_text("Resumed: play on.")
    expect(turn).to_contain_text("Your turn")
    expect(turn).not_to_have_class(re.compile(r"\bpaused\b"))
    expect(page.locator("#board [data-pause-disabled]")).to_have_count(0)
    expect(page.locator(FIRST_CONTROL[game]).first).not_to_have_attribute("aria-disabled", "true")
    if page.locator(f"{FIRST_CONTROL[game]}:is(button)").count():
        expect(page.locator(FIRST_CONTROL[game]).first).to_be_enabled()


# ----------------------------------------------------------------------------- what a click did

def test_quantum_tictactoe_says_what_a_half_made_move_is_and_why_a_click_did_nothing(chromium, server, teacher):
    table = open_table(server, game="quantum-tictactoe")
    ada = page_for(chromium, server, table.students[0], table.match_id)  # X
    bo = page_for(chromium, server, table.students[1], table.match_id)   # O
    hint_a, hint_b = ada.locator("#qttt-hint"), bo.locator("#qttt-hint")
    for page in (ada, bo):  # the hint is shown; it is heard through the page's one live region
        expect(page.locator("[aria-live=polite]")).to_have_count(1)
    ada.locator("g.cell[data-square='4']").click()
    expect(hint_a).to_have_text("First mark on square 4: now pick the second square.")
    expect(ada.locator("#announce")).to_have_text("First mark on square 4: now pick the second square.")
    expect(ada.locator("#turn")).to_contain_text("First mark on square 4")  # the turn line follows
    bo.locator("g.cell[data-square='5']").click()
    expect(hint_b).to_contain_text("It is X's turn")
    ada.locator("g.cell[data-square='4']").click()
    expect(hint_a).to_contain_text("Square 4 is free again")
    ada.locator("g.cell[data-square='1']").click()
    ada.locator("g.cell[data-square='2']").click()
    expect(bo.locator("#turn")).to_have_class("turn mine")
    ada.locator("g.cell[data-square='5']").click()
    expect(hint_a).to_contain_text("It is O's turn")
    bo.locator("g.cell[data-square='1']").click()
    expect(hint_b).to_contain_text("First mark on square 1")
    bo.locator("g.cell[data-square='2']").click()  # O2 closes the cycle 1–2: X chooses
    expect(ada.locator("g.cell.choice")).to_have_count(2)
    bo.locator("g.cell[data-square='1']").click()
    expect(hint_b).to_contain_text("X chooses where the cycle collapses")
    ada.locator("g.cell[data-square='5']").click()
    expect(hint_a).to_contain_text("Square 5 is not a choice of this measurement: choose square 1 or 2")
    ada.locator("g.cell[data-square='1']").click()  # O2 lands on 1, so X1 on 2
    expect(ada.locator("g.cell[data-square='1'] .mark.classical")).to_have_text("O2")
    ada.locator("g.cell[data-square='2']").click()
    expect(hint_a).to_have_text("Square 2 is classical (X1 is there for good): pick a square without a big mark.")
    expect(ada.locator("g.cell.picked")).to_have_count(0)


def test_qtris_cx_control_square_is_a_prompt_not_an_error(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    alice = page_for(chromium, server, table.students[0], table.match_id)
    preview = alice.locator("#qtris-preview")
    alice.locator(".qcard[data-card=CX]").click()
    alice.locator("g.sq[data-square='3']").hover()  # a legal control
    expect(alice.locator("[data-testid=step-prompt]")).to_contain_text("square 3 as the control")
    expect(preview).not_to_have_class("qtris-preview illegal")
    expect(alice.locator("[data-testid=illegal-reason]")).to_have_count(0)
    assert "254, 242, 242" not in preview.evaluate("(e) => getComputedStyle(e).backgroundColor")
    alice.locator("g.sq[data-square='3']").click()
    alice.locator("g.sq[data-square='3']").hover()  # the chosen control: still a prompt
    expect(alice.locator("[data-testid=step-prompt]")).to_contain_text("Square 3 is the control of your CX")
    expect(alice.locator("[data-testid=illegal-reason]")).to_have_count(0)
    expect(alice.locator("g.sq.control[data-square='3']")).not_to_have_class("sq control illegal hover")
    assert "illegal" not in alice.locator("g.sq[data-square='3']").get_attribute("class")
    # a really illegal target still says why, as before
    alice.locator("g.sq[data-square='8']").hover()
    expect(alice.locator("[data-testid=illegal-reason]")).to_be_visible()


# ----------------------------------------------------------------------------- result timing

# how late the start may be marked: when the script that drew it has finished its task (the
# MutationObserver's callback comes after the rest of the board is drawn), which took over 100 ms
# on a loaded 2-core machine, while the page counts its wait from the drawing itself
MARKED_LATE_MS = 250


def assert_result_waits(page, start_selector, at_least_ms):
    page.wait_for_function("() => window.__t && window.__t.start && window.__t.result", timeout=15_000)
    t = page.evaluate("() => window.__t")
    assert t["result"] - t["start"] >= at_least_ms - MARKED_LATE_MS, t


def test_qtris_result_after_the_measurement_animation(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    alice = page_for(chromium, server, table.students[0], table.match_id)
    mid = table.match_id
    while True:  # everybody passes (the deck holds only I cards) until one pass is left
        payloads = {seat: st.api("GET", f"/api/matches/{mid}/").json() for seat, st in table.students.items()}
        seat = next(s for s, p in payloads.items() if p["legal"])
        if payloads[seat]["view"]["turn"]["number"] == payloads[seat]["view"]["turn"]["total"] \
                and payloads[seat]["view"]["turn"]["plays_left"] == 1:
            break
        api_act(table.students[seat], mid, {"card": "I"})
    alice.evaluate(WATCH_RESULT, ".measured.appear")
    final = api_act(table.students[seat], mid, {"card": "I"})
    measured = len([e for e in final["events"] if e.get("type") == "measure"])
    assert final["outcome"] and measured >= 2
    # while the squares are measured one by one, the score and the verdict are not shown yet
    expect(alice.locator("[data-testid=measuring]")).to_be_visible()
    expect(alice.locator("[data-testid=final-score]")).to_have_count(0)
    expect(alice.locator("#result")).to_be_hidden()
    assert_result_waits(alice, ".measured.appear", measured * 550 + 600)
    expect(alice.locator("[data-testid=final-score]")).to_be_visible()
    # a page opened later shows the result at once: nothing is being measured in front of it
    alice.reload()
    expect(alice.locator("#result")).to_be_visible(timeout=2000)
    expect(alice.locator("[data-testid=final-score]")).to_be_visible(timeout=1000)


def test_quantum_tictactoe_result_after_the_collapse_cascade(chromium, server, teacher):
    game = get_game("quantum-tictactoe")
    rng = random.Random(8)
    while True:  # a game whose last action is a collapse placing several marks and ending it
        state, actions = game.setup(players=2, variant="basic", seed=0, options={}), []
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            action = rng.choice(game.legal_actions(state, seat))
            state, events = game.apply(state, seat, action)
            actions.append((seat, action, events))
        seat, action, events = actions[-1]
        placed = sum(len(e.get("placed", [])) for e in events if e.get("type") == "collapse")
        if "collapse" in action and placed >= 3:
            break
    table = open_table(server, game="quantum-tictactoe")
    ada = page_for(chromium, server, table.students[0], table.match_id)
    for seat, action, _ in actions[:-1]:
        api_act(table.students[seat], table.match_id, action)
    ada.evaluate(WATCH_RESULT, ".mark.appear")
    api_act(table.students[actions[-1][0]], table.match_id, actions[-1][1])
    assert_result_waits(ada, ".mark.appear", (placed - 1) * 350 + 500)
    expect(ada.locator("#result")).to_be_visible()


def test_poker_showdown_waits_for_the_coin(chromium, server, teacher):
    # two community cards, one of them H: the first player lays a qubit down (superposed), the
    # last play ends the hand and the showdown collapses that qubit with a coin flip
    def wanted(state):
        return [c["kind"] for c in state["hand"]["community"]][0] == "H"
    table = poker_table(server, community_cards=2, seed_wants=wanted)
    mid = table.match_id
    pages = {seat: page_for(chromium, server, table.students[seat], mid) for seat in (0, 1)}
    first = next(s for s, st in table.students.items() if st.api("GET", f"/api/matches/{mid}/").json()["legal"])
    legal = table.students[first].api("GET", f"/api/matches/{mid}/").json()["legal"]
    api_act(table.students[first], mid, next(a for a in legal if a["card"] == 0))
    second = 1 - first
    legal = table.students[second].api("GET", f"/api/matches/{mid}/").json()["legal"]
    for page in pages.values():
        page.evaluate(WATCH_RESULT, ".qp-coin-wrap")
    api_act(table.students[second], mid, legal[0])
    for page in pages.values():  # while the coin spins, nobody sees who won
        expect(page.locator(".qp-coin-wrap")).to_be_visible()
        expect(page.locator(".qp-showdown")).to_be_hidden()
        expect(page.locator("#result")).to_be_hidden()
    for page in pages.values():
        assert_result_waits(page, ".qp-coin-wrap", 1700)
        expect(page.locator(".qp-showdown")).to_be_visible()
        expect(page.locator(".qp-winner")).to_be_visible()


# ----------------------------------------------------------------------------- keyboard

def test_qtris_by_keyboard_focus_moves_to_the_board_and_previews_like_hover(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    alice = page_for(chromium, server, table.students[0], table.match_id)
    alice.locator(".qcard[data-card=U]").focus()
    assert "solid 3px" in focus_ring(alice, ".qcard")["outline"]  # a hand card shows its focus ring
    alice.keyboard.press("Enter")
    assert alice.evaluate("() => document.activeElement.matches('g.sq.target')")
    first = alice.evaluate("() => document.activeElement.dataset.square")
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text(f"on square {first}")
    ring = focus_ring(alice, "g.sq")
    assert ring["stroke"] == FOCUS_BLUE and float(ring["strokeWidth"].rstrip("px")) >= 5, ring
    alice.keyboard.press("ArrowDown")  # square 1 → 4 ... arrows walk the board
    now = alice.evaluate("() => document.activeElement.dataset.square")
    assert int(now) == int(first) + 3
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text(f"on square {now}")
    alice.keyboard.press("ArrowRight")
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("on square 5")
    alice.keyboard.press("Enter")
    expect(alice.locator("g.sq[data-square='5'] .deco-u")).to_have_count(1)
    # CX by keyboard: card, control (a prompt), target (a preview), Enter plays it
    alice.locator(".qcard[data-card=CX]").focus()
    alice.keyboard.press(" ")
    assert alice.evaluate("() => document.activeElement.matches('g.sq.target')")
    expect(alice.locator("[data-testid=step-prompt]")).to_be_visible()
    alice.evaluate("() => document.querySelector(\"g.sq[data-square='3']\").focus()")
    alice.keyboard.press("Enter")
    expect(alice.locator("g.sq.control[data-square='3']")).to_have_count(1)
    alice.keyboard.press("ArrowDown")
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("control 3 → target 6")
    alice.keyboard.press("Enter")
    expect(alice.locator("path.link.pair[data-link='3-6']")).to_have_count(1)


def test_quantum_tictactoe_by_keyboard_with_collapse_previews(chromium, server, teacher):
    table = open_table(server, game="quantum-tictactoe")
    ada = page_for(chromium, server, table.students[0], table.match_id)
    ada.locator("g.cell[data-square='1']").focus()
    ring = focus_ring(ada, "g.cell")
    assert ring["stroke"] == FOCUS_BLUE and float(ring["strokeWidth"].rstrip("px")) >= 5, ring
    ada.keyboard.press("Enter")
    expect(ada.locator("#qttt-hint")).to_have_text("First mark on square 1: now pick the second square.")
    ada.keyboard.press("ArrowRight")
    assert ada.evaluate("() => document.activeElement.dataset.square") == "2"
    ada.keyboard.press(" ")
    expect(ada.locator("g.cell[data-square='2'] .mark.spooky")).to_have_count(1)
    api_act(table.students[1], table.match_id, {"squares": [1, 2]})  # O2 closes the cycle
    expect(ada.locator("g.cell.choice")).to_have_count(2)
    ada.locator("g.cell[data-square='1']").focus()  # a focused choice previews like hover
    expect(ada.locator("g.cell[data-square='1'] .mark.ghost")).to_have_text("O2")  # O2 would land on 1
    expect(ada.locator("g.cell[data-square='2'] .mark.ghost")).to_have_text("X1")
    expect(ada.locator("[data-outcome='1']")).to_have_class("outcome hover")
    ada.keyboard.press("ArrowRight")
    expect(ada.locator("g.cell[data-square='2'] .mark.ghost")).to_have_text("O2")
    expect(ada.locator("[data-outcome='2']")).to_have_class("outcome hover")
    ada.keyboard.press("Enter")
    expect(ada.locator("g.cell[data-square='2'] .mark.classical")).to_have_text("O2")


def test_poker_by_keyboard_card_then_target(chromium, server, teacher):
    table = poker_table(server, community_cards=5)
    pages = [page_for(chromium, server, table.students[s], table.match_id) for s in (0, 1)]
    actor = next(p for p in pages if p.locator("#turn.mine").count())
    card = actor.locator(".qp-pauli.playable").first
    card.focus()
    assert "solid" in focus_ring(actor, ".qp-pauli")["outline"]
    actor.keyboard.press("Enter")
    assert actor.evaluate("() => document.activeElement.matches('.qp-qubit.target')")
    assert "solid 4px" in focus_ring(actor, ".qp-qubit")["outline"]
    actor.keyboard.press("Escape")  # put the card back: the focus returns to it
    expect(actor.locator(".qp-pauli.picked")).to_have_count(0)
    assert actor.evaluate("() => document.activeElement.matches('.qp-pauli.playable')")
    actor.keyboard.press(" ")
    if actor.locator(".qp-pauli.picked[data-kind=SWAP]").count():
        actor.keyboard.press("Enter")  # SWAP: own qubit, then the focus is on the other's
    seq = actor.locator("#board").get_attribute("data-seq")
    actor.keyboard.press("Enter")
    expect(actor.locator("#board")).not_to_have_attribute("data-seq", seq)

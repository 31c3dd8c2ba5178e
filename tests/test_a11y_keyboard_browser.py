"""Accessibility in play: a whole quantum tic-tac-toe game played with the keyboard
alone (Tab into the board, arrows between squares, Enter to act, a collapse chosen on a focused
square), each move announced to screen readers from the events ("X placed a spooky mark on 3
and 4", "square 1 is now X7"), QTris announcing the new chance of white on the squares a card
changed, whose turn it is shown by more than colour, and prefers-reduced-motion turning every
animation and transition off."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines import get_game
from games.models import Match
from tests.support.axe import assert_no_serious_violations
from tests.support.tables import open_table
from tests.test_board_phone_keyboard_browser import page_for
from tests.test_qtris_board_browser import OPTIONS as QTRIS_OPTIONS

pytestmark = [pytest.mark.browser, pytest.mark.server]

# a short game (checked against the engine below): O closes the cycle 1-6-7-1, X collapses O8
# into 1 and O has the line 1-2-3
GAME = [(0, {"squares": [3, 4]}), (1, {"squares": [3, 8]}), (0, {"squares": [1, 8]}),
        (1, {"squares": [4, 9]}), (0, {"squares": [6, 7]}), (1, {"squares": [2, 4]}),
        (0, {"squares": [1, 7]}), (1, {"squares": [1, 6]}), (0, {"collapse": 1})]


def engine_run(actions):
    game = get_game("quantum-tictactoe")
    state = game.setup(players=2, variant="basic", seed=0, options={})
    said = []
    for seat, action in actions:
        assert game.to_act(state) == [seat]
        state, events = game.apply(state, seat, action)
        said.append(events)
    return game.outcome(state), said


def focused_square(page):
    return page.evaluate("() => document.activeElement && document.activeElement.matches('g.cell')"
                         " ? Number(document.activeElement.dataset.square) : null")


def tab_into_board(page):
    """Tab (keyboard only) until a square of the board has the focus."""
    for _ in range(40):
        if focused_square(page):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the board")


def walk_to(page, square):
    """Arrow keys from the focused square to ``square`` (the focus stays within the 3×3 grid)."""
    tab_into_board(page)
    here = focused_square(page)
    row, col = divmod(here - 1, 3)
    want_row, want_col = divmod(square - 1, 3)
    for _ in range(abs(want_row - row)):
        page.keyboard.press("ArrowDown" if want_row > row else "ArrowUp")
    for _ in range(abs(want_col - col)):
        page.keyboard.press("ArrowRight" if want_col > col else "ArrowLeft")
    assert focused_square(page) == square


def test_a_whole_quantum_tictactoe_game_by_keyboard_alone_with_announcements(chromium, server, teacher):
    outcome, said = engine_run(GAME)
    assert outcome["winners"] == [1] and outcome["lines"][0]["squares"] == [1, 2, 3]
    table = open_table(server, game="quantum-tictactoe")
    pages = {seat: page_for(chromium, server, table.students[seat], table.match_id) for seat in (0, 1)}
    for page in pages.values():  # nothing but the keyboard from here on
        page.mouse.move(0, 0)
    for n, (seat, action) in enumerate(GAME, start=1):
        page, other = pages[seat], pages[1 - seat]
        expect(page.locator("#turn")).to_have_class("turn mine")
        if "collapse" in action:
            walk_to(page, action["collapse"])
            # the focused choice previews like hover: O8 would land on square 1
            expect(page.locator(f"g.cell[data-square='{action['collapse']}'] .mark.ghost")).to_have_text("O8")
            # and a screen reader hears the same preview in the focused square's name
            label = page.locator(f"g.cell[data-square='{action['collapse']}']").get_attribute("aria-label")
            assert "Choose it and O8 lands on 1" in label, label
            page.keyboard.press("Enter")
        else:
            a, b = action["squares"]
            walk_to(page, a)
            page.keyboard.press("Enter")
            expect(page.locator("#qttt-hint")).to_have_text(f"First mark on square {a}: now pick the second square.")
            walk_to(page, b)
            page.keyboard.press("Enter")
            mark = "X" if seat == 0 else "O"
            # both players hear it: the other player's screen reader says the move
            expect(other.locator("#announce")).to_contain_text(f"{mark} placed a spooky mark on {a} and {b}")
            expect(page.locator("#announce")).to_contain_text(f"{mark} placed a spooky mark on {a} and {b}")
        if any(e["type"] == "cycle" for e in said[n - 1]):
            chooser = pages[1 - seat]
            expect(chooser.locator("#announce")).to_contain_text(f"Measurement: O{n} closed the cycle of squares")
            expect(chooser.locator("#announce")).to_contain_text(f"X chooses where O{n} lands")
    ada, bo = pages[0], pages[1]
    for page in (ada, bo):
        expect(page.locator("#announce")).to_contain_text("X collapsed O8 into square 1")
        expect(page.locator("#announce")).to_contain_text("square 1 is now O8")
        expect(page.locator("#announce")).to_contain_text("O has the line 1, 2, 3")
        expect(page.locator("#announce")).to_contain_text("Game over: O wins")
        expect(page.locator("#result")).to_be_visible(timeout=10_000)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED
    assert_no_serious_violations(ada, "quantum tic-tac-toe after a keyboard game")


def test_whose_turn_is_shown_by_more_than_colour(chromium, server, teacher):
    table = open_table(server, game="quantum-tictactoe")
    ada = page_for(chromium, server, table.students[0], table.match_id)
    acting = ada.locator(".player[data-seat='0']")
    expect(acting).to_have_attribute("aria-current", "true")
    # (read in the page as it is at each try: a new state re-renders the players, and an element
    # taken before that is detached, with no computed style)
    marker_is = """([seat, want]) => {
        const e = document.querySelector(`.player[data-seat='${seat}']`);
        return !!e && e.isConnected && getComputedStyle(e, '::before').content === want;
    }"""
    ada.wait_for_function(marker_is, arg=[0, '"▶ "'], timeout=10_000)
    waiting = ada.locator(".player[data-seat='1']")
    assert waiting.get_attribute("aria-current") is None
    ada.wait_for_function(marker_is, arg=[1, "none"], timeout=10_000)
    # X and O are letters, not colours; the squares' names say what is on them
    ada.locator("g.cell[data-square='1']").click()
    ada.locator("g.cell[data-square='2']").click()
    expect(ada.locator("g.cell[data-square='1']")).to_have_attribute("aria-label", "Square 1: X1 spooky")


def test_qtris_announces_the_new_chance_of_white_on_the_squares_a_card_changed(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS, show_odds=True)
    alice = page_for(chromium, server, table.students[0], table.match_id)
    bob = page_for(chromium, server, table.students[1], table.match_id)
    expect(alice.locator("#turn")).to_have_class("turn mine")
    expect(bob.locator("[data-pwhite='5']")).to_be_visible()
    alice.locator(".qcard[data-card=U]").focus()
    alice.keyboard.press("Enter")
    alice.locator("g.sq[data-square='5']").focus()
    alice.keyboard.press("Enter")
    expect(bob.locator("#announce")).to_contain_text("plays U on square 5")
    shown = bob.locator("[data-pwhite='5']").text_content().replace("○", "").strip()
    expect(bob.locator("#announce")).to_contain_text(f"square 5 is now white with probability {shown}")


REDUCE_CHECK = """() => {
  for (const css of ["app.css", "qtris.css", "quantum-poker.css"]) {
    const link = document.createElement("link");
    link.rel = "stylesheet"; link.href = "/static/css/" + css;
    document.head.append(link);
  }
  return new Promise((resolve) => setTimeout(() => {
    const box = document.createElement("div");
    box.innerHTML = `<svg class="qttt-board"><text class="mark appear">X</text><line class="win-line appear-late"/></svg>
      <svg class="qtris-board"><g class="ghost"></g><g class="measured appear"></g></svg>
      <div class="qp-qubit target"></div><div class="qp-coin-wrap"><div class="qp-coin"></div></div>
`;
    document.body.append(box);
    const names = [...box.querySelectorAll("*")].filter((e) => e.getAttribute("class"))
      .map((e) => [e.getAttribute("class"), getComputedStyle(e).animationName, getComputedStyle(e).transitionDuration]);
    resolve(names);
  }, 500));
}"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_prefers_reduced_motion_turns_every_animation_off(chromium, server, motion):
    context = chromium.new_context(reduced_motion=motion)
    page = context.new_page()
    page.goto(server.url + "/")
    rows = page.evaluate(REDUCE_CHECK)
    animated = {cls: name for cls, name, _ in rows if name != "none"}
    if motion == "reduce":
        assert not animated, f"still animated with prefers-reduced-motion: {animated}"
        assert all(float(d.split(",")[0].rstrip("s")) == 0 for _, _, d in rows)
    else:  # the same elements do animate for everybody else: the check above can fail
        assert {"mark appear", "ghost", "qp-qubit target", "qp-coin"} <= set(animated), animated
    chromium.give_back(context)


def active(page, attr):
    return page.evaluate(f"() => document.activeElement.dataset.{attr} ?? null")


def test_qtris_arrow_keys_walk_the_hand_and_enter_plays(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    alice = page_for(chromium, server, table.students[0], table.match_id)
    expect(alice.locator("#turn")).to_have_class("turn mine")
    alice.locator(".qcard[data-index='0']").focus()
    alice.keyboard.press("ArrowRight")
    assert active(alice, "index") == "1"
    alice.keyboard.press("ArrowLeft")
    assert active(alice, "index") == "0"
    alice.keyboard.press("ArrowLeft")  # the first card stays: no wrap, no lost focus
    assert active(alice, "index") == "0"
    assert active(alice, "card") == "U"
    alice.keyboard.press("Enter")  # U picked: the focus is on a square of the board
    assert alice.evaluate("() => document.activeElement.matches('g.sq.target')")


def test_poker_arrow_keys_walk_the_cards_and_the_targets(chromium, server, teacher):
    from tests.test_board_phone_keyboard_browser import poker_table

    table = poker_table(server, community_cards=5)
    pages = [page_for(chromium, server, table.students[s], table.match_id) for s in (0, 1)]
    expect(pages[0].locator(".qp-seat")).to_have_count(2)  # both boards drawn from their sockets
    expect(pages[1].locator(".qp-seat")).to_have_count(2)
    for _ in range(100):  # whichever page the socket says is to act
        actor = next((p for p in pages if p.locator("#turn.mine").count()), None)
        if actor:
            break
        pages[0].wait_for_timeout(100)
    assert actor, "neither student's page says it is their turn"
    expect(actor.locator(".qp-pauli.playable").nth(1)).to_be_visible()
    ids = actor.locator(".qp-pauli.playable").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    assert len(ids) >= 2
    card = lambda i: actor.locator(f".qp-pauli[data-card='{ids[i]}']")  # noqa: E731
    card(0).focus()
    actor.keyboard.press("ArrowRight")
    expect(card(1)).to_be_focused()
    actor.keyboard.press("ArrowLeft")
    expect(card(0)).to_be_focused()
    actor.keyboard.press("Enter")
    targets = actor.locator(".qp-qubit.target")
    expect(targets.first).to_be_focused()
    if targets.count() > 1:
        actor.keyboard.press("ArrowRight")
        expect(targets.nth(1)).to_be_focused()
    seq = actor.locator("#board").get_attribute("data-seq")
    actor.keyboard.press("Enter")
    if actor.locator(".qp-qubit.own-picked").count():  # SWAP: own qubit first, then the other's
        actor.keyboard.press("Enter")
    expect(actor.locator("#board")).not_to_have_attribute("data-seq", seq)

"""The QTris board in real browsers: two students play a fixed position to the score, with a U
card and a CX, previews on hover, a greyed illegal target with its reason, live odds."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import shot
from tests.support.tables import open_table

pytestmark = [pytest.mark.browser, pytest.mark.server]

# Alice (seat 0) plays White and starts; Bob (seat 1) plays Black. The deck is all I cards,
# so after the interesting plays every turn is a pass: the game is short and deterministic.
OPTIONS = {
    "board": ["W", "B", "R", "L", "R", "W", ["W", "R"], None, None],
    "pairs": [{"squares": [8, 9], "state": "psi-"}],
    "hands": [["U", "CX", "I", "I"], ["X", "H", "I", "I"]],
    "deck": ["I"] * 24,
    "first_seat": 0,
    "colors": ["white", "black"],
    "skip_mulligan": True,
}


def open_page(chromium, server, student, match_id):
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in student.http.cookies])
    page = context.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    expect(page.locator(".qtris-board")).to_be_visible(timeout=10_000)
    expect(page.locator("#conn")).to_have_text("live")
    return page


def my_turn(page) -> bool:
    return page.locator("#turn.mine").count() > 0


def pass_turn(page) -> None:
    """Pass with an I card, then wait until this browser has the new state."""
    seq = page.locator(".qtris").get_attribute("data-seq")
    page.locator("[data-action=pass]").click()
    expect(page.locator(".qtris")).not_to_have_attribute("data-seq", seq)


def test_two_students_play_qtris_with_u_and_cx_to_the_score(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=OPTIONS)
    alice = open_page(chromium, server, table.students[0], table.match_id)
    bob = open_page(chromium, server, table.students[1], table.match_id)
    expect(alice.locator("#turn")).to_have_class("turn mine")
    # the odds panel, P(white) on every square, the hand as cards
    expect(alice.locator("#qtris-odds")).to_be_visible()
    expect(alice.locator("[data-pwhite]")).to_have_count(9)
    expect(alice.locator(".qcard")).to_have_count(6)  # 4 dealt + 2 drawn
    expect(bob.locator(".qcard[data-card=X]")).to_be_disabled()
    win_before = alice.locator("[data-odds=win-0]").inner_text()
    shot(alice, "qtris-start.png")

    # U: hover square 5 → the preview (tile + odds change) appears before committing
    alice.locator(".qcard[data-card=U]").click()
    alice.locator("g.sq[data-square='5']").hover()
    expect(alice.locator("[data-testid=preview-result]")).to_be_visible()
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("U-decorated kitten turned right")
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("Your win chance")
    expect(alice.locator("g.sq[data-square='5'] .ghost")).to_be_visible()
    shot(alice, "qtris-preview-u.png")
    # nothing was played yet: Bob still sees the plain kitten on 5 and no decoration
    expect(bob.locator("g.sq[data-square='5'] .deco-u")).to_have_count(0)
    alice.locator("g.sq[data-square='5']").click()
    expect(alice.locator("g.sq[data-square='5'] .deco-u")).to_have_count(1)
    expect(bob.locator("g.sq[data-square='5'] .deco-u")).to_have_count(1)
    expect(alice.locator("[data-odds=win-0]")).not_to_have_text(win_before)
    expect(alice.locator("#qtris-explain")).to_contain_text("pink U decoration")
    expect(alice.locator("#qtris-explain .matrix")).to_be_visible()

    # CX: a decorated square cannot be a control: greyed; the squares of the pair can
    alice.locator(".qcard[data-card=CX]").click()
    expect(alice.locator("g.sq.illegal[data-square='5']")).to_have_count(1)
    expect(alice.locator("g.sq.target[data-square='8']")).to_have_count(1)
    alice.locator("g.sq[data-square='3']").click()  # the control: a kitten turned right
    expect(alice.locator("g.sq.control[data-square='3']")).to_have_count(1)
    # square 5 is now U-decorated: an illegal target, greyed, and the server says why
    expect(alice.locator("g.sq.illegal[data-square='5']")).to_have_count(1)
    alice.locator("g.sq[data-square='5']").hover()
    expect(alice.locator("[data-testid=illegal-reason]")).to_contain_text("decorated")
    shot(alice, "qtris-illegal.png")
    alice.locator("g.sq[data-square='6']").hover()
    expect(alice.locator("[data-testid=preview-result]")).to_contain_text("correlated pair")
    alice.locator("g.sq[data-square='6']").click()
    expect(bob.locator("path.link.pair[data-link='3-6']")).to_have_count(1)
    expect(bob.locator("#qtris-explain")).to_contain_text("CX")
    expect(bob.locator("#turn")).to_have_class("turn mine")
    shot(alice, "qtris-after-cx.png")

    # Bob: H on the pair (red decoration), then X on square 1
    bob.locator(".qcard[data-card=H]").click()
    bob.locator("g.sq[data-square='8']").hover()
    expect(bob.locator("[data-testid=preview-result]")).to_be_visible()
    bob.locator("g.sq[data-square='8']").click()
    expect(bob.locator("g.sq[data-square='8'] .deco-h")).to_have_count(1)
    bob.locator(".qcard[data-card=X]").click()
    bob.locator("g.sq[data-square='1']").click()
    expect(alice.locator("#turn")).to_have_class("turn mine")
    shot(bob, "qtris-midgame.png")

    # the rest of the game: passes (the deck holds only I cards)
    for _ in range(40):
        if alice.locator("[data-testid=final-score]").count():
            break
        page = alice if my_turn(alice) else bob if my_turn(bob) else None
        if page is None:
            alice.wait_for_timeout(100)
            continue
        assert page.locator("[data-action=pass]").count() == 1
        pass_turn(page)
    for page in (alice, bob):
        expect(page.locator("[data-testid=final-score]")).to_be_visible(timeout=10_000)
        expect(page.locator("#result")).to_be_visible()
    expect(alice.locator(".rolls li")).to_have_count(7)  # 5 single squares + 2 pairs
    # let the measurement animation finish for the screenshot: every finite animation has ended
    alice.wait_for_function("""() => document.getAnimations().every((a) =>
        a.playState !== "running" || a.effect.getComputedTiming().iterations === Infinity)""")
    shot(alice, "qtris-final.png")

    # the teacher's spectator view: board and odds, no hand
    tpage = chromium.new_context(viewport={"width": 1400, "height": 1000})
    tpage.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in table.teacher.http.cookies])
    tp = tpage.new_page()
    tp.goto(f"{server.url}/matches/{table.match_id}/")
    expect(tp.locator(".qtris-board")).to_be_visible()
    expect(tp.locator(".qcard")).to_have_count(0)
    expect(tp.locator("[data-testid=final-score]")).to_be_visible()

    # the replay renders the same board without a socket
    tp.goto(f"{server.url}/matches/{table.match_id}/replay/")
    expect(tp.locator(".qtris-board")).to_be_visible()
    tp.locator("#last").click()
    expect(tp.locator("[data-testid=final-score]")).to_be_visible()
    shot(tp, "qtris-replay.png")

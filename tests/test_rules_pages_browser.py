"""How to play, in a real browser: mid-game, the play page's "?" opens the game's rules in a
dialog over the board (the board stays, the socket stays live), the reader reads them (the
examples' boards drawn by the game's board script, one at a time in the narrow dialog, picked by
the "Before / After" toggle), Escape closes the dialog, also with the focus inside the rules, and
the focus is back on the "?"; a rules page at 375 px (and every game's in English) fits the phone
and passes axe; on a phone Ticket-to-Ride's rules (its gates' examples too) show one board per
example, the toggle answers a tap and the keyboard."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines import get_game, list_games
from tests.support.axe import assert_no_serious_violations
from tests.support.phone import PHONE, assert_phone_friendly, phone_context
from tests.support.tables import open_table
from tests.test_focus_and_announce_browser import page_of

pytestmark = [pytest.mark.browser, pytest.mark.server]

DRAWN = "#rules[data-drawn=true]"


def act(student, match_id: int, action: dict) -> None:
    seq = student.api("GET", f"/api/matches/{match_id}/").json()["seq"]
    answer = student.api("POST", f"/api/matches/{match_id}/actions/", {"seq": seq, "action": action})
    assert answer.status_code in (200, 201), answer.text


def test_the_question_mark_opens_the_rules_mid_game_and_escape_goes_back_to_the_game(chromium, server, teacher):
    table = open_table(server, "quantum-tictactoe")
    act(table.students[0], table.match_id, {"squares": [1, 5]})
    page = page_of(chromium, server, table.students[1], table.match_id)
    expect(page.locator("#board")).not_to_be_empty()
    opener = page.locator("#rules-open")
    expect(opener).to_have_accessible_name("How to play")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    rules = page.frame_locator("#rules-frame")
    expect(rules.locator("h1")).to_have_text("How to play Quantum tic-tac-toe")
    expect(rules.locator(DRAWN)).to_have_count(1, timeout=10_000)
    expect(rules.locator(".rules-example")).to_have_count(3)
    expect(rules.locator("[data-board=after]").first).not_to_be_empty()
    expect(rules.locator(".rules-page .topbar")).to_be_hidden()    # embedded: no site header
    # the dialog is narrow: one board at a time, the toggle works from the keyboard
    first = rules.locator(".rules-example").first
    show_after = first.locator(".rules-toggle [data-show=after]")
    expect(show_after).to_have_attribute("aria-pressed", "false")
    show_after.focus()
    page.keyboard.press("Enter")
    expect(show_after).to_have_attribute("aria-pressed", "true")
    expect(first.locator("[data-when=before]")).to_be_hidden()
    expect(first.locator("[data-when=after]")).to_be_visible()
    # Escape from inside the rules (the focus in the frame) closes the dialog
    rules.locator(".rules-toc a").first.focus()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    assert page.url.endswith(f"/matches/{table.match_id}/")
    expect(page.locator("#conn")).to_have_text("live")
    # once more, Escape on the dialog's own close button; the "Close" button too
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    expect(page.locator("#rules-close")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    opener.click()
    page.click("#rules-close")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    # still playing: the board takes the next move
    act(table.students[1], table.match_id, {"squares": [2, 5]})
    expect(page.locator("#board")).to_contain_text("O2")


@pytest.mark.parametrize("lang", ["pl"])
def test_a_rules_page_fits_a_phone_and_passes_axe(chromium, server, lang):
    page = phone_context(chromium, PHONE, locale=lang,
                         extra_http_headers={"Accept-Language": lang}).new_page()
    page.goto(f"{server.url}/games/qtris/rules/")
    expect(page.locator(DRAWN)).to_have_count(1, timeout=10_000)
    assert page.locator("html").get_attribute("lang") == lang
    assert_phone_friendly(page, "QTris rules at 375 px")
    assert_no_serious_violations(page, "QTris rules at 375 px")


def test_every_games_rules_page_draws_its_examples_and_passes_axe(chromium, server):
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for game in list_games():
        page.goto(f"{server.url}/games/{game.slug}/rules/")
        expect(page.locator(DRAWN)).to_have_count(1, timeout=10_000)
        boards = page.locator(".rules-board .board-area")
        assert boards.count() == 2 * len(list(game.how_to_play.examples()))
        for i in range(boards.count()):
            assert boards.nth(i).inner_html().strip(), f"{game.slug}: board {i} is empty"
        ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map((n) => n.id)")
        assert len(ids) == len(set(ids)), f"{game.slug}: ids twice: {sorted(i for i in ids if ids.count(i) > 1)[:5]}"
        assert_no_serious_violations(page, f"{game.slug} rules")
    assert not errors, errors


def test_ticket_to_ride_rules_on_a_phone_show_one_board_per_example_and_the_toggle_works(chromium, server):
    page = phone_context(chromium, PHONE, locale="pl", extra_http_headers={"Accept-Language": "pl"}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/games/quantum-ticket-to-ride/rules/")
    expect(page.locator(DRAWN)).to_have_count(1, timeout=10_000)
    count = len(list(get_game("quantum-ticket-to-ride").how_to_play.examples()))
    shown = """() => [...document.querySelectorAll('.rules-example')].map((ex) =>
        [...ex.querySelectorAll('.rules-board')].filter((b) => b.checkVisibility()).map((b) => b.dataset.when).join())"""
    assert page.evaluate(shown) == ["before"] * count
    # the Y gate's example: a tap shows the board after the run, which reached its state
    example = page.locator(".rules-example").filter(has=page.get_by_role("heading", name="Y na |+⟩"))
    before = example.get_by_role("button", name="Przed", exact=True)
    after = example.get_by_role("button", name="Po", exact=True)
    expect(before).to_have_attribute("aria-pressed", "true")
    expect(after).to_have_attribute("aria-pressed", "false")
    after.tap()
    expect(after).to_have_attribute("aria-pressed", "true")
    expect(before).to_have_attribute("aria-pressed", "false")
    expect(example.locator("[data-when=before]")).to_be_hidden()
    expect(example.locator("[data-when=after] [data-last-run]")).to_contain_text("Madrid → Toledo")
    # and the keyboard: Enter and Space on the buttons, Tab between them
    before.focus()
    page.keyboard.press("Enter")
    expect(before).to_have_attribute("aria-pressed", "true")
    expect(example.locator("[data-when=before]")).to_be_visible()
    expect(example.locator("[data-when=after]")).to_be_hidden()
    page.keyboard.press("Tab")
    expect(after).to_be_focused()
    page.keyboard.press("Space")
    expect(after).to_have_attribute("aria-pressed", "true")
    shown_now = page.evaluate(shown)
    assert shown_now.count("after") == 1 and shown_now.count("before") == count - 1
    assert_phone_friendly(page, "Ticket-to-Ride rules at 375 px")  # 24 px targets, 12 px text, no sideways scroll
    assert_no_serious_violations(page, "Ticket-to-Ride rules at 375 px")
    assert not errors, errors

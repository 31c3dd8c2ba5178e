"""QuantumPoker perfect recall in real browsers: two students (their own browser contexts) and a
bot play; when a student swaps a face-down card away, that student's page keeps showing its
value, marked "you remember" (and followed through the public plays), while the other
student's page never shows a value that student could not know (compared with the DB state)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.test_poker_browser import REMEMBERED, check_secrets, play_turn, two_students_and_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_a_swapped_away_card_is_remembered_by_its_old_holder(chromium, server, teacher):
    ada, bo = two_students_and_a_bot(
        chromium, server, {"table_size": 3, "hands": 5, "community_cards": 10}, "random")
    # three seats round a 10-card community row: no card lies under a seat box (once the deal's
    # animation has settled)
    for page in (ada, bo):
        for _ in range(30):
            covered = page.evaluate("""() => [...document.querySelectorAll('.qp-pauli')].filter((c) => {
                const r = c.getBoundingClientRect();
                const e = document.elementFromPoint(r.x + 4, r.y + r.height / 2);
                return !(e && c.contains(e)); }).map((c) => c.outerHTML.slice(0, 60))""")
            if not covered:
                break
            page.wait_for_timeout(100)
        assert not covered, f"community cards lie under another element: {covered}"
    seats = {p: int(p.locator(".qp-seat.me").get_attribute("data-seat")) for p in (ada, bo)}
    other = {ada: seats[bo], bo: seats[ada]}
    REMEMBERED.clear()
    for _ in range(120):
        if REMEMBERED or Match.objects.get().status == Match.Status.FINISHED:
            break
        for page in (ada, bo):
            check_secrets(page, seats[page], other[page])
            if REMEMBERED:
                break
            play_turn(page, None)
        ada.wait_for_timeout(100)
    assert REMEMBERED, "a student swapped a face-down card away and its value was remembered"
    card = next(p.locator(f".qp-qubit.remembered[data-id='{REMEMBERED[0]}']")
                for p in (ada, bo)
                if p.locator(f".qp-qubit.remembered[data-id='{REMEMBERED[0]}']").count())
    expect(card.locator(".qp-remembered")).to_have_text("you remember")
    assert "you remember" in card.get_attribute("aria-label")
    assert card.get_attribute("data-state") == "hidden"

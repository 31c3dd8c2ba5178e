"""The run's browser contexts are kept from test to test (tests/support/pool.py): a kept context
asked for at another size, or with another motion setting, is the same browser, its pages at the
size and with the setting asked for."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

SIZE = "() => [innerWidth, innerHeight, matchMedia('(max-width: 400px)').matches]"
LESS_MOTION = "() => matchMedia('(prefers-reduced-motion: reduce)').matches"


def test_a_kept_context_asked_for_at_another_size_gives_pages_of_that_size(chromium):
    laptop = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = laptop.new_page()
    page.set_content("<p>laptop</p>")
    assert page.evaluate(SIZE) == [1280, 900, False]
    chromium.give_back(laptop)

    phone = chromium.new_context(viewport={"width": 375, "height": 667})
    assert phone is laptop  # kept, not made anew
    page = phone.new_page()
    page.set_content("<p>phone</p>")
    assert page.evaluate(SIZE) == [375, 667, True]
    assert page.viewport_size == {"width": 375, "height": 667}
    second = phone.new_page()  # a page the test opens beside it: the same size
    second.set_content("<p>second</p>")
    assert second.evaluate(SIZE) == [375, 667, True]

    chromium.give_back(phone)

    still = chromium.new_context(viewport={"width": 320, "height": 568}, reduced_motion="reduce")
    assert still is laptop
    for page in (still.new_page(), still.new_page()):
        page.set_content("<p>less motion</p>")
        assert page.evaluate(SIZE) == [320, 568, True]
        assert page.evaluate(LESS_MOTION)
    chromium.give_back(still)
    again = chromium.new_context()  # Playwright's defaults again
    assert again is laptop
    page = again.new_page()
    page.set_content("<p>defaults</p>")
    assert page.evaluate(SIZE) == [1280, 720, False]
    assert not page.evaluate(LESS_MOTION)

    # other options are a kind of their own: a phone (touch, no hover) is not a resized laptop
    touch = chromium.new_context(viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True)
    assert touch is not laptop
    assert touch.new_page().evaluate("() => matchMedia('(hover: none)').matches")

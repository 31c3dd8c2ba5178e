"""The progress pages in a phone-sized browser: the class's page and a member's (two sessions a
week apart, played out by bots), both passing axe and fitting 375 px; a replay link opens the game."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.axe import assert_no_serious_violations
from tests.support.browser import log_in_teacher, wait_for_boot
from tests.support.loops import loop_set_aside
from tests.test_progress import WEEK, _member, _move_back, _play_session

pytestmark = [pytest.mark.browser, pytest.mark.server]


def _fits(page):
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths


def test_both_progress_pages_on_a_phone_and_a_replay_one_click_away(chromium, server, teacher):
    from classrooms import exercises, services
    from classrooms.models import Classroom

    with loop_set_aside():
        classroom = Classroom.objects.create(teacher=teacher, name="9A")
        ada = _member(classroom, "Ada")
        _member(classroom, "Bea")  # a member without games yet
        first = services.open_session(classroom, "qtris")
        qtris = _play_session(first, [ada, "Bo"], seed=1)
        _move_back(first, WEEK)
        exercise = exercises.create_exercise(classroom, "2.3.1", "qtris", "basic", exercises.EXAMPLES[1]["options"])
        puzzle = _play_session(exercises.open_session_from(exercise), [ada, "Cy"], seed=2)

    page = log_in_teacher(chromium, server, viewport=(375, 800))
    page.goto(server.url + f"/teacher/classes/{classroom.pk}/")
    page.get_by_test_id("class-progress").click()
    expect(page.locator("#progress-members tbody tr")).to_have_count(2)
    expect(page.locator("#progress-weeks tbody tr")).to_have_count(2)
    expect(page.locator("#progress-plot svg")).to_be_visible()
    assert_no_serious_violations(page, "class progress")
    _fits(page)

    page.get_by_role("link", name="Ada").click()
    rows = page.locator("#member-games tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-match", str(puzzle.pk))  # newest first
    expect(rows.first).to_contain_text("exercise solved")
    expect(page.locator("#member-totals [data-total=wdl]")).to_have_text("1/0/1")
    assert_no_serious_violations(page, "member progress")
    _fits(page)

    page.locator(f"[data-replay='{qtris.pk}']").click()
    page.wait_for_url(f"**/matches/{qtris.pk}/replay/")
    wait_for_boot(page)
    expect(page.locator("#replay-players")).to_contain_text("Bo")

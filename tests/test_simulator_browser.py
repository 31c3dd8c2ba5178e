"""A teacher asks for shots on a finished QTris game from its statistics page, in a real browser,
and watches the run go through: with Redis (CI), queued to a real Celery worker process; in the
embedded default, run in-process."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from simulator.models import Run
from tests.support.browser import log_in_teacher
from tests.test_simulator_fixtures import class_table, finished_qtris

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_teacher_runs_shots_from_the_statistics_page_and_sees_them_finish(chromium, stack, teacher):
    server, worker = stack
    match = finished_qtris(teacher)
    class_table(teacher, match)
    page = log_in_teacher(chromium, server)
    page.goto(server.url + f"/matches/{match.pk}/stats/")
    expect(page.locator("#odds-table")).to_be_visible()
    page.select_option("select[name=backend]", "aer")
    page.fill("input[name=shots]", "2000")
    page.click("#run-form button[type=submit]")
    status = page.locator("#runs tbody tr .status").first
    seen = set()
    for _ in range(300):
        seen.add(status.inner_text() if status.count() else "")
        if "done" in seen:
            break
        page.wait_for_timeout(100)
    assert "done" in seen, seen
    if worker:  # through the queue, the page showed the run before it was done
        assert seen & {"queued", "running"}, seen
    run = Run.objects.get()
    assert run.status == "done" and sum(run.counts.values()) == 2000
    page.reload()
    expect(page.locator("svg").first).to_be_visible()
    assert re.search(r"aer", page.content(), re.IGNORECASE)

"""The statistics page of a finished QTris game, for its teacher and one of its players at once:
the final board drawn by the game's own SVG board, the device list only for a noisy simulation,
and a finished run put into the chart and tables without a reload."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from simulator.models import QuantumPolicy, Run
from tests.support.browser import log_in_teacher
from tests.test_simulator_fixtures import class_table, finished_qtris

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_a_finished_run_appears_without_a_reload_and_the_board_is_drawn(chromium, stack, teacher):
    server, _ = stack  # with Redis (CI) the runs go through a real worker
    match = finished_qtris(teacher)
    session = class_table(teacher, match)
    QuantumPolicy.objects.create(classroom=session.classroom, students_may_run=True)

    teacher_page = log_in_teacher(chromium, server)

    student_page = chromium.new_context(viewport={"width": 375, "height": 800}).new_page()
    student_page.goto(server.url + f"/join/?code={session.join_code}")
    student_page.fill("input[name=name]", "Zoë")
    student_page.click("button[type=submit]")
    expect(student_page.locator("#lobby-status")).to_be_visible()
    from classrooms.models import Participant

    zoe = Participant.objects.get(display_name="Zoë")
    seat = match.seats.get(index=0)
    seat.participant_id, seat.bot, seat.name = zoe.pk, "", "Zoë"
    seat.save()

    for page in (teacher_page, student_page):
        page.goto(server.url + f"/matches/{match.pk}/stats/")
        # the final board: the game's own SVG drawing with its nine squares, not a text table
        expect(page.locator("#stats-board svg.qtris-board")).to_be_visible()
        assert page.locator("#stats-board svg.qtris-board g[data-square]").count() == 9
        assert page.locator("table.stats-board").count() == 0
        expect(page.locator("#odds-table")).to_be_visible()
        # the device list only where a device applies
        expect(page.locator("#device-field")).to_be_hidden()
        page.select_option("select[name=backend]", "aer-noisy")
        expect(page.locator("#device-field select")).to_be_visible()
        page.select_option("select[name=backend]", "aer")
        expect(page.locator("#device-field")).to_be_hidden()
        expect(page.locator("#shown-runs")).not_to_contain_text("shots")
    assert student_page.locator("select[name=backend] option[value=ibm]").count() == 0
    teacher_page.select_option("select[name=backend]", "ibm")
    expect(teacher_page.locator("#ibm-device-field input")).to_be_visible()
    expect(teacher_page.locator("#device-field")).to_be_hidden()
    teacher_page.select_option("select[name=backend]", "aer")

    histogram_before = teacher_page.locator("#odds-histogram").inner_html()
    for page, shots in ((teacher_page, "2000"), (student_page, "300")):
        page.fill("input[name=shots]", shots)
        page.click("#run-form button[type=submit]")
        # no reload: the page puts the finished run into the chart and the list of what is shown
        expect(page.locator("#shown-runs")).to_contain_text(f"Aer, {shots} shots", timeout=60_000)
        expect(page.locator("#runs tbody tr .status").first).to_have_text("done")
        assert page.locator("#odds-results").get_attribute("data-refreshed") == "1"
    assert teacher_page.locator("#odds-histogram").inner_html() != histogram_before
    widths = student_page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths  # the phone's page fits 375 px, chart and all
    assert Run.objects.filter(status="done", shots=2000).exists()
    assert Run.objects.filter(status="done", shots=300).exists()


def test_class_statistics_take_in_a_table_that_finishes_while_the_page_is_open(chromium, server, teacher):
    from classrooms import services
    from classrooms.models import Classroom

    session = services.open_session(Classroom.objects.create(teacher=teacher, name="9A"), "qtris")
    page = log_in_teacher(chromium, server)
    page.goto(server.url + f"/teacher/sessions/{session.pk}/statistics/")
    expect(page.locator("#session-stats")).to_contain_text("No table has finished yet.")
    class_table(teacher, finished_qtris(teacher), session=session)  # a table finishes meanwhile
    expect(page.locator("#session-stats")).to_contain_text("1 finished table", timeout=20_000)
    expect(page.locator("#session-stats")).to_contain_text("Ada (white")
    expect(page.locator("#session-stats")).not_to_contain_text("No table has finished yet.")
    assert page.locator("#session-stats .plot svg").count() >= 1

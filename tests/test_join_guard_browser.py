"""The waiting room and merging two rows in Chromium: students wait (one on a 375 px phone), the
teacher lets them in from the dashboard and their pages change live; the teacher, on a phone,
merges one student's second row into the first and that browser becomes the kept student."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import log_in_teacher
from tests.support.clients import Teacher
from tests.support.phone import PHONE, assert_phone_friendly, phone_context
from tests.support.tables import TEACHER

pytestmark = [pytest.mark.server, pytest.mark.browser]


def joins(context, server, code: str, name: str):
    page = context.new_page()
    page.goto(server.url + "/join/")
    page.fill("input[name=code]", code.lower())
    page.fill("input[name=name]", name)
    page.click("button[type=submit]")
    expect(page.locator("#lobby-status")).to_contain_text("waiting room")
    return page


def test_students_wait_until_let_in_and_a_second_row_is_merged_live(chromium, server, teacher):
    api = Teacher(server)
    api.login(*TEACHER)
    session = api.open_session(waiting_room=True)
    dash = log_in_teacher(chromium, server, viewport=(PHONE["width"], PHONE["height"]))
    dash.on("dialog", lambda dialog: dialog.accept())
    dash.goto(server.url + f"/teacher/sessions/{session['id']}/")
    expect(dash.locator("#waiting-room")).to_be_checked()

    ada = joins(phone_context(chromium, PHONE), server, session["join_code"], "Ada")
    bo = joins(chromium.new_context(), server, session["join_code"], "Bo")
    expect(dash.locator("li.student[data-state=waiting]")).to_have_count(2)
    expect(dash.locator("#waiting-box")).to_contain_text("2 students are waiting to be let in.")
    expect(dash.locator("#join-burst-text")).to_have_text("2 students joined in the last minute.")
    assert_phone_friendly(ada, "lobby in the waiting room")

    row(dash, "Ada").get_by_role("button", name="let in").click()
    expect(ada.locator("#lobby-status")).to_have_text("Waiting for your teacher to seat you at a table…")
    expect(bo.locator("#lobby-status")).to_contain_text("waiting room")  # Bo still waits
    dash.get_by_role("button", name="Let everyone in").click()
    expect(bo.locator("#lobby-status")).to_have_text("Waiting for your teacher to seat you at a table…")
    expect(dash.locator("#waiting-box")).to_be_hidden()
    assert_phone_friendly(dash, "dashboard's students", within="#students")

    # Bo's row is Ada's second browser, as it turns out: the teacher merges it into Ada's
    bo_row = row(dash, "Bo")
    bo_row.get_by_role("button", name="merge into…").click()
    expect(bo_row.get_by_label("Merge Bo into")).to_have_value(str(_id_of(dash, "Ada")))
    assert_phone_friendly(dash, "dashboard's students while merging", within="#students")
    bo_row.get_by_role("button", name="Merge", exact=True).click()
    expect(dash.locator("li.student")).to_have_count(1)
    expect(bo.locator("h1")).to_have_text("Hi Ada!")  # the merged browser followed to the kept row, live


def row(page, name: str):
    """The dashboard's row of the student called ``name``."""
    return page.locator("li.student").filter(has=page.locator(f'span.name:text-is("{name}")'))


def _id_of(page, name: str) -> int:
    return int(row(page, name).get_attribute("data-participant"))

"""Class cards in a browser: the teacher turns cards on and adds nicknames, opens the print page
(axe; A4 print rules), and a student on a 375 px phone scans a card (its link carries the card)
and types only the session's join code: they join as the class member."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from classrooms import services
from classrooms.models import ClassMember, Classroom, Participant
from tests.support.axe import assert_no_serious_violations
from tests.support.browser import log_in_teacher
from tests.support.phone import phone_context

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture
def server(transactional_db):
    """A server with a LAN address (a card printed at a loopback address is refused,
    tests/test_class_cards_print.py); the browsers still open it at 127.0.0.1."""
    from tests.support.server import LiveServer

    server = LiveServer(extra_env={"LAN_ADDRESS": "192.0.2.10"})
    server.start()
    yield server
    server.stop()


def test_teacher_prints_cards_and_a_student_joins_with_one_on_a_phone(chromium, server, teacher):
    classroom = Classroom.objects.create(teacher=teacher, name="9A")
    session = services.open_session(classroom, "quantum-tictactoe")
    page = log_in_teacher(chromium, server)
    page.goto(server.url + f"/teacher/classes/{classroom.pk}/")
    page.get_by_role("button", name="Use class cards").click()
    page.get_by_label("Nicknames, one a line").fill("Ada\nBo")
    page.get_by_role("button", name="Add to the class").click()
    expect(page.locator("#members")).to_contain_text("Bo")
    assert_no_serious_violations(page, "class page with members")

    page.get_by_test_id("print-cards").click()
    expect(page.locator(".class-card")).to_have_count(2)
    assert_no_serious_violations(page, "cards print page")
    ada = ClassMember.objects.get(nickname="Ada")
    expect(page.locator(f".class-card[data-member='{ada.pk}']")).to_contain_text(ada.card_code)
    expect(page.locator(".class-card").first).to_contain_text("http://192.0.2.10:")  # the LAN address
    page.emulate_media(media="print")  # the print rules: two cards a row, no page chrome
    expect(page.locator(".no-print")).to_be_hidden()
    columns = page.locator(".class-cards").evaluate("e => getComputedStyle(e).gridTemplateColumns.split(' ').length")
    assert columns == 2
    page.emulate_media(media="screen")

    phone = phone_context(chromium, {"width": 375, "height": 740}).new_page()
    phone.goto(server.url + f"/join/?card={ada.card_code}")  # what the card's QR code holds
    expect(phone.locator("input[name=card]")).to_have_value(ada.card_code)
    phone.fill("input[name=code]", session.join_code.lower())
    phone.click("button[type=submit]")
    expect(phone.locator("#lobby-status")).to_contain_text("Waiting")
    expect(phone.locator("h1")).to_have_text("Hi Ada!")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    assert Participant.objects.get().member == ada

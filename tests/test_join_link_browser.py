"""A class on the local network: the teacher's dashboard (opened on this computer) shows a join
link at the machine's LAN address; phones open exactly that link and join with their own names
(any alphabet, markup shown as text); served on loopback only, the dashboard warns."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from classrooms import services
from classrooms.models import Classroom, Participant
from core.lan import lan_address
from tests.support.browser import log_in
from tests.support.phone import phone_context
from tests.support.server import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture
def lan_server(transactional_db):
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no local network address")
    server = LiveServer(extra_env={"LAN_ADDRESS": address}, bind="0.0.0.0")
    server.start()
    yield server, address
    server.stop()


def test_phones_join_through_the_lan_link_with_their_names_kept(chromium, lan_server, teacher):
    server, address = lan_server
    session = services.open_session(Classroom.objects.create(teacher=teacher, name="9A"), "quantum-tictactoe")
    dash = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    log_in(dash, server.url)  # the teacher's own computer: 127.0.0.1
    dash.goto(server.url + f"/teacher/sessions/{session.pk}/")
    link = dash.locator("#join-url").inner_text().strip()
    assert link == f"http://{address}:{server.port}/join/?code={session.join_code}"
    expect(dash.locator("#join-warning")).to_have_count(0)
    expect(dash.locator(".qr svg")).to_be_visible()

    names = ["Łukasz", "<b>x</b>", "José"]
    phones = []
    for name in names:
        phone = phone_context(chromium, {"width": 375, "height": 740}).new_page()
        phone.goto(link)  # what the QR code holds
        expect(phone.locator("input[name=code]")).to_have_value(session.join_code)
        phone.fill("input[name=name]", name)
        phone.click("button[type=submit]")
        expect(phone.locator("#lobby-status")).to_contain_text("Waiting")  # its socket connected too
        expect(phone.locator("h1")).to_have_text(f"Hi {name}!")
        phones.append(phone)
    assert sorted(Participant.objects.values_list("display_name", flat=True)) == sorted(names)
    # the dashboard lists them live, markup as text
    for name in names:
        expect(dash.locator("#students")).to_contain_text(name)
    assert dash.locator("#students b").count() == 0 and phones[1].locator("h1 b").count() == 0

    # a name over the limit is refused with the reason, on the phone, and nothing is stored
    late = chromium.new_context(viewport={"width": 375, "height": 740}).new_page()
    late.goto(link)
    late.fill("input[name=name]", "Maximilian Alexander X")
    late.click("button[type=submit]")
    expect(late.locator(".error")).to_contain_text("at most 20 characters (this one has 22)")
    expect(late.locator("input[name=name]")).to_have_value("Maximilian Alexander X")
    assert Participant.objects.count() == 3


def test_a_loopback_only_server_warns_the_teacher(chromium, server, teacher):
    session = services.open_session(Classroom.objects.create(teacher=teacher, name="9A"), "quantum-tictactoe")
    dash = chromium.new_context().new_page()
    log_in(dash, server.url)
    dash.goto(server.url + f"/teacher/sessions/{session.pk}/")
    expect(dash.locator("#join-warning")).to_contain_text("only works on this computer")
    expect(dash.locator("#join-url")).to_contain_text("127.0.0.1")

"""A class card's code never travels in an address the server sees (access logs keep those):
the card's QR code and the join page's homework link carry it in the fragment, which the page's
script reads, takes out of the address bar and puts in the form (the homework page posts it)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from classrooms import cards, services
from classrooms.models import Classroom, Participant
from tests.support.phone import phone_context

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_a_scanned_card_and_its_homework_link_keep_the_code_out_of_every_request(chromium, server, teacher):
    classroom = Classroom.objects.create(teacher=teacher, name="9A", cards_enabled=True)
    ada, _bo = cards.add_members(classroom, "Ada\nBo")
    session = services.open_session(classroom, "quantum-tictactoe")
    phone = phone_context(chromium, {"width": 375, "height": 740}).new_page()
    requested: list[str] = []
    phone.on("request", lambda r: requested.append(r.url))

    phone.goto(server.url + f"/join/#card={ada.card_code}")  # what the card's QR code holds now
    expect(phone.locator("input[name=card]")).to_have_value(ada.card_code)
    expect(phone.locator("details.card-join")).to_have_attribute("open", "")
    assert ada.card_code not in phone.url  # out of the address bar (and its history) at once
    phone.fill("input[name=code]", session.join_code)
    phone.click("button[type=submit]")
    expect(phone.locator("h1")).to_have_text("Hi Ada!")
    assert Participant.objects.get().member == ada

    # the homework link the join page gives a student who typed their card, and the homework page
    fresh = chromium.new_context().new_page()
    fresh.on("request", lambda r: requested.append(r.url))
    fresh.goto(server.url + f"/homework/#card={ada.card_code}")
    expect(fresh.locator("main")).to_contain_text("Hello Ada (9A)")
    assert ada.card_code not in fresh.url
    # a card printed before still works: its old link is sent on once, the code to the fragment
    old = chromium.new_context().new_page()
    old.goto(server.url + f"/join/?card={ada.card_code}")
    expect(old.locator("input[name=card]")).to_have_value(ada.card_code)
    assert ada.card_code not in old.url

    assert not [url for url in requested if ada.card_code in url], requested

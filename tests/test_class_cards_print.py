"""Printing class cards: a card carries a link (and its QR code) a student's phone can open, or
it is not printed. On a server only this computer can reach (a loopback address, no LAN address,
no PUBLIC_URL) the print page refuses, saying why and what to do (``make run``'s LAN address or
``PUBLIC_URL``); with the LAN address or PUBLIC_URL every link of the cards uses it. On screen
each card's QR code stays inside its card, on a phone and on a laptop."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from classrooms import cards
from classrooms.models import Classroom

ADA_AND_BO = "Ada\nBo"


@pytest.fixture
def carded(teacher_user):
    classroom = Classroom.objects.create(teacher=teacher_user, name="9A")
    cards.set_cards_enabled(classroom, True)
    cards.add_members(classroom, ADA_AND_BO)
    return classroom


def print_page(classroom: Classroom, host: str):
    client = Client(HTTP_HOST=host)
    client.force_login(classroom.teacher)
    return client.get(reverse("classrooms:cards", args=[classroom.pk]))


@pytest.mark.django_db
def test_cards_with_only_a_loopback_link_are_refused_saying_why_and_how(carded, settings):
    settings.PUBLIC_URL, settings.LAN_ADDRESS = "", ""
    response = print_page(carded, "127.0.0.1:8000")
    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="cards-refused"' in page and "These cards cannot be printed yet" in page
    assert "http://127.0.0.1:8000/join/" in page and "only this computer can open" in page
    assert "make run" in page and "PUBLIC_URL" in page
    assert 'class="class-card"' not in page and "class-card-qr" not in page  # no card, no QR code
    for member in carded.members.all():
        assert member.card_code not in page
    assert print_page(carded, "localhost:8000").status_code == 409


@pytest.mark.django_db
def test_with_the_lan_address_every_link_of_the_cards_uses_it(carded, settings):
    settings.PUBLIC_URL, settings.LAN_ADDRESS = "", "192.168.1.20"
    response = print_page(carded, "127.0.0.1:8000")  # the teacher's own computer
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('class="class-card"') == 2 and page.count('class="class-card-qr"') == 2
    assert "http://192.168.1.20:8000/join/" in page and "http://192.168.1.20:8000/homework/" in page
    assert "127.0.0.1" not in page


@pytest.mark.django_db
def test_with_public_url_every_link_of_the_cards_uses_it(carded, settings):
    settings.PUBLIC_URL, settings.LAN_ADDRESS = "https://quantum.school.example", ""
    page = print_page(carded, "127.0.0.1:8000").content.decode()
    assert "https://quantum.school.example/join/" in page and "https://quantum.school.example/homework/" in page
    assert "127.0.0.1" not in page


@pytest.mark.browser
@pytest.mark.server
def test_on_screen_each_qr_code_stays_inside_its_card(chromium, transactional_db, teacher):
    from tests.support.browser import log_in
    from tests.support.server import LiveServer

    # a long LAN address (the longest IPv4 form): the card's text wraps, the QR code keeps its place
    server = LiveServer(extra_env={"LAN_ADDRESS": "192.168.100.200"})
    server.start()
    try:
        classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A, Tuesday group")
        cards.set_cards_enabled(classroom, True)
        cards.add_members(classroom, "Ada\nMaximilian-Alexander\nZoë")
        for width in (320, 375, 768, 1366):
            page = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
            log_in(page, server.url)
            response = page.goto(server.url + f"/teacher/classes/{classroom.pk}/cards/")
            assert response.status == 200
            boxes = page.evaluate("""() => [...document.querySelectorAll('.class-card')].map((card) => {
                const c = card.getBoundingClientRect(), q = card.querySelector('.class-card-qr svg').getBoundingClientRect();
                return { card: [c.left, c.top, c.right, c.bottom], qr: [q.left, q.top, q.right, q.bottom] };
            })""")
            assert len(boxes) == 3
            for box in boxes:
                (cl, ct, cr, cb), (ql, qt, qr, qb) = box["card"], box["qr"]
                assert cl <= ql and qr <= cr + 0.5 and ct <= qt and qb <= cb + 0.5, (width, box)
                assert qr - ql >= 100, (width, box)  # still big enough to scan
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            chromium.give_back(page.context)
    finally:
        server.stop()

"""A 375 px phone in Spanish and in Polish (their longer words re-wrap rows): on the boards of
Entanglion, QuantumPoker and Ticket-to-Ride, mid-game, and on the teacher's class page, no text a
student must read is under 12 CSS px and every tap target is at least 24 × 24 CSS px
(``tests.support.phone.assert_phone_friendly``)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from classrooms.models import Classroom, Exercise
from tests.support.entanglion_tables import FIRST_GAME, calm_seed
from tests.support.phone import PHONE, assert_phone_friendly, phone_context
from tests.support.tables import open_table
from tests.test_board_phone_keyboard_browser import api_act, poker_table

pytestmark = [pytest.mark.browser, pytest.mark.server]
LOCALES = {"es": "es-ES", "pl": "pl-PL"}


def phone_page(chromium, server, client, match_id, lang):
    context = phone_context(chromium, PHONE, locale=LOCALES[lang])
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in client.http.cookies])
    page = context.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    expect(page.locator("#turn")).not_to_be_empty(timeout=10_000)
    assert page.evaluate("document.documentElement.lang") == lang
    return page


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_entanglion_on_a_phone_reads_at_12_px_and_taps_at_24(chromium, server, teacher, lang):
    table = open_table(server, game="entanglion", variant="easy", options=FIRST_GAME, seed=calm_seed())
    api_act(table.students[0], table.match_id, {"play": "H"})
    page = phone_page(chromium, server, table.students[1], table.match_id, lang)
    expect(page.locator("button.ent-card").first).to_be_visible()
    assert_phone_friendly(page, f"Entanglion ({lang})", within="#board")


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_poker_on_a_phone_reads_at_12_px_and_taps_at_24(chromium, server, teacher, lang):
    table = poker_table(server, community_cards=6)
    mid = table.match_id
    first = next(s for s, st in table.students.items() if st.api("GET", f"/api/matches/{mid}/").json()["legal"])
    legal = table.students[first].api("GET", f"/api/matches/{mid}/").json()["legal"]
    api_act(table.students[first], mid, next(a for a in legal if a.get("card") is not None))
    page = phone_page(chromium, server, table.students[1 - first], mid, lang)
    expect(page.locator(".qp-seat")).to_have_count(2)
    assert_phone_friendly(page, f"QuantumPoker ({lang})", within="#board")


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_ticket_to_ride_on_a_phone_reads_at_12_px_and_taps_at_24(chromium, server, teacher, lang):
    table = open_table(server, game="quantum-ticket-to-ride")
    mid = table.match_id
    seat = next(s for s, st in table.students.items() if st.api("GET", f"/api/matches/{mid}/").json()["legal"])
    page = phone_page(chromium, server, table.students[seat], mid, lang)
    expect(page.locator(".ttr-route").first).to_be_attached()
    assert_phone_friendly(page, f"Ticket-to-Ride ({lang})", within="#board")


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_the_class_page_on_a_phone_taps_at_24_in_the_language(chromium, server, teacher, lang):
    """The class page with an exercise saved (its row's Delete button) in es / pl, whose longer
    labels re-wrap the rows."""
    from tests.support.browser import log_in

    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    Exercise.objects.create(classroom=classroom, game="qtris", variant="basic", name="Kittens on Friday")
    page = phone_context(chromium, PHONE, locale=LOCALES[lang]).new_page()
    log_in(page, server.url, f"/teacher/classes/{classroom.pk}/")
    expect(page.locator("[data-exercise]")).to_have_count(1)
    assert_phone_friendly(page, f"class page ({lang})", within="main")

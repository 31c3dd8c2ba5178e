"""A 375 px phone in Spanish and in Polish (their longer words re-wrap rows): on the boards of
Entanglion, QuantumPoker and Ticket-to-Ride (its route planner open too), mid-game, and on the
teacher's class page, no text a student must read is under 12 CSS px and every tap target is at
least 24 × 24 CSS px (``tests.support.phone.assert_phone_friendly``)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from classrooms.models import Classroom, Exercise
from games.engines import get_game
from tests.support.entanglion_tables import FIRST_GAME, calm_seed
from tests.support.phone import PHONE, assert_phone_friendly, phone_context, phone_problems
from tests.support.tables import open_table
from tests.test_board_phone_keyboard_browser import api_act, poker_table

pytestmark = [pytest.mark.browser, pytest.mark.server]
LOCALES = {"es": "es-ES", "pl": "pl-PL"}
LAPTOP = {"width": 1366, "height": 900}


def tiny_text(page, within):
    """The text under 12 CSS px in ``within`` (on a laptop: its targets are a mouse's)."""
    return phone_problems(page, within=within)["tiny"]


def phone_page(chromium, server, client, match_id, lang, laptop=False):
    """The student's page of the match on a 375 px phone (``laptop``: a 1366 × 900 screen)."""
    context = (chromium.new_context(viewport=LAPTOP, locale=LOCALES[lang]) if laptop
               else phone_context(chromium, PHONE, locale=LOCALES[lang]))
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
    # on a laptop too: what the dashed cards are (their captions in the cards were 8 px), the
    # qubits' names, "bot", "take"
    laptop = phone_page(chromium, server, table.students[1 - first], mid, lang, laptop=True)
    expect(laptop.locator(".qp-seat.me .qp-seat-note")).to_be_visible()
    assert tiny_text(laptop, "#board") == []


def planner_deal() -> tuple[int, int, int]:
    """A seed of the Europe map whose first seat to act holds a one-qubit mission (the planner
    draws a Bloch disc per step) and may claim a route from its start city at once: (seed, seat,
    route)."""
    game = get_game("quantum-ticket-to-ride")
    for seed in range(500):
        state = game.setup(players=2, variant="basic", seed=seed, options={})
        seat = game.to_act(state)[0]
        mission, routes = state["missions"][seat], state["map"]["routes"]
        claims = [a["claim"] for a in game.legal_actions(state, seat) if "claim" in a]
        start = [c for c in claims if mission["start"] in (routes[c]["a"], routes[c]["b"])]
        if mission.get("qubits") == 1 and start:
            return seed, seat, start[0]
    raise AssertionError("no deal found")


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_ticket_to_ride_on_a_phone_reads_at_12_px_and_taps_at_24(chromium, server, teacher, lang):
    """Mid-game, the map and the side; then the route planner open, two steps planned (a Bloch
    disc each, its poles' labels |0⟩ |1⟩ + − drawn at 9 px before)."""
    seed, seat, route = planner_deal()
    table = open_table(server, game="quantum-ticket-to-ride", variant="basic", seed=seed)
    mid = table.match_id
    assert {"claim": route} in table.students[seat].api("GET", f"/api/matches/{mid}/").json()["legal"]
    api_act(table.students[seat], mid, {"claim": route})
    page = phone_page(chromium, server, table.students[seat], mid, lang)
    expect(page.locator(".ttr-route").first).to_be_attached()
    assert_phone_friendly(page, f"Ticket-to-Ride ({lang})", within="#board")
    page.locator("[data-plan]").tap()
    expect(page.locator(".ttr-picker .ttr-bloch")).to_have_count(1)
    assert_phone_friendly(page, f"Ticket-to-Ride's route planner ({lang})", within="#board")
    # a second step (Enter on the next city, which the planner focuses); the map's one Tab stop
    # is then that city, a picture no longer to tap: the text is measured
    page.keyboard.press("Enter")
    expect(page.locator(".ttr-picker .ttr-bloch")).to_have_count(2)
    assert tiny_text(page, "#board") == []
    laptop = phone_page(chromium, server, table.students[seat], mid, lang, laptop=True)
    laptop.locator("[data-plan]").click()
    laptop.keyboard.press("Enter")
    expect(laptop.locator(".ttr-picker .ttr-bloch")).to_have_count(2)
    assert tiny_text(laptop, ".ttr-picker") == []  # on a laptop too


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

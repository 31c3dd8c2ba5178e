"""What the boards themselves say about the physics, drawn from engine views in a real browser:
a physics-mode poker card in superposition shows |+⟩ or |−⟩ (the next H tells them apart) and
the cards' hints are the real gates; QTris tells what Eve's measurement did in the basis she
chose. (The texts are checked against the physics in tests/engines/test_texts_match_physics.py.)"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines import get_game
from tests.engines.test_quantum_poker import play, rig

pytestmark = [pytest.mark.browser, pytest.mark.server]

POKER = get_game("quantum-poker")
QTRIS = get_game("qtris")


def board_alone(chromium, server, module: str, msg: dict):
    page = chromium.new_page(viewport={"width": 1200, "height": 900})
    page.goto(server.url + "/")
    page.evaluate("""async ([module, msg]) => {
      const { createBoard } = await import(module);
      const root = document.createElement('div'); root.id = 'board'; document.querySelector('main').replaceChildren(root);
      createBoard(root, { act: () => {} }).render(msg, { animate: false });
    }""", [module, msg])
    return page


def test_a_superposed_physics_card_shows_plus_or_minus_and_the_hints_are_the_real_gates(chromium, server):
    s = POKER.setup(players=2, variant="classic", seed=1, options={"physics_mode": True, "community_cards": 5})
    s = rig(s, cards=["H", "X", "H", "Z", "X"], values={0: [0, 1, 0, 0], 1: [0, 1, 0, 0]})
    seat = POKER.to_act(s)[0]
    other = 1 - seat
    s, _ = play(s, 0, seat, 1)          # H on |1⟩: |−⟩
    s, _ = play(s, 1, other, 0)         # the other seat: X on their own card 0
    assert POKER.to_act(s) == [seat]
    view = POKER.view(s, seat)
    assert view["seats"][seat]["qubits"][1]["state"] == "|−⟩"
    msg = {"view": view, "legal": POKER.legal_actions(s, seat), "seat": seat, "seq": 3, "seats": []}
    page = board_alone(chromium, server, "/static/games/quantum-poker.js", msg)
    card = page.locator(f".qp-qubit[data-seat='{seat}'][data-slot='1']")
    expect(card.locator(".qp-face")).to_have_text("|−⟩")
    expect(card).to_have_attribute("title", "Superposed in |−⟩: measured now it gives 0 or 1 at 50%; "
                                            "the next H gives 1 for sure")
    # the other player's cards are face down: nothing of their states shows
    assert "|" not in page.locator(f".qp-seat[data-seat='{other}']").inner_text()
    h_card = page.locator(".qp-pauli.playable[data-kind='H']")
    assert "H|+⟩ = |0⟩" in h_card.get_attribute("title") and "coin" in h_card.get_attribute("title")
    z_card = page.locator(".qp-pauli.playable[data-kind='Z']")
    assert "swaps |+⟩ and |−⟩" in z_card.get_attribute("title")
    expect(page.locator(".qp-legend")).to_contain_text("the next H gives 0 from |+⟩ and 1 from |−⟩")


def test_qtris_says_eve_collapsed_the_square_onto_the_basis_she_chose(chromium, server):
    spec = ["W", "B", "R", "L", "W", "B", "R", "L", "W"]
    s = QTRIS.setup(players=3, variant="eve", seed=2, options={"board": spec, "skip_mulligan": True,
                                                              "hands": [["X", "Z", "H", "Y"]] * 3})
    while QTRIS.to_act(s) and s["turn"]["side"] != 1:
        seat = QTRIS.to_act(s)[0]
        s, _ = QTRIS.apply(s, seat, {"card": "Z", "squares": [1]} if "Z" in s["hands"][seat % 3] else {"card": "I"})
    seat = QTRIS.to_act(s)[0]
    hand = s["hands"][1]
    s, events = QTRIS.apply(s, seat, {"eve_measure": {"squares": [5], "basis": "left-right"},
                                      "discard": sorted(hand[:2])})
    view = QTRIS.view(s, seat)
    msg = {"view": view, "legal": [], "seat": seat, "seq": 9, "events": events}
    page = board_alone(chromium, server, "/static/games/qtris.js", msg)
    expect(page.locator("#qtris-explain")).to_contain_text("Eve looked in the left-right basis")
    expect(page.locator("#qtris-explain")).to_contain_text("still white and black at once")
    expect(page.locator("#qtris-explain")).not_to_contain_text("superposition is gone")

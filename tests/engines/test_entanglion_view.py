"""Entanglion's view, preview, analysis and circuit, and the physics property on random games:
every card's move equals the real gate on the ships' joint state (numpy via ``quantum`` and
Qiskit's Statevector, independently of the engine), except the mechanics the sheet names."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quantum as Q
from games.engines import IllegalAction, clone
from games.engines.entanglion import cards as C
from tests.engines.test_entanglion_board import gate, joint
from tests.support.entanglion import GAME, table

MERC, RUB = 0, 1


def random_game(seed: int, steps: int) -> list[tuple[dict, int, dict, dict, list]]:
    """(state, seat, action, next state, events) along a seeded random game."""
    rng = random.Random(seed)
    state = GAME.setup(seed=seed, variant=rng.choice(GAME.variants))
    out = []
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = rng.choice(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, seat))
        after, events = GAME.apply(state, seat, action)
        out.append((state, seat, action, after, events))
        state = after
    return out


# ------------------------------------------------------------------------------ view

def test_view_names_ships_planets_in_capitals_and_shows_the_state_and_table():
    state = table(ships={"mercurial": "OMEGA TWO", "rubicon": "OMEGA TWO"},
                  hands=[["H", "X", "X"], ["CNOT", "SWAP", "H"]])
    view = GAME.view(state, RUB)
    assert view["ships"] == {"mercurial": "OMEGA TWO", "rubicon": "OMEGA TWO"}
    assert view["ship"] == "rubicon" and view["seat"] == RUB
    assert view["state"]["ket"] == "(|00⟩+|01⟩+|10⟩−|11⟩)/2"
    assert view["state"]["amplitudes"] == [0.5, 0.5, 0.5, -0.5]
    assert view["detection"]["rate"] == 1 and view["detection"]["index"] == 0
    assert view["hands"] == [["H", "X", "X"], ["CNOT", "SWAP", "H"]]   # open hands (§4)
    assert view["components"]["remaining"] == 8 and view["components"]["found"] == 0
    assert set(view["components"]["on_planets"].values()) == set(C.COMPONENTS)
    assert view["engine_control"] == [] and view["board"]["slots"] == 6
    assert isinstance(view["engine_stack"], int) and isinstance(view["event_deck"], int)


@pytest.mark.parametrize("seed", range(4))
def test_no_seat_sees_the_decks_order_or_the_seed(seed):
    """Changing the hidden order of both decks and the seed changes no view (every seat and
    the spectator alike): the only secrets of this co-op game are kept from everyone."""
    for state, *_ in random_game(seed, 60)[::7]:
        twin = clone(state)
        twin["seed"] += 12345
        twin["engine_stack"].reverse()
        twin["event_deck"].reverse()
        random.Random(seed).shuffle(twin["engine_stack"])
        for seat in (None, MERC, RUB):
            assert GAME.view(twin, seat) == GAME.view(state, seat)
        assert GAME.view(state, None)["engine_stack"] == len(state["engine_stack"])


# ------------------------------------------------------------------------------ preview

def test_preview_says_where_a_card_would_take_the_ships_without_chance():
    state = table(ships={"mercurial": "PLUS", "rubicon": "ZERO"},
                  hands=[["H", "X", "X"], ["CNOT", "SWAP", "H"]], first=RUB)
    before = clone(state)
    p = GAME.preview(state, RUB, {"play": "CNOT"})
    assert p["after"] == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}
    assert p["enters"] and p["orbital_check"] and p["component"] == \
        state["planet_components"]["PHI PLUS"]
    assert p["state_after"]["ket"] == "(|00⟩+|11⟩)/√2" and p["gate"] == ["cx", 0, 1]
    assert state == before
    after, _ = GAME.apply(state, RUB, {"play": "CNOT"})
    assert after["ships"] in (p["after"], {"mercurial": "ZERO", "rubicon": "ZERO"},
                              {"mercurial": "ONE", "rubicon": "ONE"})
    nothing = GAME.preview(state, RUB, {"play": "SWAP"})
    assert nothing["after"] == {"mercurial": "ZERO", "rubicon": "PLUS"}
    for bad in ({"retrieve": True}, {"exchange": "H"}, {"play": "X"}, None):
        with pytest.raises(IllegalAction):
            GAME.preview(state, RUB, bad)
    with pytest.raises(IllegalAction):
        GAME.preview(state, MERC, {"play": "H"})


# ------------------------------------------------------------------------------ analysis

def test_analysis_gives_the_shortest_card_sequence_from_the_hands_and_detection_odds():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"}, detection=3,
                  hands=[["H", "X", "SWAP"], ["CNOT", "H", "X"]],
                  held={"mercurial": [C.QUANTUM_ERROR_CORRECTION]})
    a = GAME.analysis(state)
    by_planet = {r["planet"]: r for r in a["routes"]}
    phi = by_planet["PHI PLUS"]
    assert phi["cards_from_hands"] == 2
    assert [(s["seat"], s["card"]) for s in phi["from_hands"]] == [(MERC, "H"), (RUB, "CNOT")]
    assert by_planet["OMEGA TWO"]["cards_from_hands"] == 3
    # rate 3: Mercurial (+1) passes on 3..8, Rubicon on 4..8
    assert a["detection_chance_by_seat"] == {"0": 2 / 8, "1": 3 / 8}
    assert a["detection_chance_next_arrival"] == 2 / 8
    # from the hands alone some planets are out of reach; with any cards all are reachable
    assert all(r["cards_any"] is not None for r in a["routes"])


# ------------------------------------------------------------------------------ circuit

def statevector(qc) -> np.ndarray:
    from qiskit.quantum_info import Statevector

    # Qiskit is little-endian: reverse so that q0 (Mercurial) is the leftmost factor
    return Statevector(qc.remove_final_measurements(inplace=False)).reverse_qargs().data


def test_circuit_is_two_measured_qubits_mercurial_q0():
    state = table(ships={"mercurial": "ONE", "rubicon": "PLUS"})
    qc = GAME.circuit(state)
    assert qc.num_qubits == 2 and qc.num_clbits == 2
    assert qc.count_ops().get("measure") == 2
    assert Q.same_up_to_phase(statevector(qc), joint(state["ships"]))


@pytest.mark.parametrize("seed", range(6))
def test_circuit_reproduces_the_ships_state_along_random_games(seed):
    for _, _, _, after, _ in random_game(seed, 80)[::3]:
        assert Q.same_up_to_phase(statevector(GAME.circuit(after)), joint(after["ships"]))


def test_a_detection_jump_starts_a_new_circuit():
    from tests.support.entanglion import apply_where
    state = table(ships={"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"},
                  hands=[["H", "X", "X"], ["CNOT", "H", "H"]], event_deck=[C.BIT_FLIP])
    state, _ = apply_where(state, MERC, {"play": "H"},
                           lambda s, e: any(x["code"] == "detected" for x in e))
    assert state["circuit"]["gates"] == []
    assert state["circuit"]["start"] == state["ships"]


# ------------------------------------------------------------------------------ physics

def kickback(before: dict, seat: int, card: str) -> bool:
    me = before[("mercurial", "rubicon")[seat]]
    return card == "CNOT" and me == "MINUS" and before[("mercurial", "rubicon")[1 - seat]] in (
        "PLUS", "MINUS")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 120))
def test_every_card_played_in_random_games_is_the_real_gate(seed, steps):
    """Property: for each engine card played (Navigate or The Mechanic), the planets' two-qubit
    state after equals the card's gate applied to the state before, up to global phase, except
    the Superious kickback the sheet names (§3.6). Jumps by detection/Heisenberg are events of
    their own, never a "play"."""
    for _, _, _, _, events in random_game(seed, steps):
        for e in events:
            if e["type"] != "play":
                continue
            want = gate(joint(e["before"]), e["seat"], e["card"])
            same = Q.same_up_to_phase(joint(e["after"]), want)
            assert same != kickback(e["before"], e["seat"], e["card"]), e


@pytest.mark.parametrize("seed", range(5))
def test_every_event_has_a_code_params_and_the_english_text_of_its_code(seed):
    """So a page can render any event in the reader's language from ``code`` and ``params``
    (``GAME.event_texts``), and the English ``text`` is exactly that rendering."""
    from games.engines.entanglion.texts import EVENT_TEXTS, render

    assert GAME.event_texts is EVENT_TEXTS
    seen = set()
    steps = random_game(seed, 300)
    for events in [steps[0][0]["events"], *(e for *_, e in steps)]:
        for e in events:
            assert e["code"] in EVENT_TEXTS, e
            assert isinstance(e["params"], dict)
            assert e["text"] == render(e["code"], e["params"]) and "%(" not in e["text"]
            seen.add(e["code"])
    assert {"setup", "turn", "draw", "entanglion_die"} <= seen

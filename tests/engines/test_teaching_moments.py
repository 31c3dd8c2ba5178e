"""Teaching moments are true physics: each claim is checked against an independent calculation
(numpy matrices written out here, Qiskit's Operator / Statevector), on the events of matches
played by the games' own bots (and random players) and on hand-set positions."""
from __future__ import annotations

import functools
import math
import random

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator, Pauli, Statevector, partial_trace

from games.bots import bot_levels
from games.engines import get_game
from tests.engines.test_ticket_to_ride_rules import berlin_rome
from tests.engines.ttr_support import GAME as TTR
from tests.support.engines import playout, random_setup

SQ = 1 / math.sqrt(2)
KET = {"0": np.array([1, 0]), "1": np.array([0, 1]), "+": np.array([SQ, SQ]), "-": np.array([SQ, -SQ]),
       "+i": np.array([SQ, 1j * SQ]), "-i": np.array([SQ, -1j * SQ])}
TILE = {"tile_W": "0", "tile_B": "1", "tile_R": "+", "tile_L": "-", "tile_UP": "+i", "tile_DOWN": "-i"}
COLOUR = {"white": "0", "black": "1"}


def bot_match(slug: str, variant: str, seed: int, max_actions: int = 600) -> list[list[dict]]:
    """The events of a match whose every seat is played by the game's best bot."""
    game = get_game(slug)
    rng = random.Random(f"moments:{slug}:{variant}:{seed}")
    state, _players, _options, _seed = random_setup(game, variant, rng)
    bot = list(bot_levels(slug).values())[-1]
    log: list[list[dict]] = []
    while game.outcome(state) is None and len(log) < max_actions:
        seat = game.to_act(state)[0]
        action = bot.choose(game.view(state, seat), game.legal_actions(state, seat), rng)
        state, events = game.apply(state, seat, action)
        log.append(events)
    return log


@functools.cache
def moments_of(slug: str, variants: tuple[str, ...], seeds: int, bots: bool = True) -> tuple[dict, ...]:
    game = get_game(slug)
    found = []
    for variant in variants:
        for seed in range(seeds):
            log = bot_match(slug, variant, seed) if bots else playout(game, variant, seed).events
            for i, events in enumerate(log):
                found.extend(game.teaching_moments(events, log[:i]))
    return tuple(found)


def kinds(moments, kind):
    return [m for m in moments if m["kind"] == kind]


# --- QTris -------------------------------------------------------------------------------

@functools.cache
def qtris_moments():
    return moments_of("qtris", ("basic", "advanced"), 8, bots=False) + moments_of("qtris", ("basic",), 3)


def test_qtris_gate_sequences_act_as_the_gate_they_name_and_take_the_colour_where_they_say():
    sequences = kinds(qtris_moments(), "gate_sequence")
    assert sequences, "no gate sequence in the sample matches"
    for m in sequences:
        qc = QuantumCircuit(1)
        for card in m["cards"]:   # in the order played
            getattr(qc, card.lower())(0)
        assert Operator(qc).equiv(Operator(Pauli(m["acts_as"]))), m["text"]
        out = Statevector.from_label(COLOUR[m["from"]]).evolve(qc)
        assert abs(out.probabilities()[int(COLOUR[m["to"]])] - 1) < 1e-9, m["text"]
        assert m["params"]["cards"] == " → ".join(m["cards"])  # in the order played, with arrows


def test_qtris_h_z_h_on_a_sure_colour_is_told_as_x():
    hzh = [m for m in kinds(qtris_moments(), "gate_sequence") if m["cards"] == ["H", "Z", "H"]]
    assert hzh and all(m["acts_as"] == "X" and m["from"] != m["to"] for m in hzh)
    assert "H → Z → H acts as X" in hzh[0]["text"]


def test_qtris_bell_pairs_are_entangled_with_the_correlation_they_announce():
    pairs = kinds(qtris_moments(), "bell_pair")
    assert pairs
    for m in pairs:
        control, target = (KET[TILE[t]] for t in m["tiles"])
        qc = QuantumCircuit(2)
        qc.cx(1, 0)   # qiskit is little-endian: qubit 1 is the leftmost factor (the control square)
        psi = Statevector(np.kron(control, target)).evolve(qc)
        purity = np.real(np.trace(partial_trace(psi, [0]).data @ partial_trace(psi, [0]).data))
        assert abs(purity - 0.5) < 1e-9, m["text"]    # maximally entangled
        zz = np.real(psi.expectation_value(Pauli("ZZ")))
        assert abs(zz - (1 if m["pair"].startswith("phi") else -1)) < 1e-9
        assert ("the same" in m["text"]) == m["pair"].startswith("phi")


def test_qtris_outcomes_against_the_odds_had_at_most_a_thirty_percent_chance():
    odd = kinds(qtris_moments(), "against_odds")
    assert odd
    for m in odd:
        assert 0 < m["p"] <= 0.3
        assert f"{round(100 * m['p'])}%" in m["text"]


# --- tic-tac-toe ---------------------------------------------------------------------------

def test_tictactoe_a_collapsed_cycle_is_a_real_cycle_of_the_moves_it_names():
    game = get_game("quantum-tictactoe")
    seen = 0
    for seed in range(6):
        log = bot_match("quantum-tictactoe", "basic", seed)
        moves = {e["move"]: e["squares"] for events in log for e in events if e["type"] == "move"}
        for i, events in enumerate(log):
            for m in game.teaching_moments(events, log[:i]):
                seen += 1
                ring = m["squares"]
                edges = sorted(tuple(sorted((ring[k], ring[(k + 1) % len(ring)]))) for k in range(len(ring)))
                assert sorted(tuple(sorted(moves[mv])) for mv in m["moves"]) == edges
                assert m["length"] == len(m["moves"]) == len(set(ring))
                assert f"A {m['length']}-cycle collapsed" in m["text"]
                collapse = next(e for e in events if e["type"] == "collapse")
                assert m["square"] in moves[collapse["move"]] and m["chooser"] == collapse["seat"]
    assert seen


# --- poker -------------------------------------------------------------------------------

def test_poker_against_the_odds_is_the_product_of_each_cards_chance_at_a_public_showdown():
    game = get_game("quantum-poker")
    seen = 0
    for variant in game.variants:
        for seed in range(10):
            log = playout(game, variant, seed).events
            for i, events in enumerate(log):
                for m in game.teaching_moments(events, log[:i]):
                    seen += 1
                    assert any(e["type"] == "showdown" for e in events)
                    measured = [e for e in events if e.get("seat") == m["seat"]
                                and e["type"] in ("measure", "collapse") and "visible_to" not in e]
                    chance = math.prod((e["params"]["p1"] if e["value"] == 1 else 1 - e["params"]["p1"])
                                       if e["type"] == "measure" else 0.5 for e in measured)
                    assert len(measured) == m["cards"] >= 2 and {e["value"] for e in measured} == {m["value"]}
                    assert m["p"] == pytest.approx(chance) and m["p"] <= 0.3
    assert seen


# --- Entanglion ----------------------------------------------------------------------------

PLANET = {"ZERO": KET["0"], "ONE": KET["1"], "PLUS": KET["+"], "MINUS": KET["-"]}
BELL = {"PHI PLUS": np.array([SQ, 0, 0, SQ]), "PHI MINUS": np.array([SQ, 0, 0, -SQ]),
        "PSI PLUS": np.array([0, SQ, SQ, 0]), "PSI MINUS": np.array([0, SQ, -SQ, 0])}


def test_entanglion_an_entangling_cnot_takes_the_ships_to_the_bell_state_it_names():
    moments = moments_of("entanglion", ("easy",), 3)
    assert kinds(moments, "retrieved") or moments_of("entanglion", ("easy",), 3, bots=False)
    entangled = kinds(moments, "entangled") + kinds(moments_of("entanglion", ("easy",), 3, bots=False), "entangled")
    assert entangled
    for m in entangled:
        qc = QuantumCircuit(2)   # Mercurial = qiskit qubit 1 (leftmost), Rubicon = qubit 0
        if m["control"] == "mercurial":
            qc.cx(1, 0)
        else:
            qc.cx(0, 1)
        psi = Statevector(np.kron(PLANET[m["before"]["mercurial"]], PLANET[m["before"]["rubicon"]])).evolve(qc)
        assert abs(abs(np.vdot(BELL[m["planet"]], psi.data)) - 1) < 1e-9, m["text"]


def test_entanglion_retrieved_components_are_the_retrieval_events():
    game = get_game("entanglion")
    log = bot_match("entanglion", "easy", 0)
    retrieved = [e for events in log for e in events if e["code"] == "retrieved"]
    told = [m for i, events in enumerate(log) for m in game.teaching_moments(events, log[:i])
            if m["kind"] == "retrieved"]
    assert [(m["component"], m["planet"]) for m in told] == [(e["component"], e["planet"]) for e in retrieved]


# --- Ticket-to-Ride ----------------------------------------------------------------------

def test_ticket_to_ride_a_completed_mission_is_a_run_whose_gates_reach_the_goal():
    s, seat = berlin_rome()
    _after, events = TTR.apply(s, seat, {"run": ["Berlin", "Munich", "Vienna", "Rome"]})
    [m] = TTR.teaching_moments(events, [])
    assert m["kind"] == "mission" and m["seat"] == seat
    qc = QuantumCircuit(1)
    for gate in m["gates"]:
        getattr(qc, gate.lower())(0)
    out = Statevector.from_label(m["mission"]["initial_state"]).evolve(qc)
    assert out.equiv(Statevector.from_label(m["mission"]["target_state"]))
    assert "completed a mission" in m["text"] and "H → Z → H took |0⟩ to |1⟩" in m["text"]


def test_ticket_to_ride_a_run_that_misses_is_private_and_never_a_moment():
    s, seat = berlin_rome(seat_routes=("Berlin-Munich", "Munich-Vienna", "Vienna-Budapest",
                                       "Budapest-Belgrade", "Rome-Belgrade"))
    _after, events = TTR.apply(s, seat, {"run": ["Berlin", "Munich", "Vienna", "Budapest", "Belgrade", "Rome"]})
    assert any(e["type"] == "run" for e in events)
    assert TTR.teaching_moments(events, []) == []

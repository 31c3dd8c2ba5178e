"""QTris property tests over random positions: tiles, probabilities, analysis vs sampling,
circuit vs analysis, bots."""
from __future__ import annotations

import copy
import random

import numpy as np
import pytest

import quantum
from games.bots.qtris import BOTS
from games.engines.qtris import GAME, analysis_from_view, final_distribution, qasm3
from games.engines.qtris import board as B
from games.engines.qtris import tiles as T
from games.engines.qtris.scoring import outcome_of_bitstring, score_of_outcome
from games.engines.qtris.weights import parse

FIXED = {"first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True}


def random_positions(variant, n, seed, plays=None):
    rng = random.Random(seed)
    out = []
    for k in range(n):
        st = GAME.setup(3 if variant == "eve" else 2, variant, seed * 100 + k,
                        {"skip_mulligan": True} if variant == "eve" else dict(FIXED))
        for _ in range(plays if plays is not None else rng.randint(0, 12)):
            if GAME.outcome(st) is not None or st["phase"] != "operations":
                break
            seat = GAME.to_act(st)[0]
            st, _ = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
        if st["phase"] == "operations":
            out.append(st)
    return out


@pytest.mark.parametrize("variant", ["basic", "advanced", "noise", "s-expansion", "eve"])
def test_tiles_never_left_and_probabilities_sum_to_one(variant):
    tiles = T.tile_set(variant)
    for st in random_positions(variant, 6, 1):
        squares = sorted(s for c in st["board"] for s in c["squares"])
        assert squares == list(range(1, 10))
        for comp in st["board"]:
            total = sum((parse(m["weight"]) for m in comp["members"]), parse("0"))
            assert total == parse("1")
            for m in comp["members"]:
                assert m["tile"] in tiles
        a = GAME.analysis(st)
        assert sum(a["p_win"].values()) == pytest.approx(1)
        assert sum(d["p"] for d in final_distribution(st)) == pytest.approx(1)
        assert all(0 <= p <= 1 + 1e-12 for p in a["p_white"])


def test_analysis_matches_sampling_of_engine_measurement():
    for st in random_positions("noise", 3, 2, plays=8):
        a = GAME.analysis(st)
        rng = random.Random(0)
        n = 1500
        counts = np.zeros(9)
        white_wins = 0
        for _ in range(n):
            bits, _ = B.final_measurement(st["board"], rng)
            counts += 1 - np.array(bits)
            s = score_of_outcome(bits)
            white_wins += s["white"] > s["black"]
        for k in range(9):
            p = a["p_white"][k]
            assert abs(counts[k] / n - p) < 4.5 * np.sqrt(p * (1 - p) / n) + 1e-9
        p = a["p_win"]["white"]
        assert abs(white_wins / n - p) < 4.5 * np.sqrt(p * (1 - p) / n) + 1e-9


def _circuit_probs_pure(st):
    from qiskit.quantum_info import Statevector

    qc = GAME.circuit(st)
    qc.remove_final_measurements()
    probs = Statevector(qc).probabilities()  # index bit k-1 = qubit k-1 = square k
    return probs


@pytest.mark.parametrize("variant", ["basic", "advanced", "s-expansion"])
def test_circuit_statevector_equals_analysis(variant):
    tried = 0
    for st in random_positions(variant, 6, 3):
        if any(op["op"] == "measure" or (op["op"] == "prep" and any(
                len(c["members"]) > 1 for c in op["components"])) for op in st["circuit_ops"]):
            continue
        probs = _circuit_probs_pure(st)
        exact = np.array(B.joint_distribution(st["board"]))
        assert np.allclose(probs, exact, atol=1e-9)
        tried += 1
    assert tried >= 3


def test_circuit_with_mixtures_and_noise_on_aer():
    from qiskit_aer import AerSimulator

    sim = AerSimulator()
    states = random_positions("noise", 2, 4, plays=8)
    spec = ["W", ["W", "R"], ["U:W", "R", "B"]] + ["R"] * 6
    st = GAME.setup(2, "advanced", 1, {"board": spec, **FIXED})
    st, _ = GAME.apply(st, 0, {"card": "U", "squares": [2]})
    st, _ = GAME.apply(st, 0, {"card": "X", "squares": [2]}) if "X" in st["hands"][0] else (st, [])
    states.append(st)
    for st in states:
        shots = 4000
        counts = sim.run(GAME.circuit(st), shots=shots, seed_simulator=7).result().get_counts()
        pw = np.zeros(9)
        for key, c in counts.items():
            o = outcome_of_bitstring(key)
            for k in range(9):
                pw[k] += c * (1 - ((o >> k) & 1))
        pw /= shots
        a = GAME.analysis(st)
        for k in range(9):
            p = a["p_white"][k]
            assert abs(pw[k] - p) < 4.5 * np.sqrt(p * (1 - p) / shots) + 1e-9, (k, pw, a["p_white"])


def test_circuit_measures_every_square_into_its_bit_and_exports_qasm3():
    st = random_positions("advanced", 1, 5, plays=3)[0]
    qc = GAME.circuit(st)
    assert qc.num_qubits == 9
    finals = [ins for ins in qc.data if ins.operation.name == "measure"][-9:]
    for ins in finals:
        q = qc.find_bit(ins.qubits[0]).index
        c = qc.find_bit(ins.clbits[0]).registers[0]
        assert c[0].name == "c" and c[1] == q
    assert "OPENQASM 3" in qasm3(st)


def test_outcome_of_bitstring_reverses_qiskit_order():
    # square 1 black only: qiskit key "000000001"; with an extra register to the left
    assert outcome_of_bitstring("000000001") == 1
    assert outcome_of_bitstring("01 100000000") == 256
    assert score_of_outcome([1, 1, 1, 0, 0, 0, 0, 0, 0])["black"] == 1
    assert score_of_outcome(0b111)["black"] == 1


def test_analysis_from_view_equals_engine_analysis():
    for st in random_positions("advanced", 3, 6):
        v = GAME.view(st, 0)
        a = analysis_from_view(v)
        assert a["p_white"] == GAME.analysis(st)["p_white"]
        assert set(a) >= {"p_white", "expected_qtris", "p_win", "kets", "tiles"}


def test_strong_bot_beats_random_on_average():
    wins = 0.0
    games = 6
    for g in range(games):
        st = GAME.setup(2, "advanced", 100 + g, {"first_seat": g % 2, "colors": ["white", "black"],
                                                  "skip_mulligan": True})
        rng = random.Random(g)
        while st["phase"] == "operations":
            seat = GAME.to_act(st)[0]
            bot = BOTS["strong"] if seat == 0 else BOTS["random"]
            st, _ = GAME.apply(st, seat, bot.choose(GAME.view(st, seat),
                                                    GAME.legal_actions(st, seat), rng))
        # judge by exact win probability of the last board before measurement: use final lines
        out = GAME.outcome(st)
        wins += 1 if 0 in out["winners"] else 0.5 if out["tie"] else 0
    assert wins / games >= 0.5



def _tile_states(variant, n):
    """Every state a component of ``n`` squares may hold in ``variant``: its tiles', up to phase."""
    tiles = T.tile_set(variant)
    singles = [T.state(t) for t in tiles.singles]
    if n == 1:
        return singles
    return [T.state(t) for t in tiles.pairs] + [np.kron(a, b) for a in singles for b in singles]


def _image_is_a_tile(variant, card, tile, qubit, n):
    """``card``'s gate (U·G·U on a U-decorated qubit: the frame rule) on ``qubit`` of the member
    ``tile`` of an ``n``-square component, by numpy's Kronecker product (the lower square the left
    factor), gives a tile state of ``variant`` up to phase."""
    from games.engines.qtris.cards import FRAME_CARDS

    gate = quantum.GATES[card]
    if card in FRAME_CARDS and T.is_u_decorated(tile, qubit):
        gate = quantum.U @ gate @ quantum.U
    op = gate if n == 1 else np.kron(gate, np.eye(2)) if qubit == 0 else np.kron(np.eye(2), gate)
    psi = op @ T.state(tile)
    return any(abs(abs(np.vdot(t, psi)) - 1) < 1e-9 for t in _tile_states(variant, n))


@pytest.mark.parametrize("variant", ["basic", "advanced", "noise", "s-expansion", "eve"])
def test_legal_targets_are_exactly_where_the_gate_leaves_tiles_and_play_succeeds(variant):
    """A single-square card is legal on a square exactly when its gate maps each member of the
    square's component to a tile of the variant (``_image_is_a_tile``); CX exactly on the pairs of
    squares where playing it succeeds."""
    from itertools import permutations

    from games.engines.qtris import cards as C

    singles = [c for c in C.SINGLE_SQUARE_CARDS if c in C.deck_composition(variant)]
    positions = random_positions(variant, 8, 3)
    assert positions
    for st in positions:
        board = st["board"]
        for card in singles:
            expected = sorted([square] for comp in board for q, square in enumerate(comp["squares"])
                              if all(_image_is_a_tile(variant, card, m["tile"], q, len(comp["squares"]))
                                     for m in comp["members"]))
            assert C.legal_targets(board, variant, card) == expected, (card, board)
        playable = []
        for control, target in permutations(range(1, 10), 2):
            try:
                C.play(board, variant, "CX", [control, target])
            except C.CardError:
                continue
            playable.append([control, target])
        assert C.legal_targets(board, variant, "CX") == playable, board


def test_a_components_distribution_is_remembered_read_only_and_is_its_members_born_mixture():
    """Each component's colour-basis distribution equals the weighted sum of its members' Born
    probabilities (numpy, from the tiles' states), and the one remembered for the process cannot
    be changed by a caller (a board's analysis shares it with every later board)."""
    for st in random_positions("advanced", 6, 5):
        for comp in st["board"]:
            dist = B.component_distribution(comp)
            expected = sum(float(parse(m["weight"])) * np.abs(T.state(m["tile"])) ** 2 for m in comp["members"])
            assert np.allclose(dist, expected)
            assert B.component_distribution(copy.deepcopy(comp)) is dist
            with pytest.raises(ValueError):
                dist[0] = 0.5

"""QuantumPoker rules (docs/rules/quantum-poker.md, "Physics mode" and "Showdown"): physics texts,
Y's phase, the rulebook payout, declared showdown (see test_quantum_poker.py), perfect recall,
Z after a SWAP, the Cx card. Physics is checked against numpy / qiskit Statevector."""
from __future__ import annotations

import numpy as np
import pytest

from games.engines.quantum_poker import physics_counterfactual
from tests.engines.test_quantum_poker import GAME, new, play, qubit, rig, total_chips

H = np.array([[1, 1], [1, -1]]) / np.sqrt(2)
X = np.array([[0, 1], [1, 0]])
Y = np.array([[0, -1j], [1j, 0]])
Z = np.diag([1, -1])
GATES = {"H": H, "X": X, "Y": Y, "Z": Z}


def numpy_state(dealt: int, gates: list[str]) -> np.ndarray:
    psi = np.array([1, 0], dtype=complex) if dealt == 0 else np.array([0, 1], dtype=complex)
    for g in gates:
        psi = GATES[g] @ psi
    return psi


def amps(q: dict) -> np.ndarray:
    return np.array([complex(*q["amps"][0]), complex(*q["amps"][1])])


def texts(events: list[dict]) -> str:
    return " ".join(e["text"] for e in events)


# ------------------------------------------------------------------ physics mode texts

@pytest.mark.parametrize("dealt", [0, 1])
def test_physics_h_z_h_is_x_and_the_text_says_so(dealt):
    s = rig(new(2, physics_mode=True, community_cards=5), cards=["H", "X", "Z", "X", "H"],
            values={1: [dealt] * 4, 0: [0] * 4})
    s, ev_h = play(s, 0, 1, 0)              # seat 1: H
    s, _ = play(s, 1, 0, 0)
    s, ev_z = play(s, 2, 1, 0)              # seat 1: Z on the superposed card
    assert "|+⟩ into |−⟩" in texts(ev_z)    # what Z does to the state, not only to the bet
    s, _ = play(s, 3, 0, 0)
    q = qubit(s, 1, 0)
    assert np.allclose(amps(q), numpy_state(dealt, ["H", "Z"]))
    s, ev = play(s, 4, 1, 0)                # seat 1: the second H (last card: showdown)
    expected = numpy_state(dealt, ["H", "Z", "H"])
    assert abs(expected[1 - dealt]) == pytest.approx(1)       # H·Z·H = X: flipped for sure
    done = s["history"][-1]
    assert done["qubits"][1][0]["value"] == 1 - dealt
    play_text = next(e["text"] for e in ev if e["type"] == "play")
    assert "Z between two H flips the value" in play_text and "H·Z·H = X" in play_text
    assert "undoes" not in play_text and "restores" not in play_text
    assert "opposite" in play_text


def test_physics_h_h_restores_and_says_h_h_is_identity():
    s = rig(new(2, physics_mode=True, community_cards=3), cards=["H", "X", "H"],
            values={1: [1] * 4})
    s, _ = play(s, 0, 1, 2)
    s, _ = play(s, 1, 0, 0)
    s, ev = play(s, 2, 1, 2)
    text = next(e["text"] for e in ev if e["type"] == "play")
    assert "H·H = I" in text and "flips" not in text
    assert s["history"][-1]["qubits"][1][2]["value"] == 1


def test_physics_y_is_the_real_amplitude_and_the_mnemonic_is_named():
    s = rig(new(2, physics_mode=True), cards=["Y", "X", "Y", "X", "X"],
            values={1: [0, 1, 0, 0]})
    s, ev = play(s, 0, 1, 0)                # Y|0> = i|1>
    assert np.allclose(amps(qubit(s, 1, 0)), Y @ np.array([1, 0]))
    assert np.allclose(amps(qubit(s, 1, 0)), [0, 1j])
    text = texts(ev)
    assert "Y|0⟩ = i|1⟩" in text and "mnemonic" in text and "(+i)" not in text
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 1)                 # Y|1> = -i|0>
    assert np.allclose(amps(qubit(s, 1, 1)), [-1j, 0])
    # the teacher's analysis shows the same phases (−i|0⟩, i|1⟩)
    kets = [r["ket"] for r in GAME.analysis(s)["qubits"][1]]
    assert kets[0] == "i|1⟩" and kets[1] == "−i|0⟩"


def test_simplified_counterfactual_note_does_not_contradict_itself():
    # simplified hand: dealt 0, H, Z, H; physics would give 1 for sure (H·Z·H = X)
    s = rig(new(2, community_cards=5), cards=["H", "X", "Z", "X", "H"],
            values={1: [0] * 4, 0: [0] * 4})
    for card, (seat, q) in enumerate([(1, 0), (0, 0), (1, 0), (0, 0), (1, 0)]):
        s, _ = play(s, card, seat, q)
    card = physics_counterfactual(s)["seats"][1]["cards"][0]
    assert card["gates"] == ["H", "Z", "H"] and card["physics_p1"] == 1.0
    assert "Z between two H flips the value" in card["note"]
    assert "undoes" not in card["note"] and "would be 1 for sure" in card["note"]
    # the same note is the one the table sees after the hand
    shown = GAME.view(s, 0)["last_hand"]["physics"]["seats"][1]["cards"][0]
    assert shown["note"] == card["note"]


def test_simplified_counterfactual_note_for_h_h_says_identity():
    s = rig(new(2, community_cards=3), cards=["H", "X", "H"], values={1: [1, 0, 0, 0]})
    for card, (seat, q) in enumerate([(1, 0), (0, 0), (1, 0)]):
        s, _ = play(s, card, seat, q)
    note = physics_counterfactual(s)["seats"][1]["cards"][0]["note"]
    assert "H·H = I" in note and "would be 1 for sure" in note and "flips" not in note


def test_physics_hand_matches_qiskit_statevector():
    from qiskit import QuantumCircuit
    from qiskit.quantum_info import Statevector

    s = rig(new(2, physics_mode=True, community_cards=7),
            cards=["H", "X", "Z", "X", "Y", "X", "H"], values={1: [1, 0, 0, 0]})
    for card, (seat, q) in enumerate([(1, 0), (0, 0), (1, 0), (0, 1), (1, 0), (0, 2)]):
        s, _ = play(s, card, seat, q)
    qc = QuantumCircuit(1)
    qc.x(0)
    qc.h(0)
    qc.z(0)
    qc.y(0)
    sv = Statevector(qc).data
    assert np.allclose(amps(qubit(s, 1, 0)), sv)


# ------------------------------------------------------------------ payout

def test_payout_winner_collects_the_others_ones_and_zeros_go_back():
    s = rig(new(3, community_cards=1), cards=["Z"],
            values={0: [0, 1, 1, 0], 1: [1, 1, 1, 0], 2: [1, 0, 0, 0]})
    total = total_chips(s)
    chips_before = list(s["chips"])          # 16 each after the ante
    s, ev = play(s, 0, 1, 0)                 # seat 1 doubles a 1: 4 points, bet 5 chips
    r = s["results"][0]
    assert r["scores"] == [2, 4, 1] and r["winners"] == [1] and r["pot"] == 13
    # seat 1 takes back its own 5 and collects seat 0's two 1s and seat 2's one 1
    assert r["collected"] == 3 and r["payouts"] == [2, 8, 3]
    assert s["chips"][0] == chips_before[0] + 2 - 4        # (next hand's ante paid)
    assert s["chips"][1] == chips_before[1] - 1 + 8 - 4
    assert s["chips"][2] == chips_before[2] + 3 - 4
    assert total_chips(s) == total
    text = next(e["text"] for e in ev if e["type"] == "pot")
    assert "measured 1" in text and "go back to their owners" in text


def test_payout_doubled_bets_of_others_count_double_and_ties_share():
    s = rig(new(3, community_cards=2), cards=["Z", "Z"],
            values={0: [1, 1, 0, 0], 1: [1, 1, 0, 0], 2: [1, 0, 0, 0]})
    s, _ = play(s, 0, 1, 3)          # seat 1 doubles a 0: still 2 points, bet 5
    s, _ = play(s, 1, 2, 0)          # seat 2 doubles its 1: 2 points, bet 5
    r = s["results"][0]
    assert r["scores"] == [2, 2, 2] and r["winners"] == [0, 1, 2]
    assert r["collected"] == 0 and r["payouts"] == [4, 5, 5]
    s = rig(new(3, community_cards=1), cards=["Z"],
            values={0: [1, 1, 0, 0], 1: [0, 0, 0, 0], 2: [1, 1, 0, 0]})
    s, _ = play(s, 0, 1, 0)          # seat 1 doubles a 0 -> returned to seat 1
    r = s["results"][0]
    assert r["winners"] == [0, 2] and r["collected"] == 0 and r["payouts"] == [4, 5, 4]
    s = rig(new(3, community_cards=1), cards=["Z"],
            values={0: [1, 1, 0, 0], 1: [1, 1, 1, 0], 2: [1, 1, 1, 1]})
    s, _ = play(s, 0, 1, 0)          # seat 1 doubles a 1: 4 points, ties seat 2
    r = s["results"][0]
    # seat 0's two 1s (2 chips) shared by seats 1 and 2; remainder none
    assert r["winners"] == [1, 2] and r["collected"] == 2 and r["payouts"] == [2, 6, 5]
    s = rig(new(3, community_cards=1), cards=["X"],
            values={0: [1, 0, 0, 0], 1: [1, 1, 0, 0], 2: [0, 1, 1, 0]})
    s, _ = play(s, 0, 1, 3)          # seat 1: X on its 0 -> 1: 3 points
    r = s["results"][0]
    assert r["winners"] == [1] and r["payouts"] == [3, 4 + 1 + 2, 2]


def test_payout_remainder_of_collected_chips_to_first_tied_clockwise_from_dealer():
    # dealer 0: clockwise 1, 2, 0; seats 0 and 2 tie on 3 and share seat 1's one 1-chip
    s = rig(new(3, community_cards=1), cards=["Z"],
            values={0: [1, 1, 1, 0], 1: [1, 0, 0, 0], 2: [1, 1, 1, 0]})
    s, _ = play(s, 0, 1, 3)          # seat 1 doubles a 0: 1 point, 4 chips on its 0s
    r = s["results"][0]
    assert r["winners"] == [0, 2] and r["collected"] == 1
    assert r["payouts"] == [4, 4, 5]  # seat 2 is first clockwise from the dealer


def test_whole_pot_option_keeps_the_old_payout():
    s = rig(new(3, community_cards=1, whole_pot=True), cards=["Z"],
            values={0: [1, 1, 1, 0], 1: [1, 0, 0, 0], 2: [1, 1, 1, 0]})
    s, ev = play(s, 0, 1, 3)
    r = s["results"][0]
    assert r["collected"] == 13 and r["payouts"] == [6, 0, 7]


# ------------------------------------------------------------------ perfect recall

def test_perfect_recall_follows_a_swapped_card_until_a_coin_makes_it_unknown():
    s = rig(new(2, community_cards=8), cards=["X", "SWAP", "X", "CX", "H", "X", "H", "X"],
            values={0: [1, 0, 0, 0], 1: [0, 1, 1, 1]})
    s, _ = play(s, 0, 1, 0)                  # seat 1: X on its own qubit 1 (0 -> 1)
    s, _ = play(s, 1, 1, 2, own=0)           # seat 0: SWAP its qubit 1 (a 1) with 1's q3
    card = qubit(s, 1, 2)
    assert card["value"] == 1 and not card["shown"]
    seen = GAME.view(s, 0)["seats"][1]["qubits"][2]
    assert seen["value"] == 1 and seen["remembered"]            # seat 0 held it
    assert GAME.view(s, None)["seats"][1]["qubits"][2]["value"] is None
    mine = GAME.view(s, 1)["seats"][1]["qubits"][2]
    assert mine["value"] == 1 and not mine["remembered"]        # seat 1 holds it now
    gone = GAME.view(s, 1)["seats"][0]["qubits"][0]              # seat 1's old card
    assert gone["value"] == 1 and gone["remembered"]
    s, _ = play(s, 2, 1, 2)                  # seat 1: X on the card -> 0 (a public play)
    assert GAME.view(s, 0)["seats"][1]["qubits"][2]["value"] == 0
    s, _ = play(s, 3, 1, 2)                  # seat 0: CX on it -> 1
    assert GAME.view(s, 0)["seats"][1]["qubits"][2]["value"] == 1
    s, _ = play(s, 4, 1, 2)                  # seat 1: H -> superposed, the value is gone
    assert GAME.view(s, 0)["seats"][1]["qubits"][2]["value"] is None
    s, _ = play(s, 5, 0, 1)
    s, _ = play(s, 6, 1, 2)                  # seat 1: H again -> a coin out of sight
    assert not qubit(s, 1, 2)["superposed"]
    after = GAME.view(s, 0)["seats"][1]["qubits"][2]
    assert after["value"] is None and not after["remembered"]
    assert GAME.view(s, 1)["seats"][1]["qubits"][2]["value"] == qubit(s, 1, 2)["value"]
    # the old view forgot at once what seat 0 had held
    assert GAME.view(s, 1)["seats"][0]["qubits"][0]["value"] == 1


def test_physics_recall_follows_h_h_and_shows_the_remembered_state():
    s = rig(new(2, physics_mode=True, community_cards=6),
            cards=["SWAP", "H", "X", "Z", "X", "H"], values={0: [1, 0, 0, 0], 1: [0] * 4})
    s, _ = play(s, 0, 0, 0, own=0)           # seat 1 swaps its 0 for seat 0's 1
    s, _ = play(s, 1, 0, 0)                  # seat 0: H on the 0 it got: |+>
    seen = GAME.view(s, 1)["seats"][0]["qubits"][0]
    assert seen["value"] is None and seen["ket"] == "|+⟩"     # seat 1 can follow it
    assert GAME.view(s, None)["seats"][0]["qubits"][0]["ket"] is None
    s, _ = play(s, 2, 1, 1)
    s, _ = play(s, 3, 0, 0)                  # seat 0: Z: |->
    assert GAME.view(s, 1)["seats"][0]["qubits"][0]["ket"] == "|−⟩"
    s, _ = play(s, 4, 1, 1)
    s, ev = play(s, 5, 0, 0)                 # seat 0: H: |1>  (showdown follows)
    assert s["history"][-1]["qubits"][0][0]["value"] == 1


# ------------------------------------------------------------------ Z after a SWAP, Cx

def test_z_after_swap_returns_the_chip_to_the_current_owner_and_says_so():
    s = rig(new(2, community_cards=5), cards=["Z", "SWAP", "X", "Z", "X"],
            values={0: [0] * 4, 1: [1, 0, 0, 0]})
    s, _ = play(s, 0, 1, 0)                  # seat 1: Z doubles its q1 (its own chip)
    before = list(s["chips"])
    s, _ = play(s, 1, 1, 0, own=2)           # seat 0: SWAP its q3 with seat 1's q1
    assert qubit(s, 0, 2)["bet"] == 2
    s, _ = play(s, 2, 1, 1)                  # seat 1: X
    s, ev = play(s, 3, 0, 2)                 # seat 0: Z halves the card it now holds
    assert s["chips"][0] == before[0] + 1 and s["chips"][1] == before[1]
    text = next(e["text"] for e in ev if e["type"] == "play")
    assert "travels with the card" in text and "Player 1" in text


@pytest.mark.parametrize("physics", [False, True])
def test_cx_is_an_x_on_another_players_card_not_a_cnot(physics):
    s = rig(new(2, physics_mode=physics), cards=["CX", "X", "X", "X", "X"],
            values={0: [0] * 4, 1: [0] * 4})
    s, ev = play(s, 0, 0, 2)
    assert qubit(s, 0, 2)["value"] == 1
    text = next(e["text"] for e in ev if e["type"] == "play")
    assert "not a two-qubit CNOT" in text


# ------------------------------------------------------------------ the strong bot

def minus_position():
    """Physics mode; seat 1 dealt 0 on qubit 1, then H and Z on it: |−⟩; H, X, X left."""
    s = rig(new(2, physics_mode=True, community_cards=7),
            cards=["H", "X", "Z", "X", "H", "X", "X"], values={1: [0, 1, 1, 1], 0: [0] * 4})
    for card, (seat, q) in enumerate([(1, 0), (0, 0), (1, 0), (0, 1)]):
        s, _ = play(s, card, seat, q)
    assert GAME.to_act(s) == [1]
    return s


def test_strong_bot_knows_h_z_h_is_x_in_physics_mode():
    import random

    from games.bots.quantum_poker import BOTS, ClassicStrongBot

    s = minus_position()
    view = GAME.view(s, 1)
    assert view["seats"][1]["qubits"][0]["ket"] == "|−⟩"
    legal = GAME.legal_actions(s, 1)
    h_on_it = {"card": 4, "target": {"seat": 1, "qubit": 0}}
    strong = BOTS["strong"]
    classic = ClassicStrongBot()
    after, _ = classic.simulate(classic.model(view), view, 1, h_on_it)
    assert after[1][0]["p"] == 0.5                       # the coin model
    for seed in range(10):                               # H·Z·H|0⟩ = |1⟩ for sure
        assert strong.choose(view, legal, random.Random(seed)) == h_on_it
    assert {str(classic.choose(view, legal, random.Random(seed))) for seed in range(10)} != {
        str(h_on_it)}


def test_strong_bot_avoids_a_second_h_on_plus():
    import random

    from games.bots.quantum_poker import BOTS, ClassicStrongBot

    # seat 1: its 0 got an H (|+⟩); the last card is an H: on |+⟩ it gives 0 for sure
    # (H·H = I), on the other 0 it gives |+⟩ (a 1 half the time)
    s = rig(new(2, physics_mode=True, community_cards=3), cards=["H", "X", "H"],
            values={1: [0, 0, 1, 1], 0: [0] * 4})
    s, _ = play(s, 0, 1, 0)
    s, _ = play(s, 1, 0, 0)
    view = GAME.view(s, 1)
    legal = GAME.legal_actions(s, 1)
    for seed in range(10):
        assert BOTS["strong"].choose(view, legal, random.Random(seed))["target"]["qubit"] == 1
    # the classic model thinks the second H on |+⟩ costs nothing (a coin either way)
    classic = ClassicStrongBot()
    h_on_plus = {"card": 2, "target": {"seat": 1, "qubit": 0}}
    after, _ = classic.simulate(classic.model(view), view, 1, h_on_plus)
    assert after[1][0]["p"] == 0.5

"""QuantumPoker rules: one test (at least) per rule of docs/rules/quantum-poker.md."""
from __future__ import annotations

import json

import pytest

from games.engines import IllegalAction, get_game
from games.engines.quantum_poker import _basis_amps, physics_counterfactual

GAME = get_game("quantum-poker")


def new(players: int = 2, variant: str = "classic", seed: int = 1, **options) -> dict:
    return GAME.setup(players=players, variant=variant, seed=seed, options=options)


def rig(state: dict, cards: list[str] | None = None, values: dict | None = None,
        shown: dict | None = None) -> dict:
    """Put chosen community cards / qubit values into the current hand (tests only)."""
    hand = state["hand"]
    if cards is not None:
        hand["community"] = [{"id": f"t{i}", "kind": k, "taken_by": None, "order": None}
                             for i, k in enumerate(cards)]
    for seat, vals in (values or {}).items():
        for q, v in zip(hand["qubits"][seat], vals, strict=True):
            q["value"] = q["initial"] = v
            if "amps" in q:
                q["amps"] = _basis_amps(v)
    for seat, flags in (shown or {}).items():
        for q, f in zip(hand["qubits"][seat], flags, strict=True):
            q["shown"] = f
            q["public_known"] = f
    return state


def play(state: dict, card: int, seat: int, qubit: int, own: int | None = None):
    actor = GAME.to_act(state)[0]
    action = {"card": card, "target": {"seat": seat, "qubit": qubit}}
    if own is not None:
        action["own"] = own
    return GAME.apply(state, actor, action)


def qubit(state: dict, seat: int, q: int) -> dict:
    return state["hand"]["qubits"][seat][q]


def total_chips(state: dict) -> int:
    return sum(state["chips"]) + state["pot"]


# ------------------------------------------------------------------ set-up and options

def test_game_metadata():
    assert GAME.slug == "quantum-poker" and GAME.name == "QuantumPoker"
    assert (GAME.min_players, GAME.max_players) == (2, 5)
    assert GAME.variants == ("classic", "declared")


def test_deal_and_ante_defaults():
    s = new(3)
    assert s["options"] == {"community_cards": 5, "hands": 5, "starting_chips": 20,
                            "physics_mode": False, "whole_pot": False}
    for seat in range(3):
        cards = s["hand"]["qubits"][seat]
        assert len(cards) == 4
        assert all(not c["shown"] and c["bet"] == 1 and not c["superposed"] for c in cards)
    assert s["chips"] == [16, 16, 16] and s["pot"] == 12
    assert len(s["hand"]["community"]) == 5
    assert all(c["kind"] in ("X", "Y", "Z", "H", "CX", "SWAP") for c in s["hand"]["community"])


def test_qubit_deck_is_half_turned_round():
    for seed in range(20):
        s = new(5, seed=seed)
        values = [q["value"] for cards in s["hand"]["qubits"] for q in cards]
        assert len(values) == 20 and sum(values) == 10
        ids = [q["id"] for cards in s["hand"]["qubits"] for q in cards]
        assert len(set(ids)) == 20


def test_dealt_values_vary_with_seed_and_repeat_with_same_seed():
    assert new(2, seed=3) == new(2, seed=3)
    deals = {json.dumps([[q["value"] for q in c] for c in new(2, seed=k)["hand"]["qubits"]])
             for k in range(30)}
    assert len(deals) > 10


@pytest.mark.parametrize("n", [1, 2, 5, 7, 10])
def test_community_card_count_option(n):
    assert len(new(2, community_cards=n)["hand"]["community"]) == n


def test_pauli_deck_has_eight_of_each():
    counts: dict[str, int] = {}
    for seed in range(60):
        kinds = [c["kind"] for c in new(2, seed=seed, community_cards=10)["hand"]["community"]]
        for k in set(kinds):
            assert kinds.count(k) <= 8
        for k in kinds:
            counts[k] = counts.get(k, 0) + 1
    assert set(counts) == {"X", "Y", "Z", "H", "CX", "SWAP"}


@pytest.mark.parametrize("options", [
    {"community_cards": 0}, {"community_cards": 11}, {"community_cards": True},
    {"community_cards": "5"}, {"hands": 0}, {"hands": 2.0}, {"starting_chips": 7},
    {"physics_mode": 1}, {"colour": "red"}, {"starting_chips": None},
])
def test_bad_options_rejected(options):
    with pytest.raises(IllegalAction) as err:
        new(2, **options)
    assert err.value.code == "bad_option" and err.value.message


@pytest.mark.parametrize("players,variant", [(1, "classic"), (6, "classic"), (True, "classic"),
                                             (2, "basic"), (2, "Classic")])
def test_bad_players_or_variant(players, variant):
    with pytest.raises(IllegalAction):
        GAME.setup(players=players, variant=variant, seed=0, options={})


def test_options_none_and_starting_chips():
    s = GAME.setup(players=2, variant="classic", seed=0, options=None)
    assert s["chips"] == [16, 16]
    assert new(2, starting_chips=8)["chips"] == [4, 4]


# ------------------------------------------------------------------ turns

def test_turns_go_clockwise_from_dealers_left():
    s = new(4)
    assert s["hand"]["dealer"] == 0
    seen = []
    for _ in range(5):
        seat = GAME.to_act(s)[0]
        seen.append(seat)
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert seen == [1, 2, 3, 0, 1]


def test_not_your_turn():
    s = new(2)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, GAME.legal_actions(s, 1)[0])
    assert err.value.code == "not_your_turn"
    assert GAME.legal_actions(s, 0) == []


def test_every_community_card_is_applied_before_showdown():
    s = new(3, community_cards=7)
    first_hand = s["hand"]["number"]
    plays = 0
    while s["hand"]["number"] == first_hand:
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        assert all("card" in a for a in legal)  # no pass: a card must be taken
        s, _ = GAME.apply(s, seat, legal[-1])
        plays += 1
    assert plays == 7
    done = s["history"][-1]
    assert all(c["taken_by"] is not None for c in done["community"])
    assert sorted(c["order"] for c in done["community"]) == list(range(7))


# ------------------------------------------------------------------ card effects (simplified)

def test_x_flips_hidden_value_and_keeps_properties():
    s = rig(new(2), cards=["X"] * 5, values={1: [0, 1, 0, 1]})
    s, ev = play(s, 0, 1, 0)
    q = qubit(s, 1, 0)
    assert (q["value"], q["shown"], q["bet"], q["superposed"]) == (1, False, 1, False)
    assert ev[0]["type"] == "play" and "X" in ev[0]["text"] and not ev[0]["no_effect"]


def test_x_on_shown_qubit_flips_and_stays_shown():
    s = rig(new(2), cards=["X"] * 5, values={1: [1, 1, 0, 1]}, shown={1: [True] * 4})
    s, _ = play(s, 0, 1, 0)
    assert qubit(s, 1, 0)["value"] == 0 and qubit(s, 1, 0)["shown"]
    assert GAME.view(s, 0)["seats"][1]["qubits"][0]["value"] == 0


def test_x_on_superposed_qubit_does_nothing():
    s = rig(new(2), cards=["H", "CX", "X", "X", "X"], values={1: [0, 1, 0, 1], 0: [0] * 4})
    s, _ = play(s, 0, 1, 0)
    assert qubit(s, 1, 0)["superposed"] and qubit(s, 1, 0)["value"] is None
    s, ev = play(s, 1, 1, 0)          # seat 0: CX on seat 1's superposed qubit
    assert qubit(s, 1, 0)["superposed"] and qubit(s, 1, 0)["value"] is None
    assert ev[0]["no_effect"] and "superposed qubit does nothing" in ev[0]["text"]
    s, ev = play(s, 2, 1, 0)          # seat 1: X on its own superposed qubit
    assert ev[0]["no_effect"] and "X on a superposed qubit does nothing" in ev[0]["text"]


def test_y_flips_and_shows_then_toggles_back():
    s = rig(new(2), cards=["Y", "X", "Y", "X", "X"], values={1: [0, 1, 1, 1], 0: [0] * 4})
    s, ev = play(s, 0, 1, 0)
    q = qubit(s, 1, 0)
    assert (q["value"], q["shown"], q["bet"]) == (1, True, 1)
    assert GAME.view(s, 0)["seats"][1]["qubits"][0]["value"] == 1
    assert GAME.view(s, None)["seats"][1]["qubits"][0]["value"] == 1
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 0)           # second Y: flips back and hides again
    q = qubit(s, 1, 0)
    assert (q["value"], q["shown"], q["bet"]) == (0, False, 1)
    # everyone saw the 1 and saw the Y: the table remembers the value (perfect recall)
    seen = GAME.view(s, 0)["seats"][1]["qubits"][0]
    assert seen["value"] == 0 and seen["remembered"]


def test_y_on_superposed_only_toggles_visibility():
    s = rig(new(2), cards=["H", "X", "Y", "X", "X"], values={1: [0, 1, 1, 1], 0: [0] * 4})
    s, _ = play(s, 0, 1, 0)
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 0)
    q = qubit(s, 1, 0)
    assert q["superposed"] and q["shown"] and q["value"] is None
    assert GAME.view(s, 1)["seats"][1]["qubits"][0]["value"] is None  # even for the owner


def test_z_doubles_bet_moving_a_chip_and_halving_returns_it():
    s = rig(new(2), cards=["Z", "X", "Z", "X", "X"], values={1: [1, 1, 1, 1], 0: [0] * 4})
    chips, pot = s["chips"][1], s["pot"]
    s, _ = play(s, 0, 1, 2)
    q = qubit(s, 1, 2)
    assert q["bet"] == 2 and q["value"] == 1 and not q["shown"]
    assert s["chips"][1] == chips - 1 and s["pot"] == pot + 1
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 2)
    assert qubit(s, 1, 2)["bet"] == 1 and s["chips"][1] == chips and s["pot"] == pot


def test_z_without_a_chip_is_applied_with_no_doubling():
    s = rig(new(2, starting_chips=8), cards=["Z", "X", "X", "X", "X"])
    s["chips"][1] = 0
    s["pot"] += 4
    legal = GAME.legal_actions(s, 1)
    assert {"card": 0, "target": {"seat": 1, "qubit": 0}} in legal
    s, ev = play(s, 0, 1, 0)
    assert qubit(s, 1, 0)["bet"] == 1 and s["chips"][1] == 0
    assert ev[0]["no_effect"] and "no chip" in ev[0]["text"]


def test_z_with_exactly_one_chip_left_doubles_the_bet():
    """The rule: the doubling chip comes from the owner's stack; one chip is enough (only an
    empty stack stops the doubling)."""
    s = rig(new(2, starting_chips=8), cards=["Z", "X", "X", "X", "X"])
    s["pot"] += s["chips"][1] - 1
    s["chips"][1] = 1
    total = total_chips(s)
    s, ev = play(s, 0, 1, 0)
    assert qubit(s, 1, 0)["bet"] == 2 and s["chips"][1] == 0
    assert ev[0]["effect"] == "z_double" and not ev[0]["no_effect"]
    assert total_chips(s) == total


def test_z_on_superposed_still_toggles_bet():
    s = rig(new(2), cards=["H", "X", "Z", "X", "X"], values={0: [0] * 4})
    s, _ = play(s, 0, 1, 3)
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 3)
    assert qubit(s, 1, 3)["superposed"] and qubit(s, 1, 3)["bet"] == 2


def test_h_superposes_then_second_h_collapses_by_coin():
    outcomes = set()
    for seed in range(30):
        s = rig(new(2, seed=seed), cards=["H", "X", "H", "X", "X"], values={1: [1] * 4})
        s, ev = play(s, 0, 1, 1)
        q = qubit(s, 1, 1)
        assert q["superposed"] and q["value"] is None and not q["shown"]
        s, _ = play(s, 1, 0, 0)
        s, ev = play(s, 2, 1, 1)
        q = qubit(s, 1, 1)
        assert not q["superposed"] and q["value"] in (0, 1)
        assert "collapses" in ev[0]["text"]
        coin = [e for e in ev if e["type"] == "coin"]
        assert coin and coin[0]["visible_to"] == [1] and coin[0]["value"] == q["value"]
        # the hidden coin result reaches only the owner
        assert coin[0] in GAME.view(s, 1)["events"]
        assert all(e["type"] != "coin" for e in GAME.view(s, 0)["events"])
        assert all(e["type"] != "coin" for e in GAME.view(s, None)["events"])
        outcomes.add(q["value"])
    assert outcomes == {0, 1}


def test_h_on_shown_collapses_with_public_coin():
    s = rig(new(2, seed=4), cards=["H", "X", "H", "X", "X"], values={1: [1] * 4, 0: [0] * 4},
            shown={1: [True] * 4})
    s, _ = play(s, 0, 1, 1)
    assert qubit(s, 1, 1)["shown"] and GAME.view(s, 0)["seats"][1]["qubits"][1]["value"] is None
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 1)
    v = qubit(s, 1, 1)["value"]
    assert GAME.view(s, 0)["seats"][1]["qubits"][1]["value"] == v
    assert any(e["type"] == "coin" for e in GAME.view(s, 0)["events"])


def test_cx_flips_another_players_qubit_never_own():
    s = rig(new(2), cards=["CX", "X", "X", "X", "X"], values={0: [0, 0, 0, 0]})
    legal = GAME.legal_actions(s, 1)
    assert all(a["target"]["seat"] == 0 for a in legal if a["card"] == 0)
    with pytest.raises(IllegalAction) as err:
        play(s, 0, 1, 0)
    assert err.value.code == "cx_own_qubit"
    s, _ = play(s, 0, 0, 2)
    assert [q["value"] for q in s["hand"]["qubits"][0]] == [0, 0, 1, 0]


def test_x_y_z_h_only_on_own_qubits():
    for kind in ("X", "Y", "Z", "H"):
        s = rig(new(2), cards=[kind] * 5)
        assert all(a["target"]["seat"] == 1 for a in GAME.legal_actions(s, 1))
        with pytest.raises(IllegalAction) as err:
            play(s, 0, 0, 0)
        assert err.value.code == "own_qubit_only"


def test_swap_carries_value_visibility_bet_and_superposition():
    s = rig(new(2), cards=["H", "Z", "SWAP", "X", "X"], values={1: [1, 0, 0, 0],
                                                                 0: [1, 1, 1, 1]})
    s, _ = play(s, 0, 1, 0)                 # seat 1: H on own qubit 0 -> superposed
    s, _ = play(s, 1, 0, 3)                 # seat 0: Z on own qubit 3 -> doubled
    props = ("id", "value", "shown", "bet", "superposed", "initial", "gates")
    mine = {k: qubit(s, 1, 0)[k] for k in props}
    theirs = {k: qubit(s, 0, 3)[k] for k in props}
    s, ev = play(s, 2, 0, 3, own=0)         # seat 1: SWAP own qubit 0 with seat 0's qubit 3
    assert {k: qubit(s, 1, 0)[k] for k in props} == theirs
    assert {k: qubit(s, 0, 3)[k] for k in props} == mine
    assert qubit(s, 1, 0)["bet"] == 2 and qubit(s, 0, 3)["superposed"]
    assert "SWAP" in ev[0]["text"]


def test_swap_needs_another_player():
    s = rig(new(2), cards=["SWAP"] * 5)
    with pytest.raises(IllegalAction) as err:
        play(s, 0, 1, 1, own=0)
    assert err.value.code == "swap_same_player"
    with pytest.raises(IllegalAction):
        play(s, 0, 0, 1)                     # no "own"
    assert len(GAME.legal_actions(s, 1)) == 5 * 4 * 4


def test_card_cannot_be_taken_twice():
    s = rig(new(2), cards=["X"] * 5)
    s, _ = play(s, 0, 1, 0)
    with pytest.raises(IllegalAction) as err:
        play(s, 0, 0, 0)
    assert err.value.code == "card_taken"


# ------------------------------------------------------------------ physics mode

def test_physics_second_h_undoes_the_first():
    for v in (0, 1):
        for seed in range(5):
            s = rig(new(2, seed=seed, physics_mode=True), cards=["H", "X", "H", "X", "X"],
                    values={1: [v] * 4})
            s, ev = play(s, 0, 1, 2)
            assert qubit(s, 1, 2)["superposed"] and qubit(s, 1, 2)["value"] is None
            s, _ = play(s, 1, 0, 0)
            s, ev = play(s, 2, 1, 2)
            assert qubit(s, 1, 2)["value"] == v and not qubit(s, 1, 2)["superposed"]
            assert "H·H = I" in ev[0]["text"]


def test_simplified_second_h_does_not_undo():
    # the same plays in simplified mode give a coin, so the value is lost in some seeds
    values = set()
    for seed in range(30):
        s = rig(new(2, seed=seed), cards=["H", "X", "H", "X", "X"], values={1: [1] * 4})
        s, _ = play(s, 0, 1, 2)
        s, _ = play(s, 1, 0, 0)
        s, _ = play(s, 2, 1, 2)
        values.add(qubit(s, 1, 2)["value"])
    assert values == {0, 1}


def test_physics_z_between_hs_flips_the_value():
    s = rig(new(3, physics_mode=True), cards=["H", "X", "X", "Z", "X", "X", "H"],
            values={1: [0] * 4})
    s, _ = play(s, 0, 1, 0)     # seat 1 H
    s, _ = play(s, 1, 2, 0)     # seat 2
    s, _ = play(s, 2, 0, 0)     # seat 0
    s, _ = play(s, 3, 1, 0)     # seat 1 Z: |+> -> |->, bet doubled
    s, _ = play(s, 4, 2, 0)
    s, _ = play(s, 5, 0, 0)
    s, _ = play(s, 6, 1, 0)     # seat 1 H: |-> -> |1>
    done = s["history"][-1]
    assert done["qubits"][1][0]["value"] == 1 and done["result"]["values"][1][0] == 1


def test_physics_x_on_superposed_does_nothing_and_y_shows():
    s = rig(new(2, physics_mode=True), cards=["H", "X", "X", "X", "Y"], values={1: [0] * 4})
    s, _ = play(s, 0, 1, 1)
    before = qubit(s, 1, 1)["amps"]
    s, _ = play(s, 1, 0, 0)
    s, ev = play(s, 2, 1, 1)
    assert ev[0]["no_effect"] and qubit(s, 1, 1)["amps"] == before
    s, _ = play(s, 3, 0, 0)
    s, ev = play(s, 4, 1, 2)    # last card: Y on a basis qubit flips and shows
    assert s["history"][-1]["qubits"][1][2]["value"] == 1


def test_physics_born_rule_at_showdown():
    ones = 0
    for seed in range(40):
        s = rig(new(2, seed=seed, physics_mode=True, community_cards=1), cards=["H"],
                values={1: [0] * 4})
        s, ev = play(s, 0, 1, 0)
        assert any(e["type"] == "measure" for e in ev)
        ones += s["history"][-1]["qubits"][1][0]["value"]
        assert s["history"][-1]["qubits"][1][1]["value"] == 0   # basis states are certain
    assert 8 < ones < 32


def test_physics_circuit_matches_exact_state():
    from qiskit.quantum_info import Statevector

    s = rig(new(3, physics_mode=True, community_cards=6), cards=["H", "Y", "X", "Z", "H", "CX"],
            values={0: [0, 1, 0, 1], 1: [1, 0, 0, 1], 2: [0, 0, 1, 1]})
    for card, (seat, q) in enumerate([(1, 0), (2, 1), (0, 2), (1, 0), (2, 3)]):
        s, _ = play(s, card, seat, q)
    qc = GAME.circuit(s)
    assert qc.num_qubits == 12 and qc.num_clbits == 12
    bits = qc.metadata["bits"]
    assert [(b["seat"], b["qubit"]) for b in bits] == [(s_, q) for s_ in range(3)
                                                        for q in range(4)]
    probs = Statevector(qc.remove_final_measurements(inplace=False)).probabilities_dict()
    analysis = GAME.analysis(s)
    for b in bits:
        p1 = sum(p for key, p in probs.items() if key[::-1][b["bit"]] == "1")
        assert p1 == pytest.approx(analysis["qubits"][b["seat"]][b["qubit"]]["p1"], abs=1e-9)
        assert b["card"] == s["hand"]["qubits"][b["seat"]][b["qubit"]]["id"]
    assert analysis["qubits"][1][0]["ket"] == "|+⟩"       # Z H |1> = Z |−> = |+>
    assert GAME.circuit(new(2)) is None


# ------------------------------------------------------------------ showdown and scoring

def test_scoring_with_doubled_bets_and_pot():
    s = rig(new(2, community_cards=2, whole_pot=True), cards=["Z", "Z"],
            values={1: [1, 1, 0, 0], 0: [1, 1, 1, 0]})
    s, _ = play(s, 0, 1, 0)       # seat 1 doubles a 1 -> 3 points
    s, ev = play(s, 1, 0, 3)      # seat 0 doubles its 0 -> still 3 points
    result = s["results"][0]
    assert result["scores"] == [3, 3] and result["pot"] == 10
    assert result["winners"] == [0, 1] and result["payouts"] == [5, 5]
    texts = " ".join(e["text"] for e in ev)
    assert "split the pot of 10" in texts


def test_highest_score_wins_the_whole_pot_as_a_table_option():
    s = rig(new(3, community_cards=1, whole_pot=True), cards=["X"],
            values={0: [0, 0, 0, 0], 1: [0, 0, 1, 1], 2: [1, 0, 0, 0]})
    total = total_chips(s)
    s, _ = play(s, 0, 1, 0)
    r = s["results"][0]
    assert r["scores"] == [0, 3, 1] and r["winners"] == [1] and r["payouts"] == [0, 12, 0]
    assert s["chips"][1] == 16 + 12 - 4 and total_chips(s) == total


def test_tie_remainder_goes_to_first_clockwise_from_dealer():
    # dealer 0: clockwise from the dealer's left is 1, 2, 0; seats 0 and 2 tie -> 2 first
    s = rig(new(3, community_cards=1, whole_pot=True), cards=["Z"],
            values={0: [1, 1, 0, 0], 1: [0, 0, 0, 0], 2: [1, 1, 0, 0]})
    s, _ = play(s, 0, 1, 0)       # seat 1 doubles a 0: pot 13
    r = s["results"][0]
    assert r["pot"] == 13 and r["winners"] == [0, 2]
    assert r["payouts"] == [6, 0, 7]
    # dealer 1 next: clockwise 2, 0, 1 -- check with seats 0 and 1 tying
    assert s["hand"]["dealer"] == 1
    s = rig(s, cards=["Z", "X", "X", "X", "X"],
            values={0: [1, 0, 0, 0], 1: [1, 0, 0, 0], 2: [0, 0, 0, 0]})
    s["hand"]["community"] = s["hand"]["community"][:1]
    assert GAME.to_act(s) == [2]
    s, _ = play(s, 0, 2, 3)       # seat 2 doubles a 0: pot 13
    r = s["results"][1]
    assert r["winners"] == [0, 1] and r["payouts"] == [7, 6, 0]


def test_dealer_moves_one_seat_left_each_hand():
    s = new(3, community_cards=1, hands=4)
    dealers = []
    while not GAME.outcome(s):
        dealers.append(s["hand"]["dealer"])
        assert GAME.to_act(s) == [(s["hand"]["dealer"] + 1) % 3]
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert dealers == [0, 1, 2, 0]


def test_match_ends_after_fixed_number_of_hands():
    s = new(2, community_cards=1, hands=3)
    total = total_chips(s)
    n = 0
    while not GAME.outcome(s):
        seat = GAME.to_act(s)[0]
        s, ev = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
        n += 1
    assert n == 3 and len(s["results"]) == 3
    out = GAME.outcome(s)
    assert out["scores"] == s["chips"] and sum(out["scores"]) == total and s["pot"] == 0
    assert out["winners"] == [i for i, c in enumerate(s["chips"]) if c == max(s["chips"])]
    assert len(out["hands"]) == 3 and ev[-1]["type"] == "match_end"
    assert GAME.to_act(s) == [] and GAME.legal_actions(s, 0) == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, {"card": 0, "target": {"seat": 0, "qubit": 0}})
    assert err.value.code == "game_over"


def test_match_ends_when_one_player_holds_all_chips():
    s = rig(new(2, starting_chips=8, community_cards=1, hands=10, whole_pot=True), cards=["X"],
            values={0: [1, 1, 1, 1], 1: [0, 0, 0, 0]})
    s, _ = play(s, 0, 1, 0)          # seat 1: 1 point, seat 0: 4 points
    # seat 0 won the pot of 8 (12 chips, seat 1 has 4); both ante again for hand 2
    assert s["chips"] == [8, 0] and s["pot"] == 8 and GAME.outcome(s) is None
    s = rig(s, cards=["X"], values={0: [1, 1, 1, 1], 1: [0, 0, 0, 0]})
    assert GAME.to_act(s) == [0]
    s, ev = play(s, 0, 0, 0)         # seat 0: 3 points, seat 1: 0
    out = GAME.outcome(s)
    assert out is not None and out["scores"] == [16, 0] and out["winners"] == [0]
    assert len(out["hands"]) == 2 and "fewer than two players can ante" in ev[-1]["text"]


def test_player_without_ante_sits_out():
    s = rig(new(3, community_cards=1, hands=5), cards=["X"],
            values={0: [1, 1, 1, 1], 1: [0, 0, 0, 0], 2: [0, 0, 1, 1]})
    s["chips"][2] = 1      # its two 1-qubits go to the winner: 1 chip left      # seat 2 will not be able to ante for the next hand
    s, ev = play(s, 0, 1, 0)
    hand = s["hand"]
    assert hand["in_hand"] == [True, True, False] and hand["qubits"][2] == []
    assert 2 not in hand["order"] and s["chips"][2] == 3
    assert any(e["type"] == "sit_out" and e["seat"] == 2 for e in ev)
    assert GAME.view(s, None)["seats"][2]["sitting_out"]
    seat = GAME.to_act(s)[0]
    assert seat != 2
    assert all(a.get("target", {}).get("seat") != 2 for a in GAME.legal_actions(s, seat))
    assert GAME.analysis(s)["expected_exact"][2] is None


# ------------------------------------------------------------------ declared mode

def test_declare_only_in_declared_mode():
    s = new(2)
    assert {"declare": True} not in GAME.legal_actions(s, 1)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 1, {"declare": True})
    assert err.value.code == "not_declared_mode"
    assert {"declare": True} in GAME.legal_actions(new(2, "declared"), 1)


def test_declaration_lays_cards_face_up_and_gives_everyone_a_last_turn():
    # "declarar una medición, bajando sus cartas ... una última ronda para todos"
    s = rig(new(4, "declared", community_cards=10), cards=["H"] + ["X"] * 9,
            values={2: [1, 0, 1, 0]})
    s, _ = play(s, 1, 1, 0)                                   # seat 1: X on its qubit 1
    s, _ = play(s, 0, 2, 1)                                   # seat 2: H on its qubit 2
    s, _ = GAME.apply(s, 3, GAME.legal_actions(s, 3)[0])
    s, _ = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    s, _ = GAME.apply(s, 1, GAME.legal_actions(s, 1)[0])
    s, ev = GAME.apply(s, 2, {"declare": True})               # seat 2 declares
    assert ev[0]["type"] == "declare" and s["hand"]["last_turns"] == [3, 0, 1, 2]
    assert "face up" in ev[0]["text"]
    cards = qubit(s, 2, 0), qubit(s, 2, 1), qubit(s, 2, 2), qubit(s, 2, 3)
    assert all(q["shown"] for q in cards)
    assert cards[1]["superposed"] and not cards[0]["superposed"]     # superposed stays so
    for seat in (None, 0, 1, 3):                                      # everyone sees them now
        seen = GAME.view(s, seat)["seats"][2]["qubits"]
        assert [q["value"] for q in seen] == [1, None, 1, 0]
    order = []
    for _ in range(4):
        seat = GAME.to_act(s)[0]
        order.append(seat)
        legal = GAME.legal_actions(s, seat)
        assert {"declare": True} not in legal
        with pytest.raises(IllegalAction):
            GAME.apply(s, seat, {"declare": True})
        s, ev = GAME.apply(s, seat, legal[0])
    assert order == [3, 0, 1, 2]          # the declarer too, last
    done = s["history"][-1]
    assert done["result"]["declared_by"] == 2
    assert sum(c["taken_by"] is not None for c in done["community"]) == 9   # rest unapplied
    assert s["hand"]["number"] == 2


def test_declared_showdown_when_cards_run_out_during_last_turns():
    s = new(3, "declared", community_cards=2)
    s, _ = GAME.apply(s, 1, {"declare": True})
    s, _ = GAME.apply(s, 2, GAME.legal_actions(s, 2)[0])
    s, _ = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    assert s["hand"]["number"] == 2 and len(s["results"]) == 1


def test_declared_without_declaration_ends_after_last_card():
    s = new(2, "declared", community_cards=3)
    for _ in range(3):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert len(s["results"]) == 1


# ------------------------------------------------------------------ views and analysis

def test_view_shows_own_hidden_values_only():
    s = new(3, seed=5)
    for seat in range(3):
        v = GAME.view(s, seat)
        for other in range(3):
            for slot, q in enumerate(v["seats"][other]["qubits"]):
                truth = s["hand"]["qubits"][other][slot]["value"]
                assert q["value"] == (truth if other == seat else None)
                assert q["id"] == s["hand"]["qubits"][other][slot]["id"]
    spectator = GAME.view(s, None)
    assert all(q["value"] is None for seat in spectator["seats"] for q in seat["qubits"])
    assert "seed" not in json.dumps(spectator)


def test_view_contents_for_the_table():
    s = new(2, seed=2)
    v = GAME.view(s, 1)
    for key in ("seats", "community", "pot", "dealer", "turn", "hand", "events", "phase",
                "last_hand", "results", "to_act"):
        assert key in v
    assert v["turn"] == 1 and v["to_act"] == [1] and v["pot"] == 8 and v["hand"] == 1
    assert [c["id"] for c in v["community"]] == [f"h1-p{i}" for i in range(5)]
    json.dumps(v)


def test_last_hand_is_revealed_after_showdown():
    s = rig(new(2, community_cards=1), cards=["X"], values={0: [1, 0, 1, 0], 1: [0] * 4})
    s, _ = play(s, 0, 1, 0)
    v = GAME.view(s, None)
    assert v["last_hand"]["values"][0] == [1, 0, 1, 0]
    assert [c["value"] for c in v["last_hand"]["cards"][1]] == [1, 0, 0, 0]


def test_analysis_public_vs_exact():
    s = rig(new(2), cards=["Y", "X", "Y", "X", "X"], values={1: [1, 1, 1, 0], 0: [0, 0, 0, 0]})
    a = GAME.analysis(s)
    assert a["expected_public"] == [2.0, 2.0]
    assert a["expected_exact"] == [0.0, 3.0]
    assert a["p_win"] == [0.0, 1.0] and a["p_split"] == [0.0, 0.0]
    assert a["p_win_public"][0] == pytest.approx(a["p_win_public"][1])
    assert set(a["teacher_only"]) >= {"expected_exact", "p_win", "qubits"}
    s, _ = play(s, 0, 1, 3)        # Y shows the 0 as a 1
    assert GAME.analysis(s)["expected_public"][1] == 2.5
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 3)        # Y hides it again as 0: the table can deduce it
    assert GAME.analysis(s)["expected_public"][1] == 1.5


def test_analysis_enumerates_coin_outcomes():
    s = rig(new(2), cards=["H", "X", "X", "X", "X"], values={1: [1, 0, 0, 0],
                                                             0: [1, 0, 0, 0]})
    s, _ = play(s, 0, 1, 0)
    a = GAME.analysis(s)
    assert a["expected_exact"] == [1.0, 0.5]
    assert a["p_win"] == [0.5, 0.0] and a["p_split"] == [0.5, 0.5]


def test_physics_analysis_has_kets():
    s = rig(new(2, physics_mode=True), cards=["H"] * 5, values={1: [0, 1, 0, 0]})
    s, _ = play(s, 0, 1, 1)
    q = GAME.analysis(s)["qubits"][1]
    assert q[1]["ket"] == "|−⟩" and q[1]["p1"] == 0.5 and q[0]["ket"] == "|0⟩"


def test_physics_counterfactual_shows_h_did_not_erase():
    s = rig(new(2, community_cards=3), cards=["H", "X", "H"], values={1: [1, 0, 0, 0]})
    s, _ = play(s, 0, 1, 0)
    s, _ = play(s, 1, 0, 0)
    s, _ = play(s, 2, 1, 0)
    cf = physics_counterfactual(s)
    card = cf["seats"][1]["cards"][0]
    assert card["gates"] == ["H", "H"] and card["physics_p1"] == 1.0
    assert "did not really" in card["note"]
    assert cf["seats"][1]["physics_expected"] == 1.0
    assert "game_score" in cf["seats"][1]
    assert GAME.analysis(s)["physics_counterfactual"]["hand"] == 1

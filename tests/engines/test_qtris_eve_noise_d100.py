"""QTris rules (docs/rules/qtris.md, "Variants" and "Measurement"): Eve's starting board, the
noise variant's structure (see test_qtris_flow.py), asymmetric two-square mixtures checked
against numpy and Aer, and the d100 shown agreeing with the book's tables."""
from __future__ import annotations

import random

import numpy as np
import pytest

from games.engines import IllegalAction, get_game
from games.engines.qtris import board as B
from games.engines.qtris import tiles as T
from games.engines.qtris.scoring import outcome_of_bitstring
from games.engines.qtris.weights import from_probability

GAME = get_game("qtris")
FIXED = {"first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True}


def codes_of(board: list[dict]) -> set[str]:
    out = set()
    for comp in board:
        for m in comp["members"]:
            tiles = m["tile"] if isinstance(m["tile"], list) else [m["tile"]]
            out |= {T.base_code(t) for t in tiles}
    return out


# ------------------------------------------------------------------ Eve

def test_eve_starting_boards_use_the_advanced_tile_set():
    seen = set()
    for seed in range(80):
        st = GAME.setup(3, "eve", seed, {"skip_mulligan": True})
        seen |= codes_of(st["board"])
    assert not seen & {"UP", "DOWN"}
    assert {"W", "B", "R", "L"} <= seen
    # the S expansion itself still starts with UP/DOWN tiles
    s_seen = set()
    for seed in range(40):
        s_seen |= codes_of(GAME.setup(2, "s-expansion", seed, dict(FIXED))["board"])
    assert s_seen & {"UP", "DOWN"}


def test_eve_new_sets_start_on_advanced_boards_too():
    game = GAME
    for seed in range(30):
        st = GAME.setup(3, "eve", seed, {"skip_mulligan": True})
        events: list = []
        game._new_set(st, events)
        assert not codes_of(st["board"]) & {"UP", "DOWN"}


def test_eve_board_option_refuses_up_down_tiles():
    spec = ["UP"] + ["W"] * 8
    with pytest.raises(IllegalAction) as err:
        GAME.setup(3, "eve", 1, {"board": spec, "skip_mulligan": True})
    assert err.value.code == "bad_board" and "S expansion" in err.value.message
    GAME.setup(2, "s-expansion", 1, {"board": spec, **FIXED})      # fine there


def eve_table(board_spec: list) -> dict:
    hands = [["I", "I", "I", "I"], ["X", "H", "I", "I"], ["Z", "Z", "Z", "Z"]]
    return GAME.setup(3, "eve", 5, {"board": board_spec, "hands": hands, "skip_mulligan": True})


@pytest.mark.parametrize("seed", range(6))
def test_eve_up_down_measurement_makes_tiles_that_are_legal_from_then_on(seed):
    st = eve_table(["W", "W", "W", "W", "R", "W", "W", "W", "W"])
    st["seed"] = seed
    st, _ = GAME.apply(st, 0, {"card": "I"})                           # Alice
    st, ev = GAME.apply(st, 1, {"eve_measure": {"squares": [5], "basis": "up-down"},
                                "discard": ["X", "H"]})                # Eve
    result = ev[0]["result"][0]
    assert result in ("UP", "DOWN")
    comp = st["board"][B.component_index(st["board"], 5)]
    assert comp["members"][0]["tile"] == result
    # |+> measured up/down: 50/50, the book's table 1-50 up, 51-100 down
    assert ev[0]["d100"] in (range(1, 51) if result == "UP" else range(51, 101))
    legal = GAME.legal_actions(st, 2)                                  # Bob: Z on the tile
    assert {"card": "Z", "squares": [5]} in legal
    st, _ = GAME.apply(st, 2, {"card": "Z", "squares": [5]})
    other = "DOWN" if result == "UP" else "UP"
    assert st["board"][B.component_index(st["board"], 5)]["members"][0]["tile"] == other
    # once per set: Eve's next turn offers no second measurement
    st, _ = GAME.apply(st, 0, {"card": "I"})
    assert GAME.to_act(st) == [1]
    assert not [a for a in GAME.legal_actions(st, 1) if "eve_measure" in a]
    with pytest.raises(IllegalAction):
        GAME.apply(st, 1, {"eve_measure": {"squares": [1], "basis": "color"},
                           "discard": ["I", "I"]})


# ------------------------------------------------------------------ asymmetric mixtures

def asymmetric_state() -> dict:
    """Square 3 holds the mixture {W, W, W, B} (P(white) ¾), square 7 holds B; CX with
    control 3 gives the correlated mixture {[W, B]: ¾, [B, W]: ¼} on squares 3 and 7."""
    spec = ["W", "W", ["W", "W", "W", "B"], "W", "W", "W", "B", "W", "W"]
    hands = [["CX", "I", "I", "I"], ["I", "I", "I", "I"]]
    st = GAME.setup(2, "noise", 3, {"board": spec, "hands": hands, **FIXED})
    st, _ = GAME.apply(st, 0, {"card": "CX", "squares": [3, 7]})
    return st


def test_asymmetric_two_square_mixture_is_built():
    st = asymmetric_state()
    comp = st["board"][B.component_index(st["board"], 3)]
    assert comp["squares"] == [3, 7]
    members = {tuple(m["tile"]): m["weight"] for m in comp["members"]}
    assert members == {("W", "B"): "3/4", ("B", "W"): "1/4"}


def test_asymmetric_mixture_p_white_and_joint_distribution():
    board = asymmetric_state()["board"]
    pw = B.p_white(board)
    assert pw[2] == pytest.approx(0.75) and pw[6] == pytest.approx(0.25)
    assert [pw[k] for k in (0, 1, 3, 4, 5, 7, 8)] == [1.0] * 7
    # independent numpy calculation: the density matrix of the mixture on (3, 7)
    ket = {"W": np.array([1, 0]), "B": np.array([0, 1])}
    rho = sum(w * np.outer(np.kron(ket[a], ket[b]), np.kron(ket[a], ket[b]))
              for (a, b), w in ((("W", "B"), 0.75), (("B", "W"), 0.25)))
    probs = np.real(np.diag(rho))        # order WW, WB, BW, BB (square 3 first)
    joint = B.joint_distribution(board)
    for bits, p in zip([(0, 0), (0, 1), (1, 0), (1, 1)], probs, strict=True):
        o = (bits[0] << 2) | (bits[1] << 6)   # bit k-1 is square k
        assert joint[o] == pytest.approx(p)
    assert joint.sum() == pytest.approx(1)
    analysis = GAME.analysis(asymmetric_state())
    assert analysis["p_white"][2] == pytest.approx(0.75)
    assert analysis["p_white"][6] == pytest.approx(0.25)


def test_asymmetric_mixture_final_measurement_frequencies():
    board = asymmetric_state()["board"]
    n = 3000
    white3 = 0
    for seed in range(n):
        bits, events = B.final_measurement(board, random.Random(seed))
        assert bits[2] != bits[6]              # [W, B] or [B, W], never anything else
        white3 += bits[2] == 0
        pair = next(e for e in events if e["squares"] == [3, 7])
        assert pair["result"] == (["white", "black"] if bits[2] == 0 else ["black", "white"])
    assert abs(white3 / n - 0.75) < 4.5 * np.sqrt(0.75 * 0.25 / n)


def test_asymmetric_mixture_agrees_with_aer():
    from qiskit_aer import AerSimulator

    st = asymmetric_state()
    shots = 4000
    counts = AerSimulator().run(GAME.circuit(st), shots=shots, seed_simulator=11
                                ).result().get_counts()
    joint: dict[tuple[int, int], int] = {}
    for key, c in counts.items():
        o = outcome_of_bitstring(key)
        pair = ((o >> 2) & 1, (o >> 6) & 1)
        joint[pair] = joint.get(pair, 0) + c
        assert o & ~((1 << 2) | (1 << 6)) == 0          # every other square stays white
    assert set(joint) == {(0, 1), (1, 0)}
    assert abs(joint[(0, 1)] / shots - 0.75) < 4.5 * np.sqrt(0.75 * 0.25 / shots)


def test_noise_on_a_u_decorated_tile_gives_an_asymmetric_mixture_measured_right():
    # a noise roll on U·B (P(white) ¾) leaves {W: ¾, B: ¼}; CX onto a B square -> asymmetric
    tiles = T.tile_set("noise")
    spec = ["W", "W", "U:B", "W", "W", "W", "B", "W", "W"]
    bd = B.parse_board(spec, None, tiles, "noise")
    bd = B.measure_unseen(bd, 3, tiles)
    members = {m["tile"]: m["weight"] for m in bd[B.component_index(bd, 3)]["members"]}
    assert members == {"W": "3/4", "B": "1/4"}


# ------------------------------------------------------------------ the d100 shown

def test_d100_tables_are_the_books():
    assert B.d100_table([0.5, 0.5]) == [(1, 50), (51, 100)]
    assert B.d100_table([0.125, 0.375, 0.375, 0.125]) == [(1, 12), (13, 50), (51, 88),
                                                          (89, 100)]
    assert B.d100_table([0.375, 0.125, 0.125, 0.375]) == [(1, 38), (39, 50), (51, 62),
                                                          (63, 100)]
    assert B.d100_table([0.25] * 4) == [(1, 25), (26, 50), (51, 75), (76, 100)]
    assert B.d100_table([0.5, 0, 0, 0.5]) == [(1, 50), None, None, (51, 100)]
    u_r = (2 + np.sqrt(3)) / 4
    assert B.d100_table([u_r, 1 - u_r]) == [(1, 93), (94, 100)]


def spans_ok(board: list[dict], seeds: int) -> set:
    seen = set()
    for seed in range(seeds):
        bits, events = B.final_measurement(board, random.Random(seed))
        for e in events:
            dist = e["probabilities"]
            if max(dist) > 1 - 1e-9:
                assert e["d100"] is None and "no roll" in e["text"]
                continue
            pick = 0
            for b in (bits[s - 1] for s in e["squares"]):
                pick = pick * 2 + b
            # the table of the exact probabilities (the floats 0.37499999999999994... would
            # round the book's 37.5 down)
            lo, hi = B.d100_table([from_probability(p) for p in dist])[pick]
            assert lo <= e["d100"] <= hi, (e, pick)
            assert f"rolled {e['d100']} on the d100" in e["text"]
            seen.add((tuple(e["squares"]), pick))
    return seen


def test_d100_shown_agrees_with_the_books_tables_for_u_decorated_pairs():
    tiles = T.tile_set("advanced")
    spec = ["W"] * 9
    spec[2] = spec[6] = None
    spec[4] = "U:R"                      # 93% white
    spec[0] = "B"                        # certain: no roll
    for bell in ("phi+", "psi-"):
        bd = B.parse_board(spec, [{"squares": [3, 7], "state": bell, "decoration": "U"}],
                           tiles, "advanced")
        seen = spans_ok(bd, 600)
        assert {((3, 7), k) for k in range(4)} <= seen     # every outcome came up
        assert ((5,), 1) in seen                           # even the 7% black of U·R


@pytest.mark.parametrize("bell, table", [
    ("phi+", [(1, 12), (13, 50), (51, 88), (89, 100)]),
    ("psi-", [(1, 38), (39, 50), (51, 62), (63, 100)]),
])
def test_d100_tables_of_u_decorated_pairs_are_the_books_exactly(bell, table):
    """The book (§3.3.1): correlated WW 1–12, WB 13–50, BW 51–88, BB 89–100; anti-correlated
    WW 1–38, WB 39–50, BW 51–62, BB 63–100. The floats of the Born rule (0.37499999999999994)
    gave 1–37 / 51–87: the table is computed from the exact probabilities."""
    for deco in ("U1", "U2"):
        comp = {"squares": [3, 7], "members": [{"tile": f"{deco}:{bell}", "weight": "1"}]}
        assert B.d100_table(B.exact_distribution(comp)) == table


def test_d100_for_a_u_decorated_phi_pair_white_white_is_in_1_to_12():
    tiles = T.tile_set("advanced")
    spec = ["W"] * 9
    spec[2] = spec[6] = None
    bd = B.parse_board(spec, [{"squares": [3, 7], "state": "phi+", "decoration": "U"}],
                       tiles, "advanced")
    rolls = []
    for seed in range(1500):
        bits, events = B.final_measurement(bd, random.Random(seed))
        if bits[2] == 0 and bits[6] == 0:
            rolls.append(next(e for e in events if e["squares"] == [3, 7])["d100"])
        assert all(e["d100"] is None for e in events if e["squares"] != [3, 7])
    assert rolls and all(1 <= r <= 12 for r in rolls)
    assert abs(len(rolls) / 1500 - 0.125) < 4.5 * np.sqrt(0.125 * 0.875 / 1500)

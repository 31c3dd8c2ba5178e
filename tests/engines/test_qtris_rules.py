"""QTris rules: tiles, cards, decorations, legality, measurement (docs/rules/qtris.md)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import quantum
from games.engines import IllegalAction
from games.engines.qtris import GAME, score_of_outcome
from games.engines.qtris import board as B
from games.engines.qtris import cards as C
from games.engines.qtris import tiles as T
from games.engines.qtris.weights import Weight, from_probability, parse

S3 = math.sqrt(3)


def board(spec, pairs=None, variant="advanced"):
    return B.parse_board(spec, pairs, T.tile_set(variant), variant)


def fill(**squares):
    spec = ["W"] * 9
    for k, v in squares.items():
        spec[int(k[1:]) - 1] = v
    return spec


def tile_at(bd, square):
    comp = bd[B.component_index(bd, square)]
    assert len(comp["members"]) == 1
    return comp["members"][0]["tile"]


def play(bd, card, *squares, variant="advanced"):
    return C.play(bd, variant, card, list(squares))[0]


# ------------------------------------------------------------------ tiles and single cards

@pytest.mark.parametrize("code,pw", [("W", 1), ("B", 0), ("R", .5), ("L", .5)])
def test_tile_probabilities(code, pw):
    assert B.p_white(board(fill(s1=code)))[0] == pytest.approx(pw)


@pytest.mark.parametrize("card,before,after", [
    ("X", "W", "B"), ("X", "B", "W"), ("X", "R", "R"), ("X", "L", "L"),
    ("Z", "R", "L"), ("Z", "L", "R"), ("Z", "W", "W"), ("Z", "B", "B"),
    ("Y", "W", "B"), ("Y", "R", "L"),
    ("H", "W", "R"), ("H", "R", "W"), ("H", "B", "L"), ("H", "L", "B"),
])
def test_single_square_cards(card, before, after):
    assert tile_at(play(board(fill(s5=before)), card, 5), 5) == after


def test_s_cycle_and_y_on_up_down():
    bd = board(fill(s1="R"), variant="s-expansion")
    seen = []
    for _ in range(4):
        bd = play(bd, "S", 1, variant="s-expansion")
        seen.append(tile_at(bd, 1))
    assert seen == ["UP", "L", "DOWN", "R"]
    for code in ("UP", "DOWN"):
        bd = board(fill(s2=code), variant="s-expansion")
        assert tile_at(play(bd, "Y", 2, variant="s-expansion"), 2) == code  # Y leaves them alone
        other = "DOWN" if code == "UP" else "UP"
        assert tile_at(play(bd, "X", 2, variant="s-expansion"), 2) == other
        assert tile_at(play(bd, "Z", 2, variant="s-expansion"), 2) == other


def test_s_is_illegal_where_it_leaves_the_tile_set():
    bd = board(fill(s1="R"), variant="s-expansion")
    # S on a U-decorated tile follows the frame rule and stays a tile; on a pair it does not
    bd = board(fill(s1=None, s2=None), [{"squares": [1, 2], "state": "phi+"}], "s-expansion")
    with pytest.raises(C.CardError):
        play(bd, "S", 1, variant="s-expansion")


@pytest.mark.parametrize("code,pw", [("W", .25), ("B", .75), ("R", (2 + S3) / 4),
                                     ("L", (2 - S3) / 4)])
def test_u_check_values(code, pw):
    bd = play(board(fill(s3=code)), "U", 3)
    assert tile_at(bd, 3) == f"U:{code}"
    assert B.p_white(bd)[2] == pytest.approx(pw)
    # U again removes the decoration (U·U = I)
    assert tile_at(play(bd, "U", 3), 3) == code


def test_u_decorated_option_tile():
    assert B.p_white(board(fill(s1="U:W")))[0] == pytest.approx(.25)


@pytest.mark.parametrize("card,before,after", [
    ("X", "U:W", "U:B"), ("Z", "U:R", "U:L"), ("H", "U:W", "U:R"), ("Y", "U:B", "U:W")])
def test_frame_rule(card, before, after):
    bd = play(board(fill(s4=before)), card, 4)
    assert tile_at(bd, 4) == after


def test_frame_rule_is_u_g_u_physically():
    bd = board(fill(s4="U:W"))
    after = play(bd, "X", 4)
    psi = T.state(tile_at(after, 4))
    expected = quantum.U @ quantum.X @ quantum.U @ (quantum.U @ quantum.KET0)
    assert quantum.same_up_to_phase(psi, expected)
    assert B.p_white(after)[3] == pytest.approx(.75)


def test_exercise_3_4_4_mixing_with_kittens():
    bd = board(fill(s9=["W", "R"]))
    assert B.p_white(bd)[8] == pytest.approx(.75)
    bd = play(play(bd, "U", 9), "X", 9)
    comp = bd[B.component_index(bd, 9)]
    assert sorted(m["tile"] for m in comp["members"]) == ["U:B", "U:R"]
    assert B.p_white(bd)[8] == pytest.approx(.5 * (.75 + (2 + S3) / 4))
    assert B.p_white(bd)[8] == pytest.approx(0.8415, abs=1e-4)


def test_mixture_weights_one_white_three_black():
    bd = board(fill(s1=["W", "B", "B", "B"]))
    assert B.p_white(bd)[0] == pytest.approx(.25)
    assert {m["tile"]: m["weight"] for m in bd[0]["members"]} == {"W": "1/4", "B": "3/4"}


def test_completely_mixed_state_is_useless_for_h():
    bd = play(board(fill(s1=["W", "B"])), "H", 1)
    assert B.p_white(bd)[0] == pytest.approx(.5)


# ------------------------------------------------------------------ CX

@pytest.mark.parametrize("control,target,result", [
    ("W", "W", ["W", "W"]), ("W", "B", ["W", "B"]), ("B", "W", ["B", "B"]), ("B", "B", ["B", "W"]),
    ("R", "W", "phi+"), ("L", "W", "phi-"), ("R", "B", "psi+"), ("L", "B", "psi-"),
    ("R", "L", ["L", "L"]), ("L", "L", ["R", "L"]), ("R", "R", ["R", "R"]), ("L", "R", ["L", "R"]),
])
def test_cx_truth_table(control, target, result):
    bd = board(fill(s2=control, s6=target))
    after = play(bd, "CX", 2, 6)
    if isinstance(result, str):
        comp = after[B.component_index(after, 2)]
        assert comp["squares"] == [2, 6]
        assert comp["members"][0]["tile"] == result
    else:
        assert [tile_at(after, 2), tile_at(after, 6)] == result


def test_cx_control_on_higher_square():
    bd = board(fill(s3="W", s7="R"))
    after = play(bd, "CX", 7, 3)
    comp = after[B.component_index(after, 3)]
    assert comp["squares"] == [3, 7] and comp["members"][0]["tile"] == "phi+"


@pytest.mark.parametrize("bell", ["phi+", "phi-", "psi+", "psi-"])
def test_cx_separates_pair_control_choice(bell):
    bd = board(fill(s1=None, s5=None), [{"squares": [1, 5], "state": bell}])
    a = play(bd, "CX", 1, 5)
    b = play(bd, "CX", 5, 1)
    kitten = "R" if bell.endswith("+") else "L"
    colour = "W" if bell.startswith("phi") else "B"
    assert (tile_at(a, 1), tile_at(a, 5)) == (kitten, colour)
    assert (tile_at(b, 5), tile_at(b, 1)) == (kitten, colour)


def test_cx_between_pair_and_other_square_is_refused():
    bd = board(fill(s1=None, s5=None), [{"squares": [1, 5], "state": "phi+"}])
    with pytest.raises(C.CardError) as err:
        play(bd, "CX", 1, 2)
    assert err.value.code == "pair_cx"
    with pytest.raises(C.CardError):
        play(bd, "CX", 9, 5)


def test_cx_on_decorated_tiles_is_refused():
    with pytest.raises(C.CardError) as err:
        play(board(fill(s1="U:W")), "CX", 1, 2)
    assert err.value.code == "decorated_cx"
    bd = board(fill(s1=None, s5=None), [{"squares": [1, 5], "state": "phi+", "decoration": "H"}])
    with pytest.raises(C.CardError):
        play(bd, "CX", 1, 5)


def test_cx_creating_non_tile_is_refused():
    bd = board(fill(s1="UP"), variant="s-expansion")
    with pytest.raises(C.CardError) as err:
        play(bd, "CX", 1, 2, variant="s-expansion")
    assert err.value.code == "not_a_tile"


# ------------------------------------------------------------------ pairs and decorations

def pair_board(bell, deco=None, squares=(3, 7)):
    spec = ["W"] * 9
    for s in squares:
        spec[s - 1] = None
    return board(spec, [{"squares": list(squares), "state": bell, "decoration": deco}])


def dist(bd, square):
    return B.component_distribution(bd[B.component_index(bd, square)]).real


@pytest.mark.parametrize("bell,probs", [("phi+", [.5, 0, 0, .5]), ("phi-", [.5, 0, 0, .5]),
                                        ("psi+", [0, .5, .5, 0]), ("psi-", [0, .5, .5, 0])])
def test_pair_probabilities(bell, probs):
    assert dist(pair_board(bell), 3) == pytest.approx(probs)


@pytest.mark.parametrize("bell", ["phi+", "phi-", "psi+", "psi-"])
def test_h_decorated_pairs_quarter_each(bell):
    assert dist(pair_board(bell, "H"), 3) == pytest.approx([.25] * 4)
    bd = play(pair_board(bell), "H", 7)  # H on either qubit decorates
    assert B.component_distribution(bd[B.component_index(bd, 3)]).real == pytest.approx([.25] * 4)
    assert bd[B.component_index(bd, 3)]["members"][0]["tile"].startswith("H:")
    for sq in (3, 7):  # H again on either qubit removes the decoration
        again = play(bd, "H", sq)
        assert T.pair_decoration(again[B.component_index(again, 3)]["members"][0]["tile"]) is None


def test_z_on_h_decorated_phi_plus_gives_h_decorated_psi_plus():
    bd = play(pair_board("phi+", "H"), "Z", 3)
    assert bd[B.component_index(bd, 3)]["members"][0]["tile"] == "H:psi+"


@pytest.mark.parametrize("bell,probs", [("phi+", [1 / 8, 3 / 8, 3 / 8, 1 / 8]),
                                        ("phi-", [1 / 8, 3 / 8, 3 / 8, 1 / 8]),
                                        ("psi+", [3 / 8, 1 / 8, 1 / 8, 3 / 8]),
                                        ("psi-", [3 / 8, 1 / 8, 1 / 8, 3 / 8])])
def test_u_decorated_pairs(bell, probs):
    assert dist(pair_board(bell, "U"), 3) == pytest.approx(probs)
    for sq in (3, 7):
        bd = play(pair_board(bell), "U", sq)
        assert dist(bd, 3) == pytest.approx(probs)
        assert T.pair_decoration(bd[B.component_index(bd, 3)]["members"][0]["tile"]) == \
            ("U1" if sq == 3 else "U2")
        assert T.pair_decoration(play(bd, "U", sq)[B.component_index(bd, 3)]["members"][0]["tile"]) \
            is None


def test_frame_rule_on_u_decorated_pair_qubit():
    bd = play(pair_board("phi+", "U"), "X", 3)
    assert bd[B.component_index(bd, 3)]["members"][0]["tile"] == "U1:psi+"


def test_basic_variant_refuses_decorations():
    bd = board(fill(s1=None, s2=None), [{"squares": [1, 2], "state": "phi+"}], "basic")
    with pytest.raises(C.CardError) as err:
        play(bd, "H", 1, variant="basic")
    assert "basic" in err.value.message
    with pytest.raises(B.BoardError):
        board(fill(s1="U:W"), variant="basic")


def test_x_y_z_on_pairs():
    bd = pair_board("phi+")
    assert tile_at(play(bd, "X", 3), 3) == "psi+"
    assert tile_at(play(bd, "Z", 7), 3) == "phi-"
    assert tile_at(play(bd, "Y", 3), 3) == "psi-"


# ------------------------------------------------------------------ measurement (noise)

def test_noise_measurement_mixtures():
    tiles = T.tile_set("noise")
    bd = B.measure_unseen(board(fill(s1="R")), 1, tiles)
    assert {m["tile"]: m["weight"] for m in bd[0]["members"]} == {"W": "1/2", "B": "1/2"}
    bd = B.measure_unseen(board(fill(s1="U:W")), 1, tiles)
    assert {m["tile"]: m["weight"] for m in bd[0]["members"]} == {"W": "1/4", "B": "3/4"}
    bd = B.measure_unseen(board(fill(s1="U:R")), 1, tiles)
    assert {m["tile"]: m["weight"] for m in bd[0]["members"]} == {"W": "(2+√3)/4",
                                                                  "B": "(2-√3)/4"}
    bd = B.measure_unseen(pair_board("phi-"), 7, tiles)
    comp = bd[B.component_index(bd, 3)]
    assert {repr(m["tile"]): m["weight"] for m in comp["members"]} == {
        "['W', 'W']": "1/2", "['B', 'B']": "1/2"}
    bd = B.measure_unseen(pair_board("psi+"), 3, tiles)
    comp = bd[B.component_index(bd, 3)]
    assert sorted(repr(m["tile"]) for m in comp["members"]) == ["['B', 'W']", "['W', 'B']"]
    assert B.p_white(B.measure_unseen(board(fill(s2="W")), 2, tiles))[1] == 1


def test_correlated_mixture_cards_map_each_member():
    bd = B.measure_unseen(pair_board("phi+"), 3, T.tile_set("noise"))
    bd = play(bd, "X", 3)
    comp = bd[B.component_index(bd, 3)]
    assert sorted(repr(m["tile"]) for m in comp["members"]) == ["['B', 'W']", "['W', 'B']"]


def test_final_measurement_events_and_joint_pair():
    import random
    bd = pair_board("psi+")
    for seed in range(20):
        bits, events = B.final_measurement(bd, random.Random(seed))
        assert bits[2] != bits[6]
        assert [e["squares"] for e in events] == [[1], [2], [3, 7], [4], [5], [6], [8], [9]]
        assert "on the d100" in events[2]["text"]


# ------------------------------------------------------------------ scoring

def test_scoring_rulebook_example_three_black_qtris():
    bits = [1, 0, 0, 1, 1, 0, 1, 1, 1]
    assert score_of_outcome(bits) == {"white": 0, "black": 3}


def test_exercise_2_3_5_scoring():
    # final board ● ● ● / ● ● ○ / ○ ○ ○ : Player 1 (white) 1, Player 2 (black) 1
    bits = [1, 1, 1, 1, 1, 0, 0, 0, 0]
    assert score_of_outcome(bits) == {"white": 1, "black": 1}


def test_expected_score_is_average_of_scores_not_score_of_average():
    bd = board(["R"] * 9, variant="basic")
    a = GAME.analysis({"board": bd, "colors": ["white", "black"], "variant": "basic"})
    assert a["expected_qtris"]["white"] == pytest.approx(8 * (1 / 8))  # 8 lines, each 1/8
    assert a["p_win"]["white"] == pytest.approx(a["p_win"]["black"])


# ------------------------------------------------------------------ exact weights

def test_weights_exact_arithmetic():
    w = from_probability((2 + S3) / 4)
    assert str(w) == "(2+√3)/4"
    assert parse(str(w)) == w
    half = parse("1/2")
    assert str((w * half + parse("3/8")) / parse("3/4")) == str(parse(str((w * half + parse("3/8")) / parse("3/4"))))
    assert float(Weight(parse("1").a) - w - from_probability((2 - S3) / 4)) == pytest.approx(0)


def test_state_of_tiles_equal_up_to_global_phase():
    # U on UP is physically DOWN (up to phase); recognition keeps the U decoration rule
    psi = quantum.U @ T.state("UP")
    assert quantum.same_up_to_phase(psi, T.state("DOWN"))
    assert T.recognise(psi, T.tile_set("s-expansion"), frozenset({"U@0"})) == "U:UP"
    assert T.recognise(-1j * T.state("R"), T.tile_set("basic")) == "R"
    assert T.recognise(np.array([0.6, 0.8]), T.tile_set("advanced")) is None


def test_illegal_play_message_through_engine():
    st = GAME.setup(2, "basic", 1, {"board": fill(s1=None, s2=None),
                                    "pairs": [{"squares": [1, 2], "state": "phi+"}],
                                    "hands": [["H", "H", "X", "I"], ["X", "X", "X", "X"]],
                                    "first_seat": 0, "colors": ["white", "black"],
                                    "skip_mulligan": True})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, 0, {"card": "H", "squares": [1]})
    assert "not a tile" in err.value.message

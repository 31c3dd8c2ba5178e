"""QTris game flow: setup options, roll, colour, mulligan, turns, variants, views, outcome."""
from __future__ import annotations

import json
import random

import pytest

from games.engines import IllegalAction, get_game

GAME = get_game("qtris")
FIXED = {"first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True}


def play_random(state, seed, log=None):
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = rng.choice(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, seat))
        if log is not None:
            log.append((seat, action))
        state, _ = GAME.apply(state, seat, action)
    return state


def test_contract_attributes():
    assert GAME.slug == "qtris" and GAME.name == "QTris"
    assert GAME.variants == ("basic", "advanced", "noise", "s-expansion", "eve")
    assert (GAME.min_players, GAME.max_players) == (2, 9)


@pytest.mark.parametrize("bad,code", [
    ({"board": ["W"] * 8}, "bad_board"),
    ({"board": ["Q"] + ["W"] * 8}, "bad_board"),
    ({"board": ["W"] * 9, "pairs": [{"squares": [1, 2], "state": "phi+"}]}, "bad_board"),
    ({"board": [None, None, None] + ["W"] * 6,
      "pairs": [{"squares": [1, 2], "state": "phi+"}, {"squares": [2, 3], "state": "phi+"}]},
     "bad_board"),
    ({"board": [None] + ["W"] * 8}, "bad_board"),
    ({"hands": [["X", "X", "X", "Q"], ["X"] * 4]}, "unknown_card"),
    ({"hands": [["X"] * 4]}, "bad_hands"),
    ({"hands": [["X"] * 3, ["X"] * 4]}, "bad_hands"),
    ({"hands": [["U"] * 4, ["X"] * 4]}, "unknown_card"),
    ({"colors": ["white", "white"]}, "bad_colors"),
    ({"first_seat": 7}, "bad_first_seat"),
    ({"nonsense": 1}, "bad_option"),
])
def test_invalid_options(bad, code):
    with pytest.raises(IllegalAction) as err:
        GAME.setup(2, "basic", 1, bad)
    assert err.value.code == code and err.value.message


def test_missing_options_are_random_but_seeded():
    a = GAME.setup(2, "advanced", 5, {})
    assert a == GAME.setup(2, "advanced", 5, {})
    assert a["board"] != GAME.setup(2, "advanced", 6, {})["board"] or a["deck"] != \
        GAME.setup(2, "advanced", 6, {})["deck"]
    assert sum(len(c["squares"]) for c in a["board"]) == 9
    assert len(a["deck"]) + 8 == 61 and all(len(h) == 4 for h in a["hands"])


def test_deck_sizes():
    for variant, n in [("basic", 52), ("advanced", 61), ("noise", 61), ("s-expansion", 68)]:
        st = GAME.setup(2, variant, 0, {})
        assert len(st["deck"]) + 8 == n
    assert "U" not in GAME.setup(2, "basic", 0, {})["deck"]
    assert "S" in GAME.setup(2, "s-expansion", 0, {})["deck"] + sum(
        GAME.setup(2, "s-expansion", 0, {})["hands"], [])


def test_roll_colour_mulligan_sequence():
    st = GAME.setup(2, "basic", 3, {})
    assert st["phase"] == "roll" and GAME.to_act(st) == [0, 1]
    while st["phase"] == "roll":
        seat = GAME.to_act(st)[0]
        st, events = GAME.apply(st, seat, {"roll": True})
        assert "on the d10" in events[0]["text"]
    assert st["phase"] == "color"
    chooser = GAME.to_act(st)
    st, _ = GAME.apply(st, chooser[0], {"color": "black"})
    assert st["colors"][chooser[0] % 2] == "black"
    assert st["phase"] == "mulligan" and GAME.to_act(st) == [0, 1]
    hand = list(st["hands"][0])
    st, _ = GAME.apply(st, 0, {"mulligan": [0, 2]})
    assert len(st["hands"][0]) == 4 and st["hands"][0][:2] == [hand[1], hand[3]]
    assert GAME.to_act(st) == [1]
    st, _ = GAME.apply(st, 1, {"mulligan": []})
    assert st["phase"] == "operations"
    assert st["turn"]["side"] == st["first_side"]
    assert len(st["hands"][st["first_side"]]) == 6  # drew 2 at the start of the turn


def test_roll_ties_reroll():
    # find a seed whose first two rolls tie
    for seed in range(200):
        st = GAME.setup(2, "basic", seed, {})
        st, _ = GAME.apply(st, 0, {"roll": True})
        st, events = GAME.apply(st, 1, {"roll": True})
        if any(e["type"] == "tie" for e in events):
            assert st["phase"] == "roll" and GAME.to_act(st) == [0, 1]
            return
    pytest.fail("no tie found")


def test_turn_structure_basic_five_turns_each():
    st = GAME.setup(2, "basic", 4, dict(FIXED))
    plays = {0: 0, 1: 0}
    rng = random.Random(0)
    while st["phase"] == "operations":
        seat = GAME.to_act(st)[0]
        hand_before = len(st["hands"][seat])
        st, _ = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
        plays[seat] += 1
        assert hand_before >= 1
    assert plays == {0: 10, 1: 10}
    assert GAME.outcome(st) is not None


def test_noise_variant_is_the_normal_game_with_a_d10_after_every_turn():
    # the rulebook's general rule (§3.4.3): 5 turns each, draw 2 / play 2, d10 after each turn
    st = GAME.setup(2, "noise", 4, dict(FIXED))
    assert st["turns_per_side"] == 5 and not st["noise_exercise"]
    assert len(st["hands"][0]) == 6  # drew 2 at the start of the first turn
    seen_noise = 0
    rng = random.Random(1)
    while st["phase"] == "operations":
        seat = GAME.to_act(st)[0]
        turn = st["turn"]["index"]
        st, events = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
        noise = [e for e in events if e["type"] == "noise"]
        seen_noise += len(noise)
        for e in noise:
            assert 1 <= e["d10"] <= 10 and "d10" in e["text"]
        draws = [e for e in events if e["type"] == "draw"]
        assert all(e["reason"] == "turn" for e in draws)     # no draw after the roll
        if noise and st["phase"] == "operations":
            assert st["turn"]["index"] == turn + 1
            assert len(st["hands"][st["turn"]["side"]]) >= 4
    assert seen_noise == 10


def test_noise_exercise_option_keeps_the_exercise_structure():
    st = GAME.setup(2, "noise", 4, {**FIXED, "noise_exercise": True})
    assert st["turns_per_side"] == 4
    assert len(st["hands"][0]) == 4  # noise: no draw at the start of a turn
    seen_noise = 0
    rng = random.Random(1)
    while st["phase"] == "operations":
        seat = GAME.to_act(st)[0]
        st, events = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
        noise = [e for e in events if e["type"] == "noise"]
        seen_noise += len(noise)
        for e in noise:
            assert 1 <= e["d10"] <= 10 and "d10" in e["text"]
        if noise and st["phase"] == "operations":
            assert len(st["hands"][seat]) == 4  # played 2, drew 2 after the roll
    assert seen_noise == 8


def test_noise_exercise_option_is_checked():
    for bad in ({"noise_exercise": 1}, {"noise_exercise": "yes"}):
        with pytest.raises(IllegalAction):
            GAME.setup(2, "noise", 4, {**FIXED, **bad})
    with pytest.raises(IllegalAction):
        GAME.setup(2, "basic", 4, {**FIXED, "noise_exercise": True})


def test_teams_seats_and_to_act():
    st = GAME.setup(5, "basic", 2, dict(FIXED))
    assert GAME.to_act(st) == [0, 2, 4]
    v = GAME.view(st, 3)
    assert v["side"] == 1 and v["hand"] == st["hands"][1]
    action = GAME.legal_actions(st, 2)[0]
    st2, _ = GAME.apply(st, 4, action)  # any seat of the side may act
    assert st2["turn"]["plays_left"] == 1
    with pytest.raises(IllegalAction):
        GAME.apply(st, 1, action)


def test_discard_only_without_legal_target():
    spec = [None, None] + ["W"] * 7
    st = GAME.setup(2, "basic", 1, {"board": spec, "pairs": [{"squares": [1, 2], "state": "phi+"}],
                                    "hands": [["X", "X", "X", "X"], ["X"] * 4],
                                    "deck": ["CX"] * 30, **FIXED})
    st, _ = GAME.apply(st, 0, {"card": "X", "squares": [3]})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, 0, {"card": "CX", "discard": True})
    assert err.value.code == "has_target"
    # board of pairs everywhere but one: CX has no target when all are U-decorated
    spec = ["U:W"] * 9
    st = GAME.setup(2, "advanced", 1, {"board": spec, "hands": [["CX", "I", "X", "X"], ["X"] * 4],
                                       "deck": ["X"] * 30, **FIXED})
    legal = GAME.legal_actions(st, 0)
    assert {"card": "CX", "discard": True} in legal
    assert not any(a.get("card") == "CX" and "squares" in a for a in legal)
    st2, ev = GAME.apply(st, 0, {"card": "CX", "discard": True})
    assert "CX" not in st2["hands"][0]


def test_legal_actions_are_exactly_the_applicable_ones():
    st = GAME.setup(2, "advanced", 11, dict(FIXED))
    legal = GAME.legal_actions(st, 0)
    for a in legal:
        GAME.apply(st, 0, a)
    hand = st["hands"][0]
    for card in set(hand) - {"I", "CX"}:
        for s in range(1, 10):
            a = {"card": card, "squares": [s]}
            try:
                GAME.apply(st, 0, a)
                assert a in legal
            except IllegalAction:
                assert a not in legal


def test_views_hide_other_hands_and_deck():
    st = GAME.setup(3, "basic", 9, {})
    for seat in (0, 1, 2, None):
        v = GAME.view(st, seat)
        text = json.dumps(v)
        assert "deck" not in v or not isinstance(v.get("deck"), list)
        assert v["deck_size"] == len(st["deck"])
        if seat is None:
            assert v["hand"] is None
        else:
            assert v["hand"] == st["hands"][seat % 2]
        assert v["hand_sizes"] == [4, 4]
        assert "hands" not in v and "seed" not in text


def test_events_never_name_drawn_or_mulligan_cards():
    st = GAME.setup(2, "basic", 9, {"first_seat": 1, "colors": ["white", "black"]})
    st, ev = GAME.apply(st, 0, {"mulligan": [0, 1, 2, 3]})
    for e in ev:
        assert "card" not in e and "cards" not in e


def test_outcome_format():
    st = play_random(GAME.setup(2, "basic", 8, dict(FIXED)), 8)
    out = GAME.outcome(st)
    assert set(out) >= {"scores", "winners", "lines", "final_board"}
    assert out["scores"] == [out["lines"]["white"], out["lines"]["black"]]
    if out["scores"][0] > out["scores"][1]:
        assert out["winners"] == [0]
    elif out["scores"][0] < out["scores"][1]:
        assert out["winners"] == [1]
    else:
        assert out["winners"] == [] and out["tie"]
    assert len(out["final_board"]) == 9
    assert GAME.outcome(GAME.setup(2, "basic", 8, {})) is None


def test_eve_flow_and_scoring():
    st = GAME.setup(3, "eve", 2, {"skip_mulligan": True})
    assert st["colors"] == ["white", "black", "white"]
    assert GAME.to_act(st) == [0]  # Alice first
    assert len(st["hands"][0]) == 5  # drew 1
    st, _ = GAME.apply(st, 0, GAME.legal_actions(st, 0)[0])
    assert GAME.to_act(st) == [1]  # then Eve
    assert len(st["hands"][1]) == 6  # Eve drew 2
    legal = GAME.legal_actions(st, 1)
    measures = [a for a in legal if "eve_measure" in a]
    assert measures
    st2, ev = GAME.apply(st, 1, measures[0])
    assert ev[0]["type"] == "eve_measure"
    assert ("on the d100" in ev[0]["text"]) == (ev[0]["d100"] is not None)
    assert len(st2["hands"][1]) == 4 and st2["eve_measure_used"]
    assert GAME.to_act(st2) == [2]  # Bob next; Eve's turn is over
    # once per set
    st3 = play_random(st2, 3)
    assert max(st3["scores"]) >= 3
    out = GAME.outcome(st3)
    assert out["winners"] in ([0, 2], [1])


def test_eve_points():
    from games.engines.qtris.scoring import eve_points
    assert eve_points(3) == (2, 0)
    assert eve_points(2) == (1, 0)
    assert eve_points(1) == (0, 1)
    assert eve_points(0) == (0, 1)


def test_eve_mulligan_draws_one_less():
    st = GAME.setup(3, "eve", 2, {})
    assert st["phase"] == "mulligan"
    st, _ = GAME.apply(st, 0, {"mulligan": [0, 1, 2]})
    assert len(st["hands"][0]) == 3


def test_eve_measure_collapses_seen_outcome():
    spec = ["R"] * 9
    st = GAME.setup(3, "eve", 2, {"board": spec, "skip_mulligan": True,
                                  "hands": [["I"] * 4, ["X", "X", "H", "H"], ["I"] * 4],
                                  "deck": ["I"] * 40})
    st, _ = GAME.apply(st, 0, {"card": "I"})
    st, ev = GAME.apply(st, 1, {"eve_measure": {"squares": [5], "basis": "left-right"},
                                "discard": ["X", "H"]})
    comp = [c for c in st["board"] if c["squares"] == [5]][0]
    assert comp["members"] == [{"tile": "R", "weight": "1"}]  # R measured in left-right: R
    st4 = GAME.setup(3, "eve", 3, {"board": spec, "skip_mulligan": True,
                                   "hands": [["I"] * 4, ["X", "X", "H", "H"], ["I"] * 4],
                                   "deck": ["I"] * 40})
    st4, _ = GAME.apply(st4, 0, {"card": "I"})
    st4, ev = GAME.apply(st4, 1, {"eve_measure": {"squares": [5], "basis": "color"},
                                  "discard": ["X", "X"]})
    comp = [c for c in st4["board"] if c["squares"] == [5]][0]
    assert comp["members"][0]["tile"] == ev[0]["result"][0] and len(comp["members"]) == 1

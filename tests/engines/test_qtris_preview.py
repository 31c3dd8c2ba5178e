"""QTris previews: the card's quantum effect only — no chance, no state change, nothing hidden."""
from __future__ import annotations

import copy
import json

import pytest

from games.engines.base import IllegalAction
from games.engines.qtris import GAME

OPTIONS = {
    "board": ["W", "B", "R", "L", ["W", "R"], "U:W", "W", None, None],
    "pairs": [{"squares": [8, 9], "state": "phi+"}],
    "hands": [["U", "CX", "X", "H"], ["Z", "Y", "I", "X"]],
    "deck": ["H", "I"] * 12,
    "first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True,
}


@pytest.fixture
def state():
    return GAME.setup(players=2, variant="advanced", seed=7, options=copy.deepcopy(OPTIONS))


def test_legal_preview_gives_board_odds_delta_and_explanation(state):
    r = GAME.preview(state, 0, {"card": "U", "squares": [5]})
    sq5 = r["board"]["squares"][4]
    assert {m["decoration"] for m in sq5["members"]} == {"U"}
    assert {m["weight"] for m in sq5["members"]} == {"1/2"}
    # book exercise 3.4.4: U on {W, R} gives P(white) ½(¼ + (2+√3)/4)
    assert r["analysis"]["p_white"][4] == pytest.approx(0.5 * (0.25 + (2 + 3 ** 0.5) / 4))
    assert r["delta"]["p_white"][4] == pytest.approx(r["analysis"]["p_white"][4] - 0.75)
    assert set(r["analysis"]) >= {"p_white", "expected_qtris", "p_win", "expected_scores", "p_win_sides"}
    ex = r["explain"]
    assert ex["gate"] == "U" and ex["matrix"] == [["1/2", "√3/2"], ["√3/2", "−1/2"]]
    assert "U|0⟩" in ex["after"] and "|0⟩" in ex["before"]
    assert "pink" in ex["text"]
    json.dumps(r)  # JSON-able


def test_frame_rule_and_cx_pair_preview(state):
    r = GAME.preview(state, 0, {"card": "X", "squares": [6]})
    assert r["explain"]["frame"] is True
    assert r["board"]["squares"][5]["members"][0] == {**r["board"]["squares"][5]["members"][0],
                                                     "code": "B", "decoration": "U"}
    r = GAME.preview(state, 0, {"card": "CX", "squares": [3, 7]})
    assert r["board"]["squares"][2]["partner"] == 7
    assert r["board"]["squares"][2]["members"][0]["code"] == "phi+"
    assert len(r["explain"]["matrix"]) == 4


def test_illegal_previews_say_why(state):
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(state, 0, {"card": "CX", "squares": [6, 1]})
    assert exc.value.code == "decorated_cx" and "undecorated" in exc.value.message
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(state, 0, {"card": "CX", "squares": [8, 1]})
    assert exc.value.code == "pair_cx" and "pair" in exc.value.message
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(state, 0, {"card": "Z", "squares": [1]})  # Z is in Bob's hand, not Alice's
    assert exc.value.code == "not_in_hand"
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(state, 1, {"card": "Z", "squares": [1]})  # not Bob's turn
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(state, 0, {"card": "X", "squares": [10]})
    assert exc.value.code == "bad_squares"
    with pytest.raises(IllegalAction):
        GAME.preview(state, 0, {"card": "S", "squares": [3]})  # no S card in the advanced deck


def test_preview_changes_nothing_and_holds_no_hidden_information(state):
    before = copy.deepcopy(state)
    results = [GAME.preview(state, 0, a) for a in GAME.legal_actions(state, 0)
               if "squares" in a or a.get("card") == "I"]
    assert results and state == before
    for r in results:
        text = json.dumps(r)
        for key in ("deck", "hands", "hand", "seed", "discard_pile", "hidden_discards"):
            assert f'"{key}"' not in text
    # the preview equals what apply does to the board — and apply is where chance lives
    after, _ = GAME.apply(state, 0, {"card": "U", "squares": [5]})
    assert GAME.preview(state, 0, {"card": "U", "squares": [5]})["board"]["components"] == after["board"]


def test_preview_is_refused_outside_card_plays():
    st = GAME.setup(players=2, variant="advanced", seed=3)  # roll phase
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(st, 0, {"roll": True})
    assert exc.value.code == "no_preview"
    eve = GAME.setup(players=3, variant="eve", seed=3, options={"skip_mulligan": True})
    with pytest.raises(IllegalAction):
        GAME.preview(eve, 0, {"eve_measure": {"squares": [1], "basis": "color"}, "discard": ["X", "H"]})


def test_noise_preview_rolls_no_die():
    opts = {**copy.deepcopy(OPTIONS), "hands": [["U", "CX", "X", "H"], ["Z", "Y", "I", "X"]]}
    st = GAME.setup(players=2, variant="noise", seed=11, options=opts)
    st["turn"]["plays_left"] = 1  # the next play would end the turn (and roll the noise d10)
    r = GAME.preview(st, 0, {"card": "H", "squares": [1]})
    assert r["board"]["squares"][0]["members"][0]["code"] == "R"
    assert "noise" not in json.dumps(r) and "d10" not in json.dumps(r)


def test_play_events_carry_the_explanation(state):
    _, events = GAME.apply(state, 0, {"card": "H", "squares": [1]})
    play = [e for e in events if e["type"] == "play"][0]
    assert play["explain"]["gate"] == "H"
    assert play["explain"]["before"] == "square 1: |0⟩"
    assert "square 1" in play["explain"]["after"]


def test_analysis_is_public():
    a = GAME.abilities
    assert a.preview and a.live_odds and not a.teacher_only_analysis_keys
    assert set(GAME.analysis(GAME.setup(seed=3))) <= set(a.public_analysis_keys)

"""Quantum tic-tac-toe engine: every rule of docs/rules/quantum-tictactoe.md, its worked
examples, random playouts and a fuzz test."""
from __future__ import annotations

import json
import random

import pytest

from games.engines import IllegalAction, get_game
from games.engines.quantum_tictactoe import GAME, actions_from_history, find_lines, score_lines

G = GAME


# --- helpers ---------------------------------------------------------------------------------

def act(state, action):
    seat = G.to_act(state)[0]
    return G.apply(state, seat, action)


def play(*moves, state=None):
    """Play moves given as square pairs (tuples) or collapse squares (ints)."""
    state = state or G.setup()
    for item in moves:
        action = {"collapse": item} if isinstance(item, int) else {"squares": list(item)}
        state, _ = act(state, action)
    return state


def play_history(history, seed=0):
    state = G.setup(seed=seed)
    for seat, action in actions_from_history(history):
        state, _ = G.apply(state, seat, action)
    return state


def board(state):
    """{square: "X3"} for the classical squares."""
    return {k: f"{m['player']}{m['move']}" for k, m in enumerate(state["classical"], 1) if m}


def candidates():
    """Every action shape a client could plausibly send, legal or not."""
    out = [{"squares": [a, b]} for a in range(1, 10) for b in range(1, 10)]
    return out + [{"collapse": s} for s in range(1, 10)]


def accepted(state, seat):
    ok = []
    for action in candidates():
        try:
            G.apply(state, seat, action)
        except IllegalAction:
            continue
        ok.append(action)
    return ok


def normal(action):
    if "squares" in action:
        return ("squares", tuple(sorted(action["squares"])))
    return ("collapse", action["collapse"])


def random_game(seed):
    rng = random.Random(seed)
    state = G.setup(seed=seed)
    log, states = [], [state]
    while G.to_act(state):
        seat = G.to_act(state)[0]
        action = rng.choice(G.legal_actions(state, seat))
        if rng.random() < 0.5 and "squares" in action:
            action = {"squares": action["squares"][::-1]}     # [b, a] is accepted too
        state, _ = G.apply(state, seat, action)
        log.append((seat, action))
        states.append(state)
    return log, states


# --- setup and protocol ------------------------------------------------------------------

def test_registry_and_metadata():
    assert get_game("quantum-tictactoe") is G
    assert (G.slug, G.name, G.min_players, G.max_players, G.variants) == (
        "quantum-tictactoe", "Quantum tic-tac-toe", 2, 2, ("basic",))


def test_setup_is_plain_json_and_x_moves_first():
    state = G.setup(players=2, variant="basic", seed=0, options={})
    assert json.loads(json.dumps(state)) == state
    assert G.to_act(state) == [0]
    assert G.view(state, 0)["move_number"] == 1
    assert G.outcome(state) is None
    assert G.circuit(state) is None
    assert len(G.legal_actions(state, 0)) == 36
    assert G.legal_actions(state, 1) == []


@pytest.mark.parametrize("kwargs, code", [
    ({"players": 3}, "bad_players"), ({"players": 1}, "bad_players"),
    ({"variant": "misere"}, "bad_variant"), ({"options": {"board": 4}}, "bad_option"),
])
def test_setup_rejects_bad_arguments(kwargs, code):
    with pytest.raises(IllegalAction) as err:
        G.setup(**kwargs)
    assert err.value.code == code and err.value.message


# --- moves ------------------------------------------------------------------------------

def test_moves_are_numbered_over_the_whole_game_x_odd_o_even():
    state = play((1, 2), (3, 4), (5, 6), (7, 8))
    assert [(e["move"], e["player"]) for e in state["entanglements"]] == [
        (1, "X"), (2, "O"), (3, "X"), (4, "O")]
    assert state["history"] == ["X1+(1,2)", "O2+(3,4)", "X3+(5,6)", "O4+(7,8)"]
    assert G.view(state, None)["move_number"] == 5
    assert G.to_act(state) == [0]
    _, events = act(state, {"squares": [9, 1]})
    assert events == [{"type": "move", "seat": 0, "player": "X", "move": 5,
                       "squares": [1, 9], "code": "move",
                       "params": {"mark": "X5", "a": 1, "b": 9}, "text": "X5 on 1 and 9"}]


def test_spooky_move_order_is_normalised():
    a, _ = G.apply(G.setup(), 0, {"squares": [8, 4]})
    b, _ = G.apply(G.setup(), 0, {"squares": [4, 8]})
    assert a == b and a["entanglements"][0]["squares"] == [4, 8]


def test_the_two_marks_go_into_different_squares():
    with pytest.raises(IllegalAction) as err:
        G.apply(G.setup(), 0, {"squares": [5, 5]})
    assert err.value.code == "same_square"


def test_wrong_seat_is_not_your_turn():
    state = G.setup()
    for seat in (1, True, None, "0", 2, -1):
        with pytest.raises(IllegalAction) as err:
            G.apply(state, seat, {"squares": [1, 2]})
        assert err.value.code == "not_your_turn"


# --- cycles and collapse -----------------------------------------------------------------

def test_a_chain_is_not_a_cycle():
    state = play((1, 2), (2, 3), (3, 4), (4, 5))
    assert G.view(state, None)["phase"] == "move" and state["collapse"] is None


def test_two_moves_on_the_same_squares_make_a_two_cycle():
    state, events = act(play((1, 2)), {"squares": [1, 2]})
    assert G.view(state, None)["phase"] == "collapse"
    cycle = [e for e in events if e["type"] == "cycle"][0]
    assert cycle["squares"] == [1, 2] and cycle["moves"] == [1, 2] and cycle["chooser"] == 0


def test_cycle_detected_when_a_move_joins_two_connected_squares():
    state, events = act(play((1, 4), (4, 8)), {"squares": [8, 1]})
    assert state["collapse"]["cycle"] == [1, 4, 8]
    assert state["collapse"]["cycle_moves"] == [1, 2, 3]
    assert [e["type"] for e in events] == ["move", "cycle"]


@pytest.mark.parametrize("moves, closer", [
    ([(1, 2), (1, 2)], 1),                  # O closes: X chooses
    ([(1, 2), (2, 3), (1, 3)], 0),          # X closes: O chooses
])
def test_the_player_who_did_not_close_the_cycle_chooses(moves, closer):
    state = play(*moves)
    chooser = 1 - closer
    assert G.to_act(state) == [chooser]
    a, b = state["entanglements"][-1]["squares"]
    assert G.legal_actions(state, chooser) == [{"collapse": a}, {"collapse": b}]
    assert G.legal_actions(state, closer) == []
    with pytest.raises(IllegalAction) as err:
        G.apply(state, closer, {"collapse": a})
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        G.apply(state, chooser, {"squares": [5, 6]})
    assert err.value.code == "collapse_pending"
    other = next(s for s in range(1, 10) if s not in (a, b))
    with pytest.raises(IllegalAction) as err:
        G.apply(state, chooser, {"collapse": other})
    assert err.value.code == "bad_collapse"


def test_collapse_only_during_a_pending_cycle():
    with pytest.raises(IllegalAction) as err:
        G.apply(G.setup(), 0, {"collapse": 1})
    assert err.value.code == "no_collapse"


def test_every_cycle_has_exactly_two_different_outcomes():
    seen = 0
    for seed in range(60):
        _, states = random_game(seed)
        for state in states:
            if state["collapse"]:
                seen += 1
                chooser = G.to_act(state)[0]
                outs = [G.apply(state, chooser, a)[0] for a in G.legal_actions(state, chooser)]
                assert len(outs) == 2 and outs[0]["classical"] != outs[1]["classical"]
                # every move of the measured group is resolved either way, the same ones
                assert [e["move"] for e in outs[0]["entanglements"]] == \
                    [e["move"] for e in outs[1]["entanglements"]]
    assert seen > 50


def test_source_example_cascades_through_the_chain_hanging_off_the_cycle():
    # X1 on 1-4, O2 on 1-5 (the chain), X3 on 4-8, O4 on 8-1 closes 1-4-8: X measures.
    state = play((1, 4), (1, 5), (4, 8), (8, 1))
    assert G.to_act(state) == [0]
    first, events = G.apply(state, 0, {"collapse": 8})      # X1->1, O4->8, X3->4
    assert board(first) == {1: "X1", 4: "X3", 8: "O4", 5: "O2"}
    placed = events[0]["placed"]
    assert placed[0] == {"square": 8, "player": "O", "move": 4}
    assert {(m["square"], m["move"]) for m in placed} == {(8, 4), (1, 1), (4, 3), (5, 2)}
    # cascade order: O4 in 8 forces X3 to 4, which forces X1 to 1, which forces O2 to 5
    assert [m["square"] for m in placed] == [8, 4, 1, 5]
    second, _ = G.apply(state, 0, {"collapse": 1})          # X1->4, X3->8, O4->1
    assert board(second) == {4: "X1", 8: "X3", 1: "O4", 5: "O2"}
    assert G.view(state, 0)["collapse"]["previews"] == {
        "8": events[0]["placed"], "1": G.apply(state, 0, {"collapse": 1})[1][0]["placed"]}


def test_classical_squares_take_no_more_marks():
    state = play((1, 2), (1, 2), 1)           # X chooses O2 -> 1, X1 -> 2
    assert board(state) == {1: "O2", 2: "X1"}
    for action in G.legal_actions(state, 0):
        assert not {1, 2} & set(action["squares"])
    for squares in ([1, 3], [3, 2], [2, 1]):
        with pytest.raises(IllegalAction) as err:
            G.apply(state, 0, {"squares": squares})
        assert err.value.code in ("classical_square", "same_square")
    assert len(G.legal_actions(state, 0)) == 21       # pairs of the 7 open squares


def test_unrelated_entanglements_survive_a_collapse():
    state = play((1, 2), (5, 6), (1, 2), 2)   # O2 stays spooky on 5-6
    assert board(state) == {1: "X1", 2: "X3"}
    assert [e["move"] for e in state["entanglements"]] == [2]
    assert G.to_act(state) == [1]                       # O makes move 4


# --- worked examples from the rules ------------------------------------------------------

def test_table_row_1_o2_lands_on_5():
    state = play((1, 2), (2, 5), (1, 5))
    assert G.to_act(state) == [1]
    state, _ = G.apply(state, 1, {"collapse": 1})     # X3 -> 1 is the outcome O2 -> 5
    assert board(state) == {2: "X1", 5: "O2", 1: "X3"}
    assert G.outcome(state) is None and G.to_act(state) == [1]


def test_table_row_2_x1_lands_on_3():
    state = play((3, 5), (5, 7), (5, 9), (1, 5), (3, 6), (6, 9))
    assert G.to_act(state) == [0]
    state, _ = G.apply(state, 0, {"collapse": 9})     # O6 -> 9 is the outcome X1 -> 3
    assert board(state) == {3: "X1", 7: "O2", 5: "X3", 1: "O4", 6: "X5", 9: "O6"}
    assert G.outcome(state) is None


@pytest.mark.parametrize("square", [3, 1])
def test_table_row_3_x_wins_1_0(square):
    state = play((1, 2), (4, 5), (2, 3), (5, 6), (1, 3))
    state, events = G.apply(state, 1, {"collapse": square})   # 3 is "X1 -> 1"
    assert G.outcome(state)["scores"] == [1, 0]
    assert G.outcome(state)["winners"] == [0]
    assert [e["type"] for e in events] == ["collapse", "line", "game_over"]


@pytest.mark.parametrize("square", [1, 2])
def test_table_row_4_two_cycle_either_way(square):
    state = play((1, 2), (2, 3), (1, 2))
    state, _ = G.apply(state, 1, {"collapse": square})
    assert {k: v[0] for k, v in board(state).items()} == {1: "X", 2: "X", 3: "O"}
    assert board(state)[3] == "O2"


# --- lines and scoring -------------------------------------------------------------------

def _classical(marks):
    cells = [None] * 9
    for square, move in marks.items():
        cells[square - 1] = {"player": "X" if move % 2 else "O", "move": move}
    return cells


def test_line_time_is_the_highest_move_and_earliest_scores_one():
    lines = find_lines(_classical({1: 1, 4: 3, 7: 7, 3: 2, 6: 4, 9: 6, 2: 5, 5: 8, 8: 9}))
    assert [(line["player"], line["time"], line["points"]) for line in lines] == [
        ("O", 6, 1), ("X", 7, 0.5)]
    assert score_lines(lines) == [0.5, 1]


def test_scoring_examples():
    # one player, two lines at different times: 1 + 1/2
    lines = find_lines(_classical({1: 1, 2: 3, 3: 5, 4: 7, 7: 9, 5: 2, 6: 4, 8: 6, 9: 8}))
    assert score_lines(lines) == [1.5, 0]
    # two lines sharing the mark that completed both: 2
    lines = find_lines(_classical({1: 1, 2: 3, 3: 9, 6: 5, 9: 7, 4: 2, 5: 4, 7: 6, 8: 8}))
    assert score_lines(lines) == [2, 0]
    assert score_lines([]) == [0, 0]


@pytest.mark.parametrize("history, scores, winners", [
    (["X1+(3,5)", "O2+(3,4)", "X3+(1,3)", "O4+(4,9)", "X5+(3,9)", "O@X5(9)"], [1, 0], [0]),
    (["X1+(1,4)", "O2+(5,6)", "X3+(6,7)", "O4+(6,9)", "X5+(1,6)", "O6+(1,4)", "X@O6(1)"],
     [0, 1], [1]),
    (["X1+(1,9)", "O2+(1,4)", "X3+(3,5)", "O4+(5,6)", "X5+(2,4)", "O6+(4,6)", "X7+(1,9)",
      "O@X7(1)"], [0.5, 1], [1]),
    (["X1+(2,7)", "O2+(4,8)", "X3+(2,5)", "O4+(1,7)", "X5+(2,8)", "O6+(7,8)", "X@O6(7)"],
     [1, 0.5], [0]),
    (["X1+(7,8)", "O2+(4,7)", "X3+(5,9)", "O4+(6,9)", "X5+(8,9)", "O6+(1,5)", "X7+(2,5)",
      "O8+(3,8)", "X9+(8,9)", "O@X9(9)"], [1.5, 0], [0]),
    (["X1+(2,5)", "O2+(2,6)", "X3+(3,4)", "O4+(5,9)", "X5+(1,8)", "O6+(1,2)", "X7+(2,7)",
      "O8+(4,7)", "X9+(2,5)", "O@X9(5)"], [2, 0], [0]),
    (["X1+(1,3)", "O2+(3,4)", "X3+(3,5)", "O4+(2,8)", "X5+(2,6)", "O6+(3,7)", "X7+(2,4)",
      "O8+(7,9)", "X9+(2,7)", "O@X9(7)"], [0, 0], []),
])
def test_games_score_per_the_rules(history, scores, winners):
    state = play_history(history)
    outcome = G.outcome(state)
    assert outcome["scores"] == scores and outcome["winners"] == winners
    assert G.to_act(state) == [] and G.view(state, None)["phase"] == "over"
    assert state["history"] == history
    if scores == [0, 0]:
        assert all(state["classical"]) and outcome["lines"] == []


def test_both_players_at_once_the_earlier_line_scores_one():
    state = play_history(["X1+(1,9)", "O2+(1,4)", "X3+(3,5)", "O4+(5,6)", "X5+(2,4)",
                          "O6+(4,6)", "X7+(1,9)", "O@X7(1)"])
    lines = G.outcome(state)["lines"]
    assert [(x["player"], x["time"], x["points"]) for x in lines] == [("O", 6, 1), ("X", 7, 0.5)]


def test_the_game_ends_as_soon_as_there_is_a_line():
    state = play_history(["X1+(3,5)", "O2+(3,4)", "X3+(1,3)", "O4+(4,9)", "X5+(3,9)"])
    state, events = G.apply(state, 1, {"collapse": 9})
    assert len(G.open_squares(state)) == 4               # squares left, yet it is over
    assert G.outcome(state)["reason"] == "line for X"
    assert G.to_act(state) == [] and G.legal_actions(state, 0) == G.legal_actions(state, 1) == []
    for seat in (0, 1):
        with pytest.raises(IllegalAction) as err:
            G.apply(state, seat, {"squares": [2, 6]})
        assert err.value.code == "game_over"
    assert events[-1]["type"] == "game_over" and events[-1]["scores"] == [1, 0]


# --- move 9 ------------------------------------------------------------------------------

MOVE9_DRAW = ["X1+(2,3)", "O2+(8,9)", "X3+(1,8)", "O4+(3,9)", "X5+(1,4)", "O6+(5,6)",
              "X7+(1,6)", "O8+(4,8)", "X@O8(4)"]
MOVE9_TWO_LINES = ["X1+(6,9)", "O2+(4,6)", "X3+(1,2)", "O4+(2,4)", "X5+(6,7)", "O6+(6,8)",
                   "X7+(1,3)", "O8+(1,4)", "X@O8(4)"]


def test_move_9_puts_both_marks_into_the_last_square():
    state = play_history(MOVE9_DRAW)
    assert len(G.open_squares(state)) == 1 and G.to_act(state) == [0]
    assert G.legal_actions(state, 0) == [{"squares": [7, 7]}]
    assert G.view(state, None)["last_square"] == 7
    for squares in ([7, 8], [1, 7], [6, 6]):
        with pytest.raises(IllegalAction) as err:
            G.apply(state, 0, {"squares": squares})
        assert err.value.code in ("last_square", "bad_action")
    state, events = G.apply(state, 0, {"squares": [7, 7]})
    assert state["classical"][6] == {"player": "X", "move": 9}
    assert state["history"][-1] == "X9+(7,7)"
    assert G.outcome(state) == {"scores": [0, 0], "winners": [], "lines": [],
                                "reason": "board full without a line: draw"}
    assert events[-1]["type"] == "game_over"


def test_move_9_can_complete_lines():
    state = play_history(MOVE9_TWO_LINES)
    state, _ = G.apply(state, 0, {"squares": [5, 5]})
    outcome = G.outcome(state)
    assert outcome["scores"] == [2, 0]
    assert sorted(x["squares"] for x in outcome["lines"]) == [[1, 5, 9], [3, 5, 7]]


def test_a_square_holds_at_most_eight_spooky_marks():
    state = play(*[(5, s) for s in (1, 2, 3, 4, 6, 7, 8, 9)])   # a star: no cycle
    assert len(G.spooky_marks(state, 5)) == 8 and G.to_act(state) == [0]
    legal = G.legal_actions(state, 0)
    assert len(legal) == 28 and all(5 not in a["squares"] for a in legal)
    with pytest.raises(IllegalAction) as err:
        G.apply(state, 0, {"squares": [5, 1]})
    assert err.value.code == "square_full"
    state, _ = G.apply(state, 0, {"squares": [1, 2]})           # move 9 closes 1-5-2
    chooser = G.to_act(state)[0]
    state, _ = G.apply(state, chooser, G.legal_actions(state, chooser)[0])
    assert G.outcome(state) is not None and all(state["classical"])


def test_a_game_lasts_at_most_nine_moves():
    for seed in range(100):
        _, states = random_game(seed)
        assert len([h for h in states[-1]["history"] if "+" in h]) <= 9


# --- legal actions = accepted actions ----------------------------------------------------

def test_legal_actions_are_exactly_what_apply_accepts():
    for seed in range(12):
        _, states = random_game(seed)
        for state in states:
            for seat in (0, 1):
                legal = {normal(a) for a in G.legal_actions(state, seat)}
                assert legal == {normal(a) for a in accepted(state, seat)}
                for action in G.legal_actions(state, seat):
                    if "squares" in action:
                        a, b = action["squares"]
                        assert a < b or (a == b and G.last_square(state) == a)


# --- view, analysis, notation ------------------------------------------------------------

def test_view_is_public_and_complete():
    state = play((1, 4), (1, 5), (4, 8), (8, 1))
    view = G.view(state, 0)
    assert view == G.view(state, 1) == G.view(state, None)
    assert json.loads(json.dumps(view)) == view
    assert view["phase"] == "collapse" and view["to_act"] == [0]
    assert view["board"][0] == {"square": 1, "classical": None, "spooky": [
        {"player": "X", "move": 1}, {"player": "O", "move": 2}, {"player": "O", "move": 4}]}
    assert view["entanglements"][1] == {"move": 2, "player": "O", "squares": [1, 5]}
    assert view["collapse"]["squares"] == [1, 8] and view["collapse"]["chooser"] == 0
    assert view["collapse"]["cycle"] == [1, 4, 8]
    assert set(view["collapse"]["previews"]) == {"1", "8"}
    assert view["history"] == ["X1+(1,4)", "O2+(1,5)", "X3+(4,8)", "O4+(1,8)"]
    assert view["scores"] is None and view["lines"] == []


def test_analysis_reports_components_cycle_and_both_outcomes():
    # X1 2-3 and X5 6-7 are separate groups; O2 1-4, O4 4-8, O6 8-1 is the cycle;
    # X3 1-5 is a chain hanging off it.
    state = play((2, 3), (1, 4), (1, 5), (4, 8), (6, 7), (8, 1))
    assert G.to_act(state) == [0]
    facts = G.analysis(state)
    assert json.loads(json.dumps(facts)) == facts
    assert facts["cycles"] and facts["cycles"][0]["squares"] == state["collapse"]["cycle"]
    groups = {tuple(c["squares"]): c["has_cycle"] for c in facts["components"]}
    assert groups[(2, 3)] is False and groups[(6, 7)] is False
    assert groups[(1, 4, 5, 8)] is True
    outs = facts["collapse"]["outcomes"]
    assert set(outs) == {"1", "8"}
    common = facts["collapse"]["common"]
    assert {"square": 5, "player": "X", "move": 3} in common      # the chain: X3 on 1-5
    square5 = facts["squares"][4]
    assert square5["could_hold"] == [{"player": "X", "move": 3}]  # forced either way
    square2 = facts["squares"][1]
    assert square2["could_hold"] == square2["spooky"] == [{"player": "X", "move": 1}]


def test_history_notation_replays_the_game():
    for seed in range(30):
        log, states = random_game(seed)
        final = states[-1]
        rebuilt = play_history(final["history"], seed=seed)
        assert rebuilt == final
        assert len(actions_from_history(final["history"])) == len(log)
    with pytest.raises(ValueError):
        actions_from_history(["X1 (1,2)"])


# --- random playouts and fuzz ------------------------------------------------------------

def test_random_playouts_hold_the_invariants():
    for seed in range(300):
        log, states = random_game(seed)
        final = states[-1]
        outcome = G.outcome(final)
        assert outcome is not None and G.to_act(final) == []
        assert outcome["scores"] == score_lines(find_lines(final["classical"]))
        high = max(outcome["scores"])
        assert outcome["winners"] == ([] if outcome["scores"][0] == outcome["scores"][1]
                                      else [outcome["scores"].index(high)])
        assert bool(outcome["lines"]) or all(final["classical"])
        for state in states[:-1]:
            assert G.outcome(state) is None
            seats = G.to_act(state)
            assert len(seats) == 1 and G.legal_actions(state, seats[0])
            assert find_lines(state["classical"]) == []
        if seed % 25 == 0:          # every non-legal candidate is refused
            for state in states:
                legal = {normal(a) for s in (0, 1) for a in G.legal_actions(state, s)}
                for seat in (0, 1):
                    for action in candidates():
                        if normal(action) in legal and seat in G.to_act(state):
                            continue
                        with pytest.raises(IllegalAction):
                            G.apply(state, seat, action)


def test_the_view_holds_the_whole_state():
    from games.engines.quantum_tictactoe import state_from_view
    for seed in range(10):
        for state in random_game(seed)[1]:
            assert state_from_view(G.view(state, None)) == {**state, "seed": 0}

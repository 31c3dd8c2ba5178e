"""Time is up (``finish``): each game ends by the rule it states (``finish_rule``), one test per
game that fails when its rule is broken. The contract itself (outcome, nobody to act, replay,
no leak) is checked for every engine in tests/test_engine_conformance.py."""
from __future__ import annotations

import random

from games.engines import get_game
from games.engines.qtris.board import p_white
from games.engines.qtris.scoring import score_of_outcome
from games.engines.quantum_tictactoe import find_lines, score_lines, winners_of


def play_random(game, state, steps: int, rng: random.Random):
    """``steps`` random legal actions (fewer if the game ends first)."""
    for _ in range(steps):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = rng.choice(to_act)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def test_qtris_measures_the_board_as_it_stands_and_scores_the_measured_board():
    game = get_game("qtris")
    for seed in range(6):
        rng = random.Random(seed)
        state = game.setup(players=2, seed=seed, options={"skip_mulligan": True, "first_seat": 0,
                                                          "colors": ["white", "black"]})
        state = play_random(game, state, rng.randrange(1, 8), rng)
        if game.outcome(state) is not None:
            continue
        certain = {i: p for i, p in enumerate(p_white(state["board"])) if p in (0.0, 1.0)}
        finished, events = game.finish(state)
        bits = finished["final_board"]
        for i, p in certain.items():  # a square that is surely white (black) is measured so
            assert bits[i] == (0 if p == 1.0 else 1)
        lines = score_of_outcome(bits)
        outcome = game.outcome(finished)
        assert outcome["scores"] == [lines["white"], lines["black"]]
        assert outcome["winners"] == ([] if lines["white"] == lines["black"] else
                                      [0] if lines["white"] > lines["black"] else [1])
        assert [e["code"] for e in events][:1] == ["time_up"]


def test_qtris_before_the_colours_a_seeded_coin_gives_them():
    game = get_game("qtris")
    state = game.setup(players=2, seed=3)  # the roll for the order is still awaited
    finished, events = game.finish(state)
    assert sorted(finished["colors"]) == ["black", "white"]
    assert "time_up_colors" in [e["code"] for e in events]
    assert game.finish(state) == (finished, events)


def test_qtris_eve_ends_after_this_set_and_the_most_points_win():
    game = get_game("qtris")
    state = game.setup(players=3, variant="eve", seed=4, options={"skip_mulligan": True})
    finished, _ = game.finish(state)
    outcome = game.outcome(finished)
    ab, eve = outcome["scores"][0], outcome["scores"][1]
    assert len(finished["sets"]) == 1
    assert outcome["winning_sides"] == ([0, 2] if ab > eve else [1] if eve > ab else [])


def test_qtris_eve_ended_by_time_on_equal_points_is_a_tie():
    """Eve's first set played out, time up in the second with the points level: nobody wins."""
    game = get_game("qtris")
    ties = 0
    for seed in (6, 7, 9, 10):  # seeds whose first set and measured board leave the points level
        rng = random.Random(seed)
        state = game.setup(players=3, variant="eve", seed=seed, options={"skip_mulligan": True})
        while state["set_number"] == 1:
            seat = rng.choice(game.to_act(state))
            state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        assert game.outcome(state) is None and state["scores"] != [0, 0, 0]  # a set was scored
        finished, _ = game.finish(state)
        outcome = game.outcome(finished)
        if outcome["scores"][0] != outcome["scores"][1]:
            continue
        ties += 1
        assert outcome["tie"] and outcome["winning_sides"] == [] and outcome["winners"] == []
    assert ties >= 2


def ttt_moves(game, moves):
    state = game.setup(seed=11)
    for seat, action in moves:
        state, _ = game.apply(state, seat, action)
    return state


def test_tictactoe_a_pending_cycle_collapses_by_seeded_chance_then_the_board_is_scored():
    game = get_game("quantum-tictactoe")
    # X1 on 1-2, O2 on 1-2: a cycle; X (seat 0) would choose where O2 lands
    state = ttt_moves(game, [(0, {"squares": [1, 2]}), (1, {"squares": [1, 2]})])
    assert state["collapse"]
    finished, events = game.finish(state)
    assert finished["collapse"] is None and not finished["entanglements"]
    assert {c["player"] for c in finished["classical"] if c} == {"X", "O"}
    collapse = next(e for e in events if e["code"] == "collapse")
    assert collapse["by_chance"] and collapse["square"] in (1, 2)
    assert game.outcome(finished)["winners"] == []  # no line: a draw
    assert game.finish(state) == (finished, events)  # the same chance every time


def test_tictactoe_a_line_made_by_the_collapse_counts():
    game = get_game("quantum-tictactoe")
    seen_line = seen_draw = False
    for seed in range(400):
        rng = random.Random(seed)
        state = play_random(game, game.setup(seed=seed), rng.randrange(2, 9), rng)
        if not state["collapse"] or game.outcome(state) is not None:
            continue
        finished, _ = game.finish(state)
        scores = score_lines(find_lines(finished["classical"]))
        assert game.outcome(finished)["scores"] == scores
        assert game.outcome(finished)["winners"] == winners_of(scores)
        seen_line |= any(scores)
        seen_draw |= not any(scores)
        if seen_line and seen_draw:
            break
    assert seen_line and seen_draw


def test_poker_the_hand_in_progress_goes_to_showdown_then_the_most_chips_win():
    game = get_game("quantum-poker")
    for seed in range(5):
        rng = random.Random(seed)
        state = game.setup(players=3, seed=seed, options={"hands": 5})
        state = play_random(game, state, rng.randrange(0, 6), rng)
        if game.outcome(state) is not None:
            continue
        total = sum(state["chips"]) + state["pot"]
        hands = len(state["results"])
        finished, events = game.finish(state)
        assert len(finished["results"]) == hands + 1  # this hand was shown down, not refunded
        assert finished["pot"] == 0 and sum(finished["chips"]) == total
        chips = finished["chips"]
        assert game.outcome(finished)["winners"] == [s for s, c in enumerate(chips) if c == max(chips)]
        codes = [e["code"] for e in events]
        assert codes[0] == "time_up" and "showdown" in codes and codes[-1] == "match_end"


def test_entanglion_time_up_is_not_a_win_and_reports_the_components_found():
    game = get_game("entanglion")
    rng = random.Random(2)
    state = play_random(game, game.setup(players=2, seed=2), 12, rng)
    assert game.outcome(state) is None
    finished, events = game.finish(state)
    outcome = game.outcome(finished)
    found = sum(len(h) for h in state["held"])
    assert outcome["result"] == "time_up" and outcome["winners"] == []
    assert outcome["components"] == found and outcome["scores"] == [found, found]
    assert events[-1]["params"] == {"components": found}


def test_ticket_to_ride_time_up_scores_claimed_length_and_unfinished_missions_nothing():
    game = get_game("quantum-ticket-to-ride")
    for seed in range(4):
        rng = random.Random(seed)
        state = play_random(game, game.setup(players=3, seed=seed), rng.randrange(3, 25), rng)
        if game.outcome(state) is not None:
            continue
        finished, events = game.finish(state)
        routes = state["map"]["routes"]
        lengths = [sum(routes[r]["length"] for r, o in enumerate(state["owners"]) if o == s)
                   for s in range(3)]
        outcome = game.outcome(finished)
        assert outcome["scores"] == lengths
        assert outcome["winners"] == [s for s, v in enumerate(lengths) if v == max(lengths)]
        assert outcome["reason"] == "time_up" and outcome["completed"] == []
        assert events[-1]["code"] == "game_end_time_up"

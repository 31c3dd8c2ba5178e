"""Quantum tic-tac-toe bots: legal only, take wins, block, and the strong bot beats random.

The oracle here is the engine itself (brute force over ``apply``), not the bots' model.
"""
from __future__ import annotations

import random

import pytest

from games.bots import bot_levels, get_bot
from games.bots.quantum_tictactoe import BOTS, position_from_view, win_margin
from games.engines.quantum_tictactoe import GAME as G
from games.engines.quantum_tictactoe import actions_from_history


def play_history(history):
    state = G.setup()
    for seat, action in actions_from_history(history):
        state, _ = G.apply(state, seat, action)
    return state


def wins_now(state, seat, action):
    """Engine oracle: is ``action`` a win available this move for ``seat``? (The game is
    won at once, or the move closes a cycle and every collapse choice of the opponent
    ends the game with ``seat`` ahead.)"""
    after, _ = G.apply(state, seat, action)
    outcome = G.outcome(after)
    if outcome:
        return outcome["winners"] == [seat]
    if after["collapse"] and "squares" in action:
        chooser = G.to_act(after)[0]
        for choice in G.legal_actions(after, chooser):
            final = G.outcome(G.apply(after, chooser, choice)[0])
            if not final or final["winners"] != [seat]:
                return False
        return True
    return False


def opponent_wins_next(state, seat, action):
    after, _ = G.apply(state, seat, action)
    seats = G.to_act(after)
    if not seats or seats[0] == seat:
        return False
    return any(wins_now(after, seats[0], a) for a in G.legal_actions(after, seats[0]))


def choose(level, state, seed=0):
    seat = G.to_act(state)[0]
    return BOTS[level].choose(G.view(state, seat), G.legal_actions(state, seat),
                              random.Random(seed))


def play_game(bots, seed):
    rng = random.Random(seed)
    state = G.setup(seed=seed)
    while G.to_act(state):
        seat = G.to_act(state)[0]
        legal = G.legal_actions(state, seat)
        action = bots[seat].choose(G.view(state, seat), legal, rng)
        assert action in legal
        state, _ = G.apply(state, seat, action)
    return G.outcome(state)


# --- registry ----------------------------------------------------------------------------

def test_registry():
    levels = bot_levels("quantum-tictactoe")
    assert {"random", "strong"} <= set(levels)
    assert get_bot("quantum-tictactoe", "strong") is BOTS["strong"]
    assert all(isinstance(bot.label, str) and bot.label for bot in levels.values())


# --- immediate wins ----------------------------------------------------------------------

CHOOSER_WIN = ["X1+(1,9)", "O2+(4,7)", "X3+(6,7)", "O4+(3,4)", "X5+(4,8)", "O6+(7,9)",
               "X7+(1,8)", "O@X7(1)", "O8+(2,5)", "X9+(2,5)"]
MOVER_WIN = ["X1+(7,9)", "O2+(1,7)", "X3+(3,8)", "O4+(3,9)"]
MUST_BLOCK = ["X1+(1,4)", "O2+(3,8)", "X3+(4,7)"]


@pytest.mark.parametrize("level", ["strong", "medium"])
def test_chooser_takes_the_winning_collapse(level):
    state = play_history(CHOOSER_WIN)
    seat = G.to_act(state)[0]
    assert seat == 1 and state["collapse"]
    wins = [a for a in G.legal_actions(state, seat) if wins_now(state, seat, a)]
    assert wins == [{"collapse": 2}]                      # the other choice does not win
    for seed in range(10):
        assert choose(level, state, seed) == {"collapse": 2}


@pytest.mark.parametrize("level", ["strong", "medium"])
def test_mover_takes_a_cycle_that_wins_whatever_the_opponent_collapses(level):
    # X1 and X5 on 7-9 make a 2-cycle: either way X gets 7 and 9, O2 goes to 1, O4 to 3,
    # X3 to 8: the line 7-8-9.
    state = play_history(MOVER_WIN)
    legal = G.legal_actions(state, 0)
    wins = [a for a in legal if wins_now(state, 0, a)]
    assert wins == [{"squares": [7, 9]}] and len(legal) == 36
    for seed in range(10):
        assert choose(level, state, seed) == {"squares": [7, 9]}


def test_a_cycle_the_opponent_can_collapse_against_us_is_not_a_win():
    state = play_history(MOVER_WIN)
    pos = position_from_view(G.view(state, 0))
    for action in G.legal_actions(state, 0):
        assert (win_margin(pos, action, 0) is not None) == wins_now(state, 0, action)


@pytest.mark.parametrize("level", ["strong", "medium"])
def test_blocks_the_opponents_win_available_next_move(level):
    # X1 on 1-4 and X3 on 4-7: X threatens X5 on 1-7, a cycle of X marks only.
    state = play_history(MUST_BLOCK)
    legal = G.legal_actions(state, 1)
    losing = [a for a in legal if opponent_wins_next(state, 1, a)]
    assert 0 < len(losing) < len(legal) and not any(wins_now(state, 1, a) for a in legal)
    for seed in range(10):
        action = choose(level, state, seed)
        assert action not in losing


def test_strong_always_takes_wins_and_blocks_in_random_positions():
    rng = random.Random(3)
    checked_wins = checked_blocks = 0
    for seed in range(20):
        state = G.setup()
        while G.to_act(state):
            seat = G.to_act(state)[0]
            legal = G.legal_actions(state, seat)
            action = choose("strong", state, seed)
            assert action in legal
            if any(wins_now(state, seat, a) for a in legal):
                assert wins_now(state, seat, action)
                checked_wins += 1
            else:
                safe = [a for a in legal if not opponent_wins_next(state, seat, a)]
                if safe and len(safe) < len(legal):
                    assert action in safe
                    checked_blocks += 1
            state, _ = G.apply(state, seat, rng.choice(legal))
    assert checked_wins > 5 and checked_blocks > 5


# --- strength and legality ---------------------------------------------------------------

def test_strong_beats_random_clearly():
    wins = losses = 0
    games = 200
    for seed in range(games):
        seat = seed % 2
        bots = [BOTS["random"], BOTS["random"]]
        bots[seat] = BOTS["strong"]
        outcome = play_game(bots, seed)
        wins += outcome["winners"] == [seat]
        losses += outcome["winners"] == [1 - seat]
    # random against random wins about 45% and loses about 45%
    assert wins >= 0.85 * games and losses <= 0.05 * games


def test_random_bot_is_uniform_over_legal():
    state = G.setup()
    legal = G.legal_actions(state, 0)
    rng = random.Random(1)
    picks = {tuple(BOTS["random"].choose(G.view(state, 0), legal, rng)["squares"])
             for _ in range(2000)}
    assert len(picks) == len(legal)

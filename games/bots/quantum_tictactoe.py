"""Bots for quantum tic-tac-toe. They decide from ``view`` and ``legal`` only.

Everything in this game is public, so a bot rebuilds the position from the view (classical
marks, unresolved entanglements, the pending collapse) into a small immutable model and
simulates actions on it.

Definitions used by the bots (and their tests):

- A *win* for a seat is a finished game in which that seat scores strictly more points.
- A *win available this move* for the seat to act is a legal action after which the game
  is certainly won:
  * a collapse choice (the seat is the chooser) whose outcome ends the game as a win;
  * the move-9 fill of the last square when it ends the game as a win;
  * a spooky move that closes a cycle such that EVERY collapse the opponent may choose
    ends the game as a win (a spooky move alone never completes a line).
  Its margin is the smallest point difference over the opponent's collapse choices.
- The opponent's *win available next move* after one of our actions is a win available
  this move, in the same sense, for the opponent in the resulting position (when the
  opponent is the one to act there).

Bots:

- "random": uniform over the legal actions.
- "medium": takes a win available this move (largest margin), else avoids actions that give
  the opponent a win available next move, else random.
- "strong": like "medium", but chooses among the remaining actions by a heuristic: the
  position is scored after the action (assuming the opponent picks the collapse worst for
  us when our move closes a cycle) by classical and spooky presence in lines still open for
  each player, the centre square, and by how many wins each side would have available on
  its next turn.
"""
from __future__ import annotations

import random
from typing import NamedTuple

from games.bots.common import RandomBot
from games.engines import Action

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MAX_SPOOKY = 8
WIN_VALUE = 1000.0


class Position(NamedTuple):
    """A compact position: squares are 0-8 here (1-9 in actions)."""

    classical: tuple[int, ...]            # 0 = open, else the move number of the classical mark
    entanglements: tuple[tuple[int, int, int], ...]   # (move, a, b), unresolved
    move_number: int                      # the next move
    pending: tuple[int, int, int] | None  # (move, a, b): a cycle closed by that move
    scores: tuple[float, float] | None    # set when the game is over


def seat_of_move(move: int) -> int:
    return 0 if move % 2 else 1


def position_from_view(view: dict) -> Position:
    classical = tuple(sq["classical"]["move"] if sq["classical"] else 0 for sq in view["board"])
    entanglements = tuple((e["move"], e["squares"][0] - 1, e["squares"][1] - 1)
                          for e in view["entanglements"])
    pending = None
    if view["collapse"]:
        a, b = view["collapse"]["squares"]
        pending = (view["collapse"]["move"], a - 1, b - 1)
    scores = tuple(view["scores"]) if view["scores"] is not None else None
    return Position(classical, entanglements, view["move_number"], pending, scores)


def to_act(pos: Position) -> int | None:
    if pos.scores is not None:
        return None
    if pos.pending:
        return 1 - seat_of_move(pos.pending[0])
    return seat_of_move(pos.move_number)


# --- rules on the compact model ----------------------------------------------------------

def line_scores(classical: tuple[int, ...]) -> tuple[float, float] | None:
    """Points (x, o) when at least one line exists, else None."""
    lines = []
    for line in LINES:
        moves = [classical[s] for s in line]
        if all(moves) and len({m % 2 for m in moves}) == 1:
            lines.append((max(moves), seat_of_move(moves[0])))
    if not lines:
        return None
    earliest = min(time for time, _ in lines)
    points = [0.0, 0.0]
    for time, seat in lines:
        points[seat] += 1.0 if time == earliest else 0.5
    return points[0], points[1]


def _labels(entanglements: tuple[tuple[int, int, int], ...]) -> list[int]:
    """Component label per square (union-find over the unresolved moves)."""
    parent = list(range(9))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for _, a, b in entanglements:
        parent[find(a)] = find(b)
    return [find(s) for s in range(9)]


def _settle(classical: tuple[int, ...], entanglements: tuple, move_number: int) -> Position:
    scores = line_scores(classical)
    if scores is None and all(classical):
        scores = (0.0, 0.0)
    return Position(classical, entanglements, move_number, None, scores)


def collapse(pos: Position, square: int) -> Position:
    """The pending cycle collapses with the closing move's mark in ``square`` (0-8)."""
    move = pos.pending[0]
    board = list(pos.classical)
    board[square] = move
    remaining = list(pos.entanglements)
    frontier = [square]
    remaining = [e for e in remaining if e[0] != move]
    while frontier:
        here = frontier.pop()
        keep = []
        for ent in remaining:
            m, a, b = ent
            if a == here or b == here:
                there = b if a == here else a
                board[there] = m
                frontier.append(there)
            else:
                keep.append(ent)
        remaining = keep
    return _settle(tuple(board), tuple(remaining), pos.move_number)


def spooky_move(pos: Position, a: int, b: int, labels: list[int] | None = None) -> Position:
    move = pos.move_number
    if a == b:
        board = list(pos.classical)
        board[a] = move
        return _settle(tuple(board), pos.entanglements, move + 1)
    labels = labels or _labels(pos.entanglements)
    pending = (move, a, b) if labels[a] == labels[b] else None
    return Position(pos.classical, pos.entanglements + ((move, a, b),), move + 1, pending, None)


def step(pos: Position, action: Action) -> Position:
    if "collapse" in action:
        return collapse(pos, action["collapse"] - 1)
    a, b = action["squares"]
    return spooky_move(pos, a - 1, b - 1)


def _free_squares(pos: Position) -> list[int]:
    counts = [0] * 9
    for _, a, b in pos.entanglements:
        counts[a] += 1
        counts[b] += 1
    return [s for s in range(9) if not pos.classical[s] and counts[s] < MAX_SPOOKY]


def _fill_square(pos: Position) -> int | None:
    open_ = [s for s in range(9) if not pos.classical[s]]
    return open_[0] if len(open_) == 1 and not pos.entanglements else None


def margin(pos: Position, seat: int) -> float:
    return pos.scores[seat] - pos.scores[1 - seat]


# --- wins --------------------------------------------------------------------------------

def _cycle_move_win(pos: Position, after: Position, seat: int) -> float | None:
    """Worst-case margin for ``seat`` over the opponent's collapse choices, if all win."""
    _, a, b = after.pending
    worst = None
    for square in (a, b):
        result = collapse(after, square)
        if result.scores is None or margin(result, seat) <= 0:
            return None
        worst = margin(result, seat) if worst is None else min(worst, margin(result, seat))
    return worst


def win_margin(pos: Position, action: Action, seat: int) -> float | None:
    """The margin if ``action`` is a win available this move for ``seat``, else None."""
    after = step(pos, action)
    if after.scores is not None:
        return margin(after, seat) if margin(after, seat) > 0 else None
    if after.pending and "squares" in action:
        return _cycle_move_win(pos, after, seat)
    return None


def has_win_available(pos: Position, seat: int) -> bool:
    """Does ``seat``, to act in ``pos``, have a win available this move?"""
    if pos.scores is not None or to_act(pos) != seat:
        return False
    if pos.pending:
        _, a, b = pos.pending
        return any((r := collapse(pos, s)).scores is not None and margin(r, seat) > 0
                   for s in (a, b))
    fill = _fill_square(pos)
    if fill is not None:
        result = spooky_move(pos, fill, fill)
        return result.scores is not None and margin(result, seat) > 0
    labels = _labels(pos.entanglements)
    free = _free_squares(pos)
    for i, a in enumerate(free):
        for b in free[i + 1:]:
            if labels[a] == labels[b]:   # only a cycle-closing move can win
                after = spooky_move(pos, a, b, labels)
                if _cycle_move_win(pos, after, seat) is not None:
                    return True
    return False


def count_wins_available(pos: Position, seat: int) -> int:
    """How many cycle-closing moves would win for ``seat`` if it were to move in ``pos``."""
    if pos.scores is not None or pos.pending:
        return 0
    as_mover = pos._replace(move_number=pos.move_number + (seat_of_move(pos.move_number) != seat))
    labels = _labels(pos.entanglements)
    free = _free_squares(pos)
    wins = 0
    for i, a in enumerate(free):
        for b in free[i + 1:]:
            if labels[a] == labels[b]:
                after = spooky_move(as_mover, a, b, labels)
                if _cycle_move_win(as_mover, after, seat) is not None:
                    wins += 1
    return wins


# --- heuristic ---------------------------------------------------------------------------

def heuristic(pos: Position, seat: int) -> float:
    """How good ``pos`` looks for ``seat`` (terminal positions: by points)."""
    if pos.scores is not None:
        return WIN_VALUE * margin(pos, seat)
    spooky = [[0, 0] for _ in range(9)]
    for move, a, b in pos.entanglements:
        spooky[a][seat_of_move(move)] += 1
        spooky[b][seat_of_move(move)] += 1
    value = 0.0
    for line in LINES:
        owners = [seat_of_move(pos.classical[s]) if pos.classical[s] else None for s in line]
        for who, sign in ((seat, 1.0), (1 - seat, -1.0)):
            if (1 - who) in owners:
                continue
            mine = owners.count(who)
            presence = sum(1 for s in line if not pos.classical[s] and spooky[s][who])
            value += sign * ((0, 1.0, 4.0, 0)[mine] + 0.3 * presence)
    if pos.classical[4]:
        value += 1.5 if seat_of_move(pos.classical[4]) == seat else -1.5
    value += 6.0 * count_wins_available(pos, seat) - 6.0 * count_wins_available(pos, 1 - seat)
    return value


def value_after(pos: Position, seat: int) -> float:
    """Heuristic value for ``seat`` of the position after its action; if the opponent must
    choose a collapse, the opponent picks the outcome worst for ``seat``."""
    if pos.pending and to_act(pos) != seat:
        _, a, b = pos.pending
        return min(value_after(collapse(pos, s), seat) for s in (a, b))
    return heuristic(pos, seat)


# --- bots --------------------------------------------------------------------------------

def _best_win(pos: Position, legal: list[Action], seat: int, rng: random.Random) -> Action | None:
    wins = [(m, a) for a in legal if (m := win_margin(pos, a, seat)) is not None]
    if not wins:
        return None
    best = max(m for m, _ in wins)
    return rng.choice([a for m, a in wins if m == best])


def _safe_actions(pos: Position, legal: list[Action], seat: int) -> list[Action]:
    """The actions after which the opponent has no win available; all of them if none is."""
    safe = [a for a in legal if not has_win_available(step(pos, a), 1 - seat)]
    return safe or list(legal)


class MediumBot:
    """Takes a win available this move, else blocks the opponent's next one, else picks at random."""

    label = "Medium (wins and blocks)"

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        seat = view["to_act"][0]
        pos = position_from_view(view)
        win = _best_win(pos, legal, seat, rng)
        if win is not None:
            return win
        return self.pick(pos, _safe_actions(pos, legal, seat), seat, rng)

    def pick(self, pos, candidates: list[Action], seat: int, rng: random.Random) -> Action:
        return rng.choice(candidates)


class StrongBot(MediumBot):
    """As the medium bot, but among the safe actions it takes the best by ``value_after``."""

    label = "Strong"

    def pick(self, pos, candidates: list[Action], seat: int, rng: random.Random) -> Action:
        scored = [(value_after(step(pos, a), seat), a) for a in candidates]
        best = max(v for v, _ in scored)
        return rng.choice([a for v, a in scored if v >= best - 1e-9])


BOTS = {"random": RandomBot(), "medium": MediumBot(), "strong": StrongBot()}

"""Quantum tic-tac-toe (Allan Goff's rules; see docs/rules/quantum-tictactoe.md).

Seat 0 plays X, seat 1 plays O. Squares are numbered 1-9 row by row. Moves are numbered
1..9 over the whole game (X odd, O even). Everything in this game is public.

State (plain JSON data; ``json.loads(json.dumps(state)) == state``)::

    {"game": "quantum-tictactoe", "variant": "basic", "seed": 0, "options": {},
     "move_number": 4,                  # number of the next move
     "classical": [null | {"player": "X", "move": 1}, ...],   # 9 entries, square k at k-1
     "entanglements": [{"move": 3, "player": "X", "squares": [1, 5]}, ...],  # unresolved moves
     "collapse": null | {"move": 3, "squares": [1, 5], "chooser": 1,
                          "cycle": [1, 2, 5], "cycle_moves": [1, 2, 3]},      # pending measurement
     "lines": [...], "scores": null | [x, o], "reason": null | str,
     "history": ["X1+(1,2)", ...]}

Actions::

    {"squares": [a, b]}   spooky move, two different non-classical squares ([b, a] is accepted)
    {"squares": [s, s]}   move 9 when eight squares are classical: s becomes classical at once
    {"collapse": s}       the chooser puts the closing move's mark in square s (one of its two)

Events (each has "type" and a human "text")::

    {"type": "move", "seat", "player", "move", "squares": [a, b]}
    {"type": "cycle", "move", "squares": [cycle squares in order], "moves": [cycle moves],
     "chooser": seat}
    {"type": "collapse", "seat", "move", "square",
     "placed": [{"square", "player", "move"}, ...]}     # cascade order, for animating
    {"type": "line", "squares", "player", "time", "points"}
    {"type": "game_over", "scores": [x, o], "winners": [...], "reason"}

View (identical for every seat and for spectators, since nothing is hidden)::

    {"game", "variant", "players": ["X", "O"], "board": [{"square", "classical", "spooky"}] * 9,
     "entanglements", "move_number", "next_player", "to_act", "phase": "move"|"collapse"|"over",
     "last_square": null | s (the move-9 case), "collapse": null | {"move", "player", "squares",
     "chooser", "cycle", "cycle_moves", "previews": {"<a>": [placed...], "<b>": [...]}},
     "lines", "scores", "winners", "reason", "history"}

History notation (Goff's, one string per action): a move is ``X3+(1,5)`` (player, move
number, the two squares in ascending order; move 9 into the last square is ``X9+(5,5)``);
a collapse is ``O@X3(1)``: the chooser, "@", the closing move's mark, and the square it is
put in. ``actions_from_history`` turns such a list back into ``(seat, action)`` pairs.

Game end: lines are looked for after every collapse and after the move-9 fill; the game ends
as soon as one exists. A full board without lines is a 0-0 draw. A position in which the
player to move has no legal move (fewer than two open squares that can take a spooky mark,
and not the move-9 case) cannot arise under these rules (classical squares = resolved moves,
and unresolved moves form a forest on the open squares); if it ever did, the game would end
there as a 0-0 draw ("no legal move left") rather than hang.

Rule reading: "a square can hold up to eight spooky marks" is enforced literally. It only
matters when moves 1-8 all share one square without a cycle (a star): move 9 may then not
use that square.
"""
from __future__ import annotations

import re
from collections import deque
from typing import cast

from . import quantum_tictactoe_evidence as evidence
from .base import (
    Abilities,
    Action,
    Event,
    Evidence,
    IllegalAction,
    State,
    chance,
    clone,
    event,
    gettext_noop,
    is_int,
    message,
    moment,
    ngettext_lazy,
    public,
    render_text,
)
from .contract import Engine
from .quantum_tictactoe_guide import GUIDE
from .schema import Actions, Int, ListOf, Obj

SLUG = "quantum-tictactoe"

# The texts of the events (see games/engines/base.py): code -> English msgid.
EVENT_TEXTS = {
    "move": gettext_noop("%(mark)s on %(a)s and %(b)s"),
    "fill_last": gettext_noop("%(mark)s fills the last square %(square)s: it is classical at once"),
    "cycle": gettext_noop("%(mark)s closes the cycle %(ring)s: %(chooser)s chooses where %(mark)s lands"),
    "collapse": gettext_noop("%(player)s collapses %(mark)s into square %(square)s: %(steps)s"),
    "line": gettext_noop("%(player)s has the line %(squares)s (time %(time)s): %(points)s"),
    "one_point": gettext_noop("1 point"),
    "half_point": gettext_noop("½ point"),
    "game_over": gettext_noop("Game over (%(reason)s): %(result)s %(score)s"),
    "line_for": gettext_noop("line for %(player)s"),
    "line_for_both": gettext_noop("line for %(a)s and %(b)s"),
    "board_full": gettext_noop("board full without a line: draw"),
    "no_legal_move": gettext_noop("no legal move left"),
    "wins": gettext_noop("%(player)s wins"),
    "draw": gettext_noop("draw"),
    "time_up": gettext_noop("Time is up: a pending cycle collapses by chance, then the board is "
                            "scored as it stands."),
    "time_up_reason": gettext_noop("time is up"),
    # teaching moments
    "moment_cycle": gettext_noop("A %(n)s-cycle collapsed (%(ring)s): %(chooser)s chose %(mark)s in square "
                                 "%(square)s, and %(placed)s spooky marks became classical"),
}
PLAYERS = ("X", "O")
SQUARES = tuple(range(1, 10))
LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))
MAX_SPOOKY = 8
MAX_MOVES = 9


# --- vocabulary helpers ------------------------------------------------------------------

def player_of_move(move: int) -> str:
    """X makes the odd moves, O the even ones."""
    return "X" if move % 2 else "O"


def seat_of_move(move: int) -> int:
    return 0 if move % 2 else 1


def mark_name(move: int) -> str:
    return f"{player_of_move(move)}{move}"


def _mark(square: int, move: int) -> dict:
    return {"square": square, "player": player_of_move(move), "move": move}


def _half_points(halves: int) -> float | int:
    return halves // 2 if halves % 2 == 0 else halves / 2


# --- the entanglement graph --------------------------------------------------------------

def _neighbours(entanglements: list[dict]) -> dict[int, list[tuple[int, int]]]:
    """square -> [(move, other square)] over the unresolved moves, in move order."""
    graph: dict[int, list[tuple[int, int]]] = {s: [] for s in SQUARES}
    for ent in entanglements:
        a, b = ent["squares"]
        graph[a].append((ent["move"], b))
        graph[b].append((ent["move"], a))
    return graph


def cycle_path(entanglements: list[dict], a: int, b: int) -> tuple[list[int], list[int]] | None:
    """The path from a to b in the (acyclic) entanglement graph, as (squares, moves), or None
    when a and b are not connected. A new move on a and b closes a cycle exactly when a path
    exists; the cycle is that path plus the new move."""
    graph = _neighbours(entanglements)
    parent: dict[int, tuple[int, int] | None] = {a: None}
    queue = deque([a])
    while queue:
        square = queue.popleft()
        if square == b:
            break
        for move, other in graph[square]:
            if other not in parent:
                parent[other] = (square, move)
                queue.append(other)
    if b not in parent:
        return None
    squares, moves = [b], []
    step = parent[b]
    while step is not None:
        square, move = step
        squares.append(square)
        moves.append(move)
        step = parent[square]
    squares.reverse()
    moves.reverse()
    return squares, moves


def components(entanglements: list[dict]) -> list[dict]:
    """The entangled groups: connected squares with the unresolved moves joining them."""
    graph = _neighbours(entanglements)
    seen: set[int] = set()
    groups = []
    for start in SQUARES:
        if start in seen or not graph[start]:
            continue
        squares, moves = [], set()
        queue = deque([start])
        seen.add(start)
        while queue:
            square = queue.popleft()
            squares.append(square)
            for move, other in graph[square]:
                moves.add(move)
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        groups.append({"squares": sorted(squares), "moves": sorted(moves),
                       "has_cycle": len(moves) >= len(squares)})
    return groups


def collapse_cascade(entanglements: list[dict], move: int, square: int) -> list[dict]:
    """Put ``move``'s mark in ``square`` and force every mark connected to it.

    Returns the classical marks placed, in cascade order: whenever a square becomes
    classical, every other unresolved move with a mark there goes to its other square.
    """
    graph = _neighbours(entanglements)
    placed = [_mark(square, move)]
    resolved = {move}
    queue = deque([square])
    while queue:
        here = queue.popleft()
        for other_move, there in graph[here]:
            if other_move in resolved:
                continue
            resolved.add(other_move)
            placed.append(_mark(there, other_move))
            queue.append(there)
    return placed


# --- lines and scoring -------------------------------------------------------------------

def find_lines(classical: list[dict | None]) -> list[dict]:
    """Every line of three classical marks of one player, with its time and points.

    A line's time is its highest move number. Lines at the earliest time score 1 each,
    later lines score 1/2 each.
    """
    lines = []
    for line in LINES:
        # None-checked by all() before any mark is read
        marks = cast("list[dict]", [classical[s - 1] for s in line])
        if all(marks) and len({m["player"] for m in marks}) == 1:
            lines.append({"squares": list(line), "player": marks[0]["player"],
                          "time": max(m["move"] for m in marks)})
    if lines:
        earliest = min(line["time"] for line in lines)
        for found in lines:
            found["points"] = 1 if found["time"] == earliest else 0.5
    lines.sort(key=lambda line: (line["time"], line["squares"]))
    return lines


def score_lines(lines: list[dict]) -> list[float | int]:
    halves = [0, 0]
    for line in lines:
        halves[PLAYERS.index(line["player"])] += 2 if line["points"] == 1 else 1
    return [_half_points(h) for h in halves]


def winners_of(scores: list) -> list[int]:
    if scores[0] == scores[1]:
        return []
    return [0] if scores[0] > scores[1] else [1]


# --- notation ----------------------------------------------------------------------------

_MOVE_RE = re.compile(r"^([XO])(\d)\+\((\d),(\d)\)$")
_COLLAPSE_RE = re.compile(r"^([XO])@([XO])(\d)\((\d)\)$")


def actions_from_history(history: list[str]) -> list[tuple[int, Action]]:
    """Turn Goff notation (``X1+(1,2)``, ``O@X3(1)``) back into ``(seat, action)`` pairs."""
    actions: list[tuple[int, Action]] = []
    for entry in history:
        if found := _MOVE_RE.match(entry):
            seat = PLAYERS.index(found[1])
            actions.append((seat, {"squares": [int(found[3]), int(found[4])]}))
        elif found := _COLLAPSE_RE.match(entry):
            actions.append((PLAYERS.index(found[1]), {"collapse": int(found[4])}))
        else:
            raise ValueError(f"not quantum tic-tac-toe notation: {entry!r}")
    return actions


# --- the game ----------------------------------------------------------------------------

class QuantumTicTacToe(Engine):
    slug = SLUG
    rules_version = 1  # bump when a stored game would replay differently (engines/base.py)
    name = gettext_noop("Quantum tic-tac-toe")
    event_texts = EVENT_TEXTS
    finish_rule = gettext_noop("When time is up, a pending cycle collapses by chance, then the "
                               "board is scored as it stands: a line counts, none is a draw.")
    min_players = 2
    max_players = 2
    variants = ("basic",)
    variant_names = {"basic": gettext_noop("basic")}
    how_to_play = GUIDE
    # the shapes of the actions (checked by ``Engine.apply``); the game has no options
    actions = Actions(
        move=Obj(squares=ListOf(Int(1, 9), 2, 2)),
        collapse=Obj(collapse=Int(1, 9)),
    )
    # no quantum state to run, no odds: the teaching panel is the teacher's
    abilities = Abilities(
        teacher_only_analysis_keys=("components", "cycles", "squares", "collapse",
                                    "open_squares", "moves_left", "phase"),
        teaching_moments=True,
        concept_evidence=True,  # what a move shows (quantum_tictactoe_evidence.py)
    )
    evidence_texts = evidence.EVIDENCE_TEXTS

    def concept_evidence(self, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
        return evidence.concept_evidence(self, before, seat, action, after)

    def teaching_moments(self, events: list[Event], history: list[list[Event]]) -> list[dict]:
        """A cycle of n entangled marks collapsed: its length, who chose, how many marks it made
        classical (the cycle is announced by the move that closed it, one action earlier)."""
        out = []
        seen = [e for step in history for e in public(step)]
        for e in public(events):
            if e.get("type") == "cycle":
                seen.append(e)
            if e.get("type") != "collapse":
                continue
            cycle = next((c for c in reversed(seen) if c.get("type") == "cycle" and c.get("move") == e.get("move")),
                         None)
            if cycle is None:
                continue
            squares = list(cycle["squares"])
            out.append(moment(EVENT_TEXTS, "moment_cycle", {
                "n": len(squares), "ring": "-".join(str(q) for q in [*squares, squares[0]]),
                "chooser": PLAYERS[e["seat"]], "mark": mark_name(e["move"]), "square": e["square"],
                "placed": len(e.get("placed") or []),
            }) | {"kind": "cycle_collapse", "length": len(squares), "squares": squares,
                  "moves": list(cycle["moves"]), "chooser": e["seat"], "square": e["square"]})
        return out

    # --- setup and queries ---------------------------------------------------------------

    def start(self, players: int, variant: str, seed: int, options: dict) -> State:
        """A new game (``Engine.setup`` has checked the arguments)."""
        return {"game": SLUG, "variant": variant, "seed": seed, "options": {},
                "move_number": 1, "classical": [None] * 9, "entanglements": [],
                "collapse": None, "lines": [], "scores": None, "reason": None,
                "history": []}

    def phase(self, state: State) -> str:
        if state["scores"] is not None:
            return "over"
        return "collapse" if state["collapse"] else "move"

    def to_act(self, state: State) -> list[int]:
        phase = self.phase(state)
        if phase == "over":
            return []
        if phase == "collapse":
            return [state["collapse"]["chooser"]]
        return [seat_of_move(state["move_number"])]

    def open_squares(self, state: State) -> list[int]:
        return [s for s in SQUARES if state["classical"][s - 1] is None]

    def spooky_marks(self, state: State, square: int) -> list[dict]:
        return [{"player": e["player"], "move": e["move"]}
                for e in state["entanglements"] if square in e["squares"]]

    def last_square(self, state: State) -> int | None:
        """The move-9 case: eight squares classical and no unresolved move left."""
        open_ = self.open_squares(state)
        if len(open_) == 1 and not state["entanglements"] and state["scores"] is None:
            return open_[0]
        return None

    def _squares_taking_marks(self, state: State) -> list[int]:
        counts = {s: 0 for s in SQUARES}
        for ent in state["entanglements"]:
            for s in ent["squares"]:
                counts[s] += 1
        return [s for s in self.open_squares(state) if counts[s] < MAX_SPOOKY]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not is_int(seat) or seat not in self.to_act(state):
            return []
        if state["collapse"]:
            return [{"collapse": s} for s in state["collapse"]["squares"]]
        last = self.last_square(state)
        if last is not None:
            return [{"squares": [last, last]}]
        free = self._squares_taking_marks(state)
        return [{"squares": [a, b]} for i, a in enumerate(free) for b in free[i + 1:]]

    # --- validation ----------------------------------------------------------------------

    def seats(self, state: State) -> int:
        return 2

    def is_over(self, state: State) -> bool:
        return state["scores"] is not None

    def not_your_turn(self, state: State, seat: int) -> IllegalAction:
        """Says whose turn it is, and to do what."""
        waiting = self.to_act(state)[0]
        return IllegalAction("not_your_turn",
                             gettext_noop("it is %(mark)s's turn to choose the collapse (seat %(seat)s)")
                             if state["collapse"] else
                             gettext_noop("it is %(mark)s's turn to move (seat %(seat)s)"),
                             {"mark": PLAYERS[waiting], "seat": waiting})

    def _check_spooky_move(self, state: State, squares: list[int]) -> list[int]:
        """The rules of a move on two squares (its shape is checked): sorted squares."""
        a, b = sorted(squares)
        last = self.last_square(state)
        if last is not None:
            if a == b == last:
                return [a, b]
            raise IllegalAction("last_square",
                                gettext_noop('eight squares are classical: move %(move)s puts both '
                                             'marks into square %(square)s: {"squares": '
                                             '[%(square)s, %(square)s]}'),
                                {"move": state["move_number"], "square": last})
        if a == b:
            raise IllegalAction("same_square",
                                gettext_noop("the two spooky marks of a move go into two different squares"))
        for s in (a, b):
            if state["classical"][s - 1] is not None:
                raise IllegalAction("classical_square",
                                    gettext_noop("square %(square)s is classical: it takes no more marks"),
                                    {"square": s})
        for s in (a, b):
            if len(self.spooky_marks(state, s)) >= MAX_SPOOKY:
                raise IllegalAction("square_full",
                                    ngettext_lazy("square %(square)s already holds %(n)s spooky mark",
                                                  "square %(square)s already holds %(n)s spooky marks", "n"),
                                    {"square": s, "n": MAX_SPOOKY})
        return [a, b]

    def _check_collapse(self, state: State, square: int) -> int:
        """The rule of a collapse into ``square`` (its shape is checked)."""
        pending = state["collapse"]
        if square not in pending["squares"]:
            a, b = pending["squares"]
            raise IllegalAction("bad_collapse",
                                gettext_noop("%(mark)s can only go to square %(a)s or %(b)s"),
                                {"mark": mark_name(pending["move"]), "a": a, "b": b})
        return square

    # --- apply ---------------------------------------------------------------------------

    def play(self, state: State, seat: int, kind: str, action: Action) -> tuple[State, list[Event]]:
        """A move or a collapse, of the right shape, by the seat to act (``Engine.apply``)."""
        if state["collapse"]:
            if kind != "collapse":
                a, b = state["collapse"]["squares"]
                raise IllegalAction("collapse_pending",
                                    gettext_noop('a cycle must be collapsed first: choose '
                                                 '{"collapse": s} with s %(a)s or %(b)s'),
                                    {"a": a, "b": b})
            square = self._check_collapse(state, action["collapse"])
            return self._collapse(state, seat, square)
        if kind == "collapse":
            raise IllegalAction("no_collapse", gettext_noop("there is no cycle to collapse now"))
        squares = self._check_spooky_move(state, action["squares"])
        if squares[0] == squares[1]:
            return self._fill_last_square(state, seat, squares[0])
        return self._spooky_move(state, seat, squares)

    def _spooky_move(self, state: State, seat: int, squares: list[int]) -> tuple[State, list]:
        new = clone(state)
        move, player = new["move_number"], PLAYERS[seat]
        a, b = squares
        path = cycle_path(new["entanglements"], a, b)
        new["entanglements"].append({"move": move, "player": player, "squares": [a, b]})
        new["move_number"] = move + 1
        new["history"].append(f"{player}{move}+({a},{b})")
        events: list[Event] = [event(EVENT_TEXTS, "move", "move", {"mark": f"{player}{move}", "a": a, "b": b},
                                     seat=seat, player=player, move=move, squares=[a, b])]
        if path is not None:
            cycle, cycle_moves = path
            chooser = 1 - seat
            new["collapse"] = {"move": move, "squares": [a, b], "chooser": chooser,
                               "cycle": cycle, "cycle_moves": cycle_moves + [move]}
            ring = "-".join(map(str, cycle + [cycle[0]]))
            events.append(event(EVENT_TEXTS, "cycle", "cycle",
                                {"mark": f"{player}{move}", "ring": ring, "chooser": PLAYERS[chooser]},
                                move=move, squares=cycle, moves=cycle_moves + [move], chooser=chooser))
        elif not self.legal_actions(new, seat_of_move(move + 1)):
            self._finish(new, events, "no_legal_move")
        return new, events

    def _fill_last_square(self, state: State, seat: int, square: int) -> tuple[State, list]:
        new = clone(state)
        move, player = new["move_number"], PLAYERS[seat]
        new["classical"][square - 1] = {"player": player, "move": move}
        new["move_number"] = move + 1
        new["history"].append(f"{player}{move}+({square},{square})")
        events: list[Event] = [
            event(EVENT_TEXTS, "move", "fill_last", {"mark": f"{player}{move}", "square": square},
                  seat=seat, player=player, move=move, squares=[square, square])]
        self._after_classical(new, events)
        return new, events

    def _collapse(self, state: State, seat: int, square: int) -> tuple[State, list]:
        new = clone(state)
        pending = new["collapse"]
        move = pending["move"]
        placed = collapse_cascade(new["entanglements"], move, square)
        for mark in placed:
            new["classical"][mark["square"] - 1] = {"player": mark["player"],
                                                    "move": mark["move"]}
        resolved = {mark["move"] for mark in placed}
        new["entanglements"] = [e for e in new["entanglements"] if e["move"] not in resolved]
        new["collapse"] = None
        new["history"].append(f"{PLAYERS[seat]}@{mark_name(move)}({square})")
        steps = ", ".join(f"{m['player']}{m['move']}\u2192{m['square']}" for m in placed)
        events: list[Event] = [event(EVENT_TEXTS, "collapse", "collapse",
                                     {"player": PLAYERS[seat], "mark": mark_name(move),
                                      "square": square, "steps": steps},
                                     seat=seat, move=move, square=square, placed=placed)]
        self._after_classical(new, events)
        return new, events

    def _after_classical(self, state: State, events: list[Event]) -> None:
        """Look for lines (the game ends as soon as one exists), then for a full board."""
        lines = find_lines(state["classical"])
        if lines:
            for line in lines:
                squares = "-".join(map(str, line["squares"]))
                points = message("one_point" if line["points"] == 1 else "half_point")
                events.append(event(EVENT_TEXTS, "line", "line",
                                    {"player": line["player"], "squares": squares,
                                     "time": line["time"], "points": points}, **line))
            state["lines"] = lines
            self._finish(state, events, "line")
        elif not self.open_squares(state):
            self._finish(state, events, "board_full")
        elif not self.legal_actions(state, self.to_act(state)[0]):
            self._finish(state, events, "no_legal_move")

    def finish(self, state: State) -> tuple[State, list[Event]]:
        """Time is up: a pending cycle collapses into a square drawn by the seeded chance
        (``chance(seed, move number, "finish")``), then the board is scored as it stands: the
        lines it has count as usual, none is a draw. Spooky marks stay spooky (unscored)."""
        if state["scores"] is not None:
            return state, []
        events: list[Event] = [event(EVENT_TEXTS, "time_up", "time_up")]
        pending = state["collapse"]
        if pending:
            rng = chance(state["seed"], state["move_number"], "finish")
            new, caused = self._collapse(state, pending["chooser"], rng.choice(pending["squares"]))
            for e in caused:
                if e["type"] == "collapse":
                    e["by_chance"] = True
            events += caused
        else:
            new = clone(state)
        if new["scores"] is None:
            new["lines"] = find_lines(new["classical"])
            self._finish(new, events, "line" if new["lines"] else "time_up_reason")
        return new, events

    def _finish(self, state: State, events: list[Event], reason: str) -> None:
        """``why``: the code of the reason (``line``, ``board_full``, ``no_legal_move``)."""
        scores = score_lines(state["lines"])
        why = message(reason)
        if reason == "line":
            owners = sorted({line["player"] for line in state["lines"]})
            why = (message("line_for_both", a=owners[0], b=owners[1]) if len(owners) == 2
                   else message("line_for", player=owners[0]))
        why_text = render_text(EVENT_TEXTS, why["code"], why["params"])
        state["scores"] = scores
        state["reason"] = why_text
        winners = winners_of(scores)
        result = message("wins", player=PLAYERS[winners[0]]) if winners else message("draw")
        events.append(event(EVENT_TEXTS, "game_over", "game_over",
                            {"reason": why, "result": result,
                             "score": f"{_fmt(scores[0])}\u2013{_fmt(scores[1])}"},
                            scores=scores, winners=winners, reason=why_text))

    # --- outcome, view, analysis ---------------------------------------------------------

    def outcome(self, state: State) -> dict | None:
        if state["scores"] is None:
            return None
        scores = list(state["scores"])
        return {"scores": scores, "winners": winners_of(scores),
                "lines": clone(state["lines"]), "reason": state["reason"]}

    def collapse_previews(self, state: State) -> dict[str, list[dict]]:
        """For a pending collapse: the classical marks each choice would place."""
        pending = state["collapse"]
        if not pending:
            return {}
        return {str(s): collapse_cascade(state["entanglements"], pending["move"], s)
                for s in pending["squares"]}

    def view(self, state: State, seat: int | None = None) -> dict:
        board = [{"square": s, "classical": clone(state["classical"][s - 1]),
                  "spooky": self.spooky_marks(state, s)} for s in SQUARES]
        pending = state["collapse"]
        collapse = None
        if pending:
            collapse = {**clone(pending), "player": player_of_move(pending["move"]),
                        "previews": self.collapse_previews(state)}
        over = state["scores"] is not None
        return {
            "game": SLUG, "variant": state["variant"], "players": list(PLAYERS),
            "board": board, "entanglements": clone(state["entanglements"]),
            "move_number": state["move_number"],
            "next_player": None if over else player_of_move(state["move_number"]),
            "to_act": self.to_act(state), "phase": self.phase(state),
            "last_square": self.last_square(state), "collapse": collapse,
            "lines": clone(state["lines"]),
            "scores": list(state["scores"]) if over else None,
            "winners": winners_of(state["scores"]) if over else None,
            "reason": state["reason"], "history": list(state["history"]),
        }

    def analysis(self, state: State) -> dict:
        """Exact facts for the teaching panel.

        - "components": entangled groups {"squares", "moves", "has_cycle"}.
        - "cycles": the cycle awaiting measurement ({"squares", "moves", "closing_move"}),
          if any; there is never more than one.
        - "squares": per square {"square", "classical", "spooky", "could_hold", "fixed"}.
          "could_hold" lists the marks that can still end up classical there: the classical
          mark itself; for squares of the group being measured, exactly the marks placed
          there by one of the two outcomes; otherwise every spooky mark in the square (each
          unresolved move can still land in either of its squares).
        - "collapse": for a pending collapse, both outcomes keyed by the chosen square:
          {"placed", "lines", "scores", "ends_game"}, plus "common" (placements that are
          the same either way, e.g. chains hanging off the cycle).
        - "open_squares", "moves_left" (at most 9 moves in a game), "phase".
        """
        pending = state["collapse"]
        outcomes: dict[str, dict] = {}
        could: dict[int, list[dict]] = {}
        common: list[dict] = []
        if pending:
            previews = self.collapse_previews(state)
            for key, placed in previews.items():
                board = list(state["classical"])
                for mark in placed:
                    board[mark["square"] - 1] = {"player": mark["player"], "move": mark["move"]}
                lines = find_lines(board)
                full = all(board)
                outcomes[key] = {"placed": placed, "lines": lines,
                                 "scores": score_lines(lines) if lines or full else None,
                                 "ends_game": bool(lines) or full}
                for mark in placed:
                    entry = {"player": mark["player"], "move": mark["move"]}
                    if entry not in could.setdefault(mark["square"], []):
                        could[mark["square"]].append(entry)
            first, second = previews.values()
            common = [m for m in first if m in second]
        squares = []
        for s in SQUARES:
            classical = state["classical"][s - 1]
            spooky = self.spooky_marks(state, s)
            if classical:
                holds = [clone(classical)]
            elif s in could:
                holds = sorted(could[s], key=lambda m: m["move"])
            else:
                holds = spooky
            squares.append({"square": s, "classical": clone(classical), "spooky": spooky,
                            "could_hold": holds, "fixed": classical is not None})
        cycles = []
        if pending:
            cycles.append({"squares": list(pending["cycle"]),
                           "moves": list(pending["cycle_moves"]),
                           "closing_move": pending["move"]})
        return {"phase": self.phase(state), "components": components(state["entanglements"]),
                "cycles": cycles, "squares": squares,
                "collapse": ({"chooser": pending["chooser"], "move": pending["move"],
                              "outcomes": outcomes, "common": common} if pending else None),
                "open_squares": self.open_squares(state),
                "moves_left": self._moves_left(state)}

    def _moves_left(self, state: State) -> int:
        """Moves that may still be made (a game has at most nine)."""
        if state["scores"] is not None:
            return 0
        return max(0, MAX_MOVES + 1 - state["move_number"])

    def circuit(self, state: State) -> None:
        return None


def _fmt(score: float | int) -> str:
    whole = int(score)
    if score == whole:
        return str(whole)
    return f"{whole}\u00bd" if whole else "\u00bd"


def state_from_view(view: dict) -> State:
    """Rebuild the full state from a view (possible because nothing is hidden); bots use it."""
    pending = view["collapse"]
    return {"game": SLUG, "variant": view["variant"], "seed": 0, "options": {},
            "move_number": view["move_number"],
            "classical": [clone(sq["classical"]) for sq in view["board"]],
            "entanglements": clone(view["entanglements"]),
            "collapse": ({k: clone(pending[k]) for k in
                          ("move", "squares", "chooser", "cycle", "cycle_moves")}
                         if pending else None),
            "lines": clone(view["lines"]), "scores": clone(view["scores"]),
            "reason": view["reason"], "history": list(view["history"])}


GAME = QuantumTicTacToe()

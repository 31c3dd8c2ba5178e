"""Quantum tic-tac-toe's concept evidence (see "Concept evidence" in games/engines/base.py):
what a move or a collapse shows. Everything in this game is public. A spooky mark is a mark in
superposition over two squares, the moves sharing squares are entangled, and a collapse is the
measurement; its outcome is chosen by the player who did not close the cycle.

* ``collapse_for_me`` (measurement, shows): a collapse whose outcome ends the game better for
  the chooser than the other outcome would have.
* ``collapse_against_me`` (measurement, misconception): a collapse whose outcome ends the game
  worse for the chooser than the other outcome would have (when both end it).
* ``cycle_gift`` (measurement, misconception): a move that closes a cycle, letting the other
  player choose a collapse that wins them the game, when a move closing no cycle was legal.
* ``cycle_either_way`` (entanglement, shows): a move that closes a cycle whose every collapse
  ends the game with the mover ahead.
* ``double_threat`` (superposition, shows): a spooky mark on two squares each of which would
  complete a line of the mover's classical marks.
* ``links_groups`` (entanglement, shows): a spooky mark on two squares that each already hold
  spooky marks of two different entangled groups, closing no cycle: the groups become one, so
  a later collapse of any of their marks settles them all together.
"""
from __future__ import annotations

from typing import Any

from .base import Action, Evidence, State, evidence, gettext_noop

EVIDENCE_TEXTS = {
    "collapse_for_me": gettext_noop(
        "Chose to collapse %(mark)s into square %(square)s: of the two outcomes this measurement "
        "could have, this one ends the game better for you."),
    "collapse_against_me": gettext_noop(
        "Chose to collapse %(mark)s into square %(square)s, which ends the game worse for you "
        "than the other outcome, square %(other)s: the one who chooses the collapse picks the "
        "measurement's outcome."),
    "cycle_gift": gettext_noop(
        "Closed a cycle with %(mark)s on squares %(a)s and %(b)s: your opponent chooses the "
        "collapse, and one of its outcomes wins them the game; a move that closed no cycle was "
        "possible."),
    "cycle_either_way": gettext_noop(
        "Closed a cycle with %(mark)s on squares %(a)s and %(b)s whose every collapse ends the "
        "game in your favour: the entangled marks settle together, whichever outcome your "
        "opponent chooses."),
    "double_threat": gettext_noop(
        "Put %(mark)s in superposition on squares %(a)s and %(b)s, each of which would complete "
        "one of your lines: wherever the mark collapses, it completes a line."),
    "links_groups": gettext_noop(
        "Linked two separate entangled groups with %(mark)s on squares %(a)s and %(b)s: their "
        "%(n)s spooky marks are now one entangled group, and a measurement of any of them will "
        "settle them all together."),
}

LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))
PLAYERS = ("X", "O")


def _margin(game: Any, state: State, seat: int) -> float | None:
    """The final score of ``seat`` minus the other's, or None while the game goes on."""
    if state.get("scores") is None:
        return None
    return float(state["scores"][seat]) - float(state["scores"][1 - seat])


def _collapses(game: Any, state: State, seat: int) -> list[float | None]:
    """The margins for ``seat`` after each collapse its chooser may pick."""
    chooser = state["collapse"]["chooser"]
    return [_margin(game, game.apply(state, chooser, a)[0], seat) for a in game.legal_actions(state, chooser)]


def _completes(state: State, square: int, player: str) -> bool:
    owner = [None if c is None else c["player"] for c in state["classical"]]
    return any(square in line and all(owner[s - 1] == player for s in line if s != square) for line in LINES)


def _group_of(state: State, square: int) -> dict | None:
    """The entangled group (``components``) whose spooky marks include one in ``square``."""
    from .quantum_tictactoe import components

    return next((g for g in components(state["entanglements"]) if square in g["squares"]), None)


def concept_evidence(game: Any, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
    if "collapse" in action:
        options = [a for a in game.legal_actions(before, seat) if a != action]
        if not options:
            return []
        mine = _margin(game, after, seat)
        other = game.apply(before, seat, options[0])[0]
        theirs = _margin(game, other, seat)
        move = before["collapse"]["move"]
        params = {"mark": f"{PLAYERS[(move - 1) % 2]}{move}", "square": action["collapse"]}
        if mine is not None and theirs is not None and mine > theirs:
            return [evidence(EVIDENCE_TEXTS, "measurement", "shows", "collapse_for_me", params)]
        if mine is not None and theirs is not None and mine < theirs:
            return [evidence(EVIDENCE_TEXTS, "measurement", "misconception", "collapse_against_me",
                             {**params, "other": options[0]["collapse"]})]
        return []
    squares = action.get("squares") or []
    if len(squares) != 2:
        return []
    a, b = sorted(squares)
    mark = f"{PLAYERS[seat]}{before['move_number']}"
    found: list[Evidence] = []
    if a != b and after.get("collapse"):
        margins = _collapses(game, after, seat)
        params = {"mark": mark, "a": a, "b": b}
        if margins and all(m is not None and m > 0 for m in margins):
            found.append(evidence(EVIDENCE_TEXTS, "entanglement", "shows", "cycle_either_way", params))
        elif any(m is not None and m < 0 for m in margins):
            quiet = any(not game.apply(before, seat, other)[0].get("collapse")
                        for other in game.legal_actions(before, seat) if other != action)
            if quiet:
                found.append(evidence(EVIDENCE_TEXTS, "measurement", "misconception", "cycle_gift", params))
    if a != b and not after.get("collapse"):
        group, other = _group_of(before, a), _group_of(before, b)
        if group and other and b not in group["squares"]:
            n = len(group["moves"]) + len(other["moves"]) + 1
            found.append(evidence(EVIDENCE_TEXTS, "entanglement", "shows", "links_groups",
                                  {"mark": mark, "a": a, "b": b, "n": n}))
    if a != b and _completes(before, a, PLAYERS[seat]) and _completes(before, b, PLAYERS[seat]):
        found.append(evidence(EVIDENCE_TEXTS, "superposition", "shows", "double_threat",
                              {"mark": mark, "a": a, "b": b}))
    return found

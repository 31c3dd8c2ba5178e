"""Operation cards: the decks, and playing a card on the board by actual quantum simulation.

A play is legal only if every member of the touched component(s) is mapped (on its own) to a
tile of the variant. Rules implemented here:

* X Y Z H S: the gate on the square's qubit; on a U-decorated qubit the physical operation is
  U·G·U (frame rule), the decoration stays.
* H on a square of a pair: physical H; toggles the pair's H decoration.
* U: physical U; toggles the U decoration of that qubit.
* CX [control, target]: two undecorated single tiles -> real CNOT (result: tiles or a pair);
  the two squares of one component of undecorated tiles/pairs -> real CNOT (a pair separates);
  a square of a two-square component with any other square -> refused.
* I: nothing.
"""
from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

import quantum
from games.engines.base import IllegalAction, gettext_noop, is_int

from . import tiles as T
from .board import Board, component_index, make_component, members_of, sort_board

CARDS = ("I", "X", "Y", "Z", "H", "CX", "U", "S")
SINGLE_SQUARE_CARDS = ("X", "Y", "Z", "H", "S", "U")
FRAME_CARDS = ("X", "Y", "Z", "H", "S")

_BASE = {"I": 5, "X": 10, "Y": 5, "Z": 10, "H": 12, "CX": 10}


def deck_composition(variant: str) -> dict[str, int]:
    """Card counts: basic 52, advanced/noise/eve 61 (+9 U), s-expansion 68 (+7 S)."""
    deck = dict(_BASE)
    if variant != "basic":
        deck["U"] = 9
    if variant == "s-expansion":
        deck["S"] = 7
    return deck


def full_deck(variant: str) -> list[str]:
    return [card for card, n in deck_composition(variant).items() for _ in range(n)]


class CardError(Exception):
    """A card that cannot be played there; ``message`` is a msgid with ``params`` (as for
    ``IllegalAction``), so the platform can say it in the reader's language."""

    def __init__(self, code: str, message: str, params: dict | None = None):
        self.msgid, self.params = message, params
        message = message % params if params else message
        super().__init__(message)
        self.code = code
        self.message = message


def _toggle(decos: frozenset[str], d: str) -> frozenset[str]:
    return decos - {d} if d in decos else decos | {d}


def play_single(board: Board, variant: str, card: str, square: int
                ) -> tuple[Board, list[dict[str, Any]]]:
    """Play X/Y/Z/H/S/U on ``square``. Returns the new board and the circuit operations."""
    i = component_index(board, square)
    comp = board[i]
    n = len(comp["squares"])
    q = comp["squares"].index(square)
    new_members = []
    physical = set()
    for tile, w in members_of(comp):
        physical.add(card in FRAME_CARDS and T.is_u_decorated(tile, q))
        new = single_image(tile, variant, card, q, n)
        if new is None:
            raise CardError("not_a_tile", gettext_noop(
                "%(card)s on square %(square)s would turn the %(tile)s into a state that is not "
                "a tile of the %(variant)s variant"),
                {"card": card, "square": square, "tile": T.tile_name(tile), "variant": variant})
        new_members.append((new, w))
    new_comps = make_component(comp["squares"], new_members)
    if len(physical) == 1:
        ops = [{"op": "gate", "gate": card, "squares": [square], "frame": physical.pop()}]
    else:  # members need different physical gates: re-prepare the component
        ops = [{"op": "prep", "reset": True, "components": new_comps}]
    return sort_board(board[:i] + board[i + 1:] + new_comps), ops


def single_image(tile: str | list[str], variant: str, card: str, qubit: int, n: int) -> str | list[str] | None:
    """The tile that ``card`` (X Y Z H S U) on qubit ``qubit`` of an ``n``-square component makes
    of its member ``tile``, None when that state is no tile of the ``variant``: the gate (U·G·U on
    a U-decorated qubit, the frame rule) applied to the tile's state and the result recognised,
    with the decoration the card's rule predicts. Simulated once per process for each (tile,
    variant, card, qubit, n): the legal targets try every card of a hand on every square."""
    found = _single_image(T.frozen(tile), variant, card, qubit, n)
    return None if found is None else T.thawed(found)


@cache
def _single_image(tile: str | tuple[str, ...], variant: str, card: str, q: int, n: int
                  ) -> str | tuple[str, ...] | None:
    desc = T.thawed(tile)
    frame = card in FRAME_CARDS and T.is_u_decorated(desc, q)
    gate = quantum.GATES[card]
    psi = quantum.apply(T.state(desc), quantum.U @ gate @ quantum.U if frame else gate, [q], n)
    expected = T.decorations(desc)
    if card == "U":
        expected = _toggle(expected, f"U@{q}")
    elif card == "H" and not frame and isinstance(desc, str) and n == 2:
        expected = _toggle(expected, "H")
    new = T.recognise(psi, T.tile_set(variant), expected)
    return None if new is None else T.frozen(new)


def play_cx(board: Board, variant: str, control: int, target: int
            ) -> tuple[Board, list[dict[str, Any]]]:
    """Play CX with ``control`` and ``target`` squares."""
    ic, it, squares, new_members = _cx_members(board, variant, control, target)
    rest = [c for k, c in enumerate(board) if k not in (ic, it)]
    new_comps = make_component(squares, new_members)
    ops = [{"op": "gate", "gate": "CX", "squares": [control, target], "frame": False}]
    return sort_board(rest + new_comps), ops


def _cx_members(board: Board, variant: str, control: int, target: int, weighted: bool = True
                ) -> tuple[int, int, list[int], list[tuple[Any, Any]]]:
    """What CX from ``control`` to ``target`` does, checked: the indices of the two components
    touched, their squares and the members they become (raises CardError when not legal); with
    ``weighted`` false the members' weights are left out (None): a check of legality only."""
    def members(comp: dict) -> list[tuple[Any, Any]]:
        return members_of(comp) if weighted else [(m["tile"], None) for m in comp["members"]]

    if control == target:
        raise CardError("same_square", gettext_noop("CX needs two different squares"))
    ic, it = component_index(board, control), component_index(board, target)
    squares = sorted([control, target])
    if ic == it:
        comp = board[ic]
        pairs = members(comp)
    else:
        if len(board[ic]["squares"]) == 2 or len(board[it]["squares"]) == 2:
            sq = control if len(board[ic]["squares"]) == 2 else target
            raise CardError("pair_cx", gettext_noop(
                "square %(square)s is part of a pair: a CX between a square of a pair and another "
                "square is not allowed"), {"square": sq})
        first, second = (board[ic], board[it]) if control < target else (board[it], board[ic])
        pairs = [([a, b], wa * wb if weighted else None) for a, wa in members(first) for b, wb in members(second)]
    for tile, _w in pairs:
        if T.is_decorated(tile):
            raise CardError("decorated_cx", gettext_noop(
                "CX acts only on undecorated tiles (the %(tile)s is decorated)"),
                {"tile": T.tile_name(tile)})
    qc, qt = squares.index(control), squares.index(target)
    new_members = []
    for tile, w in pairs:
        new = cx_image(tile, variant, qc, qt)
        if new is None:
            raise CardError("not_a_tile", gettext_noop(
                "CX from square %(control)s to square %(target)s would turn the %(tile)s into a "
                "state that is not a tile of the %(variant)s variant"),
                {"control": control, "target": target, "tile": T.tile_name(tile), "variant": variant})
        new_members.append((new, w))
    return ic, it, squares, new_members


def cx_image(tile: str | list[str], variant: str, control: int, target: int) -> str | list[str] | None:
    """The tile that CX from qubit ``control`` to ``target`` (0 or 1: the tile's lower square
    first) makes of an undecorated two-square ``tile``, None when that state is no tile of the
    ``variant``. Simulated once per process for each (tile, variant, qubits): the legal targets
    of CX try every pair of squares on every board."""
    found = _cx_image(T.frozen(tile), variant, control, target)
    return None if found is None else T.thawed(found)


@cache
def _cx_image(tile: str | tuple[str, ...], variant: str, control: int, target: int) -> str | tuple[str, ...] | None:
    psi = quantum.apply(T.state(T.thawed(tile)), quantum.CX, [control, target], 2)
    new = T.recognise(psi, T.tile_set(variant), frozenset())
    return None if new is None else T.frozen(new)


def play(board: Board, variant: str, card: str, squares: list[int]
         ) -> tuple[Board, list[dict[str, Any]]]:
    """Play ``card`` on ``squares`` (validated shapes); raises CardError when not legal."""
    if card == "I":
        return board, []
    if card == "CX":
        return play_cx(board, variant, squares[0], squares[1])
    return play_single(board, variant, card, squares[0])


def legal_targets(board: Board, variant: str, card: str) -> list[list[int]]:
    """Every target of ``card`` that is legal on ``board`` ([] for I: it needs no square)."""
    out: list[list[int]] = []
    if card == "I":
        return [[]]
    if card == "CX":
        comp_of = {s: component_index(board, s) for s in range(1, 10)}
        for c in range(1, 10):
            for t in range(1, 10):
                if c == t:
                    continue
                same = comp_of[c] == comp_of[t]
                if not same and (len(board[comp_of[c]]["squares"]) == 2
                                 or len(board[comp_of[t]]["squares"]) == 2):
                    continue
                try:
                    _cx_members(board, variant, c, t, weighted=False)  # (legal: the board it makes is not needed)
                except CardError:
                    continue
                out.append([c, t])
        return out
    for comp in board:  # (legal: every member has a tile for its image; the board it makes is not needed)
        n = len(comp["squares"])
        for q, s in enumerate(comp["squares"]):
            if all(single_image(m["tile"], variant, card, q, n) is not None for m in comp["members"]):
                out.append([s])
    return sorted(out)


def physical_matrix(card: str, frame: bool) -> np.ndarray:
    g = quantum.GATES[card]
    return quantum.U @ g @ quantum.U if frame else g


def card_squares(card: str, action: dict) -> list[int]:
    """The squares a card action names, checked for shape: none or one for I, [control, target]
    for CX, one square for the others, each 1–9. Raises IllegalAction saying what is wrong."""
    def is_square(x: Any) -> bool:
        return is_int(x) and 1 <= x <= 9

    need = None if card == "I" else 2 if card == "CX" else 1
    if not set(action) <= {"card", "squares"} or (need is not None and "squares" not in action):
        if need is None:
            raise IllegalAction("bad_action", gettext_noop("this action needs exactly the keys ['card'] (optional ['squares'])"))
        raise IllegalAction("bad_action", gettext_noop("this action needs exactly the keys ['card', 'squares']"))
    squares = action.get("squares", [])
    if need is None:
        if not isinstance(squares, list) or len(squares) > 1 or not all(is_square(s) for s in squares):
            raise IllegalAction("bad_squares", gettext_noop("I takes no square (or one square 1–9)"))
        return []
    if not isinstance(squares, list) or len(squares) != need or not all(is_square(s) for s in squares):
        if card == "CX":
            raise IllegalAction("bad_squares", gettext_noop("CX needs two squares numbered 1–9, as [control, target]"))
        raise IllegalAction("bad_squares", gettext_noop("%(card)s needs one square numbered 1–9"), {"card": card})
    return list(squares)


def check_play(board: Board, variant: str, hand: list[str], action: dict
               ) -> tuple[str, list[int], Board, list[dict]]:
    """The one check of a card action (``{"card", "squares"}`` or ``{"card", "discard": true}``)
    against a board and the hand it is played from, shared by ``flow`` (apply) and ``preview``.

    Returns ``(card, squares, board after, circuit ops)``; a discard names no square, leaves
    the board as it is and adds no op. Raises IllegalAction saying what is wrong."""
    card = action.get("card")
    if card not in CARDS or card not in deck_composition(variant):
        raise IllegalAction("unknown_card", gettext_noop("%(card)r is not a card of this game"), {"card": card})
    if card not in hand:
        raise IllegalAction("not_in_hand", gettext_noop("there is no %(card)s card in your hand"), {"card": card})
    if "discard" in action:
        if set(action) != {"card", "discard"}:
            raise IllegalAction("bad_action", gettext_noop("this action needs exactly the keys ['card', 'discard']"))
        if action["discard"] is not True:
            raise IllegalAction("bad_action", gettext_noop("discard with {\"discard\": true}"))
        if legal_targets(board, variant, card):
            raise IllegalAction("has_target", gettext_noop("the %(card)s card has a legal target: it may be discarded "
                                                           "only when it cannot be played"), {"card": card})
        return card, [], board, []
    squares = card_squares(card, action)
    try:
        after, ops = play(board, variant, card, squares)
    except CardError as exc:
        raise IllegalAction(exc.code, exc.msgid, exc.params) from None
    return card, squares, after, ops

"""Previews and explanations of a card play ("the board that teaches").

``preview(state, seat, action)`` applies ONLY the card's quantum effect to the board: no draw,
no turn change, no measurement, no noise roll — no chance at all, so nothing about the future
leaks. It returns::

    {"action": {...}, "board": {"components", "squares"} (view format),
     "analysis": {"p_white", "expected_qtris", "p_win", ["expected_scores", "p_win_sides"]},
     "delta": {the same keys: after − before},
     "explain": {"gate", "squares", "matrix", "frame", "before", "after", "before_parts",
                 "after_parts", "text", "changes"}}

It never contains the deck or any hand. ``explain_play(before, after, variant, card, squares)``
is the same explanation, used by ``flow`` for the optional ``explain`` field of "play" events.
"""
from __future__ import annotations

import copy
from typing import Any

import quantum
from games.engines.base import (
    Action,
    IllegalAction,
    State,
    gettext_noop,
    is_int,
    message,
    render_text,
)

from . import tiles as T
from .analysis import analyse_board, describe_square, describe_square_message
from .board import Board, component_index, display_squares, members_of, p_white
from .cards import FRAME_CARDS, check_play, physical_matrix
from .texts import EVENT_TEXTS

CARD_WORDS = {
    "I": "The I card does nothing: it is a way to pass.",
    "X": "X is the “change colour” card: white becomes black and black becomes white. "
         "A kitten (half-black circle) has no colour yet, so X leaves it as it is.",
    "Y": "Y changes both the colour and the orientation: white ↔ black, and a kitten turns "
         "from right to left (or back).",
    "Z": "Z is the “change orientation” card: a kitten turned right turns left and back. "
         "White and black circles do not change — but the hidden sign of the kitten does, "
         "and the H card can turn that sign into a colour.",
    "H": "H swaps colour and orientation: white ↔ kitten turned right, black ↔ kitten turned "
         "left. From a kitten, H gives a sure colour: a superposition can be turned into "
         "certainty, a bag of mixed tiles cannot.",
    "S": "S gives a kitten a quarter turn: right → up → left → down → right. "
         "White and black do not change.",
    "U": "U puts a pink U decoration under the tile (or takes it away: U twice is nothing). "
         "A decorated tile is a lopsided superposition: U·white is white 25% of the time, "
         "U·black 75%, U·kitten-right 93%, U·kitten-left 7%.",
    "CX": "CX (controlled-X) acts on two squares: if the control square is black, the target "
          "changes colour; if it is white, nothing happens. A kitten as control is both at "
          "once: the two squares become an entangled pair (yellow triangles) whose colours "
          "will come out correlated — or anti-correlated — when measured. CX on the two "
          "squares of a pair undoes the entanglement.",
}
FRAME_WORDS = ("The square is U-decorated, so the card acts on the tile under the pink "
               "decoration: the physical operation is U·{g}·U and the decoration stays.")
PAIR_H_WORDS = ("H on a square of a pair adds (or removes) the red H decoration of the pair: "
                "then all four colour outcomes are equally likely.")


def explain_text(messages: list[dict], translate=lambda text: text) -> str:
    """The explanation's sentences as one text (English unless ``translate`` is given)."""
    return " ".join(render_text(EVENT_TEXTS, m["code"], m["params"], translate) for m in messages)


def _component_text(comp: dict) -> tuple[str, list[dict[str, Any]]]:
    ms = members_of(comp)
    parts = []
    for tile, w in ms:
        parts.append({"weight": str(w), "p": float(w), "symbolic": T.symbolic_ket(tile),
                      "ket": quantum.kets.numeric(T.state(tile)), "name": T.tile_name(tile)})
    sq = comp["squares"]
    where = f"square {sq[0]}" if len(sq) == 1 else f"squares {sq[0]}–{sq[1]}"
    if len(parts) == 1:
        return f"{where}: {parts[0]['symbolic']}", parts
    mix = " ; ".join(f"{p['weight']} × {p['symbolic']}" for p in parts)
    return f"{where}: mixture {{{mix}}}", parts


def _touched(board: Board, squares: list[int]) -> list[dict]:
    seen: list[int] = []
    for s in squares:
        i = component_index(board, s)
        if i not in seen:
            seen.append(i)
    return sorted((board[i] for i in seen), key=lambda c: c["squares"][0])


def _texts(board: Board, squares: list[int]) -> tuple[list[str], list[list[dict[str, Any]]]]:
    texts, parts = [], []
    for comp in (_touched(board, squares) if squares else []):
        text, ps = _component_text(comp)
        texts.append(text)
        parts.append(ps)
    return texts, parts




def explain_play(before: Board, after: Board, variant: str, card: str, squares: list[int],
                 compact: bool = False) -> dict[str, Any]:
    """Plain-words explanation of ``card`` on ``squares`` taking ``before`` to ``after``
    (``compact``: without the per-member ket lists, for events kept in the state)."""
    frame = False
    if card in FRAME_CARDS and squares:
        comp = before[component_index(before, squares[0])]
        q = comp["squares"].index(squares[0])
        frame = any(T.is_u_decorated(t, q) for t, _ in members_of(comp))
    matrix = quantum.kets.matrix(physical_matrix(card, frame)) if card != "I" else [["1", "0"], ["0", "1"]]
    touched_squares = sorted({s for c in _touched(before, squares) + _touched(after, squares)
                              for s in c["squares"]}) if squares else []
    b_texts, b_parts = _texts(before, squares)
    a_texts, a_parts = _texts(after, squares)
    pw_b, pw_a = p_white(before), p_white(after)
    changes = []
    for s in touched_squares:
        changes.append({"square": s, "before": describe_square(before, s),
                        "after": describe_square(after, s),
                        "before_message": describe_square_message(before, s),
                        "after_message": describe_square_message(after, s),
                        "p_white_before": pw_b[s - 1], "p_white_after": pw_a[s - 1]})
    words = [message(f"card_{card}")] if card in CARD_WORDS else []
    if frame:
        words.append(message("frame", gate=card))
    if card == "H" and squares and len(before[component_index(before, squares[0])]["squares"]) == 2 \
            and not frame and any(isinstance(t, str) and T.n_qubits(t) == 2
                                  for t, _ in members_of(before[component_index(before, squares[0])])):
        words.append(message("pair_h"))
    for ch in changes:
        if ch["before"] == ch["after"]:
            words.append(message("stays", square=ch["square"], tile=ch["before_message"]))
        else:
            words.append(message("becomes", square=ch["square"], before=ch["before_message"],
                                 after=ch["after_message"]))
        if abs(ch["p_white_before"] - ch["p_white_after"]) > 1e-9:
            words.append(message("chance_white", square=ch["square"],
                                 before=round(100 * ch["p_white_before"]),
                                 after=round(100 * ch["p_white_after"])))
    if card == "CX" and len(squares) == 2:
        words.insert(1, message("control_target", control=squares[0], target=squares[1]))
    out = {"gate": card, "squares": list(squares), "frame": frame, "matrix": matrix,
           "before": " ⊗ ".join(b_texts) if b_texts else "",
           "after": " ⊗ ".join(a_texts) if a_texts else "",
           "changes": changes, "messages": words, "text": explain_text(words)}
    if not compact:
        out["before_parts"] = [list(p) for p in b_parts]
        out["after_parts"] = [list(p) for p in a_parts]
    return out


ODDS_KEYS = ("p_white", "expected_qtris", "p_win", "expected_scores", "p_win_sides")


def odds(board: Board, colors: list[str] | None, variant: str) -> dict[str, Any]:
    full = analyse_board(board, colors, variant)
    return {k: full[k] for k in ODDS_KEYS + ("eve",) if k in full}


def _diff(a: Any, b: Any) -> Any:
    if isinstance(a, dict):
        return {k: _diff(a[k], b[k]) for k in a if k in b}
    if isinstance(a, list):
        return [_diff(x, y) for x, y in zip(a, b, strict=True)]
    return float(b) - float(a)


def preview(game, state: State, seat: int, action: Action) -> dict[str, Any]:
    """What ``action`` would do to the board (see module docstring). Raises IllegalAction."""
    if not is_int(seat) or seat not in game.to_act(state):
        raise IllegalAction("not_your_turn", gettext_noop("you may not play now, so there is nothing to preview"))
    if state["phase"] != "operations":
        raise IllegalAction("no_preview", gettext_noop("only card plays (in the operations phase) can be previewed"))
    if not isinstance(action, dict):
        raise IllegalAction("bad_action", gettext_noop("an action must be an object"))
    if "eve_measure" in action:
        raise IllegalAction("no_preview", gettext_noop("a measurement cannot be previewed: its result is left to chance"))
    variant = state["variant"]
    side = seat % state["n_sides"]
    board = state["board"]
    colors = state["colors"]
    card, squares, new_board, _ops = check_play(board, variant, state["hands"][side], action)
    before = odds(board, colors, variant)
    after = odds(new_board, colors, variant)
    explain = explain_play(board, new_board, variant, card, squares)
    if "discard" in action:
        explain["messages"] = [message("no_target", card=card)]
        explain["text"] = explain_text(explain["messages"])
    return {"action": {k: v for k, v in action.items()},
            "board": {"components": copy.deepcopy(new_board), "squares": display_squares(new_board)},
            "analysis": after, "delta": _diff(before, after), "explain": explain}

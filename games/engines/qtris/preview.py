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

from typing import Any

import numpy as np

import quantum
from games.engines.base import (
    Action,
    IllegalAction,
    State,
    clone,
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

#: cards whose words differ where the kitten up / down tiles are in play (S expansion, Eve)
S_WORDS = ("X", "Y", "Z", "H")


def card_message(card: str, variant: str) -> dict:
    """The card's words, true of every tile of ``variant`` (X turns a kitten up into a kitten
    down: where those tiles exist, "X leaves a kitten as it is" would be false)."""
    if card in S_WORDS and "UP" in T.tile_set(variant).singles:
        return message(f"card_{card}_s")
    return message(f"card_{card}")


#: ⟨Z⊗Z⟩: +1 when two squares' colours come out the same, −1 when opposite
_ZZ = np.diag([1.0, -1.0, -1.0, 1.0]).astype(complex)


def _entangled(psi: np.ndarray) -> bool:
    """Whether the pure two-square state ``psi`` is entangled: the state of its first square
    alone is mixed (purity below 1, a Schmidt rank of 2)."""
    rho = quantum.reduced_density(psi, [0], 2)
    return float(np.real(np.trace(rho @ rho))) < 1 - 1e-9


def _cx_case(psi: np.ndarray) -> str | None:
    """What CX did to the pure state ``psi`` of its two squares (the control the left factor,
    the target the right one), as a text code, told from the states before and after: a white
    or black control (a sure colour: nothing, or an X on the target), an entangled pair made
    (the colours correlated or anti-correlated), nothing at all (the target is the +1 state of
    X, the kitten turned right), the target's −1 landing on the control (phase kick-back: the
    target is the kitten turned left), a pair separated; None for anything else."""
    out = quantum.CX @ psi
    was, now = _entangled(psi), _entangled(out)
    if was:
        return None if now else "cx_separate"
    p_black = float(np.sum(np.abs(psi[2:]) ** 2))
    if p_black < 1e-9:
        return "cx_white"
    if p_black > 1 - 1e-9:
        return "cx_black"
    if now:
        zz = float(np.real(np.vdot(out, _ZZ @ out)))
        return "cx_entangle_same" if zz > 1 - 1e-9 else "cx_entangle_opposite" if zz < -1 + 1e-9 else None
    if quantum.same_up_to_phase(out, psi):
        return "cx_target_right"
    if quantum.same_up_to_phase(out, np.kron(quantum.Z, quantum.I) @ psi):
        return "cx_kickback"
    return None


def cx_messages(before: Board, control: int, target: int) -> list[dict]:
    """What a CX with ``control`` and ``target`` did, case by case (``_cx_case``, computed from
    each pure state the squares may be in): a white or black control, an entangled pair made,
    nothing, phase kick-back (no entanglement), a pair separated. For a mixture, each case met
    by one of its tiles, after a sentence saying so."""
    ic, it = component_index(before, control), component_index(before, target)
    states: list[np.ndarray] = []
    if ic == it:
        comp = before[ic]
        sq = comp["squares"]
        for tile, _w in members_of(comp):
            if isinstance(tile, str):   # a pair tile: its state, the control's square first
                psi = T.state(tile)
                states.append(psi if sq.index(control) == 0 else quantum.SWAP @ psi)
            else:
                states.append(np.kron(T.state(tile[sq.index(control)]), T.state(tile[sq.index(target)])))
    else:
        states = [np.kron(T.state(c), T.state(t)) for c, _ in members_of(before[ic])
                  for t, _ in members_of(before[it])]
    cases: list[str] = []
    for psi in states:
        code = _cx_case(psi)
        if code and code not in cases:
            cases.append(code)
    out = [message("cx_mixture")] if len(states) > 1 else []
    return out + [message(code) for code in cases]


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
    frame = some_framed = False
    if card in FRAME_CARDS and squares:
        comp = before[component_index(before, squares[0])]
        q = comp["squares"].index(squares[0])
        decorated = [T.is_u_decorated(t, q) for t, _ in members_of(comp)]
        frame = all(decorated)
        some_framed = any(decorated) and not frame
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
    words = [card_message(card, variant)]
    if card == "CX" and len(squares) == 2:
        words.append(message("control_target", control=squares[0], target=squares[1]))
        words += cx_messages(before, squares[0], squares[1])
    if frame:
        words.append(message("frame", gate=card))
    elif some_framed:
        words.append(message("frame_some", gate=card))
    if card == "H" and squares and not frame and not some_framed:
        words += _pair_h(before, after, squares[0])
    for ch in changes:
        same = _same_state(before, after, ch["square"])
        if same == "tiles":
            words.append(message("stays", square=ch["square"], tile=ch["before_message"]))
        else:  # other tiles: a new state, or the same state told by other tiles ({W, B} → {R, L})
            words.append(message("becomes_same" if same == "state" else "becomes", square=ch["square"],
                                 before=ch["before_message"], after=ch["after_message"]))
        if round(100 * ch["p_white_before"]) != round(100 * ch["p_white_after"]):
            words.append(message("chance_white", square=ch["square"],
                                 before=round(100 * ch["p_white_before"]),
                                 after=round(100 * ch["p_white_after"])))
    out = {"gate": card, "squares": list(squares), "frame": frame, "matrix": matrix,
           "before": " ⊗ ".join(b_texts) if b_texts else "",
           "after": " ⊗ ".join(a_texts) if a_texts else "",
           "changes": changes, "messages": words, "text": explain_text(words)}
    if not compact:
        out["before_parts"] = [list(p) for p in b_parts]
        out["after_parts"] = [list(p) for p in a_parts]
    return out


def _same_state(before: Board, after: Board, square: int) -> str | None:
    """Whether the component of ``square`` is the same after the play: ``"tiles"`` (the same
    tiles and weights, in any order), ``"state"`` (other tiles for the same, possibly mixed,
    state: e.g. H turns the mixture {white, black} into {kitten right, kitten left}, the same
    density matrix) or None (a new state)."""
    comp_b = before[component_index(before, square)]
    comp_a = after[component_index(after, square)]
    if comp_b["squares"] != comp_a["squares"]:
        return None
    tiles = [sorted((repr(t), str(w)) for t, w in members_of(c)) for c in (comp_b, comp_a)]
    if tiles[0] == tiles[1]:
        return "tiles"
    rho_b, rho_a = (quantum.mixture_density([(float(w), T.state(t)) for t, w in members_of(c)])
                    for c in (comp_b, comp_a))
    return "state" if np.allclose(rho_b, rho_a, atol=1e-9) else None


def _pair_h(before: Board, after: Board, square: int) -> list[dict]:
    """H on a square of a pair: whether it added or took away the red H decoration."""
    comp_b = before[component_index(before, square)]
    comp_a = after[component_index(after, square)]
    tiles_b = [t for t, _ in members_of(comp_b)]
    tiles_a = [t for t, _ in members_of(comp_a)]
    if not all(isinstance(t, str) and T.n_qubits(t) == 2 for t in tiles_b + tiles_a):
        return []
    had = {"H" in T.decorations(t) for t in tiles_b}
    has = {"H" in T.decorations(t) for t in tiles_a}
    if had == {False} and has == {True}:
        return [message("pair_h_add")]
    if had == {True} and has == {False}:
        return [message("pair_h_remove")]
    return []


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
            "board": {"components": clone(new_board), "squares": display_squares(new_board)},
            "analysis": after, "delta": _diff(before, after), "explain": explain}

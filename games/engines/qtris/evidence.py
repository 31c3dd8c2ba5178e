"""QTris's concept evidence (see "Concept evidence" in games/engines/base.py): what one play
shows of its side's understanding. The board is public and the hand is the mover's own, so
everything here is what the mover could see.

A misconception is claimed only about a play that gave the side less than another legal play
of that moment would have (valued as the strong bot values a play: the exact chance to win
minus the chance to lose, plus a small tie-break on the expected score): a neutral play, when
nothing better was in the hand, is no evidence of anything.

* ``z_on_sure`` (phase, misconception): Z on a sure colour (|0⟩ or |1⟩), which it leaves as it is.
* ``cx_sure_control`` (entanglement, misconception): CX whose control is a sure colour.
* ``h_back_to_theirs`` (interference, misconception): H on a kitten that makes it the other
  side's colour for sure.
* ``h_after_z`` (phase, shows): H on a kitten that Z made, landing on the mover's colour.
* ``h_kitten_to_mine`` (interference, shows): H on a kitten landing on the mover's colour.
* ``bell_pair`` (entanglement, shows): CX from a kitten onto a sure colour making a pair that
  raises the side's chances.
* ``gate_on_mixture`` (noise, misconception): a one-square gate on a mixture that leaves its
  chance of white as it was.
* ``certain_measurement`` (measurement, misconception): Eve measures in a basis where the
  outcome is certain.
"""
from __future__ import annotations

from typing import Any

from games.engines.base import Action, Evidence, State, evidence, gettext_noop, ngettext_lazy

from . import tiles as T
from .analysis import win_metric
from .board import component_index, make_component, measure_component, p_white, sort_board
from .cards import CardError, play

EVIDENCE_TEXTS = {
    "z_on_sure": gettext_noop(
        "Played Z on square %(square)s, which was %(ket)s: Z only changes the sign of |1⟩ "
        "(Z|0⟩ = |0⟩, Z|1⟩ = −|1⟩), so the square's colour and its chances stayed the same."),
    "cx_sure_control": gettext_noop(
        "Played CX with control square %(control)s in %(ket)s, a sure colour: a control in |0⟩ "
        "or |1⟩ never entangles (|0⟩ does nothing, |1⟩ only flips the target); a pair needs a "
        "control in superposition, a kitten."),
    "h_back_to_theirs": gettext_noop(
        "Played H on square %(square)s, a kitten (%(before)s): H does not flip a new coin, it "
        "undoes the H that makes a kitten (H·H = I), so the square became %(after)s, sure to "
        "be the other side's colour."),
    "h_after_z": gettext_noop(
        "Z → H on square %(square)s: the sign Z gave the kitten (%(kitten)s) decided where H took "
        "it, %(after)s, your colour for sure (H|+⟩ = |0⟩, H|−⟩ = |1⟩)."),
    "h_kitten_to_mine": gettext_noop(
        "Played H on square %(square)s, a kitten (%(before)s): its two halves interfered and "
        "it became %(after)s, your colour for sure."),
    "bell_pair": gettext_noop(
        "CX with control square %(control)s in superposition (%(ket)s) and target square "
        "%(target)s made the entangled pair %(pair)s: the two squares' colours are now linked, "
        "and your chances went up."),
    "gate_on_mixture": gettext_noop(
        "Played %(card)s on square %(square)s, a mixture left by noise: its chance of white "
        "stayed %(percent)s%%. A mixture is not a superposition: no gate makes it a sure "
        "colour."),
    "certain_measurement": ngettext_lazy(
        "Measured square %(squares)s in the %(basis)s basis, where the outcome was certain "
        "(%(ket)s): measuring a state of the basis changes nothing and tells nothing new.",
        "Measured squares %(squares)s in the %(basis)s basis, where the outcome was certain "
        "(%(ket)s): measuring a state of the basis changes nothing and tells nothing new.", "#squares"),
}

BASIS_KETS = {"color": "|0⟩, |1⟩", "left-right": "|+⟩, |−⟩", "up-down": "|+i⟩, |−i⟩"}
SURE = {"W": "white", "B": "black"}
KITTENS = ("R", "L")
TOL = 1e-9


def _tile(board: list[dict], square: int) -> str | None:
    """The undecorated single tile on ``square`` when it holds one pure tile, else None."""
    comp = board[component_index(board, square)]
    if len(comp["squares"]) != 1 or len(comp["members"]) != 1:
        return None
    tile = comp["members"][0]["tile"]
    return tile if isinstance(tile, str) and ":" not in tile else None


def _is_mixture(board: list[dict], square: int) -> bool:
    comp = board[component_index(board, square)]
    return len(comp["members"]) > 1


def _colour(state: State, side: int) -> str | None:
    colors = state.get("colors") or []
    return colors[side] if side < len(colors) and colors[side] in ("white", "black") else None


def _value(board: list[dict], variant: str, colors: list[str], side: int, action: Action) -> float:
    """A play's worth to ``side`` (the strong bot's measure; the board after the play)."""
    if "eve_measure" in action:
        spec = action["eve_measure"]
        i = component_index(board, spec["squares"][0])
        comp = board[i]
        total = 0.0
        for _bits, p, post in measure_component(comp, spec["squares"], spec["basis"], T.tile_set(variant)):
            new = sort_board(board[:i] + board[i + 1:] + make_component(comp["squares"], post))
            total += float(p) * win_metric(new, colors, side, variant)
        return total
    if action.get("discard") or action.get("card") == "I":
        return win_metric(board, colors, side, variant)
    try:
        new = play(board, variant, action["card"], action["squares"])[0]
    except CardError:
        return float("-inf")
    return win_metric(new, colors, side, variant)


def _better_play_existed(game: Any, before: State, seat: int, side: int, action: Action) -> bool:
    """Whether another legal play of this moment was worth more to the side than ``action``."""
    colors = before.get("colors") or []
    if len(colors) <= side or any(c not in ("white", "black") for c in colors[:2]):
        return False
    board, variant = before["board"], before["variant"]
    mine = _value(board, variant, colors, side, action)
    seen: set[str] = set()
    for other in game.legal_actions(before, seat):
        key = repr((other.get("card"), other.get("squares"), other.get("eve_measure")))
        if key in seen:
            continue
        seen.add(key)
        if _value(board, variant, colors, side, other) > mine + TOL:
            return True
    return False


def _last_gate_on(state: State, square: int) -> str | None:
    """The last gate played on ``square`` since it was last prepared (the circuit's record)."""
    for op in reversed(state.get("circuit_ops") or []):
        if op.get("op") == "prep":
            if any(square in c["squares"] for c in op.get("components") or []):
                return None
        elif op.get("op") == "measure" and square in op.get("squares", []):
            return None
        elif op.get("op") == "gate" and square in op.get("squares", []):
            return op.get("gate")
    return None


def concept_evidence(game: Any, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
    if before.get("phase") != "operations" or action.get("discard") is True:
        return []
    side = seat % before["n_sides"]
    board, new = before["board"], after["board"]
    found: list[Evidence] = []
    wasted: list[bool] = []

    def worse() -> bool:  # computed once, only for a candidate misconception
        if not wasted:
            wasted.append(_better_play_existed(game, before, seat, side, action))
        return wasted[0]

    mine = _colour(before, side)
    if "eve_measure" in action:
        spec = action["eve_measure"]
        comp = board[component_index(board, spec["squares"][0])]
        outcomes = [o for o in measure_component(comp, spec["squares"], spec["basis"],
                                                 T.tile_set(before["variant"])) if float(o[1]) > TOL]
        if len(outcomes) == 1 and len(comp["members"]) == 1 and worse():
            found.append(evidence(EVIDENCE_TEXTS, "measurement", "misconception", "certain_measurement", {
                "squares": ", ".join(map(str, spec["squares"])), "basis": BASIS_KETS[spec["basis"]],
                "ket": T.symbolic_ket(comp["members"][0]["tile"])}))
        return found
    card, squares = action.get("card"), action.get("squares") or []
    if card == "Z" and len(squares) == 1:
        tile = _tile(board, squares[0])
        if tile in SURE and worse():
            found.append(evidence(EVIDENCE_TEXTS, "phase", "misconception", "z_on_sure",
                                  {"square": squares[0], "ket": T.symbolic_ket(tile)}))
    if card == "H" and len(squares) == 1:
        s = squares[0]
        tile, now = _tile(board, s), _tile(new, s)
        if tile in KITTENS and now in SURE and mine:
            params = {"square": s, "before": T.symbolic_ket(tile), "after": T.symbolic_ket(now)}
            if SURE[now] == mine:
                if _last_gate_on(before, s) == "Z":
                    found.append(evidence(EVIDENCE_TEXTS, "phase", "shows", "h_after_z", {
                        "square": s, "kitten": params["before"], "after": params["after"]}))
                else:
                    found.append(evidence(EVIDENCE_TEXTS, "interference", "shows", "h_kitten_to_mine", params))
            elif worse():
                found.append(evidence(EVIDENCE_TEXTS, "interference", "misconception", "h_back_to_theirs", params))
    if card == "CX" and len(squares) == 2:
        control, target = squares
        tile, other = _tile(board, control), _tile(board, target)
        if tile in SURE and worse():
            found.append(evidence(EVIDENCE_TEXTS, "entanglement", "misconception", "cx_sure_control",
                                  {"control": control, "ket": T.symbolic_ket(tile)}))
        pair = new[component_index(new, control)]
        if (tile in KITTENS and other in SURE and len(pair["squares"]) == 2 and len(pair["members"]) == 1
                and mine and before.get("colors")):
            colors = before["colors"]
            gain = (win_metric(new, colors, side, before["variant"])
                    - win_metric(board, colors, side, before["variant"]))
            if gain > TOL:
                found.append(evidence(EVIDENCE_TEXTS, "entanglement", "shows", "bell_pair", {
                    "control": control, "target": target, "ket": T.symbolic_ket(tile),
                    "pair": T.symbolic_ket(pair["members"][0]["tile"])}))
    if card in ("X", "Y", "Z", "H", "S", "U") and len(squares) == 1 and _is_mixture(board, squares[0]):
        s = squares[0]
        if abs(p_white(board)[s - 1] - p_white(new)[s - 1]) < TOL and worse():
            found.append(evidence(EVIDENCE_TEXTS, "noise", "misconception", "gate_on_mixture", {
                "card": card, "square": s, "percent": round(100 * p_white(board)[s - 1])}))
    return found

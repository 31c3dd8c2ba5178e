"""Navigation: an engine card played for a ship (slot, movement, circuit record, event) and
whether the arrival brings an orbital check (sheet §3, §4, §7.1)."""
from __future__ import annotations

from ..base import State
from . import rules as R
from .planets import PLANETS, SHIPS, SUPERIOUS, inside, move


def gate_of(seat: int, card: str) -> list:
    """The circuit gate of ``card`` played by ``seat`` (q0 Mercurial, q1 Rubicon). CNOT: the
    player's ship is the target, the other ship the control (§3.6)."""
    q = seat
    return {"X": ["x", q], "H": ["h", q], "CNOT": ["cx", 1 - q, q], "SWAP": ["swap", 0, 1]}[card]


def board_differs_from_physics(ships: dict[str, str], seat: int, card: str) -> bool:
    """§3.6: the only move where the board is not the gate: CNOT with both ships in Superious
    and the player's ship (the target) on MINUS (a real CNOT would kick the phase back)."""
    me, them = ships[SHIPS[seat]], ships[SHIPS[1 - seat]]
    return (card == "CNOT" and PLANETS[me] == SUPERIOUS and PLANETS[them] == SUPERIOUS
            and me == "MINUS")


def kickback(ships: dict[str, str], seat: int) -> dict[str, str]:
    """Where a real CNOT would put the other ship when the board leaves it out
    (``board_differs_from_physics``): the phase kicks back onto the control, PLUS ↔ MINUS.
    Text parameters: ``other`` (its name), ``a`` (its planet), ``b`` (where physics takes it)."""
    them = ships[SHIPS[1 - seat]]
    return {"other": R.who(1 - seat), "a": them, "b": {"PLUS": "MINUS", "MINUS": "PLUS"}[them]}


def needs_orbital(state: State, seat: int, before: dict, after: dict) -> bool:
    """§7.1: a navigation that brings the ships to a new Entanglion planet (and Quantum
    Programming does not skip it)."""
    if not inside(after):
        return False
    if inside(before) and before["mercurial"] == after["mercurial"]:
        return False
    return not R.skips_orbital(state, seat, after["mercurial"])


def steer(state: State, seat: int, card: str, events: list, *, via: str) -> tuple[dict, dict]:
    """Play ``card`` for ``seat``'s ship: slot, movement, circuit. Returns (before, after)."""
    before = dict(state["ships"])
    after = move(before, SHIPS[seat], card)
    full = R.fill_slot(state, seat, card)
    if board_differs_from_physics(before, seat, card):
        state["circuit"] = {"start": dict(after), "gates": []}
    else:
        state["circuit"]["gates"].append(gate_of(seat, card))
    state["ships"] = after
    params = {"ship": R.who(seat), "card": card}
    if after == before and board_differs_from_physics(before, seat, card):
        code = "no_effect_kickback"
        params.update(kickback(before, seat))
    elif after == before:
        code = "no_effect"
    elif inside(after) and not inside(before):
        code, params["planet"] = "enter", after["mercurial"]
    elif inside(before) and not inside(after):
        code, params["m"], params["r"] = "exit", after["mercurial"], after["rubicon"]
    elif inside(after):
        code, params["a"], params["b"] = "move_inside", before["mercurial"], after["mercurial"]
    elif card == "SWAP":
        code, params["m"], params["r"] = "swap_outside", before["mercurial"], before["rubicon"]
    else:
        moved = SHIPS[seat] if before[SHIPS[seat]] != after[SHIPS[seat]] else SHIPS[1 - seat]
        code = "move_outside"
        params.update(moved=R.who(SHIPS.index(moved)), a=before[moved], b=after[moved])
    R.emit(events, "play", code, params, seat=seat, card=card, via=via, before=before,
           after=dict(after), slot=len(state["engine_control"]))
    if full:
        R.emit(events, "engine_control", "full")
    return before, after

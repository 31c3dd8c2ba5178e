"""Navigation: an engine card played for a ship (slot, movement, circuit record, event) and
whether the arrival brings an orbital check (sheet §3, §4, §7.1)."""
from __future__ import annotations

from ..base import State
from . import rules as R
from .planets import PLANETS, SHIPS, SUPERIOUS, inside, move

_ = R._


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
    R.fill_slot(state, seat, card, events)
    if board_differs_from_physics(before, seat, card):
        state["circuit"] = {"start": dict(after), "gates": []}
    else:
        state["circuit"]["gates"].append(gate_of(seat, card))
    state["ships"] = after
    if after == before:
        text = _("{who} plays {card}: no path for {ship} here, the ships stay.").format(
            who=R.who(seat), card=card, ship=R.who(seat))
        code = "no_effect"
    elif inside(after) and not inside(before):
        text = _("{who} plays {card}: both ships enter Entanglion at {planet}.").format(
            who=R.who(seat), card=card, planet=after["mercurial"])
        code = "enter"
    elif inside(before) and not inside(after):
        text = _("{who} plays {card}: the ships leave Entanglion, Mercurial to {m}, Rubicon to "
                 "{r}.").format(who=R.who(seat), card=card, m=after["mercurial"],
                                r=after["rubicon"])
        code = "exit"
    elif inside(after):
        text = _("{who} plays {card}: both ships fly from {a} to {b}.").format(
            who=R.who(seat), card=card, a=before["mercurial"], b=after["mercurial"])
        code = "move_inside"
    else:
        moved = [s for s in SHIPS if before[s] != after[s]]
        text = _("{who} plays {card}: {moves}.").format(who=R.who(seat), card=card, moves=", ".join(
            f"{s.capitalize()} {before[s]} → {after[s]}" for s in moved))
        code = "move_outside"
    R.emit(events, "play", code, text, seat=seat, card=card, via=via, before=before,
           after=dict(after), slot=len(state["engine_control"]))
    return before, after

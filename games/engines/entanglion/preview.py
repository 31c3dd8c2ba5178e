"""``preview(state, seat, action)``: where an engine card would take the ships, with no chance
resolved and nothing of the decks revealed. Accepts ``{"play": CARD}`` (with or without
``"tunnel"``) on your turn and ``{"mechanic": CARD}`` during your Mechanic. Returns::

    {"action", "seat", "card", "before": {ships}, "after": {ships}, "moves": bool,
     "enters": bool, "exits": bool, "orbital_check": bool, "component": str|None,
     "gate": [...], "state_before": {ket...}, "state_after": {ket...}, "code", "params",
     "text", "kickback": {"other", "a", "b"} | None}

``kickback``: the CNOT where the board leaves out what a real CNOT would do (both ships in
Superious, the player's ship on MINUS: the other ship would go PLUS ↔ MINUS).
"""
from __future__ import annotations

import json

from ..base import IllegalAction, gettext_noop
from . import rules as R
from .kets import describe
from .navigation import board_differs_from_physics, gate_of, kickback, needs_orbital
from .planets import SHIPS, inside, move
from .texts import render


def _key(action: object) -> str | None:
    try:
        return json.dumps(action, sort_keys=True)
    except (TypeError, ValueError):
        return None


def preview(game, state: dict, seat: int, action: dict) -> dict:
    if state["finished"] or not isinstance(seat, int) or seat not in game.to_act(state):
        raise IllegalAction("not_your_turn", gettext_noop("You may not play now, so there is nothing to "
                                                          "preview."))
    legal = {_key(a) for a in game.legal_actions(state, seat)}
    if not isinstance(action, dict) or _key(action) not in legal:
        raise IllegalAction("no_preview", gettext_noop("Only a legal engine-card play can be previewed."))
    card = action.get("play", action.get("mechanic"))
    if not isinstance(card, str):
        raise IllegalAction("no_preview", gettext_noop("Only engine-card plays can be previewed."))
    before = dict(state["ships"])
    after = move(before, SHIPS[seat], card)
    check = "play" in action and needs_orbital(state, seat, before, after)
    planet = after["mercurial"] if inside(after) else None
    differs = board_differs_from_physics(before, seat, card)
    if after == before:
        code = "preview_stay_kickback" if differs else "preview_stay"
    elif inside(after):
        code = "preview_inside"
    else:
        code = "preview_outside"
    params = {"ship": R.who(seat), "card": card, "planet": planet, "m": after["mercurial"],
              "r": after["rubicon"], **(kickback(before, seat) if differs else {})}
    return {
        "action": dict(action), "seat": seat, "card": card, "before": before, "after": after,
        "moves": after != before, "enters": inside(after) and not inside(before),
        "exits": inside(before) and not inside(after), "orbital_check": check,
        "tunnel": bool(action.get("tunnel")),
        "component": state["planet_components"].get(planet) if planet else None,
        "gate": gate_of(seat, card), "state_before": describe(before),
        "state_after": describe(after),
        "code": code, "params": params, "text": render(code, params),
        # §3.6: the one move where the board is not the gate (a real CNOT would kick the phase
        # back onto the other ship): {"other", "a", "b"}, else None
        "kickback": kickback(before, seat) if differs else None,
    }

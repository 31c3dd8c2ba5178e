"""``preview(state, seat, action)``: where an engine card would take the ships, with no chance
resolved and nothing of the decks revealed. Accepts ``{"play": CARD}`` (with or without
``"tunnel"``) on your turn and ``{"mechanic": CARD}`` during your Mechanic. Returns::

    {"action", "seat", "card", "before": {ships}, "after": {ships}, "moves": bool,
     "enters": bool, "exits": bool, "orbital_check": bool, "component": str|None,
     "gate": [...], "state_before": {ket...}, "state_after": {ket...}, "code", "params",
     "text"}
"""
from __future__ import annotations

import json

from ..base import IllegalAction
from . import rules as R
from .kets import describe
from .navigation import gate_of, needs_orbital
from .planets import SHIPS, inside, move
from .texts import render


def _key(action: object) -> str | None:
    try:
        return json.dumps(action, sort_keys=True)
    except (TypeError, ValueError):
        return None


def preview(game, state: dict, seat: int, action: dict) -> dict:
    if state["finished"] or not isinstance(seat, int) or seat not in game.to_act(state):
        raise IllegalAction("not_your_turn", "You may not play now, so there is nothing to "
                                             "preview.")
    legal = {_key(a) for a in game.legal_actions(state, seat)}
    if not isinstance(action, dict) or _key(action) not in legal:
        raise IllegalAction("no_preview", "Only a legal engine-card play can be previewed.")
    card = action.get("play", action.get("mechanic"))
    if not isinstance(card, str):
        raise IllegalAction("no_preview", "Only engine-card plays can be previewed.")
    before = dict(state["ships"])
    after = move(before, SHIPS[seat], card)
    check = "play" in action and needs_orbital(state, seat, before, after)
    planet = after["mercurial"] if inside(after) else None
    if after == before:
        code = "preview_stay"
    elif inside(after):
        code = "preview_inside"
    else:
        code = "preview_outside"
    params = {"ship": R.who(seat), "card": card, "planet": planet, "m": after["mercurial"],
              "r": after["rubicon"]}
    return {
        "action": dict(action), "seat": seat, "card": card, "before": before, "after": after,
        "moves": after != before, "enters": inside(after) and not inside(before),
        "exits": inside(before) and not inside(after), "orbital_check": check,
        "tunnel": bool(action.get("tunnel")),
        "component": state["planet_components"].get(planet) if planet else None,
        "gate": gate_of(seat, card), "state_before": describe(before),
        "state_after": describe(after),
        "code": code, "params": params, "text": render(code, params),
    }

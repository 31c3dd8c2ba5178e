"""Entanglion's teaching moments (see games/engines/base.py): a CNOT that entangled the two
ships (they enter Entanglion at a Bell planet, and neither ship has a state of its own any
more), and a component retrieved. Public events only (Entanglion has no secrets between the
partners, but the rule holds for every game)."""
from __future__ import annotations

import quantum

from ..base import Event, Moment, moment, public
from .planets import BELL, SHIPS, STATE
from .texts import EVENT_TEXTS


def teaching_moments(events: list[Event], history: list[list[Event]]) -> list[Moment]:
    out: list[Moment] = []
    for e in public(events):
        if e.get("type") == "play" and e.get("code") == "enter" and e.get("card") == "CNOT":
            found = _entangled(e)
            if found:
                out.append(found)
        elif e.get("type") == "ground" and e.get("code") == "retrieved":
            out.append(moment(EVENT_TEXTS, "moment_retrieved", dict(e["params"]))
                       | {"kind": "retrieved", "component": e["component"], "planet": e["planet"]})
    return out


def _entangled(e: Event) -> Moment | None:
    """The CNOT's physics (the playing ship the target, the other the control, §3.6) must take
    the two ships' states to the Bell planet entered, and that state must not be a product."""
    before, after = e["before"], e["after"]["mercurial"]
    if after not in BELL or any(before[s] not in STATE or STATE[before[s]].size != 2 for s in SHIPS):
        return None
    target = e["seat"]
    psi = quantum.kron(STATE[before["mercurial"]], STATE[before["rubicon"]])
    psi = quantum.apply(psi, quantum.CX, [1 - target, target], 2)
    if not quantum.same_up_to_phase(psi, STATE[after]) or quantum.split_product(psi) is not None:
        return None
    return moment(EVENT_TEXTS, "moment_entangled", {
        "ship": e["params"]["ship"], "control": _name(1 - target), "m": before["mercurial"],
        "r": before["rubicon"], "planet": after,
    }) | {"kind": "entangled", "before": dict(before), "planet": after, "control": SHIPS[1 - target]}


def _name(seat: int) -> str:
    return SHIPS[seat].capitalize()

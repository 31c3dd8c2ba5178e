"""Entanglion's concept evidence (see "Concept evidence" in games/engines/base.py): what an
engine card played for one's own ship shows. Everything it reads is open between the partners
(the ships, the hands); the move is judged by where the card takes the ships on the board
(``planets.move``, the real gates up to global phase, rules §3.6), not by a later detection.

Entanglion claims no misconception: a card that moves nothing (CNOT with the control in ZERO or
ONE, X on PLUS or MINUS, a card with no path inside Entanglion) is also the partner bot's fair
way to change a card or to wait out a high detection rate, so it shows no wrong idea by itself.

* ``cnot_entry`` (entanglement, shows): CNOT that takes both ships into Entanglion.
* ``cnot_exit`` (entanglement, shows): CNOT on a Bell planet that takes the ships out.
* ``h_prepares_entry`` (superposition, shows): H from Centarious to Superious while the other
  ship waits in Centarious.
* ``h_inside`` (superposition, shows): H on one ship inside Entanglion that moves both.
* ``swap_omega`` (entanglement, shows): SWAP between OMEGA ZERO and OMEGA THREE.
"""
from __future__ import annotations

from games.engines.base import Action, Evidence, State, evidence, gettext_noop

from .planets import BELL, CENTARIOUS, PLANETS, SHIPS, inside, move, other

EVIDENCE_TEXTS = {
    "cnot_entry": gettext_noop(
        "%(ship)s played CNOT from %(target)s with the control on %(control)s, in superposition: "
        "both ships entered the entangled planet %(planet)s."),
    "cnot_exit": gettext_noop(
        "%(ship)s played CNOT on %(planet)s: the CNOT undid the entanglement, and the ships left "
        "Entanglion for %(mine)s and %(theirs)s."),
    "h_prepares_entry": gettext_noop(
        "%(ship)s played H from %(before)s to %(after)s: a superposition that the other ship, "
        "still in Centarious, can entangle with a CNOT."),
    "h_inside": gettext_noop(
        "%(ship)s played H on its own qubit and both ships went from %(before)s to %(after)s: "
        "a gate on one half of an entangled pair changes the state of the pair."),
    "swap_omega": gettext_noop(
        "%(ship)s played SWAP and the ships went from %(before)s to %(after)s: exchanging the two "
        "qubits of this entangled state gives another one."),
}

NAMES = {"mercurial": "Mercurial", "rubicon": "Rubicon"}


def concept_evidence(before: State, seat: int, action: Action, after: State) -> list[Evidence]:
    card = action.get("play")
    if not isinstance(card, str) or before.get("pending") is not None or before.get("finished"):
        return []
    ship = SHIPS[seat]
    ships = dict(before["ships"])
    moved = move(ships, ship, card)
    mine, theirs = ships[ship], ships[other(ship)]
    name = NAMES[ship]
    if inside(ships):
        if card == "CNOT" and mine in BELL and not inside(moved):
            return [evidence(EVIDENCE_TEXTS, "entanglement", "shows", "cnot_exit", {
                "ship": name, "planet": mine, "mine": moved[ship], "theirs": moved[other(ship)]})]
        if card == "H" and moved != ships:
            return [evidence(EVIDENCE_TEXTS, "superposition", "shows", "h_inside",
                             {"ship": name, "before": mine, "after": moved[ship]})]
        if card == "SWAP" and moved != ships:
            return [evidence(EVIDENCE_TEXTS, "entanglement", "shows", "swap_omega",
                             {"ship": name, "before": mine, "after": moved[ship]})]
        return []
    if card == "CNOT" and inside(moved):
        return [evidence(EVIDENCE_TEXTS, "entanglement", "shows", "cnot_entry", {
            "ship": name, "target": mine, "control": theirs, "planet": moved[ship]})]
    if card == "H" and PLANETS[mine] == CENTARIOUS and PLANETS[theirs] == CENTARIOUS:
        return [evidence(EVIDENCE_TEXTS, "superposition", "shows", "h_prepares_entry",
                         {"ship": name, "before": mine, "after": moved[ship]})]
    return []

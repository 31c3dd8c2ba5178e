"""Event texts: ``{code: English msgid with %(param)s}``, one code per text, declared on the
Game as ``event_texts`` so the platform can render an event in the reader's language from its
``code`` and ``params``. A param may itself be a message ``{"code", "params"}`` (translated
too) or a list (joined with ", "). Names of ships, planets, cards and components are the
game's proper names and stay as they are.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def gettext_noop(text: str) -> str:
    """Marks an English msgid for ``make messages`` (engines do not import Django); the
    platform translates it when it renders an event for a reader."""
    return text


_ = gettext_noop


EVENT_TEXTS: dict[str, str] = {
    # setup and turns
    "setup": _("The 8 quantum components are placed on the Entanglion planets; detection "
               "starts at %(rate)s."),
    "first_player_roll": _("First player: Mercurial rolls %(a)s, Rubicon rolls %(b)s."),
    "first_player_tie": _("First player: Mercurial rolls %(a)s, Rubicon rolls %(b)s, a tie: "
                          "roll again."),
    "placement_roll": _("%(ship)s rolls the Centarious die: %(face)s, the ship starts on "
                        "%(planet)s."),
    "first_turn": _("%(ship)s goes first."),
    "turn": _("%(ship)s's turn."),
    # dice
    "entanglion_die": _("%(ship)s rolls the Entanglion die for %(purpose)s: %(rolls)s%(mod)s = "
                        "%(total)s (needs %(need)s or more): %(verdict)s."),
    "rolled_again": _("%(first)s, Magnetic Shielding: rolled again %(second)s"),
    "purpose_orbital": _("the orbital defense of %(planet)s"),
    "purpose_ground": _("the ground defense of %(planet)s"),
    "purpose_probe": _("PROBE"),
    "passed": _("passed"),
    "failed": _("failed"),
    "centarious_die": _("The Centarious die shows %(face)s."),
    "heisenberg_roll": _("Heisenberg: the Entanglion die shows %(roll)s."),
    "spooky_roll": _("Spooky Action: the Entanglion die shows %(roll)s."),
    # engine cards
    "draw": _("%(ship)s draws %(cards)s."),
    "probe_drawn": _("%(ship)s draws PROBE and rolls for it."),
    "reshuffle": _("The engine stack is empty: the discard pile is shuffled into a new stack."),
    "full": _("All 6 engine-control slots are full: a quantum event happens at the end of the "
              "turn."),
    "cleared": _("Engine control is cleared into the engine discard pile."),
    "exchange": _("%(ship)s discards %(card)s to draw anew."),
    "keep_one": _("Quantum Gates: %(ship)s draws %(a)s and %(b)s and keeps one."),
    "gates_kept": _("%(ship)s keeps %(card)s and discards %(other)s."),
    "discard": _("%(ship)s discards %(card)s."),
    "discard_down": _("Dilution Refrigerator: %(ship)s discards one engine card."),
    "trade": _("Qubit Interconnect: %(ship)s trades %(give)s for %(other)s's %(take)s."),
    # navigation
    "no_effect": _("%(ship)s plays %(card)s: no path for %(ship)s here, the ships stay."),
    # §3.6: both ships in Superious, the CNOT player's ship (the target) on MINUS
    "no_effect_kickback": _("%(ship)s plays %(card)s: no path for %(ship)s here, the ships stay. A "
                            "real CNOT would change the state here: with %(ship)s on MINUS as the "
                            "target, the phase kicks back and %(other)s would go from %(a)s to "
                            "%(b)s. The board leaves this out."),
    "enter": _("%(ship)s plays %(card)s: both ships enter Entanglion at %(planet)s."),
    "exit": _("%(ship)s plays %(card)s: the ships leave Entanglion, Mercurial to %(m)s, Rubicon "
              "to %(r)s."),
    "move_inside": _("%(ship)s plays %(card)s: both ships fly from %(a)s to %(b)s."),
    "move_outside": _("%(ship)s plays %(card)s: %(moved)s %(a)s → %(b)s."),
    "swap_outside": _("%(ship)s plays %(card)s: Mercurial %(m)s → %(r)s, Rubicon %(r)s → %(m)s."),
    # defenses
    "not_seen": _("The ships are not seen and orbit %(planet)s."),
    "detected": _("Orbital defenses of %(planet)s detect the ships!"),
    "skipped_programming": _("Quantum Programming: no component on %(planet)s, no orbital "
                             "check."),
    "detected_jump": _("Both ships jump to %(planet)s."),
    "choose_landing": _("Physical Qubits: %(ship)s chooses ZERO or ONE for each ship."),
    "chosen_jump": _("Physical Qubits: Mercurial jumps to %(m)s, Rubicon to %(r)s."),
    "retrieved": _("%(ship)s retrieves %(component)s from %(planet)s."),
    "retrieve_failed": _("Ground defenses stop the retrieval of %(component)s."),
    # teaching moments (moments.py)
    "moment_entangled": _("%(ship)s's CNOT (control: %(control)s) entangled the ships: Mercurial on "
                          "%(m)s and Rubicon on %(r)s became the Bell state %(planet)s, where "
                          "neither ship has a state of its own."),
    "moment_retrieved": _("%(ship)s retrieved %(component)s from %(planet)s."),
    "quantum_tunnel": _("%(ship)s plays Quantum Tunnel: %(what)s is cancelled."),
    "what_orbital": _("the orbital check"),
    "what_ground": _("the ground defense check"),
    # detection track
    "detection_up": _("Detection rises to %(rate)s (%(cause)s)."),
    "cause_probe": _("PROBE"),
    "cause_orbital": _("orbital detection"),
    "cause_retrieval": _("a failed retrieval"),
    "cause_schrodinger": _("Schrödinger"),
    "bit_flip": _("Bit Flip Error: the detection token goes to the first 4 (rate %(rate)s)."),
    "wave_collapse": _("Wave Function Collapse: detection two spaces back (rate %(rate)s)."),
    # quantum events
    "event_drawn": _("Quantum event (%(cause)s): %(ship)s draws %(card)s."),
    "cause_detection": _("detection"),
    "cause_engine_control": _("engine control full"),
    "event_drawn_again": _("%(ship)s draws %(card)s."),
    "kept": _("%(ship)s keeps %(card)s for later."),
    "played": _("%(ship)s plays %(card)s."),
    "quantum_shuffle": _("Quantum Shuffle: the event deck is rebuilt; another event card is "
                         "drawn."),
    "spooky_nothing": _("Spooky Action: %(ship)s's ship holds no component, nothing happens."),
    "spooky_action": _("Spooky Action: %(component)s flies from %(ship)s's ship to %(planet)s."),
    "heisenberg": _("Heisenberg: both ships jump to %(planet)s, with no orbital check."),
    "bennett": _("Bennett: %(component)s moves from %(giver)s's ship to %(taker)s's."),
    "mechanic": _("The Mechanic: %(ship)s puts the hand aside and draws %(cards)s; play up to "
                  "two of them."),
    "mechanic_done": _("The Mechanic is done: %(ship)s discards %(cards)s and takes the hand "
                       "back."),
    "nothing": _("nothing"),
    # previews
    "preview_stay": _("No path for %(ship)s with %(card)s here: the ships would stay."),
    "preview_stay_kickback": _("No path for %(ship)s with %(card)s here: the ships would stay. A "
                               "real CNOT would change the state here (%(other)s from %(a)s to "
                               "%(b)s, phase kick-back); the board leaves this out."),
    "preview_inside": _("%(card)s would take both ships to %(planet)s."),
    "preview_outside": _("%(card)s would take Mercurial to %(m)s and Rubicon to %(r)s."),
    # end
    "lost": _("The detection token reaches X: the ships are caught and both players lose."),
    "won": _("All 8 quantum components are on board: together Mercurial and Rubicon win!"),
    "time_up": _("Time is up: the mission ends with %(components)s of 8 quantum components on "
                 "board, so it is not won."),
}


def message(code: str, **params: Any) -> dict:
    """A translatable part of a text: rendered through ``EVENT_TEXTS`` as well."""
    return {"code": code, "params": params}


def render(code: str, params: Mapping[str, Any], translate=lambda text: text) -> str:
    def value(v: Any) -> Any:
        if isinstance(v, dict) and "code" in v:
            return render(v["code"], v.get("params") or {}, translate)
        if isinstance(v, list):
            return ", ".join(str(value(x)) for x in v)
        return v

    return translate(EVENT_TEXTS[code]) % {k: value(v) for k, v in params.items()}

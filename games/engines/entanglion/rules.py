"""The rules that change a running state: drawing (with PROBE), dice with component modifiers,
the detection track, defenses, quantum events and the component effects (sheet §4–§9).

Every function takes the (already cloned) state, the action's PRNG and the list of events it
appends to. Steps that wait for a player's decision leave ``state["pending"]``; ``run`` works
through ``state["queue"]`` until it is empty, a decision is awaited or the game is over.
"""
from __future__ import annotations

import random

from .cards import (
    BIT_FLIP,
    COMPONENTS,
    CONTROL_INFRASTRUCTURE,
    DILUTION_REFRIGERATOR,
    FIRST_FOUR,
    HAND_SIZE,
    KEEP_CARDS,
    LOSS_INDEX,
    MAGNETIC_SHIELDING,
    PHYSICAL_QUBITS,
    PROBE,
    QUANTUM_ERROR_CORRECTION,
    QUANTUM_PROGRAMMING,
    QUANTUM_SHUFFLE,
    QUANTUM_TUNNEL,
    SCHRODINGER,
    SLOTS,
    SPOOKY,
    TRACK,
    WAVE_COLLAPSE,
    centarious_die,
    entanglion_die,
    event_deck_from,
)
from .planets import ENTANGLION_PLANETS, ring_count


def _(text: str) -> str:
    """Marks an English text for translation (engines do not import Django)."""
    return text


def who(seat: int) -> str:
    return ("Mercurial", "Rubicon")[seat]


def emit(events: list, type_: str, code: str, text: str, **params) -> dict:
    event = {"type": type_, "code": code, "text": text, **params}
    events.append(event)
    return event


# ----------------------------------------------------------------------------- components

def holds(state: dict, seat: int, component: str) -> bool:
    return component in state["held"][seat]


def hand_limit(state: dict, seat: int) -> int:
    return 2 if holds(state, seat, DILUTION_REFRIGERATOR) else HAND_SIZE


def modifier(state: dict, seat: int) -> int:
    """§8: +1 with Quantum Error Correction, −1 with Control Infrastructure (defense rolls)."""
    return (holds(state, seat, QUANTUM_ERROR_CORRECTION)
            - holds(state, seat, CONTROL_INFRASTRUCTURE))


def found(state: dict) -> int:
    return sum(len(h) for h in state["held"])


def skips_orbital(state: dict, seat: int, planet: str) -> bool:
    """§8 Quantum Programming: the navigator holds it and the planet holds no component."""
    return holds(state, seat, QUANTUM_PROGRAMMING) and planet not in state["planet_components"]


# ----------------------------------------------------------------------------- track

def raise_detection(state: dict, events: list, why: str, steps: int = 1) -> None:
    before = state["detection"]
    state["detection"] = min(LOSS_INDEX, before + steps)
    emit(events, "detection", "detection_up", _("Detection rises to {rate} ({why}).").format(
        rate=TRACK[state["detection"]], why=why), before=before, index=state["detection"],
        rate=TRACK[state["detection"]], cause=why)
    if state["detection"] >= LOSS_INDEX:
        lose(state, events)


def set_detection(state: dict, events: list, index: int, code: str, text: str) -> None:
    before = state["detection"]
    state["detection"] = max(0, min(LOSS_INDEX - 1, index))
    emit(events, "detection", code, text.format(rate=TRACK[state["detection"]]),
         before=before, index=state["detection"], rate=TRACK[state["detection"]])


def lose(state: dict, events: list) -> None:
    state["finished"] = True
    state["result"] = "lost"
    state["queue"] = []
    state["pending"] = None
    emit(events, "game_end", "lost", _("The detection token reaches X: the ships are caught "
                                       "and both players lose."),
         result="lost", components=found(state))


def check_win(state: dict, events: list) -> None:
    if not state["finished"] and found(state) == len(COMPONENTS):
        state["finished"] = True
        state["result"] = "won"
        state["queue"] = []
        state["pending"] = None
        emit(events, "game_end", "won", _("All 8 quantum components are on board: together "
                                          "Mercurial and Rubicon win!"),
             result="won", components=found(state))


# ----------------------------------------------------------------------------- dice

def defense_roll(state: dict, seat: int, rng: random.Random, events: list, purpose: str,
                 need: int) -> bool:
    """Roll the d8 for ``seat`` with its modifiers; pass when the result is at least ``need``.
    Magnetic Shielding: a failed roll is rolled once more and the second roll counts (§8)."""
    mod = modifier(state, seat)
    roll = entanglion_die(rng)
    ok = roll + mod >= need
    rolls = [roll]
    if not ok and holds(state, seat, MAGNETIC_SHIELDING):
        roll = entanglion_die(rng)
        rolls.append(roll)
        ok = roll + mod >= need
    text = _("{who} rolls the Entanglion die for {purpose}: {rolls}{mod} → {total}, needs "
             "{need}: {verdict}.").format(
        who=who(seat), purpose=purpose, rolls=" then ".join(map(str, rolls)),
        mod=f" {'+' if mod > 0 else '−'} {abs(mod)}" if mod else "", total=roll + mod,
        need=need, verdict=_("passed") if ok else _("failed"))
    emit(events, "roll", "entanglion_die", text, seat=seat, die="d8", purpose=purpose,
         rolls=rolls, modifier=mod, total=roll + mod, need=need, passed=ok)
    return ok


# ----------------------------------------------------------------------------- engine cards

def _refill(state: dict, rng: random.Random, events: list) -> bool:
    """§4: an empty stack takes the shuffled discard pile (PROBE anywhere)."""
    if state["engine_stack"]:
        return True
    if not state["engine_discard"]:
        return False
    pile = state["engine_discard"]
    rng.shuffle(pile)
    state["engine_stack"], state["engine_discard"] = pile, []
    emit(events, "deck", "reshuffle", _("The engine stack is empty: the discard pile is "
                                        "shuffled into a new stack."), cards=len(pile))
    return True


def draw_engine(state: dict, seat: int, rng: random.Random, events: list) -> str | None:
    """Draw one engine card for ``seat`` (not into the hand). PROBE is resolved at once,
    discarded and replaced (§4). None when no card is left or the game ended."""
    while not state["finished"] and _refill(state, rng, events):
        card = state["engine_stack"].pop(0)
        if card != PROBE:
            return card
        emit(events, "probe", "probe_drawn", _("{who} draws PROBE and rolls for it.").format(
            who=who(seat)), seat=seat)
        if not defense_roll(state, seat, rng, events, _("PROBE"), 4):
            raise_detection(state, events, _("PROBE"))
        state["engine_discard"].append(PROBE)
    return None


def draw_up(state: dict, seat: int, rng: random.Random, events: list) -> None:
    """Draw until the hand holds the hand limit (§11.2)."""
    drawn = []
    while len(state["hands"][seat]) < hand_limit(state, seat) and not state["finished"]:
        card = draw_engine(state, seat, rng, events)
        if card is None:
            break
        state["hands"][seat].append(card)
        drawn.append(card)
    if drawn:
        emit(events, "draw", "draw", _("{who} draws {cards}.").format(
            who=who(seat), cards=", ".join(drawn)), seat=seat, cards=drawn)


def clear_engine_control(state: dict, events: list) -> None:
    if state["engine_control"]:
        state["engine_discard"] += [slot["card"] for slot in state["engine_control"]]
        state["engine_control"] = []
        emit(events, "engine_control", "cleared", _("Engine control is cleared into the "
                                                    "engine discard pile."))


def fill_slot(state: dict, seat: int, card: str, events: list) -> None:
    """§4: the played card goes into the next empty slot; the 6th arms a quantum event."""
    if len(state["engine_control"]) >= SLOTS:
        state["engine_discard"].append(card)      # all slots full (only in The Mechanic)
        return
    state["engine_control"].append({"card": card, "seat": seat})
    if len(state["engine_control"]) == SLOTS:
        state["turn_flags"]["six_filled"] = True
        emit(events, "engine_control", "full", _("All 6 engine-control slots are full: a "
                                                 "quantum event happens at the end of the "
                                                 "turn."))


# ----------------------------------------------------------------------------- ships

def place_ships(state: dict, ships: dict[str, str], events: list, code: str, text: str,
                unitary: bool = False) -> None:
    state["ships"] = dict(ships)
    if not unitary:
        state["circuit"] = {"start": dict(ships), "gates": []}
    emit(events, "move", code, text, ships=dict(ships))


def land(state: dict, seat: int, rng: random.Random, events: list) -> None:
    """§7.1 step 2.1: the Centarious die sends both ships to one Centarious planet, or the
    holder of Physical Qubits chooses for each ship (a decision)."""
    if holds(state, seat, PHYSICAL_QUBITS):
        state["pending"] = {"kind": "land", "seat": seat}
        emit(events, "decision", "choose_landing", _("Physical Qubits: {who} chooses ZERO or "
                                                     "ONE for each ship.").format(who=who(seat)),
             seat=seat)
        return
    face = centarious_die(rng)
    planet = ("ZERO", "ONE")[face]
    emit(events, "roll", "centarious_die", _("The Centarious die shows {face}.").format(
        face=face), seat=seat, die="d6", face=face)
    place_ships(state, {"mercurial": planet, "rubicon": planet}, events, "detected_jump",
                _("Both ships jump to {planet}.").format(planet=planet))


def orbital_check(state: dict, seat: int, rng: random.Random, events: list,
                  tunnel: bool) -> None:
    """§7.1: one check for both ships, rolled by the player who played the card."""
    planet = state["ships"]["mercurial"]
    if tunnel:
        _play_tunnel(state, seat, events, _("the orbital check"))
        return
    if defense_roll(state, seat, rng, events, _("the orbital defense of {planet}").format(
            planet=planet), TRACK[state["detection"]] + 1):
        emit(events, "orbital", "not_seen", _("The ships are not seen and orbit {planet}.")
             .format(planet=planet), planet=planet)
        return
    emit(events, "orbital", "detected", _("Orbital defenses of {planet} detect the ships!")
         .format(planet=planet), planet=planet)
    state["queue"][:0] = [{"step": "land", "seat": seat},
                          {"step": "detection_up", "seat": seat},
                          {"step": "quantum_event", "seat": seat, "cause": "detection"}]


def _play_tunnel(state: dict, seat: int, events: list, what: str) -> None:
    state["event_hands"][seat].remove(QUANTUM_TUNNEL)
    state["event_discard"].append(QUANTUM_TUNNEL)
    emit(events, "event_card", "quantum_tunnel", _("{who} plays Quantum Tunnel: {what} is "
                                                   "cancelled.").format(who=who(seat),
                                                                        what=what),
         seat=seat, card=QUANTUM_TUNNEL)


def retrieve(state: dict, seat: int, rng: random.Random, events: list, tunnel: bool) -> None:
    """§7.2 ground defenses."""
    planet = state["ships"]["mercurial"]
    component = state["planet_components"][planet]
    if tunnel:
        _play_tunnel(state, seat, events, _("the ground defense check"))
        ok = True
    else:
        ok = defense_roll(state, seat, rng, events, _("the ground defense of {planet}").format(
            planet=planet), TRACK[state["detection"]] + 1)
    if not ok:
        emit(events, "ground", "retrieve_failed", _("Ground defenses stop the retrieval of "
                                                    "{component}.").format(
            component=component), seat=seat, planet=planet, component=component)
        raise_detection(state, events, _("a failed retrieval"))
        return
    del state["planet_components"][planet]
    state["held"][seat].append(component)
    emit(events, "ground", "retrieved", _("{who} retrieves {component} from {planet}.").format(
        who=who(seat), component=component, planet=planet), seat=seat, planet=planet,
        component=component)
    check_win(state, events)
    if component == DILUTION_REFRIGERATOR and not state["finished"]:
        state["queue"].insert(0, {"step": "hand_limit", "seat": seat})


# ----------------------------------------------------------------------------- events

def draw_event(state: dict, rng: random.Random) -> str | None:
    if not state["event_deck"]:
        pool = state["event_discard"]
        if not pool:
            return None
        state["event_deck"], state["event_discard"] = event_deck_from(pool, rng), []
    return state["event_deck"].pop(0)


def quantum_event(state: dict, seat: int, rng: random.Random, events: list, cause: str) -> None:
    """§11.3: draw the top event card and carry it out, then clear engine control (§13.1:
    every time)."""
    card = draw_event(state, rng)
    if card is None:   # pragma: no cover - every now-card returns to the discard pile
        clear_engine_control(state, events)
        return
    emit(events, "quantum_event", "event_drawn", _("Quantum event ({cause}): {who} draws "
                                                   "{card}.").format(
        cause=_("detection") if cause == "detection" else _("engine control full"),
        who=who(seat), card=card), seat=seat, card=card, cause=cause)
    _carry_out(state, seat, card, rng, events)
    clear_engine_control(state, events)


def _carry_out(state: dict, seat: int, card: str, rng: random.Random, events: list) -> None:
    if card in KEEP_CARDS:
        state["event_hands"][seat].append(card)
        emit(events, "event_card", "kept", _("{who} keeps {card} for later.").format(
            who=who(seat), card=card), seat=seat, card=card)
        return
    state["event_discard"].append(card)
    if card == BIT_FLIP:
        target = FIRST_FOUR
        if state["options"]["bit_flip_only_if_lower"]:
            target = min(target, state["detection"])
        set_detection(state, events, target, "bit_flip", _("Bit Flip Error: the detection "
                                                           "token goes to the first 4 "
                                                           "(rate {rate})."))
    elif card == WAVE_COLLAPSE:
        set_detection(state, events, state["detection"] - 2, "wave_collapse",
                      _("Wave Function Collapse: detection two spaces back (rate {rate})."))
    elif card == SCHRODINGER:
        raise_detection(state, events, SCHRODINGER)
    elif card == SPOOKY:
        spooky_action(state, seat, rng, events)
    elif card == QUANTUM_SHUFFLE:
        pool = state["event_deck"] + state["event_discard"]
        state["event_deck"], state["event_discard"] = event_deck_from(pool, rng), []
        emit(events, "event_card", "quantum_shuffle", _("Quantum Shuffle: the event deck is "
                                                        "rebuilt; another event card is "
                                                        "drawn."), cards=len(pool))
        again = draw_event(state, rng)
        if again is not None:
            emit(events, "quantum_event", "event_drawn", _("{who} draws {card}.").format(
                who=who(seat), card=again), seat=seat, card=again, cause="quantum_shuffle")
            _carry_out(state, seat, again, rng, events)


def spooky_action(state: dict, seat: int, rng: random.Random, events: list) -> None:
    """§9 / errata 1 / §13.5."""
    mine = state["held"][seat]
    if not mine:
        emit(events, "event_card", "spooky_nothing", _("Spooky Action: {who}'s ship holds no "
                                                       "component, nothing happens.").format(
            who=who(seat)), seat=seat)
        return
    component = mine[rng.randrange(len(mine))]
    roll = entanglion_die(rng)
    empty = tuple(p for p in ENTANGLION_PLANETS if p not in state["planet_components"])
    planet = ring_count(roll, empty)
    mine.remove(component)
    state["planet_components"][planet] = component
    emit(events, "roll", "entanglion_die", _("Spooky Action: the Entanglion die shows {roll}.")
         .format(roll=roll), seat=seat, die="d8", purpose="spooky", rolls=[roll], modifier=0,
         total=roll, need=None, passed=None)
    emit(events, "event_card", "spooky_action", _("Spooky Action: {component} flies from "
                                                  "{who}'s ship to {planet}.").format(
        component=component, who=who(seat), planet=planet), seat=seat, component=component,
        planet=planet)
    if component == DILUTION_REFRIGERATOR:
        draw_up(state, seat, rng, events)     # §13.8: the old holder draws up at once


def heisenberg(state: dict, seat: int, rng: random.Random, events: list) -> None:
    roll = entanglion_die(rng)
    planet = ring_count(roll)
    emit(events, "roll", "entanglion_die", _("Heisenberg: the Entanglion die shows {roll}.")
         .format(roll=roll), seat=seat, die="d8", purpose="heisenberg", rolls=[roll],
         modifier=0, total=roll, need=None, passed=None)
    place_ships(state, {"mercurial": planet, "rubicon": planet}, events, "heisenberg",
                _("Heisenberg: both ships jump to {planet}, with no orbital check.").format(
                    planet=planet))


def bennett(state: dict, seat: int, component: str, rng: random.Random, events: list) -> None:
    giver = 0 if component in state["held"][0] else 1
    taker = 1 - giver
    state["held"][giver].remove(component)
    state["held"][taker].append(component)
    emit(events, "event_card", "bennett", _("Bennett: {component} moves from {giver}'s ship to "
                                            "{taker}'s.").format(
        component=component, giver=who(giver), taker=who(taker)), seat=seat,
        component=component, giver=giver, taker=taker)
    if component == DILUTION_REFRIGERATOR:
        draw_up(state, giver, rng, events)                          # §13.8
        state["queue"].insert(0, {"step": "hand_limit", "seat": taker})


# ----------------------------------------------------------------------------- the queue

def run(state: dict, rng: random.Random, events: list) -> None:
    """Work through the queued steps until a decision is awaited or the game is over."""
    while state["queue"] and state["pending"] is None and not state["finished"]:
        step = state["queue"].pop(0)
        kind, seat = step["step"], step.get("seat")
        if kind == "draw_up":
            draw_up(state, seat, rng, events)
        elif kind == "orbital":
            orbital_check(state, seat, rng, events, step.get("tunnel", False))
        elif kind == "land":
            land(state, seat, rng, events)
        elif kind == "detection_up":
            raise_detection(state, events, _("orbital detection"))
        elif kind == "quantum_event":
            quantum_event(state, seat, rng, events, step["cause"])
        elif kind == "hand_limit":
            if len(state["hands"][seat]) > hand_limit(state, seat):
                state["pending"] = {"kind": "discard", "seat": seat}
                emit(events, "decision", "discard_down", _("Dilution Refrigerator: {who} "
                                                           "discards one engine card.").format(
                    who=who(seat)), seat=seat)
        elif kind == "end_turn":
            end_turn(state, rng, events)
        else:  # pragma: no cover - internal
            raise ValueError(kind)


def end_turn(state: dict, rng: random.Random, events: list) -> None:
    flags = state["turn_flags"]
    seat = state["turn"]
    if flags["six_filled"]:
        flags["six_filled"] = False
        state["queue"][:0] = [{"step": "quantum_event", "seat": seat, "cause": "engine_control"},
                              {"step": "end_turn"}]
        return
    state["turn"] = 1 - seat
    state["turn_number"] += 1
    state["turn_flags"] = {"six_filled": False, "traded": False}
    emit(events, "turn", "turn", _("{who}'s turn.").format(who=who(state["turn"])),
         seat=state["turn"], turn=state["turn_number"])


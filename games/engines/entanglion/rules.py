"""The rules that change a running state: drawing (with PROBE), dice with component modifiers,
the detection track, defenses, quantum events and the component effects (sheet §4–§9).

Every function takes the (already cloned) state, the action's PRNG and the list of events it
appends to. Steps that wait for a player's decision leave ``state["pending"]``; ``run`` works
through ``state["queue"]`` until it is empty, a decision is awaited or the game is over.
"""
from __future__ import annotations

import random
from typing import cast

from . import texts as T
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
from .texts import message


def who(seat: int) -> str:
    return ("Mercurial", "Rubicon")[seat]


def emit(events: list, type_: str, code: str, params: dict | None = None, **fields) -> dict:
    """Append an event: its ``type``, machine ``fields``, text ``code`` and ``params``, and the
    English ``text`` (``texts.EVENT_TEXTS``)."""
    params = dict(params or {})
    event = {"type": type_, **fields, "code": code, "params": params,
             "text": T.render(code, params)}
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

def raise_detection(state: dict, events: list, cause: str, steps: int = 1) -> None:
    """``cause``: probe, orbital, retrieval or schrodinger."""
    before = state["detection"]
    state["detection"] = min(LOSS_INDEX, before + steps)
    emit(events, "detection", "detection_up",
         {"rate": TRACK[state["detection"]], "cause": message(f"cause_{cause}")},
         before=before, index=state["detection"], rate=TRACK[state["detection"]], cause=cause)
    if state["detection"] >= LOSS_INDEX:
        lose(state, events)


def set_detection(state: dict, events: list, index: int, code: str) -> None:
    before = state["detection"]
    state["detection"] = max(0, min(LOSS_INDEX - 1, index))
    emit(events, "detection", code, {"rate": TRACK[state["detection"]]},
         before=before, index=state["detection"], rate=TRACK[state["detection"]])


def lose(state: dict, events: list) -> None:
    state["finished"] = True
    state["result"] = "lost"
    state["queue"] = []
    state["pending"] = None
    emit(events, "game_end", "lost", result="lost", components=found(state))


def check_win(state: dict, events: list) -> None:
    if not state["finished"] and found(state) == len(COMPONENTS):
        state["finished"] = True
        state["result"] = "won"
        state["queue"] = []
        state["pending"] = None
        emit(events, "game_end", "won", result="won", components=found(state))


# ----------------------------------------------------------------------------- dice

def defense_roll(state: dict, seat: int, rng: random.Random, events: list, purpose: str,
                 need: int, planet: str | None = None) -> bool:
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
    emit(events, "roll", "entanglion_die", {
        "ship": who(seat), "purpose": message(f"purpose_{purpose}", planet=planet),
        "rolls": rolls[0] if len(rolls) == 1 else message("rolled_again", first=rolls[0],
                                                          second=rolls[1]),
        "mod": f" {'+' if mod > 0 else '−'} {abs(mod)}" if mod else "", "total": roll + mod,
        "need": need, "verdict": message("passed" if ok else "failed")},
        seat=seat, die="d8", purpose=purpose, rolls=rolls, modifier=mod, total=roll + mod,
        need=need, passed=ok)
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
    emit(events, "deck", "reshuffle", cards=len(pile))
    return True


def draw_engine(state: dict, seat: int, rng: random.Random, events: list) -> str | None:
    """Draw one engine card for ``seat`` (not into the hand). PROBE is resolved at once,
    discarded and replaced (§4). None when no card is left or the game ended."""
    while not state["finished"] and _refill(state, rng, events):
        card = state["engine_stack"].pop(0)
        if card != PROBE:
            return card
        emit(events, "probe", "probe_drawn", {"ship": who(seat)}, seat=seat)
        if not defense_roll(state, seat, rng, events, "probe", 4):
            raise_detection(state, events, "probe")
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
        emit(events, "draw", "draw", {"ship": who(seat), "cards": list(drawn)}, seat=seat,
             cards=drawn)


def clear_engine_control(state: dict, events: list) -> None:
    if state["engine_control"]:
        state["engine_discard"] += [slot["card"] for slot in state["engine_control"]]
        state["engine_control"] = []
        emit(events, "engine_control", "cleared")


def fill_slot(state: dict, seat: int, card: str) -> bool:
    """§4: the played card goes into the next empty slot; the 6th arms a quantum event (True
    then: the caller tells it after the play)."""
    if len(state["engine_control"]) >= SLOTS:
        state["engine_discard"].append(card)      # all slots full (only in The Mechanic)
        return False
    state["engine_control"].append({"card": card, "seat": seat})
    if len(state["engine_control"]) == SLOTS:
        state["turn_flags"]["six_filled"] = True
        return True
    return False


# ----------------------------------------------------------------------------- ships

def place_ships(state: dict, ships: dict[str, str], events: list, code: str,
                params: dict) -> None:
    """A jump that is no gate (detection, Heisenberg): the circuit starts again here."""
    state["ships"] = dict(ships)
    state["circuit"] = {"start": dict(ships), "gates": []}
    emit(events, "move", code, params, ships=dict(ships))


def land(state: dict, seat: int, rng: random.Random, events: list) -> None:
    """§7.1 step 2.1: the Centarious die sends both ships to one Centarious planet, or the
    holder of Physical Qubits chooses for each ship (a decision)."""
    if holds(state, seat, PHYSICAL_QUBITS):
        state["pending"] = {"kind": "land", "seat": seat}
        emit(events, "decision", "choose_landing", {"ship": who(seat)}, seat=seat)
        return
    face = centarious_die(rng)
    planet = ("ZERO", "ONE")[face]
    emit(events, "roll", "centarious_die", {"face": face}, seat=seat, die="d6", face=face,
         purpose="landing")
    place_ships(state, {"mercurial": planet, "rubicon": planet}, events, "detected_jump",
                {"planet": planet})


def orbital_check(state: dict, seat: int, rng: random.Random, events: list,
                  tunnel: bool) -> None:
    """§7.1: one check for both ships, rolled by the player who played the card."""
    planet = state["ships"]["mercurial"]
    if tunnel:
        _play_tunnel(state, seat, events, "orbital")
        return
    if defense_roll(state, seat, rng, events, "orbital",
                    cast(int, TRACK[state["detection"]]) + 1, planet):
        emit(events, "orbital", "not_seen", {"planet": planet}, planet=planet)
        return
    emit(events, "orbital", "detected", {"planet": planet}, planet=planet)
    state["queue"][:0] = [{"step": "land", "seat": seat},
                          {"step": "detection_up", "seat": seat},
                          {"step": "quantum_event", "seat": seat, "cause": "detection"}]


def _play_tunnel(state: dict, seat: int, events: list, what: str) -> None:
    state["event_hands"][seat].remove(QUANTUM_TUNNEL)
    state["event_discard"].append(QUANTUM_TUNNEL)
    emit(events, "event_card", "quantum_tunnel", {"ship": who(seat),
                                                  "what": message(f"what_{what}")},
         seat=seat, card=QUANTUM_TUNNEL, cancels=what)


def retrieve(state: dict, seat: int, rng: random.Random, events: list, tunnel: bool) -> None:
    """§7.2 ground defenses."""
    planet = state["ships"]["mercurial"]
    component = state["planet_components"][planet]
    if tunnel:
        _play_tunnel(state, seat, events, "ground")
        ok = True
    else:
        ok = defense_roll(state, seat, rng, events, "ground",
                          cast(int, TRACK[state["detection"]]) + 1, planet)
    if not ok:
        emit(events, "ground", "retrieve_failed", {"component": component}, seat=seat,
             planet=planet, component=component)
        raise_detection(state, events, "retrieval")
        return
    del state["planet_components"][planet]
    state["held"][seat].append(component)
    emit(events, "ground", "retrieved", {"ship": who(seat), "component": component,
                                         "planet": planet},
         seat=seat, planet=planet, component=component)
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
    emit(events, "quantum_event", "event_drawn", {"cause": message(f"cause_{cause}"),
                                                  "ship": who(seat), "card": card},
         seat=seat, card=card, cause=cause)
    _carry_out(state, seat, card, rng, events)
    clear_engine_control(state, events)


def _carry_out(state: dict, seat: int, card: str, rng: random.Random, events: list) -> None:
    if card in KEEP_CARDS:
        state["event_hands"][seat].append(card)
        emit(events, "event_card", "kept", {"ship": who(seat), "card": card}, seat=seat,
             card=card)
        return
    state["event_discard"].append(card)
    if card == BIT_FLIP:
        target = FIRST_FOUR
        if state["options"]["bit_flip_only_if_lower"]:
            target = min(target, state["detection"])
        set_detection(state, events, target, "bit_flip")
    elif card == WAVE_COLLAPSE:
        set_detection(state, events, state["detection"] - 2, "wave_collapse")
    elif card == SCHRODINGER:
        raise_detection(state, events, "schrodinger")
    elif card == SPOOKY:
        spooky_action(state, seat, rng, events)
    elif card == QUANTUM_SHUFFLE:
        pool = state["event_deck"] + state["event_discard"]
        state["event_deck"], state["event_discard"] = event_deck_from(pool, rng), []
        emit(events, "event_card", "quantum_shuffle", cards=len(pool))
        again = draw_event(state, rng)
        if again is not None:
            emit(events, "quantum_event", "event_drawn_again", {"ship": who(seat),
                                                                "card": again},
                 seat=seat, card=again, cause="quantum_shuffle")
            _carry_out(state, seat, again, rng, events)


def spooky_action(state: dict, seat: int, rng: random.Random, events: list) -> None:
    """§9 / errata 1 / §13.5."""
    mine = state["held"][seat]
    if not mine:
        emit(events, "event_card", "spooky_nothing", {"ship": who(seat)}, seat=seat)
        return
    component = mine[rng.randrange(len(mine))]
    roll = entanglion_die(rng)
    empty = tuple(p for p in ENTANGLION_PLANETS if p not in state["planet_components"])
    planet = ring_count(roll, empty)
    mine.remove(component)
    state["planet_components"][planet] = component
    emit(events, "roll", "spooky_roll", {"roll": roll}, seat=seat, die="d8", purpose="spooky",
         rolls=[roll], modifier=0, total=roll, need=None, passed=None)
    emit(events, "event_card", "spooky_action", {"component": component, "ship": who(seat),
                                                 "planet": planet},
         seat=seat, component=component, planet=planet)
    if component == DILUTION_REFRIGERATOR:
        draw_up(state, seat, rng, events)     # §13.8: the old holder draws up at once


def heisenberg(state: dict, seat: int, rng: random.Random, events: list) -> None:
    roll = entanglion_die(rng)
    planet = ring_count(roll)
    emit(events, "roll", "heisenberg_roll", {"roll": roll}, seat=seat, die="d8",
         purpose="heisenberg", rolls=[roll], modifier=0, total=roll, need=None, passed=None)
    place_ships(state, {"mercurial": planet, "rubicon": planet}, events, "heisenberg",
                {"planet": planet})


def bennett(state: dict, seat: int, component: str, rng: random.Random, events: list) -> None:
    giver = 0 if component in state["held"][0] else 1
    taker = 1 - giver
    state["held"][giver].remove(component)
    state["held"][taker].append(component)
    emit(events, "event_card", "bennett", {"component": component, "giver": who(giver),
                                           "taker": who(taker)},
         seat=seat, component=component, giver=giver, taker=taker)
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
            raise_detection(state, events, "orbital")
        elif kind == "quantum_event":
            quantum_event(state, seat, rng, events, step["cause"])
        elif kind == "hand_limit":
            if len(state["hands"][seat]) > hand_limit(state, seat):
                state["pending"] = {"kind": "discard", "seat": seat}
                emit(events, "decision", "discard_down", {"ship": who(seat)}, seat=seat)
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
    emit(events, "turn", "turn", {"ship": who(state["turn"])}, seat=state["turn"],
         turn=state["turn_number"])


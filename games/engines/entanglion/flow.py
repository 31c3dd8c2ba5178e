"""The Game object: setup, turns, actions, views (the formats are in the package docstring)."""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from ..base import Abilities, Action, Event, Evidence, IllegalAction, State, chance, clone
from ..contract import Engine
from ..schema import Actions, Anything, Obj, Options, Text, TrueOnly
from . import evidence, moments
from . import options as opts
from . import rules as R
from .analysis import analyse, pass_probability, public_analysis
from .board_texts import BOARD_TEXTS
from .cards import (
    BENNETT,
    COMPONENT_TEXTS,
    COMPONENTS,
    ENGINE_DECK,
    EVENT_CARD_TEXTS,
    EVENT_CARDS,
    HEISENBERG,
    LOSS_INDEX,
    MECHANIC,
    PROBE,
    QUANTUM_GATES,
    QUANTUM_TUNNEL,
    QUBIT_INTERCONNECT,
    SLOTS,
    TRACK,
    centarious_die,
    engine_stack_at_setup,
    entanglion_die,
    event_deck_from,
)
from .circuit import ships_circuit
from .guide import GUIDE
from .kets import describe
from .navigation import needs_orbital, steer
from .planets import (
    ENTANGLION_PLANETS,
    GALAXY_COLOURS,
    GRID,
    KETS,
    LAYOUT,
    PATHS,
    PLANETS,
    RING,
    SHIPS,
    inside,
    move,
)
from .preview import preview as preview_play
from .statistics import EntanglionScorer
from .summary import SUMMARY_TEXTS
from .summary import summary as summarise
from .texts import EVENT_TEXTS, gettext_noop, message

SLUG = "entanglion"


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def canonical(action: Any) -> str | None:
    try:
        return json.dumps(action, sort_keys=True)
    except (TypeError, ValueError):
        return None


# --------------------------------------------------------------------------- the game

class Entanglion(Engine):
    slug = SLUG
    rules_version = 1  # bump when a stored game would replay differently (engines/base.py)
    name = "Entanglion"
    min_players = 2
    max_players = 2
    variants = ("easy", "hard")
    # the shapes of the actions (the contract refuses any other); which of them is legal now is
    # the rules' (``legal_actions``)
    actions = Actions(
        play=Obj(optional={"tunnel": TrueOnly()}, play=Text()),
        exchange=Obj(exchange=Text()),
        retrieve=Obj(optional={"tunnel": TrueOnly()}, retrieve=TrueOnly()),
        event=Obj(optional={"component": Text()}, event=Text()),
        trade=Obj(trade=Obj(give=Text(), take=Text())),
        land=Obj(land=Obj(mercurial=Text(), rubicon=Text())),
        discard=Obj(discard=Text()),
        keep=Obj(keep=Text()),
        mechanic=Obj(mechanic=Text()),
        stop=Obj(stop=TrueOnly()),
    )
    options = Options(**{key: Anything() for key in sorted(opts.KEYS)})  # checked by options.parse
    variant_names = {"easy": gettext_noop("easy"), "hard": gettext_noop("hard")}
    how_to_play = GUIDE
    event_texts = EVENT_TEXTS
    finish_rule = gettext_noop("When time is up, the mission ends: it is won only with all 8 "
                               "components on board.")
    # everything in the view is open between the partners; the route planning is the
    # teacher's (it would play the game for the students); a hover preview of engine cards
    abilities = Abilities(
        cooperative=True,  # the two ships win or lose together
        preview=True,
        public_analysis_keys=("ships", "state", "detection", "detection_chance_next_arrival",
                              "detection_chance_by_seat"),
        teacher_only_analysis_keys=("routes", "nearest", "cards_left"),
        public_analysis=True,  # (``public_analysis``: without the teacher's route search)
        circuit=True,
        teaching_moments=True,
        concept_evidence=True,  # what a card played shows of its player's understanding (evidence.py)
        summary=True,  # ``summary``: components, turn, detection, the ships' state
        partner_phrases=("take_cnot", "your_cnot", "wait", "go_ahead", "retrieve_now", "exchange", "enter",
                         "thanks"),
    )
    board_texts = BOARD_TEXTS
    summary_texts = SUMMARY_TEXTS
    evidence_texts = evidence.EVIDENCE_TEXTS

    def summary(self, view: dict) -> dict:
        return summarise(view)

    def scorer(self, state: State, circuit: Any = None) -> EntanglionScorer:
        """Where a measurement would find the ships (q0 Mercurial, q1 Rubicon)."""
        return EntanglionScorer(state)

    def concept_evidence(self, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
        return evidence.concept_evidence(before, seat, action, after)

    def teaching_moments(self, events: list[Event], history: list[list[Event]]) -> list[dict]:
        return moments.teaching_moments(events, history)

    # ----------------------------------------------------------------- setup

    def start(self, players: int, variant: str, seed: int, options: dict) -> State:
        """The set-up (the contract checked players, variant, seed and the options' names)."""
        o = opts.parse(options, variant)
        rng = chance(seed, 0, "setup")
        events: list[Event] = []
        state: State = {
            "game": SLUG, "variant": variant, "options": o, "players": 2, "seed": seed,
            "actions": 0, "ships": {}, "detection": o["detection"], "engine_control": [],
            "engine_stack": [], "engine_discard": [], "hands": [[], []],
            "event_deck": [], "event_discard": [], "event_hands": [[], []],
            "planet_components": {}, "held": [list(o["held"].get(s, [])) for s in SHIPS],
            "turn": 0, "first": 0, "turn_number": 1,
            "turn_flags": {"six_filled": False, "traded": False},
            "pending": None, "queue": [], "circuit": None, "finished": False, "result": None,
            "events": [],
        }
        # §10.2 components
        free_comps = [c for c in COMPONENTS if c not in o["components"].values()
                      and c not in (c2 for h in state["held"] for c2 in h)]
        free_planets = [p for p in ENTANGLION_PLANETS if p not in o["components"]]
        rng.shuffle(free_comps)
        rng.shuffle(free_planets)
        state["planet_components"] = {**o["components"],
                                      **dict(zip(free_planets, free_comps, strict=False))}
        # §10.3 engine stack (the given top first)
        used = Counter(o["engine_stack"]) + Counter(c for h in (o["hands"] or []) for c in h)
        rest = list((Counter(ENGINE_DECK) - used).elements())
        if not o["engine_stack"] and not o["hands"]:
            below = engine_stack_at_setup(rng)
        else:
            probe = [PROBE] if PROBE in rest else []
            below = [c for c in rest if c != PROBE]
            rng.shuffle(below)
            below += probe
        state["engine_stack"] = list(o["engine_stack"]) + below
        # §10.4 event deck
        if o["event_deck"]:
            others = [c for c in EVENT_CARDS if c not in o["event_deck"]]
            rng.shuffle(others)
            state["event_deck"] = list(o["event_deck"]) + others
        else:
            state["event_deck"] = event_deck_from(list(EVENT_CARDS), rng)
        R.emit(events, "setup", "setup", {"rate": TRACK[state["detection"]]},
               detection=state["detection"], rate=TRACK[state["detection"]])
        # §10.6 first player
        if o["first"] is None:
            while True:
                a, b = entanglion_die(rng), entanglion_die(rng)
                tie = a == b
                R.emit(events, "roll", "first_player_tie" if tie else "first_player_roll",
                       {"a": a, "b": b}, die="d8", rolls=[a, b], purpose="first_player")
                if not tie:
                    state["first"] = 0 if a > b else 1
                    break
        else:
            state["first"] = o["first"]
        state["turn"] = state["first"]
        order = [state["first"], 1 - state["first"]]
        # §10.7 ships
        if o["ships"] is None:
            ships = {}
            for seat in order:
                face = centarious_die(rng)
                ships[SHIPS[seat]] = ("ZERO", "ONE")[face]
                R.emit(events, "roll", "placement_roll", {"ship": R.who(seat), "face": face,
                                                          "planet": ships[SHIPS[seat]]},
                       seat=seat, die="d6", face=face, purpose="placement")
            state["ships"] = {s: ships[s] for s in SHIPS}
        else:
            state["ships"] = dict(o["ships"])
        state["circuit"] = {"start": dict(state["ships"]), "gates": []}
        # §10.8 hands
        if o["hands"] is None:
            for seat in order:
                R.draw_up(state, seat, rng, events)
        else:
            state["hands"] = [list(h) for h in o["hands"]]
        R.emit(events, "turn", "first_turn", {"ship": R.who(state["turn"])},
               seat=state["turn"], turn=1)
        state["events"] = events
        return state

    # ----------------------------------------------------------------- turns

    def to_act(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        if state["pending"] is not None:
            return [state["pending"]["seat"]]
        return [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not _is_int(seat) or seat not in self.to_act(state):
            return []
        pending = state["pending"]
        if pending is not None:
            return _decisions(state, pending)
        hand = state["hands"][seat]
        kinds = sorted(set(hand))
        acts: list[Action] = []
        tunnel = QUANTUM_TUNNEL in state["event_hands"][seat]
        for card in kinds:
            acts.append({"play": card})
            if tunnel:
                after = move(state["ships"], SHIPS[seat], card)
                if needs_orbital(state, seat, state["ships"], after):
                    acts.append({"play": card, "tunnel": True})
        acts += [{"exchange": card} for card in kinds]
        if _can_retrieve(state):
            acts.append({"retrieve": True})
            if tunnel:
                acts.append({"retrieve": True, "tunnel": True})
        for card in sorted(set(state["event_hands"][seat])):
            if card in (HEISENBERG, MECHANIC):
                acts.append({"event": card})
            elif card == BENNETT:
                acts += [{"event": BENNETT, "component": c}
                         for c in sorted(state["held"][0] + state["held"][1])]
        if _can_trade(state, seat):
            acts += [{"trade": {"give": g, "take": t}} for g in kinds
                     for t in sorted(set(state["hands"][1 - seat]))]
        return acts

    def is_over(self, state: State) -> bool:
        return state["finished"]

    def play(self, state: State, seat: int, kind: str, action: Action) -> tuple[State, list[Event]]:
        """An action of the right shape by the seat to act (the contract checked): legal now?"""
        key = canonical(action)
        if key is None or key not in {canonical(a) for a in self.legal_actions(state, seat)}:
            raise _why_illegal(state, seat, action)
        new = clone(state)
        n = new["actions"] + 1
        new["actions"] = n
        rng = chance(new["seed"], n)
        events: list[Event] = []
        _perform(new, seat, action, rng, events)
        R.run(new, rng, events)
        new["events"] = events
        return new, events

    def finish(self, state: State) -> tuple[State, list[Event]]:
        """Time is up: the mission ends where it stands; it is won only with all 8 components
        on board (which would have ended it already), so it is not won; the summary ranks by
        the components found."""
        if state["finished"]:
            return state, []
        new = clone(state)
        new["actions"] += 1
        new["finished"] = True
        new["result"] = "time_up"
        new["queue"] = []
        new["pending"] = None
        events: list[Event] = []
        R.emit(events, "game_end", "time_up", {"components": R.found(new)}, result="time_up",
               components=R.found(new))
        new["events"] = events
        return new, events

    # ----------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict:
        if seat is not None:
            self.check_seat(state, seat)
        return build_view(self, state, seat)

    def outcome(self, state: State) -> dict | None:
        if not state["finished"]:
            return None
        k = R.found(state)
        won = state["result"] == "won"
        return {"scores": [k, k], "winners": [0, 1] if won else [], "result": state["result"],
                "components": k, "turns": state["turn_number"],
                "detection": state["detection"]}

    def analysis(self, state: State) -> dict:
        return analyse(state)

    def public_analysis(self, state: State) -> dict:
        return public_analysis(state)

    def circuit(self, state: State):
        return ships_circuit(state)

    def preview(self, state: State, seat: int, action: Action) -> dict:
        return preview_play(self, state, seat, action)


# --------------------------------------------------------------------------- helpers

def _can_retrieve(state: State) -> bool:
    ships = state["ships"]
    return inside(ships) and ships["mercurial"] in state["planet_components"]


def _can_trade(state: State, seat: int) -> bool:
    if not R.holds(state, seat, QUBIT_INTERCONNECT) or state["turn_flags"]["traded"]:
        return False
    if not state["hands"][seat] or not state["hands"][1 - seat]:
        return False
    ships = state["ships"]
    return state["options"]["interconnect_anywhere"] or ships["mercurial"] == ships["rubicon"]


def _decisions(state: State, pending: dict) -> list[Action]:
    kind, seat = pending["kind"], pending["seat"]
    if kind == "land":
        return [{"land": {"mercurial": m, "rubicon": r}} for m in ("ZERO", "ONE")
                for r in ("ZERO", "ONE")]
    if kind == "discard":
        return [{"discard": c} for c in sorted(set(state["hands"][seat]))]
    if kind == "keep":
        return [{"keep": c} for c in sorted(set(pending["cards"]))]
    if kind == "mechanic":
        return [{"mechanic": c} for c in sorted(set(pending["cards"]))] + [{"stop": True}]
    raise ValueError(kind)  # pragma: no cover


DECISION_AWAITED = {  # what the pending decision asks for, said when another action comes
    "land": gettext_noop('First choose where each ship lands: {"land": {"mercurial": "ZERO", '
                         '"rubicon": "ONE"}}.'),
    "discard": gettext_noop('First discard one engine card: {"discard": CARD}.'),
    "keep": gettext_noop('First keep one of the two drawn cards: {"keep": CARD}.'),
    "mechanic": gettext_noop("First play one of The Mechanic's cards ({\"mechanic\": CARD}) or stop "
                             '({"stop": true}).'),
}


def _why_illegal(state: State, seat: int, action: Any) -> IllegalAction:
    """Why an action of the right shape is not legal now (every refusal a msgid)."""
    pending = state["pending"]
    if pending is not None:
        return IllegalAction("decision_awaited", DECISION_AWAITED[pending["kind"]])
    if "play" in action or "exchange" in action:
        card = action.get("play", action.get("exchange"))
        if card not in state["hands"][seat]:
            return IllegalAction("not_in_hand", gettext_noop("That engine card is not in your hand."))
        if action.get("tunnel") is not None:
            return IllegalAction("no_check", gettext_noop(
                "Quantum Tunnel cancels a defense check: you need the card and a move that brings an "
                "orbital check."))
    if "retrieve" in action and not _can_retrieve(state):
        return IllegalAction("nothing_here", gettext_noop(
            "Retrieve needs the ships on an Entanglion planet that still holds a component."))
    if "event" in action:
        return IllegalAction("no_event", gettext_noop(
            "You hold no such event card (or it is not played as an action)."))
    if "trade" in action:
        return IllegalAction("no_trade", gettext_noop(
            "Trading needs Qubit Interconnect on your ship, both ships on the same planet, once per "
            "turn before your action, and cards that are in the hands."))
    return IllegalAction("bad_action", gettext_noop("That is not a legal action now; see the legal actions."))


def _perform(state: State, seat: int, action: Action, rng: random.Random,
             events: list[Event]) -> None:
    pending = state["pending"]
    if pending is not None:
        state["pending"] = None
        _decide(state, seat, pending, action, rng, events)
        return
    if "trade" in action:
        give, take = action["trade"]["give"], action["trade"]["take"]
        mine, theirs = state["hands"][seat], state["hands"][1 - seat]
        mine.remove(give)
        theirs.remove(take)
        mine.append(take)
        theirs.append(give)
        state["turn_flags"]["traded"] = True
        R.emit(events, "trade", "trade", {"ship": R.who(seat), "give": give,
                                          "other": R.who(1 - seat), "take": take},
               seat=seat, give=give, take=take)
        return
    if "play" in action:
        card = action["play"]
        state["hands"][seat].remove(card)
        before, after = steer(state, seat, card, events, via="navigate")
        state["queue"] = [{"step": "draw_up", "seat": seat}]
        if needs_orbital(state, seat, before, after):
            state["queue"].append({"step": "orbital", "seat": seat,
                                   "tunnel": bool(action.get("tunnel"))})
        elif inside(after) and after != before:
            R.emit(events, "orbital", "skipped_programming", {"planet": after["mercurial"]},
                   planet=after["mercurial"])
        state["queue"].append({"step": "end_turn"})
    elif "exchange" in action:
        card = action["exchange"]
        state["hands"][seat].remove(card)
        state["engine_discard"].append(card)
        R.emit(events, "exchange", "exchange", {"ship": R.who(seat), "card": card}, seat=seat,
               card=card)
        if R.holds(state, seat, QUANTUM_GATES):
            drawn = [c for c in (R.draw_engine(state, seat, rng, events) for _k in range(2))
                     if c is not None]
            if len(drawn) == 2:
                state["pending"] = {"kind": "keep", "seat": seat, "cards": drawn}
                R.emit(events, "decision", "keep_one", {"ship": R.who(seat), "a": drawn[0],
                                                        "b": drawn[1]},
                       seat=seat, cards=drawn)
            else:
                state["hands"][seat] += drawn
        else:
            state["queue"] = [{"step": "draw_up", "seat": seat}]
        state["queue"].append({"step": "end_turn"})
    elif "retrieve" in action:
        R.retrieve(state, seat, rng, events, bool(action.get("tunnel")))
        state["queue"].append({"step": "end_turn"})
    elif "event" in action:
        card = action["event"]
        state["event_hands"][seat].remove(card)
        state["event_discard"].append(card)
        R.emit(events, "event_card", "played", {"ship": R.who(seat), "card": card}, seat=seat,
               card=card)
        if card == HEISENBERG:
            R.heisenberg(state, seat, rng, events)
            state["queue"].append({"step": "end_turn"})
        elif card == BENNETT:
            R.bennett(state, seat, action["component"], rng, events)
            state["queue"].append({"step": "end_turn"})
        else:
            _start_mechanic(state, seat, rng, events)


def _start_mechanic(state: State, seat: int, rng: random.Random, events: list[Event]) -> None:
    cards = []
    for _k in range(3):
        card = R.draw_engine(state, seat, rng, events)
        if card is None:
            break
        cards.append(card)
    if state["finished"]:               # PROBE reached X: the drawn cards are left unplayed
        state["engine_discard"] += cards
        return
    state["pending"] = {"kind": "mechanic", "seat": seat, "cards": cards, "played": 0}
    R.emit(events, "decision", "mechanic", {"ship": R.who(seat),
                                            "cards": list(cards) or message("nothing")},
           seat=seat, cards=cards)


def _decide(state: State, seat: int, pending: dict, action: Action, rng: random.Random,
            events: list[Event]) -> None:
    kind = pending["kind"]
    if kind == "land":
        ships = dict(action["land"])
        R.place_ships(state, {s: ships[s] for s in SHIPS}, events, "chosen_jump",
                      {"m": ships["mercurial"], "r": ships["rubicon"]})
    elif kind == "discard":
        card = action["discard"]
        state["hands"][seat].remove(card)
        state["engine_discard"].append(card)
        R.emit(events, "discard", "discard", {"ship": R.who(seat), "card": card}, seat=seat,
               card=card)
        state["queue"].insert(0, {"step": "hand_limit", "seat": seat})
    elif kind == "keep":
        card = action["keep"]
        cards = list(pending["cards"])
        cards.remove(card)
        state["hands"][seat].append(card)
        state["engine_discard"] += cards
        R.emit(events, "exchange", "gates_kept", {"ship": R.who(seat), "card": card,
                                                  "other": cards[0]},
               seat=seat, card=card, discarded=cards[0])
    elif kind == "mechanic":
        cards = list(pending["cards"])
        if "mechanic" in action:
            card = action["mechanic"]
            cards.remove(card)
            steer(state, seat, card, events, via="mechanic")
            played = pending["played"] + 1
            if played < 2 and cards:
                state["pending"] = {**pending, "cards": cards, "played": played}
                return
        state["engine_discard"] += cards
        R.emit(events, "event_card", "mechanic_done", {"ship": R.who(seat),
                                                       "cards": cards or message("nothing")},
               seat=seat, discarded=cards)
        state["queue"].append({"step": "end_turn"})


# --------------------------------------------------------------------------- the view

BOARD = {
    "planets": [{"name": p, "galaxy": g, "colour": GALAXY_COLOURS[g], "ket": KETS[p],
                 "x": LAYOUT[p][0], "y": LAYOUT[p][1]} for p, g in PLANETS.items()],
    "paths": [{"a": a, "b": b, "cards": list(cards), "ships": list(ships)}
              for a, b, cards, ships in PATHS],
    "grid": [{"centarious": c, "superious": s, "planet": p} for (c, s), p in GRID.items()],
    "ring": list(RING),
    "track": list(TRACK),
    "slots": SLOTS,
    "components": [{"name": c, "kind": k, "text": COMPONENT_TEXTS[c]}
                   for c, k in COMPONENTS.items()],
    "event_cards": [{"name": c, "text": EVENT_CARD_TEXTS[c]} for c in EVENT_CARDS],
}


def build_view(game: Entanglion, state: State, seat: int | None) -> dict:
    ships = state["ships"]
    pending = clone(state["pending"])
    if pending is not None and pending["kind"] == "mechanic":
        pending["aside"] = list(state["hands"][pending["seat"]])
    det = state["detection"]
    return {
        "game": SLUG,
        "variant": state["variant"],
        "seat": seat,
        "ship": None if seat is None else SHIPS[seat],
        "players": 2,
        "turn": state["turn"],
        "turn_number": state["turn_number"],
        "first": state["first"],
        "to_act": game.to_act(state),
        "phase": "over" if state["finished"] else (pending["kind"] if pending else "play"),
        "pending": pending,
        "ships": dict(ships),
        "inside": inside(ships),
        "galaxies": {s: PLANETS[ships[s]] for s in SHIPS},
        "state": describe(ships),
        "detection": {"index": det, "rate": TRACK[det], "loss_index": LOSS_INDEX,
                      "pass_chance": {str(s): pass_probability(state, s) for s in (0, 1)}},
        "engine_control": [{"card": s["card"], "seat": s["seat"], "ship": SHIPS[s["seat"]]}
                           for s in state["engine_control"]],
        "hands": [list(h) for h in state["hands"]],
        "hand_limits": [R.hand_limit(state, s) for s in (0, 1)],
        "event_hands": [list(h) for h in state["event_hands"]],
        "engine_stack": len(state["engine_stack"]),
        "engine_discard": list(state["engine_discard"]),
        "event_deck": len(state["event_deck"]),
        "event_discard": list(state["event_discard"]),
        "components": {
            "on_planets": dict(state["planet_components"]),
            "held": {SHIPS[s]: list(state["held"][s]) for s in (0, 1)},
            "found": R.found(state),
            "remaining": len(state["planet_components"]),
            "total": len(COMPONENTS),
        },
        "can_trade": (not state["finished"] and pending is None
                      and _can_trade(state, state["turn"])),
        "dice": [e for e in state["events"] if e["type"] == "roll"],
        "events": list(state["events"]),
        "options": {k: state["options"][k] for k in ("bit_flip_only_if_lower",
                                                     "interconnect_anywhere")},
        "board": BOARD,
        "finished": state["finished"],
        "result": state["result"],
        "outcome": game.outcome(state),
    }

"""The Game object of Quantum Ticket-to-Ride: setup, turns, claims, runs, the end.

Formats (state, actions, views, events) are documented in the package docstring.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import (
    Abilities,
    Action,
    Event,
    IllegalAction,
    State,
    chance,
    clone,
    events_for,
    is_int,
)
from . import register
from .maps import LEVELS, MapError, default_map, validate_map
from .paths import runnable_paths, trace

SLUG = "quantum-ticket-to-ride"
VARIANTS = (*LEVELS, "mixed")
COPIES = 12
HAND = 5
HAND_LIMIT = 12
DRAW = 2
OPTIONS = ("map",)


def _who(seat: int) -> str:
    return f"Player {seat + 1}"


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=register.GATE_NAMES.index)


def mission_text(m: dict) -> str:
    return (f"from {m['start']} in {register.label(m['initial_state'])} to {m['target']} in "
            f"{register.label(m['target_state'])}")


class QuantumTicketToRide:
    slug = SLUG
    name = "Quantum Ticket-to-Ride"
    min_players = 2
    max_players = 5
    variants = VARIANTS
    # missions are secret: the planner's progress per player is the teacher's; claimed
    # lengths are public. Every position has a circuit (see ``circuit``).
    abilities = Abilities(
        preview=True,
        public_analysis_keys=("claimed_length",),
        teacher_only_analysis_keys=("players", "closest", "teacher_only"),
        circuit=True,
    )

    # ----------------------------------------------------------------- set-up

    def setup(self, players: int = 2, variant: str = "basic", seed: int = 0,
              options: dict | None = None) -> State:
        if not is_int(players) or not self.min_players <= players <= self.max_players:
            raise IllegalAction("bad_players", "Quantum Ticket-to-Ride is for 2 to 5 players.")
        if variant not in VARIANTS:
            raise IllegalAction("bad_variant", f"Unknown mission level {variant!r}: choose "
                                               f"{', '.join(VARIANTS)}.")
        if not is_int(seed):
            raise IllegalAction("bad_seed", "The seed must be an integer.")
        opts = _parse_options(options)
        try:
            game_map = validate_map(opts["map"]) if "map" in opts else default_map()
        except MapError as exc:
            raise IllegalAction("bad_map", str(exc)) from exc
        pool = [m for m in game_map["missions"] if variant == "mixed" or m["level"] == variant]
        if len(pool) < players:
            raise IllegalAction("not_enough_missions",
                                f"This map has {len(pool)} {variant} missions: not enough for "
                                f"{players} players.")
        pile = [g for g in register.GATE_NAMES for _ in range(COPIES)]
        chance(seed, 0, "deck").shuffle(pile)
        hands = [[] for _ in range(players)]
        for _ in range(HAND):
            for s in range(players):
                hands[s].append(pile.pop())
        missions = [dict(m) for m in chance(seed, 0, "missions").sample(pool, players)]
        order = list(range(players))
        chance(seed, 0, "order").shuffle(order)
        state: State = {
            "game": SLUG, "variant": variant, "options": opts, "players": players,
            "seed": seed, "actions": 0, "map": game_map, "pile": pile, "discard": [],
            "hands": [_sorted(h) for h in hands], "missions": missions, "order": order,
            "turn": order[0], "step": "act", "owners": [None] * len(game_map["routes"]),
            "final_round": False, "last_turns": [], "runs": [], "finished": False,
            "result": None, "events": [],
        }
        events: list[Event] = [{
            "type": "setup", "code": "setup", "order": order, "hand": HAND,
            "text": f"Each player gets {HAND} gate cards and one secret mission. Order: "
                    f"{', '.join(_who(s) for s in order)}."}]
        for s in range(players):
            events.append({"type": "mission", "code": "mission_dealt", "seat": s,
                           "visible_to": [s], "mission": dict(missions[s]),
                           "text": f"Your mission: {mission_text(missions[s])}."})
        events.append(_turn_event(order[0]))
        state["events"] = events
        return state

    # ----------------------------------------------------------------- turns

    def to_act(self, state: State) -> list[int]:
        return [] if state["finished"] else [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not is_int(seat) or seat not in self.to_act(state):
            return []
        if state["step"] == "run":
            return [*({"run": list(p)} for p in runnable_paths(state, seat)), {"pass": True}]
        actions: list[Action] = [{"draw": True}] if _can_draw(state, seat) else []
        actions += [{"claim": r} for r in _claimable(state, seat)]
        return actions or [{"pass": True}]

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state["finished"]:
            raise IllegalAction("game_over", "The game is over.")
        if not is_int(seat) or seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", "It is not your turn.")
        move = _parse_action(state, seat, action)
        new = _successor(state)
        new["actions"] += 1
        events: list[Event] = []
        kind = move[0]
        if kind == "draw":
            _draw(new, seat, events)
        elif kind == "claim":
            _claim(new, seat, move[1], events)
        elif kind == "run":
            _run(new, seat, move[1], events)
        elif new["step"] == "act":
            events.append({"type": "pass", "code": "cannot_act", "seat": seat,
                           "text": f"{_who(seat)} can neither draw nor claim and passes."})
        if not new["finished"]:
            if kind in ("draw", "claim", "pass") and new["step"] == "act" and any(
                    o == seat for o in new["owners"]):
                new["step"] = "run"
                events.append({"type": "may_run", "code": "may_run", "seat": seat,
                               "text": f"{_who(seat)} may run a path or end the turn."})
            else:
                events.append({"type": "turn_end", "code": "turn_end", "seat": seat,
                               "text": f"{_who(seat)} ends the turn."})
                _end_turn(new, seat, events)
        new["events"] = events
        return new, events

    # ----------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict:
        if seat is not None and (not is_int(seat) or not 0 <= seat < state["players"]):
            raise IllegalAction("bad_seat", "No such seat.")
        finished = state["finished"]
        game_map = state["map"]
        seats = []
        for s in range(state["players"]):
            claimed = [r for r, o in enumerate(state["owners"]) if o == s]
            seats.append({
                "seat": s, "cards": len(state["hands"][s]), "claimed": claimed,
                "claimed_length": sum(game_map["routes"][r]["length"] for r in claimed),
                "mission": dict(state["missions"][s]) if finished or s == seat else None,
            })
        own = seat is not None
        events = events_for(state["events"], seat)
        winning = next((r for r in state["runs"] if r["match"]), None)
        return {
            "game": SLUG, "variant": state["variant"], "players": state["players"],
            "seat": seat,
            "map": {"name": game_map["name"], "description": game_map["description"],
                    "cities": [dict(c) for c in game_map["cities"]],
                    "missions": [dict(m) for m in game_map["missions"]],
                    "routes": [{"index": r, **route, "owner": state["owners"][r]}
                               for r, route in enumerate(game_map["routes"])]},
            "order": list(state["order"]), "turn": None if finished else state["turn"],
            "step": None if finished else state["step"], "to_act": self.to_act(state),
            "pile": len(state["pile"]), "discard": len(state["discard"]),
            "hand_limit": HAND_LIMIT, "final_round": state["final_round"],
            "last_turns": list(state["last_turns"]), "seats": seats,
            "hand": list(state["hands"][seat]) if own else None,
            "mission": dict(state["missions"][seat]) if own else None,
            "can_draw": own and not finished and _can_draw(state, seat),
            "run_paths": ([trace(game_map, state["missions"][seat], p)
                           for p in runnable_paths(state, seat)] if own else []),
            "runs": [clone(r) for r in state["runs"] if own and r["seat"] == seat],
            "winning_run": clone(winning),
            "events": clone(events), "finished": finished, "outcome": self.outcome(state),
        }

    def preview(self, state: State, seat: int, action: Action) -> dict:
        """What an action would do, for the seat's own eyes (no chance is resolved):

        * ``{"run": [city, ...]}`` -- any simple path of the map from the seat's mission start
          (a prefix is fine, routes need not be claimed: the path picker and planning):
          ``{"kind": "run", "trace": Trace, "owned": [bool per route], "complete": reaches
          the target, "runnable": it is a run the seat could choose now}``;
        * ``{"claim": route}`` -- ``{"kind": "claim", "route", "a", "b", "gate", "length",
          "have": cards of that gate in hand, "free": unclaimed, "affordable"}``;
        * ``{"pass": true}`` -- ``{"kind": "pass"}``. A draw is chance: no preview.
        """
        if not is_int(seat) or not 0 <= seat < state["players"]:
            raise IllegalAction("bad_seat", "No such seat.")
        if not isinstance(action, dict) or len(action) != 1:
            raise IllegalAction("malformed", "Preview one action: a run, a claim or a pass.")
        (key, value), = action.items()
        if key == "draw" and value is True:
            raise IllegalAction("no_preview", "Drawing is chance: there is nothing to preview.")
        if key == "pass" and value is True:
            return {"kind": "pass"}
        if key == "claim" and is_int(value) and 0 <= value < len(state["owners"]):
            route = state["map"]["routes"][value]
            have = state["hands"][seat].count(route["gate"])
            free = state["owners"][value] is None
            return {"kind": "claim", "route": value, **route, "have": have, "free": free,
                    "affordable": free and have >= route["length"]}
        if key == "run":
            names = {c["name"] for c in state["map"]["cities"]}
            mission = state["missions"][seat]
            if (isinstance(value, list) and value
                    and all(isinstance(c, str) and c in names for c in value)
                    and value[0] == mission["start"] and len(set(value)) == len(value)):
                routes = _path_routes(state, value)
                if all(r is not None for r in routes):
                    return {"kind": "run", "trace": trace(state["map"], mission, value),
                            "owned": [state["owners"][r] == seat for r in routes],
                            "complete": value[-1] == mission["target"],
                            "runnable": value in runnable_paths(state, seat)}
                raise IllegalAction("no_route", "Two cities in a row must be joined by a route.")
            raise IllegalAction("bad_path", "A path starts at your mission's start city and "
                                            "passes each city at most once.")
        raise IllegalAction("malformed", "Preview one action: a run, a claim or a pass.")

    def outcome(self, state: State) -> dict | None:
        return clone(state["result"]) if state["finished"] else None

    def analysis(self, state: State) -> dict:
        from .analysis import analyse

        return analyse(state)

    def circuit(self, state: State):
        """The qiskit circuit of the last run (``circuit.run_circuit``). Before any run: the
        first player's mission qubit as prepared (an empty path, ``metadata["ran"]`` False),
        measured in its target's basis."""
        from .circuit import run_circuit

        if state["runs"]:
            return run_circuit(state["runs"][-1])
        seat = state["order"][0]
        m = state["missions"][seat]
        return run_circuit({"seat": seat, "mission": dict(m), "cities": [m["start"]],
                            "gates": [], "ran": False,
                            "fidelity": trace(state["map"], m, [m["start"]])["fidelity"]})


# --------------------------------------------------------------------------- parsing

def _parse_options(options: Any) -> dict:
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise IllegalAction("bad_option", "Options must be a JSON object.")
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise IllegalAction("bad_option", f"Unknown option(s): "
                                          f"{', '.join(sorted(map(str, unknown)))}. Known: map.")
    return clone(options)


def _parse_action(state: State, seat: int, action: Any) -> tuple:
    shapes = ('{"draw": true}, {"claim": route}, {"run": [city, ...]} or {"pass": true}')
    if not isinstance(action, dict) or len(action) != 1:
        raise IllegalAction("malformed", f"An action is one of {shapes}.")
    (key, value), = action.items()
    step = state["step"]
    if key in ("draw", "pass"):
        if value is not True:
            raise IllegalAction("malformed", f'Send {{"{key}": true}}.')
        if key == "draw":
            if step != "act":
                raise IllegalAction("already_acted", "You have drawn or claimed this turn: run "
                                                     "a path or end the turn.")
            if not _can_draw(state, seat):
                raise IllegalAction("cannot_draw", "You cannot draw: the pile is empty or your "
                                                   f"hand holds {HAND_LIMIT} cards.")
        elif step == "act" and (_can_draw(state, seat) or _claimable(state, seat)):
            raise IllegalAction("must_act", "Draw two cards or claim a route; you may pass only "
                                            "when you can do neither.")
        return (key,)
    if key == "claim":
        if not is_int(value) or not 0 <= value < len(state["owners"]):
            raise IllegalAction("malformed", '"claim" takes the index of a route.')
        if step != "act":
            raise IllegalAction("already_acted", "You have drawn or claimed this turn: run a "
                                                 "path or end the turn.")
        route = state["map"]["routes"][value]
        if state["owners"][value] is not None:
            raise IllegalAction("route_taken", f"{route['a']}–{route['b']} is already claimed.")
        have = state["hands"][seat].count(route["gate"])
        if have < route["length"]:
            raise IllegalAction("not_enough_cards",
                                f"{route['a']}–{route['b']} needs {route['length']} "
                                f"{route['gate']} cards; you hold {have}.")
        return ("claim", value)
    if key == "run":
        names = {c["name"] for c in state["map"]["cities"]}
        if (not isinstance(value, list) or len(value) < 2
                or not all(isinstance(c, str) and c in names for c in value)):
            raise IllegalAction("malformed", '"run" takes a list of cities, from your mission\'s '
                                             "start to its target.")
        if step != "run":
            raise IllegalAction("not_now", "You run a path after your action (draw or claim).")
        mission = state["missions"][seat]
        if value[0] != mission["start"] or value[-1] != mission["target"]:
            raise IllegalAction("wrong_ends", "A run goes from your mission's start city to its "
                                              "target city.")
        if len(set(value)) != len(value):
            raise IllegalAction("city_twice", "A run passes each city at most once.")
        routes = _path_routes(state, value)
        for (a, b), r in zip(zip(value, value[1:], strict=False), routes, strict=True):
            if r is None or state["owners"][r] != seat:
                raise IllegalAction("not_your_route", f"You have not claimed a route {a}–{b}.")
        if value not in runnable_paths(state, seat):
            raise IllegalAction("too_many_paths", "Choose one of the listed paths.")
        return ("run", list(value))
    raise IllegalAction("malformed", f"An action is one of {shapes}.")


def _successor(state: State) -> State:
    """A copy of ``state`` to apply an action to: the parts an action changes are copied; the
    map, the options, the order and the missions are never changed, so they are shared."""
    new = dict(state)
    for key in ("pile", "discard", "owners", "last_turns", "runs"):
        new[key] = list(state[key])
    new["hands"] = [list(h) for h in state["hands"]]
    return new


def _path_routes(state: State, cities: list[str]) -> list[int | None]:
    index = {frozenset((r["a"], r["b"])): i for i, r in enumerate(state["map"]["routes"])}
    return [index.get(frozenset(pair)) for pair in zip(cities, cities[1:], strict=False)]


# --------------------------------------------------------------------------- rules

def _can_draw(state: State, seat: int) -> bool:
    return bool(state["pile"]) and len(state["hands"][seat]) < HAND_LIMIT


def _claimable(state: State, seat: int) -> list[int]:
    have = Counter(state["hands"][seat])
    return [r for r, route in enumerate(state["map"]["routes"])
            if state["owners"][r] is None and have[route["gate"]] >= route["length"]]


def _turn_event(seat: int, last: bool = False) -> Event:
    return {"type": "turn", "code": "last_turn" if last else "turn", "seat": seat,
            "text": f"{_who(seat)}: last turn." if last else f"{_who(seat)} to play."}


def _draw(state: State, seat: int, events: list[Event]) -> None:
    hand = state["hands"][seat]
    k = min(DRAW, len(state["pile"]), HAND_LIMIT - len(hand))
    cards = [state["pile"].pop() for _ in range(k)]
    state["hands"][seat] = _sorted(hand + cards)
    events.append({"type": "draw", "code": "draw", "seat": seat, "count": k,
                   "pile": len(state["pile"]),
                   "text": f"{_who(seat)} draws {k} card{'s' if k != 1 else ''} "
                           f"({len(state['pile'])} left in the pile)."})
    events.append({"type": "drew", "code": "drew", "seat": seat, "cards": cards,
                   "visible_to": [seat], "text": f"You drew {', '.join(cards)}."})


def _claim(state: State, seat: int, r: int, events: list[Event]) -> None:
    route = state["map"]["routes"][r]
    hand = list(state["hands"][seat])
    for _ in range(route["length"]):
        hand.remove(route["gate"])
    state["hands"][seat] = hand
    state["discard"] += [route["gate"]] * route["length"]
    state["owners"][r] = seat
    events.append({"type": "claim", "code": "claim", "seat": seat, "route": r,
                   "a": route["a"], "b": route["b"], "gate": route["gate"],
                   "length": route["length"],
                   "text": f"{_who(seat)} claims {route['a']}–{route['b']} ({route['gate']}, "
                           f"length {route['length']}) with {route['length']} {route['gate']} "
                           f"card{'s' if route['length'] != 1 else ''}."})


def _run(state: State, seat: int, cities: list[str], events: list[Event]) -> None:
    mission = state["missions"][seat]
    t = trace(state["map"], mission, cities)
    run = {"seat": seat, "action": state["actions"], "mission": dict(mission),
           "cities": t["cities"], "routes": t["routes"], "gates": t["gates"],
           "ket": t["ket"], "q0": t["q0"], "amplitudes": t["amplitudes"],
           "fidelity": t["fidelity"], "match": t["match"]}
    state["runs"].append(run)
    path = " → ".join(cities)
    gates = "·".join(t["gates"])
    params = {"seat": seat, "cities": list(cities), "gates": list(t["gates"]),
              "ket": t["ket"], "q0": t["q0"], "fidelity": t["fidelity"],
              "mission": dict(mission)}
    reached = t["ket"] if mission["qubits"] == 2 else (t["q0"] or "q0 entangled with q1")
    if t["match"]:
        events.append({"type": "run", "code": "mission_complete", **params, "match": True,
                       "text": f"{_who(seat)} runs {path}: {gates} takes "
                               f"{register.label(mission['initial_state'])} to {reached} "
                               f"(register {t['ket']}), fidelity {t['fidelity']:.3g} with "
                               f"{register.label(mission['target_state'])}: mission complete!"})
        _finish(state, "mission", [seat], events)
        return
    events.append({"type": "run", "code": "run_no_match", **params, "match": False,
                   "visible_to": [seat],
                   "text": f"You run {path}: {gates} takes "
                           f"{register.label(mission['initial_state'])} to {reached} "
                           f"(register {t['ket']}), fidelity {t['fidelity']:.3g} with "
                           f"{register.label(mission['target_state'])}: no match, play goes on."})


def _end_turn(state: State, seat: int, events: list[Event]) -> None:
    state["step"] = "act"
    order = state["order"]
    if state["final_round"]:
        if state["last_turns"] and state["last_turns"][0] == seat:
            state["last_turns"].pop(0)
        if not state["last_turns"]:
            _finish_by_length(state, "pile_empty", events)
            return
        state["turn"] = state["last_turns"][0]
        events.append(_turn_event(state["turn"], last=True))
        return
    i = order.index(seat)
    if not state["pile"]:
        state["final_round"] = True
        state["last_turns"] = [order[(i + k) % len(order)] for k in range(1, len(order) + 1)]
        state["turn"] = state["last_turns"][0]
        events.append({"type": "last_round", "code": "last_round",
                       "text": "The pile is empty: every player has one last turn."})
        events.append(_turn_event(state["turn"], last=True))
        return
    if not any(_can_draw(state, s) or _claimable(state, s) for s in order):
        _finish_by_length(state, "blocked", events)
        return
    state["turn"] = order[(i + 1) % len(order)]
    events.append(_turn_event(state["turn"]))


def _lengths(state: State) -> list[int]:
    routes = state["map"]["routes"]
    return [sum(routes[r]["length"] for r, o in enumerate(state["owners"]) if o == s)
            for s in range(state["players"])]


def _finish(state: State, reason: str, winners: list[int], events: list[Event]) -> None:
    scores = _lengths(state)
    state["finished"] = True
    state["step"] = None
    state["last_turns"] = []
    state["result"] = {"reason": reason, "scores": scores, "winners": sorted(winners),
                       "missions": clone(state["missions"]),
                       "completed": winners if reason == "mission" else []}
    why = {"mission": "a mission is complete",
           "pile_empty": "the pile is empty and everyone has had a last turn",
           "blocked": "nobody can draw or claim any more"}[reason]
    names = ", ".join(_who(s) for s in sorted(winners))
    events.append({"type": "game_end", "code": f"game_end_{reason}", "reason": reason,
                   "winners": sorted(winners), "scores": scores,
                   "missions": clone(state["missions"]),
                   "text": f"The game is over ({why}): {names} "
                           f"win{'s' if len(winners) == 1 else ''}. Missions: "
                           + "; ".join(f"{_who(s)} {mission_text(m)}"
                                       for s, m in enumerate(state["missions"])) + "."})


def _finish_by_length(state: State, reason: str, events: list[Event]) -> None:
    scores = _lengths(state)
    best = max(scores)
    _finish(state, reason, [s for s, v in enumerate(scores) if v == best], events)


GAME = QuantumTicketToRide()

"""The Game object of Quantum Ticket-to-Ride: setup, turns, claims, runs, the end.

Formats (state, actions, views, events) are documented in the package docstring.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, cast

from ..base import (
    Abilities,
    Action,
    Event,
    Evidence,
    IllegalAction,
    State,
    chance,
    clone,
    event,
    events_for,
    gettext_noop,
    is_int,
    message,
    moment,
    ngettext_lazy,
    public,
    render_text,
)
from ..contract import Engine
from ..schema import Actions, Anything, Int, ListOf, Obj, Options, Text, TrueOnly
from . import evidence, register
from .guide import GUIDE
from .maps import LEVELS, MapError, default_map, render_problem, validate_map
from .paths import runnable_paths, trace
from .statistics import TicketScorer, ticket_scorer
from .texts import EVENT_TEXTS

SLUG = "quantum-ticket-to-ride"
VARIANTS = (*LEVELS, "mixed")
COPIES = 12
HAND = 5
HAND_LIMIT = 12
DRAW = 2


def _who(seat: int) -> dict:
    return message("player", number=seat + 1)


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=register.GATE_NAMES.index)


def mission_message(m: dict) -> dict:
    return message("mission", start=m["start"], initial=register.label(m["initial_state"]),
                   target=m["target"], goal=register.label(m["target_state"]))


def mission_text(m: dict) -> str:
    return render_text(EVENT_TEXTS, "mission", mission_message(m)["params"])


class QuantumTicketToRide(Engine):
    slug = SLUG
    rules_version = 1  # bump when a stored game would replay differently (engines/base.py)
    name = "Quantum Ticket-to-Ride"
    min_players = 2
    max_players = 5
    variants = VARIANTS
    # the mission level dealt (the same words as a map's level)
    variant_names = {"basic": gettext_noop("basic"), "intermediate": gettext_noop("intermediate"),
                     "advanced": gettext_noop("advanced"), "mixed": gettext_noop("mixed")}
    how_to_play = GUIDE
    # the shapes of the actions and options (checked by ``Engine``)
    actions = Actions(draw=Obj(draw=TrueOnly()), claim=Obj(claim=Int(0)),
                      run=Obj(run=ListOf(Text(), 2)),
                      **{"pass": Obj(**cast(dict[str, Any], {"pass": TrueOnly()}))})
    options = Options(map=Anything())
    event_texts = EVENT_TEXTS
    evidence_texts = evidence.EVIDENCE_TEXTS
    finish_rule = gettext_noop("When time is up, the game is scored as it stands: the most "
                               "claimed route length wins; unfinished missions score nothing.")
    # missions are secret: the planner's progress per player is the teacher's; claimed
    # lengths are public. Every position has a circuit (see ``circuit``).
    abilities = Abilities(
        preview=True,
        public_analysis_keys=("claimed_length",),
        public_analysis=True,  # (``public_analysis``: the claimed lengths without the planning)
        teacher_only_analysis_keys=("players", "closest", "teacher_only"),
        circuit=True,
        private_circuit=True,  # a missed run's circuit is its runner's (and the teacher's)
        teaching_moments=True,
        concept_evidence=True,  # what a run shows of its runner's understanding (evidence.py)
        session_extension="ticket_maps",  # a class's uploaded maps, the teacher's route progress
    )

    def scorer(self, state: State, circuit: Any = None) -> TicketScorer:
        """Whether the last run's outcomes found the target (``NotScorable`` before a run)."""
        return ticket_scorer(state, circuit)

    def map_problems(self, data: Any) -> tuple[dict | None, list]:
        """A teacher's map checked (the ``ticket_maps`` extension): ``(the map as the engine
        plays it, [])``, or ``(None, every problem found)`` (``render_map_problem`` words one)."""
        try:
            return validate_map(data), []
        except MapError as exc:
            return None, list(exc.messages)

    @staticmethod
    def render_map_problem(problem: Any, translate=lambda text: text) -> str:
        return render_problem(problem, translate)

    def concept_evidence(self, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
        return evidence.concept_evidence(before, seat, action, after)

    def teaching_moments(self, events: list[Event], history: list[list[Event]]) -> list[dict]:
        """A mission completed by a run (public: the run that completes a mission is announced
        to everyone and ends the game; a run that misses is the runner's own and is not read)."""
        out = []
        for e in public(events):
            if e.get("type") == "run" and e.get("match") is True:
                p = e["params"]
                out.append(moment(EVENT_TEXTS, "moment_mission", {
                    "player": p["player"], "gates": p["gates"], "initial": p["initial"],
                    "goal": p["goal"], "path": p["path"],
                }) | {"kind": "mission", "seat": e["seat"], "gates": list(e["gates"]),
                      "mission": dict(e["mission"]), "fidelity": e["fidelity"]})
        return out

    # ----------------------------------------------------------------- set-up

    def start(self, players: int, variant: str, seed: int, options: dict) -> State:
        """The cards and missions dealt (``Engine.setup`` has checked the arguments)."""
        opts = clone(options)
        try:
            game_map = validate_map(opts["map"]) if "map" in opts else default_map()
        except MapError as exc:
            raise IllegalAction("bad_map", gettext_noop("This map cannot be used: %(problems)s"),
                                {"problems": exc.messages}) from exc
        pool = [m for m in game_map["missions"] if variant == "mixed" or m["level"] == variant]
        if len(pool) < players:
            raise IllegalAction("not_enough_missions",
                                ngettext_lazy("This map has %(count)s %(level)s mission: not "
                                              "enough for %(players)s players.",
                                              "This map has %(count)s %(level)s missions: not "
                                              "enough for %(players)s players."),
                                {"count": len(pool), "level": variant, "players": players})
        pile = [g for g in register.GATE_NAMES for _ in range(COPIES)]
        chance(seed, 0, "deck").shuffle(pile)
        hands: list[list[str]] = [[] for _ in range(players)]
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
        events: list[Event] = [event(
            EVENT_TEXTS, "setup", "setup", {"hand": HAND, "order": [_who(s) for s in order]},
            order=order, hand=HAND)]
        for s in range(players):
            events.append(event(EVENT_TEXTS, "mission", "mission_dealt",
                                {"mission": mission_message(missions[s])}, seat=s,
                                visible_to=[s], mission=dict(missions[s])))
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

    def is_over(self, state: State) -> bool:
        return state["finished"]

    def play(self, state: State, seat: int, kind: str, action: Action) -> tuple[State, list[Event]]:
        """A draw, claim, run or pass of the right shape by the seat to act (``Engine.apply``)."""
        move = _check_move(state, seat, kind, action[kind])
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
            events.append(event(EVENT_TEXTS, "pass", "cannot_act", {"player": _who(seat)},
                                seat=seat))
        if not new["finished"]:
            if kind in ("draw", "claim", "pass") and new["step"] == "act" and any(
                    o == seat for o in new["owners"]):
                new["step"] = "run"
                events.append(event(EVENT_TEXTS, "may_run", "may_run", {"player": _who(seat)},
                                    seat=seat))
            else:
                events.append(event(EVENT_TEXTS, "turn_end", "turn_end", {"player": _who(seat)},
                                    seat=seat))
                _end_turn(new, seat, events)
        new["events"] = events
        return new, events

    # ----------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict:
        if seat is not None:
            self.check_seat(state, seat)
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
            "can_draw": seat is not None and not finished and _can_draw(state, seat),
            "run_paths": ([trace(game_map, state["missions"][seat], p)
                           for p in runnable_paths(state, seat)] if seat is not None else []),
            "runs": [r for r in state["runs"] if own and r["seat"] == seat],
            "winning_run": winning,
            "events": list(events), "finished": finished, "outcome": self.outcome(state),
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
        self.check_seat(state, seat)
        if not isinstance(action, dict) or len(action) != 1:
            raise IllegalAction("bad_action", gettext_noop("Preview one action: a run, a claim or a pass."))
        (key, value), = action.items()
        if key == "draw" and value is True:
            raise IllegalAction("no_preview", gettext_noop("Drawing is chance: there is nothing to preview."))
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
                raise IllegalAction("no_route", gettext_noop("Two cities in a row must be joined by a route."))
            raise IllegalAction("bad_path", gettext_noop("A path starts at your mission's start "
                                                         "city and passes each city at most once."))
        raise IllegalAction("bad_action", gettext_noop("Preview one action: a run, a claim or a pass."))

    def outcome(self, state: State) -> dict | None:
        return clone(state["result"]) if state["finished"] else None

    def finish(self, state: State) -> tuple[State, list[Event]]:
        """Time is up: scored as it stands, by the rule's settled end without a winning run:
        the most claimed route length wins (ties share); a mission not yet run scores
        nothing (a completed one would have ended the game at once)."""
        if state["finished"]:
            return state, []
        new = _successor(state)
        new["actions"] += 1
        events: list[Event] = []
        _finish_by_length(new, "time_up", events)
        new["events"] = events
        return new, events

    def analysis(self, state: State) -> dict:
        from .analysis import analyse

        return analyse(state)

    def public_analysis(self, state: State) -> dict:
        from .analysis import public_analysis

        return public_analysis(state)

    def circuit(self, state: State):
        """The qiskit circuit of the last run (``circuit.run_circuit``). Before any run: the
        first player's mission qubit as prepared (an empty path, ``metadata["ran"]`` False),
        measured in its target's basis."""
        return _circuit_of(state, state["runs"])

    def public_circuit(self, state: State):
        """The circuit as the players may see it (``Abilities.private_circuit``): of the last
        run every seat saw, one that completed its mission (a run that did not is its runner's
        secret for good); before one, the first player's mission qubit as prepared (missions
        are everyone's once the game is over, and players open statistics only then)."""
        return _circuit_of(state, [r for r in state["runs"] if r["match"]])


def _circuit_of(state: State, runs: list[dict]):
    """The circuit of the last of ``runs``; without one, the first player's mission as prepared."""
    from .circuit import run_circuit

    if runs:
        return run_circuit(runs[-1])
    seat = state["order"][0]
    m = state["missions"][seat]
    return run_circuit({"seat": seat, "mission": dict(m), "cities": [m["start"]],
                        "gates": [], "ran": False,
                        "fidelity": trace(state["map"], m, [m["start"]])["fidelity"]})


# --------------------------------------------------------------------------- parsing

def _check_move(state: State, seat: int, key: str, value: Any) -> tuple:
    """The rules of an action whose shape is checked (``QuantumTicketToRide.actions``): the
    move, ``(key,)`` or ``(key, route or cities)``."""
    if key == "claim":
        return ("claim", _check_claim(state, seat, value))
    if key == "run":
        return ("run", _check_run(state, seat, value))
    if key == "draw" and state["step"] != "act":
        raise IllegalAction("already_acted", gettext_noop(
            "You have drawn or claimed this turn: run a path or end the turn."))
    if key == "draw" and not _can_draw(state, seat):
        raise IllegalAction("cannot_draw", ngettext_lazy(
            "You cannot draw: the pile is empty or your hand holds %(limit)s card.",
            "You cannot draw: the pile is empty or your hand holds %(limit)s cards.", "limit"),
            {"limit": HAND_LIMIT})
    if key == "pass" and state["step"] == "act" and (_can_draw(state, seat) or _claimable(state, seat)):
        raise IllegalAction("must_act", gettext_noop(
            "Draw two cards or claim a route; you may pass only when you can do neither."))
    return (key,)


def _check_claim(state: State, seat: int, r: int) -> int:
    if r >= len(state["owners"]):
        raise IllegalAction("bad_action", gettext_noop('"claim" takes the index of a route.'))
    if state["step"] != "act":
        raise IllegalAction("already_acted", gettext_noop(
            "You have drawn or claimed this turn: run a path or end the turn."))
    route = state["map"]["routes"][r]
    if state["owners"][r] is not None:
        raise IllegalAction("route_taken", gettext_noop("%(a)s–%(b)s is already claimed."),
                            {"a": route["a"], "b": route["b"]})
    have = state["hands"][seat].count(route["gate"])
    if have < route["length"]:
        raise IllegalAction("not_enough_cards",
                            ngettext_lazy("%(a)s–%(b)s needs %(length)s %(gate)s card; you "
                                          "hold %(have)s.",
                                          "%(a)s–%(b)s needs %(length)s %(gate)s cards; you "
                                          "hold %(have)s.", "length"),
                            {"a": route["a"], "b": route["b"], "length": route["length"],
                             "gate": route["gate"], "have": have})
    return r


def _check_run(state: State, seat: int, cities: list[str]) -> list[str]:
    names = {c["name"] for c in state["map"]["cities"]}
    if not all(c in names for c in cities):
        raise IllegalAction("bad_action", gettext_noop(
            '"run" takes a list of cities, from your mission\'s start to its target.'))
    if state["step"] != "run":
        raise IllegalAction("not_now", gettext_noop("You run a path after your action (draw or claim)."))
    mission = state["missions"][seat]
    if cities[0] != mission["start"] or cities[-1] != mission["target"]:
        raise IllegalAction("wrong_ends", gettext_noop(
            "A run goes from your mission's start city to its target city."))
    if len(set(cities)) != len(cities):
        raise IllegalAction("city_twice", gettext_noop("A run passes each city at most once."))
    routes = _path_routes(state, cities)
    for (a, b), r in zip(zip(cities, cities[1:], strict=False), routes, strict=True):
        if r is None or state["owners"][r] != seat:
            raise IllegalAction("not_your_route", gettext_noop("You have not claimed a route %(a)s–%(b)s."),
                                {"a": a, "b": b})
    if list(cities) not in runnable_paths(state, seat):
        raise IllegalAction("too_many_paths", gettext_noop("Choose one of the listed paths."))
    return list(cities)


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
    return event(EVENT_TEXTS, "turn", "last_turn" if last else "turn", {"player": _who(seat)},
                 seat=seat)


def _draw(state: State, seat: int, events: list[Event]) -> None:
    hand = state["hands"][seat]
    k = min(DRAW, len(state["pile"]), HAND_LIMIT - len(hand))
    cards = [state["pile"].pop() for _ in range(k)]
    state["hands"][seat] = _sorted(hand + cards)
    drawn = message("drawn_cards_one" if k == 1 else "drawn_cards", count=k)
    events.append(event(EVENT_TEXTS, "draw", "draw",
                        {"player": _who(seat), "cards": drawn, "pile": len(state["pile"])},
                        seat=seat, count=k, pile=len(state["pile"])))
    events.append(event(EVENT_TEXTS, "drew", "drew", {"cards": list(cards)}, seat=seat,
                        cards=cards, visible_to=[seat]))


def _claim(state: State, seat: int, r: int, events: list[Event]) -> None:
    route = state["map"]["routes"][r]
    hand = list(state["hands"][seat])
    for _ in range(route["length"]):
        hand.remove(route["gate"])
    state["hands"][seat] = hand
    state["discard"] += [route["gate"]] * route["length"]
    state["owners"][r] = seat
    cards = message("gate_cards_one" if route["length"] == 1 else "gate_cards",
                    count=route["length"], gate=route["gate"])
    events.append(event(EVENT_TEXTS, "claim", "claim",
                        {"player": _who(seat), "a": route["a"], "b": route["b"],
                         "gate": route["gate"], "length": route["length"], "cards": cards},
                        seat=seat, route=r, a=route["a"], b=route["b"], gate=route["gate"],
                        length=route["length"]))


def _run(state: State, seat: int, cities: list[str], events: list[Event]) -> None:
    mission = state["missions"][seat]
    t = trace(state["map"], mission, cities)
    run = {"seat": seat, "action": state["actions"], "mission": dict(mission),
           "cities": t["cities"], "routes": t["routes"], "gates": t["gates"],
           "ket": t["ket"], "q0": t["q0"], "amplitudes": t["amplitudes"],
           "fidelity": t["fidelity"], "match": t["match"]}
    state["runs"].append(run)
    path = " → ".join(cities)
    # the gates in the order they act, with arrows (X → H: X first, then H); a "·" would read
    # as an operator product, which is the reverse order
    gates = " → ".join(t["gates"])
    fields = {"seat": seat, "cities": list(cities), "gates": list(t["gates"]),
              "ket": t["ket"], "q0": t["q0"], "fidelity": t["fidelity"],
              "mission": dict(mission)}
    reached = t["ket"] if mission["qubits"] == 2 else (t["q0"] or message("entangled"))
    params = {"path": path, "gates": gates, "initial": register.label(mission["initial_state"]),
              "reached": reached, "ket": t["ket"], "fidelity": f"{t['fidelity']:.3g}",
              "goal": register.label(mission["target_state"])}
    if t["match"]:
        events.append(event(EVENT_TEXTS, "run", "mission_complete",
                            {"player": _who(seat), **params}, **fields, match=True))
        _finish(state, "mission", [seat], events)
        return
    events.append(event(EVENT_TEXTS, "run", "run_no_match", params, **fields, match=False,
                        visible_to=[seat]))


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
        events.append(event(EVENT_TEXTS, "last_round", "last_round"))
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
    names = [_who(s) for s in sorted(winners)]
    won = message("wins_one" if len(winners) == 1 else "wins_many", names=names)
    events.append(event(EVENT_TEXTS, "game_end", f"game_end_{reason}",
                        {"winners": won, "missions": _missions_message(state["missions"])},
                        reason=reason, winners=sorted(winners), scores=scores,
                        missions=clone(state["missions"])))


def _missions_message(missions: list[dict]) -> dict:
    """Every seat's mission, joined by "; " (nested: a list parameter is joined by ", ")."""
    parts = [message("seat_mission", player=_who(s), mission=mission_message(m))
             for s, m in enumerate(missions)]
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = message("missions_more", first=part, rest=out)
    return out


def _finish_by_length(state: State, reason: str, events: list[Event]) -> None:
    scores = _lengths(state)
    best = max(scores)
    _finish(state, reason, [s for s, v in enumerate(scores) if v == best], events)


GAME = QuantumTicketToRide()

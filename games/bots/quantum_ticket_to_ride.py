"""Bots for Quantum Ticket-to-Ride: the A* planner and a random baseline.

The planner sees only its seat's view. Each decision it asks ``search.plan`` (A* over
(city, register state), the search that also validates maps) for the cheapest simple path
from its mission's start to its target whose circuit completes the mission, with its own
routes free, unclaimed routes at their length in cards (a little more for cards it lacks) and
other players' routes closed (at most ``PLAN_BUDGET`` expansions a decision: a plan out of
that reach counts as none this turn). Then:

* run step: run a listed path that matches (the view's ``run_paths`` say which), else pass;
* claim a route of the plan it can pay for (the longest first: long routes are the hard ones);
* block when that helps: with cards its plan does not need, when its hand is nearly full or
  drawing is over, claim such a route, preferring one on another player's likely plan (the
  missions of the level that best explain the routes that player has claimed, planned with
  the same search), then one next to another player's routes, then the longest (claimed
  length decides a game without a mission winner);
* else draw; if it cannot draw, claim whatever scores most; else pass.
"""
from __future__ import annotations

import functools
import random
from collections import Counter

from games.bots.common import RandomBot
from games.engines import Action
from games.engines.quantum_ticket_to_ride.search import plan

HAND_LIMIT = 12
#: A* expansions per decision: a plan that needs more is out of reach for this turn
PLAN_BUDGET = 3_000


def _price(view: dict, hand: Counter):
    seat = view["seat"]
    routes = view["map"]["routes"]

    def price(r: int) -> float | None:
        route = routes[r]
        if route["owner"] == seat:
            return 0
        if route["owner"] is not None:
            return None
        return route["length"] + 0.25 * max(0, route["length"] - hand[route["gate"]])

    return price


class PlannerBot:
    label = "A* planner"

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        if view["step"] == "run":
            runs = {tuple(a["run"]) for a in legal if "run" in a}
            for t in view["run_paths"]:
                if t["match"] and tuple(t["cities"]) in runs:
                    return {"run": list(t["cities"])}
            return {"pass": True}
        if legal == [{"pass": True}]:
            return legal[0]
        routes = view["map"]["routes"]
        seat = view["seat"]
        hand = Counter(view["hand"])
        claims = [a["claim"] for a in legal if "claim" in a]
        can_draw = {"draw": True} in legal
        best = plan(view["map"], view["mission"], _price(view, hand), budget=PLAN_BUDGET)
        need: Counter = Counter()
        if best is not None:
            todo = [r for r in best.routes if routes[r]["owner"] is None]
            for r in todo:
                need[routes[r]["gate"]] += routes[r]["length"]
            ready = [r for r in todo if r in claims]
            if ready:
                return {"claim": max(ready, key=lambda r: (routes[r]["length"], -r))}
        surplus = hand - need
        spare = [r for r in claims if routes[r]["length"] <= surplus[routes[r]["gate"]]]
        endgame = view["final_round"] or not can_draw
        if spare and (endgame or sum(hand.values()) >= HAND_LIMIT - 1):
            threats = threat_routes(view) if len(spare) > 1 else frozenset()
            return {"claim": max(spare, key=lambda r: (r in threats, self._blocks(view, r, seat),
                                                       routes[r]["length"], -r))}
        if can_draw:
            return {"draw": True}
        if claims:
            return {"claim": max(claims, key=lambda r: (routes[r]["length"], -r))}
        return legal[0]

    @staticmethod
    def _blocks(view: dict, r: int, seat: int) -> bool:
        """Whether route ``r`` touches a city of another player's network."""
        routes = view["map"]["routes"]
        theirs = {c for route in routes if route["owner"] not in (None, seat)
                  for c in (route["a"], route["b"])}
        return routes[r]["a"] in theirs or routes[r]["b"] in theirs


def threat_routes(view: dict, keep: int = 2, candidates: int = 8) -> frozenset[int]:
    """Unclaimed routes on the other players' likely plans. For each other player with routes,
    the public missions of the level (never the bot's own) that start or end in that player's
    network (at least two routes: one says too little) are ranked by how many of that player's claimed routes their cheapest plan (that
    player's routes free, others closed) would use; the plans of the ``keep`` best are the
    threat. Cached per board, since it only changes when a route is claimed."""
    routes = view["map"]["routes"]
    return _threats(view["seat"], view["variant"], view["mission"]["id"],
                    tuple(r["owner"] for r in routes), _Board(view["map"]), keep, candidates)


class _Board:
    """A view's map, hashed by identity of content for the threat cache."""

    def __init__(self, game_map: dict):
        self.map = game_map
        self.key = (game_map["name"], len(game_map["routes"]), len(game_map["missions"]),
                    tuple((r["a"], r["b"], r["gate"], r["length"]) for r in game_map["routes"]))

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Board) and other.key == self.key


@functools.lru_cache(maxsize=256)
def _threats(seat: int, level: str, own: str, owners: tuple, board: _Board, keep: int,
             candidates: int) -> frozenset[int]:
    game_map = board.map
    routes = game_map["routes"]
    pool = [m for m in game_map["missions"] if m["id"] != own
            and (level == "mixed" or m["level"] == level)]
    out: set[int] = set()
    for other in sorted({o for o in owners if o is not None and o != seat}):
        theirs = {r for r, o in enumerate(owners) if o == other}
        if len(theirs) < 2:             # one route says too little about a mission
            continue
        cities = {c for r in theirs for c in (routes[r]["a"], routes[r]["b"])}

        def price(r: int, other: int = other) -> int | None:
            return 0 if owners[r] == other else routes[r]["length"] if owners[r] is None else None

        ranked = []
        near = [m for m in pool if m["start"] in cities or m["target"] in cities]
        for m in near[:candidates]:
            found = plan(game_map, m, price, budget=500)
            if found is not None:
                ranked.append((len(theirs & set(found.routes)), -found.cost, found.routes))
        ranked.sort(reverse=True)
        for used, _cost, path in ranked[:keep]:
            if used:
                out |= {r for r in path if owners[r] is None}
    return frozenset(out)


BOTS = {"random": RandomBot(), "strong": PlannerBot()}

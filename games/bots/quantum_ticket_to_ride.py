"""Bots for Quantum Ticket-to-Ride: the A* planner and a random baseline.

The planner sees only its seat's view. Each decision it asks ``search.plan`` (A* over
(city, register state), the search that also validates maps) for the cheapest simple path
from its mission's start to its target whose circuit completes the mission, with its own
routes free, unclaimed routes at their length in cards (a little more for cards it lacks) and
other players' routes closed. Then:

* run step: run a listed path that matches (the view's ``run_paths`` say which), else pass;
* claim a route of the plan it can pay for (the longest first: long routes are the hard ones);
* block when that helps: with cards its plan does not need, when its hand is nearly full or
  drawing is over, claim the longest such route next to another player's routes (they are
  likely on that player's way; and claimed length decides a game without a mission winner);
* else draw; if it cannot draw, claim whatever scores most; else pass.
"""
from __future__ import annotations

import random
from collections import Counter

from games.bots.common import RandomBot
from games.engines import Action
from games.engines.quantum_ticket_to_ride.search import plan

HAND_LIMIT = 12


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
        best = plan(view["map"], view["mission"], _price(view, hand))
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
            return {"claim": max(spare, key=lambda r: (self._blocks(view, r, seat),
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


BOTS = {"random": RandomBot(), "strong": PlannerBot()}

"""``analysis``: how close each player is to their mission (teacher-only: missions are secret).

Per seat, the planner's cheapest simple path from the mission's start to its target whose
circuit completes the mission, given the board now: the seat's own routes are free, routes of
other players are closed, an unclaimed route costs its length in cards. ``cards_needed`` is
that cost; ``cards_missing`` what the hand does not yet cover, per gate. ``possible`` is
False when no such path is found within ``BUDGET`` search expansions (the dashboard calls this
often, so it is bounded).
"""
from __future__ import annotations

from collections import Counter

from . import register
from .paths import runnable_paths, trace
from .search import plan

BUDGET = 5_000

# (the map, the mission, each route's price for the seat) → the planner's path and the ket it
# ends in. Only a claim changes a price; draws, ends of turn and runs change neither, and the
# teacher's dashboard asks for every playing table's analysis after each of its moves.
_PLANNED: dict[tuple, tuple] = {}
_PLANNED_KEPT = 4096


def seat_price(state: dict, seat: int):
    """The planner's price of each route for ``seat``: own 0, unclaimed its length, else None."""
    owners, routes = state["owners"], state["map"]["routes"]

    def price(r: int) -> int | None:
        if owners[r] == seat:
            return 0
        return routes[r]["length"] if owners[r] is None else None

    return price


def claimed_length(state: dict, seat: int) -> int:
    """The length of the routes ``seat`` has claimed (public: every page shows the claims)."""
    routes = state["map"]["routes"]
    return sum(routes[r]["length"] for r, o in enumerate(state["owners"]) if o == seat)


def planned(state: dict, seat: int) -> tuple:
    """The planner's cheapest path for ``seat``'s mission on the board now (None: none within
    ``BUDGET``) and the ket its circuit ends in; remembered (``_PLANNED``)."""
    game_map, mission = state["map"], state["missions"][seat]
    price = seat_price(state, seat)
    routes = game_map["routes"]
    key = (tuple(c["name"] for c in game_map["cities"]),
           tuple((r["a"], r["b"], r["gate"], r["length"]) for r in routes),
           tuple(sorted(mission.items())), tuple(price(r) for r in range(len(routes))))
    found = _PLANNED.get(key)
    if found is None:
        best = plan(game_map, mission, price, budget=BUDGET)
        found = (best, trace(game_map, mission, list(best.cities))["ket"] if best is not None else None)
        if len(_PLANNED) >= _PLANNED_KEPT:
            _PLANNED.clear()
        _PLANNED[key] = found
    return found


def seat_progress(state: dict, seat: int) -> dict:
    mission = state["missions"][seat]
    routes = state["map"]["routes"]
    best, ket = planned(state, seat)
    row: dict = {"seat": seat, "mission": dict(mission), "claimed_length": claimed_length(state, seat),
                 "connected": bool(runnable_paths(state, seat)), "possible": best is not None,
                 "plan": None, "cards_needed": None, "cards_missing": None}
    if best is None:
        return row
    need: Counter[str] = Counter()
    for r in best.routes:
        if state["owners"][r] is None:
            need[routes[r]["gate"]] += routes[r]["length"]
    have = Counter(state["hands"][seat])
    missing = {g: n - have[g] for g, n in need.items() if n > have[g]}
    row.update(plan={"cities": list(best.cities), "routes": list(best.routes),
                     "to_claim": [r for r in best.routes if state["owners"][r] is None],
                     "ket": ket},
               cards_needed=int(sum(need.values())),
               cards_missing={g: missing[g] for g in register.GATE_NAMES if g in missing})
    return row


def public_analysis(state: dict) -> dict:
    """The public keys of ``analyse`` alone (a player's view): no planning, no mission."""
    return {"claimed_length": [claimed_length(state, s) for s in range(state["players"])]}


def analyse(state: dict) -> dict:
    players = [seat_progress(state, s) for s in range(state["players"])]
    open_ = [p for p in players if p["possible"]]
    closest = None
    if open_:
        least = min(p["cards_needed"] for p in open_)
        closest = [p["seat"] for p in open_ if p["cards_needed"] == least]
    return {"claimed_length": [p["claimed_length"] for p in players],
            "players": players, "closest": closest,
            "teacher_only": ["players", "closest"]}

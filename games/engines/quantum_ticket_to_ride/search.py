"""The planner's search: the cheapest path whose circuit completes a mission.

A* over (city, register state). The states reachable with I, X, Y, Z, H on q0 and CNOT q0→q1
from a mission's start are two-qubit stabilizer states, finitely many, so the product graph is
finite. Every gate is its own inverse (up to phase), so a route leads back from where it goes:
one backward Dijkstra from the goal nodes over (city, state) gives the exact cost of the
cheapest *walk* to the goal from every node, and that is the A* heuristic (admissible). A run
must be a simple path (no city twice), so the A* nodes also carry the cities already visited;
with that heuristic the search usually pops a goal after a handful of expansions.

Used by map validation (every mission solvable on the empty board), the bot and ``analysis``.
``cost(route_index)`` gives a route's price (None: impassable, e.g. another player's route).
"""
from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import register

#: A* expansions before a search gives up (an upload cannot make it run for ever)
BUDGET = 20_000
#: added to every route's price: among equal costs, fewer routes; no free cycles
STEP = 1e-3

Key = tuple[float, ...]


def state_key(psi: np.ndarray) -> Key:
    """A register state up to global phase, as a hashable key."""
    nz = next(i for i in range(len(psi)) if abs(psi[i]) > 1e-9)
    psi = psi * (abs(psi[nz]) / psi[nz])
    out = []
    for c in psi:
        re, im = round(float(c.real), 6), round(float(c.imag), 6)
        out += [0.0 if re == 0 else re, 0.0 if im == 0 else im]
    return tuple(out)


@dataclass
class StateSpace:
    """Register states met so far, numbered (the same state up to phase has one number), and
    the effect of each (gate, length) on them (cached)."""

    vectors: list[np.ndarray] = field(default_factory=list)
    ids: dict[Key, int] = field(default_factory=dict)
    moves: dict[tuple[int, str, int], int] = field(default_factory=dict)

    def add(self, psi: np.ndarray) -> int:
        key = state_key(psi)
        if key not in self.ids:
            self.ids[key] = len(self.vectors)
            self.vectors.append(psi)
        return self.ids[key]

    def step(self, state: int, gate: str, length: int) -> int:
        memo = (state, gate, length)
        if memo not in self.moves:
            psi = self.vectors[state]
            for _ in range(length):
                psi = register.apply_gate(psi, gate)
            self.moves[memo] = self.add(psi)
        return self.moves[memo]


_SPACE = StateSpace()


@dataclass(frozen=True)
class Plan:
    """A simple path from the mission's start to its target whose circuit matches."""

    cost: int                      # the summed price of its routes
    cities: tuple[str, ...]
    routes: tuple[int, ...]        # route indices, in the order travelled
    fidelity: float


def route_price(routes: list[dict]) -> Callable[[int], int | None]:
    """The empty-board price: a route costs its length in cards."""
    return lambda r: routes[r]["length"]


def plan(game_map: dict, mission: dict, cost: Callable[[int], int | float | None] | None = None,
         budget: int = BUDGET, meter: list[int] | None = None) -> Plan | None:
    """The cheapest simple path completing ``mission`` (None: none, or over ``budget``). With a
    ``meter`` (``[steps left]``, shared by several searches) every step is also taken off it,
    and the search stops when it is used up (the caller then knows it did not finish)."""
    cities = [c["name"] for c in game_map["cities"]]
    index = {name: i for i, name in enumerate(cities)}
    routes = game_map["routes"]
    price = cost or route_price(routes)
    adj: list[list[tuple[int, int, float]]] = [[] for _ in cities]
    for r, route in enumerate(routes):
        p = price(r)
        if p is None:
            continue
        a, b = index[route["a"]], index[route["b"]]
        adj[a].append((r, b, p + STEP))
        adj[b].append((r, a, p + STEP))
    start, target = index[mission["start"]], index[mission["target"]]
    qubits, goal = mission["qubits"], mission["target_state"]
    space = _SPACE
    init = space.add(register.initial_register(mission["initial_state"]))

    # the states reachable from the start with the gates of the passable routes, and each
    # passable route's effect on them as a table
    moves = sorted({(routes[r]["gate"], routes[r]["length"]) for row in adj for r, _, _ in row})
    states, todo = {init}, [init]
    while todo:
        state = todo.pop()
        for gate, length in moves:
            nxt = space.step(state, gate, length)
            if nxt not in states:
                states.add(nxt)
                todo.append(nxt)
    effect = {move: {st: space.step(st, *move) for st in states} for move in moves}
    table = {r: effect[(route["gate"], route["length"])] for r, route in enumerate(routes)
             if (route["gate"], route["length"]) in effect}
    good = {st for st in states
            if register.is_match(register.fidelity(space.vectors[st], goal, qubits))}
    if not good:
        return None

    # backward Dijkstra over (city, state): exact walk cost to a goal = the heuristic
    dist: dict[tuple[int, int], float] = {}
    heap = [(0.0, target, st) for st in good]
    heapq.heapify(heap)
    while heap:
        d, city, state = heapq.heappop(heap)
        if (city, state) in dist:
            continue
        dist[(city, state)] = d
        for r, other, p in adj[city]:
            prev = table[r][state]              # every route's gate is an involution
            if (other, prev) not in dist:
                heapq.heappush(heap, (d + p, other, prev))
    if (start, init) not in dist:
        return None

    # A* over (city, state, cities visited) towards the cheapest simple path
    counter = 0
    frontier: list[tuple[float, float, int, int, int, int, tuple[int, ...]]] = [
        (dist[(start, init)], 0.0, counter, start, init, 1 << start, ())]
    seen: set[tuple[int, int, int]] = set()
    while frontier and budget > 0:
        _f, g, _c, city, state, mask, path = heapq.heappop(frontier)
        if (city, state, mask) in seen:
            continue
        seen.add((city, state, mask))
        budget -= 1
        if meter is not None:
            meter[0] -= 1
            if meter[0] <= 0:
                return None
        if city == target:
            if state in good:
                return _plan(game_map, mission, start, path, price)
            continue                    # a simple path cannot come back to its target
        for r, other, p in adj[city]:
            if mask >> other & 1:
                continue
            nxt = table[r][state]
            h = dist.get((other, nxt))
            if h is None:
                continue
            counter += 1
            heapq.heappush(frontier, (g + p + h, g + p, counter, other, nxt,
                                      mask | 1 << other, (*path, r)))
    return None


def _plan(game_map: dict, mission: dict, start: int, path: tuple[int, ...],
          price: Callable[[int], int | float | None]) -> Plan:
    routes = game_map["routes"]
    names = [game_map["cities"][start]["name"]]
    for r in path:
        a, b = routes[r]["a"], routes[r]["b"]
        names.append(b if names[-1] == a else a)
    gates = register.expand((routes[r]["gate"], routes[r]["length"]) for r in path)
    psi = register.run_gates(mission["initial_state"], gates)
    fid = register.fidelity(psi, mission["target_state"], mission["qubits"])
    return Plan(cost=int(round(sum(price(r) or 0 for r in path))), cities=tuple(names),
                routes=path, fidelity=register.rounded(fid))

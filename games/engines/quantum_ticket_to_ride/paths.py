"""Paths along claimed routes, and what the register does along one (for runs and previews)."""
from __future__ import annotations

import numpy as np

import quantum

from . import register

#: at most this many runnable paths are listed (a seat's own routes keep it far below)
MAX_PATHS = 500


def runnable_paths(state: dict, seat: int) -> list[list[str]]:
    """Every simple path from the seat's mission start to its target along the seat's own
    routes, in a stable order (depth first, routes in map order)."""
    mission = state["missions"][seat]
    adj: dict[str, list[str]] = {}
    for r, route in enumerate(state["map"]["routes"]):
        if state["owners"][r] == seat:
            adj.setdefault(route["a"], []).append(route["b"])
            adj.setdefault(route["b"], []).append(route["a"])
    start, target = mission["start"], mission["target"]
    out: list[list[str]] = []

    def walk(path: list[str]) -> None:
        if len(out) >= MAX_PATHS:
            return
        here = path[-1]
        if here == target:
            out.append(list(path))
            return
        for nxt in adj.get(here, []):
            if nxt not in path:
                path.append(nxt)
                walk(path)
                path.pop()

    if start in adj:
        walk([start])
    return out


def _bloch(psi: np.ndarray) -> list[float]:
    rho = quantum.reduced_density(psi, [0], 2)
    return [register.rounded(float(np.real(np.trace(rho @ p))))
            for p in (quantum.X, quantum.Y, quantum.Z)]


def trace(game_map: dict, mission: dict, cities: list[str]) -> dict:
    """The register along ``cities`` (a path of the map): after each route its state (ket,
    amplitudes, q0's Bloch vector), then the fidelity with the mission's target.

    ``{"cities", "routes", "gates", "steps": [{"from", "to", "route", "gate", "length", "ket",
    "q0", "amplitudes", "bloch"}], "ket", "q0", "amplitudes", "bloch", "fidelity", "match"}``.
    ``q0`` is q0's own ket, or None while it is entangled with q1 (its Bloch vector is then
    shorter than 1).
    """
    index = {frozenset((r["a"], r["b"])): i for i, r in enumerate(game_map["routes"])}
    psi = register.initial_register(mission["initial_state"])
    steps, routes, gates = [], [], []
    for a, b in zip(cities, cities[1:], strict=False):
        r = index[frozenset((a, b))]
        route = game_map["routes"][r]
        for _ in range(route["length"]):
            psi = register.apply_gate(psi, route["gate"])
            gates.append(route["gate"])
        routes.append(r)
        steps.append({"from": a, "to": b, "route": r, "gate": route["gate"],
                      "length": route["length"], "ket": quantum.kets.text(psi),
                      "q0": register.q0_text(psi), "amplitudes": register.amplitudes(psi),
                      "bloch": _bloch(psi)})
    fid = register.fidelity(psi, mission["target_state"], mission["qubits"])
    return {"cities": list(cities), "routes": routes, "gates": gates, "steps": steps,
            "ket": quantum.kets.text(psi), "q0": register.q0_text(psi),
            "amplitudes": register.amplitudes(psi), "bloch": _bloch(psi),
            "fidelity": register.rounded(fid), "match": register.is_match(fid)}

"""Helpers for the Quantum Ticket-to-Ride tests: tables, routes by city names, hand-set
positions (states are plain data, so a test may set a position directly)."""
from __future__ import annotations

from games.engines import clone, get_game

GAME = get_game("quantum-ticket-to-ride")


def table(players: int = 2, variant: str = "basic", seed: int = 0, options: dict | None = None):
    return GAME.setup(players=players, variant=variant, seed=seed, options=options or {})


def route(state: dict, a: str, b: str) -> int:
    for i, r in enumerate(state["map"]["routes"]):
        if {r["a"], r["b"]} == {a, b}:
            return i
    raise LookupError(f"no route {a}-{b}")


def mission(state: dict, mid: str) -> dict:
    return dict(next(m for m in state["map"]["missions"] if m["id"] == mid))


def position(state: dict, *, seat: int | None = None, step: str | None = None,
             hands: dict | None = None, owners: dict | None = None,
             missions: dict | None = None, pile: list | None = None) -> dict:
    """A copy of ``state`` with the seat to act, its step, some hands, route owners
    (``{route: seat}``), missions (``{seat: mission}``) or the pile replaced."""
    s = clone(state)
    if seat is not None:
        s["turn"] = seat
    if step is not None:
        s["step"] = step
    for k, v in (hands or {}).items():
        s["hands"][k] = list(v)
    for r, o in (owners or {}).items():
        s["owners"][r] = o
    for k, v in (missions or {}).items():
        s["missions"][k] = dict(v)
    if pile is not None:
        s["pile"] = list(pile)
    return s


def tiny_map() -> dict:
    """A four-city map with the rules' worked example (Berlin→Munich X, Munich→Vienna H,
    Vienna→Rome Z length 2) and a direct X route, so its missions are solvable."""
    return {
        "name": "Tiny", "description": "For tests.",
        "cities": [{"name": "Berlin", "x": 500, "y": 100}, {"name": "Munich", "x": 450, "y": 300},
                   {"name": "Vienna", "x": 600, "y": 320}, {"name": "Rome", "x": 480, "y": 600}],
        "routes": [{"a": "Berlin", "b": "Munich", "gate": "X", "length": 1},
                   {"a": "Munich", "b": "Vienna", "gate": "H", "length": 1},
                   {"a": "Vienna", "b": "Rome", "gate": "Z", "length": 2},
                   {"a": "Berlin", "b": "Rome", "gate": "X", "length": 3}],
        "missions": [
            {"id": "T1", "start": "Berlin", "target": "Rome", "initial_state": "0",
             "target_state": "1", "qubits": 1, "level": "basic"},
            {"id": "T2", "start": "Rome", "target": "Berlin", "initial_state": "1",
             "target_state": "0", "qubits": 1, "level": "basic"},
            {"id": "T3", "start": "Berlin", "target": "Vienna", "initial_state": "0",
             "target_state": "-", "qubits": 1, "level": "intermediate"},
        ],
    }

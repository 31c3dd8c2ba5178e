"""Quantum Ticket-to-Ride helpers for platform tests: a small map (the rules' Berlin → Munich →
Vienna → Rome example, where H·Z·H turns |0⟩ into |1⟩), a scripted way of playing it, and a seed
whose deal lets that script finish quickly (the engine takes no given deck or hands, so a test
picks the deal by its seed)."""
from __future__ import annotations

import copy

from games.engines import get_game

GAME = "quantum-ticket-to-ride"
RUNNER_MISSION = "MISSION-BERLIN-ROME"
OTHER_MISSION = "MISSION-PARIS-MADRID"
RUNNER_PATH = ["Berlin", "Munich", "Vienna", "Rome"]

SMALL_MAP = {
    "name": "Central Europe (test)",
    "description": "Six cities; Berlin to Rome by H, Z, H is an X.",
    "cities": [
        {"name": "Berlin", "x": 570, "y": 220}, {"name": "Munich", "x": 520, "y": 370},
        {"name": "Vienna", "x": 660, "y": 400}, {"name": "Rome", "x": 540, "y": 600},
        {"name": "Paris", "x": 300, "y": 330}, {"name": "Madrid", "x": 140, "y": 560},
    ],
    "routes": [
        {"a": "Berlin", "b": "Munich", "gate": "H", "length": 1},
        {"a": "Munich", "b": "Vienna", "gate": "Z", "length": 1},
        {"a": "Vienna", "b": "Rome", "gate": "H", "length": 1},
        {"a": "Berlin", "b": "Paris", "gate": "X", "length": 1},
        {"a": "Paris", "b": "Madrid", "gate": "I", "length": 1},
        {"a": "Madrid", "b": "Rome", "gate": "Y", "length": 2},
    ],
    "missions": [
        {"id": RUNNER_MISSION, "start": "Berlin", "target": "Rome", "initial_state": "0",
         "target_state": "1", "qubits": 1, "level": "basic"},
        {"id": OTHER_MISSION, "start": "Paris", "target": "Madrid", "initial_state": "0",
         "target_state": "0", "qubits": 1, "level": "basic"},
    ],
}
RUNNER_ROUTES = {0, 1, 2}


def small_map() -> dict:
    return copy.deepcopy(SMALL_MAP)


def runner_seat(state: dict) -> int:
    return next(s for s, m in enumerate(state["missions"]) if m["id"] == RUNNER_MISSION)


def scripted_action(state: dict, seat: int) -> dict:
    """The script both the simulation and the browser test follow. The runner claims the
    Berlin–Munich–Vienna–Rome routes when it can (else draws) and runs that path once it owns
    it; the other student claims any other route it can (else draws) and never runs."""
    game = get_game(GAME)
    legal = game.legal_actions(state, seat)
    runner = seat == runner_seat(state)
    if state["step"] == "run":
        run = {"run": RUNNER_PATH}
        return run if runner and run in legal else {"pass": True}
    claims = [a["claim"] for a in legal if "claim" in a]
    wanted = [r for r in claims if (r in RUNNER_ROUTES) == runner]
    if wanted:
        return {"claim": wanted[0]}
    return {"draw": True} if {"draw": True} in legal else legal[0]


def scripted_game(seed: int, max_actions: int = 40) -> list[tuple[int, dict]]:
    """The actions of the script from this seed, up to the end of the game."""
    game = get_game(GAME)
    state = game.setup(players=2, variant="basic", seed=seed, options={"map": small_map()})
    log = []
    while not state["finished"] and len(log) < max_actions:
        seat = game.to_act(state)[0]
        action = scripted_action(state, seat)
        state, _ = game.apply(state, seat, action)
        log.append((seat, action))
    return log if state["finished"] else []


def quick_seed(max_actions: int = 12, runner: int | None = None) -> int:
    """A seed whose scripted game ends with the runner's winning run within ``max_actions``
    actions, after the other student claimed a route (``runner``: the seat that must hold the
    Berlin → Rome mission)."""
    game = get_game(GAME)
    for seed in range(3000):
        state = game.setup(players=2, variant="basic", seed=seed, options={"map": small_map()})
        if runner is not None and runner_seat(state) != runner:
            continue
        log = scripted_game(seed, max_actions)
        if not log or "run" not in log[-1][1]:
            continue
        if any(s != runner_seat(state) and "claim" in a for s, a in log):
            return seed
    raise AssertionError("no quick seed found")

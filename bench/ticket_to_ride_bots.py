"""Quantum Ticket-to-Ride: the A* planner bot against the random baseline.

Plays seeded two-player games (the planner alternates seats and the mission level cycles
through the variants), then prints the planner's win rate (shared wins counted apart) and its
median decision time. Run: ``.venv/bin/python bench/ticket_to_ride_bots.py [games]``.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots.quantum_ticket_to_ride import BOTS  # noqa: E402
from games.engines import get_game  # noqa: E402


def play(seed: int, variant: str, planner_seat: int, times: list[float]) -> dict:
    game = get_game("quantum-ticket-to-ride")
    state = game.setup(players=2, variant=variant, seed=seed)
    rng = random.Random(f"bench:{seed}")
    bots = {planner_seat: BOTS["strong"], 1 - planner_seat: BOTS["random"]}
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        start = time.perf_counter()
        action = bots[seat].choose(view, legal, rng)
        if seat == planner_seat:
            times.append(time.perf_counter() - start)
        state, _ = game.apply(state, seat, action)
    return game.outcome(state)


def main(games: int = 200) -> None:
    game = get_game("quantum-ticket-to-ride")
    times: list[float] = []
    wins = shared = losses = by_mission = 0
    started = time.perf_counter()
    for seed in range(games):
        variant = game.variants[seed % len(game.variants)]
        seat = seed % 2
        out = play(seed, variant, seat, times)
        if out["winners"] == [seat]:
            wins += 1
            by_mission += out["reason"] == "mission"
        elif seat in out["winners"]:
            shared += 1
        else:
            losses += 1
    took = time.perf_counter() - started
    print(f"Quantum Ticket-to-Ride, A* planner vs random, {games} seeded 2-player games "
          f"(levels cycled, seats alternated):")
    print(f"  planner wins {wins}/{games} = {wins / games:.1%} "
          f"({by_mission} by completing its mission), shared {shared}, lost {losses}")
    print(f"  planner decisions: {len(times)}, median {statistics.median(times) * 1000:.2f} ms, "
          f"p95 {sorted(times)[int(0.95 * len(times))] * 1000:.2f} ms, "
          f"max {max(times) * 1000:.2f} ms; total {took:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)

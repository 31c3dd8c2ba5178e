"""Simulator throughput: Aer shots per second on a 9-qubit QTris circuit, the time of the
exact distribution of the same position, and runs per minute through the real Celery queue
with one worker (needs REDIS_URL; uses DATABASE_URL or the SQLite file), with the ratio of
queue overhead to simulation time.

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/simulator_throughput.py
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

SHOTS = 100_000
QUEUE_RUNS = 20
QUEUE_SHOTS = 2000


def qtris_state(seed: int = 3) -> dict:
    from games.engines import get_game

    game = get_game("qtris")
    state = game.setup(players=2, variant="advanced", seed=seed, options={})
    rng = random.Random(seed)
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def aer_and_exact() -> tuple[float, float]:
    from games.engines import get_game
    from simulator import backends
    from simulator.scoring import QTrisScorer

    state = qtris_state()
    circuit = get_game("qtris").circuit(state)
    backends.run_aer(circuit, 1000, seed=1)  # warm up
    t0 = time.perf_counter()
    result = backends.run_aer(circuit, SHOTS, seed=2)
    aer_seconds = time.perf_counter() - t0
    assert sum(result.counts.values()) == SHOTS
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        backends.exact_probabilities(circuit, QTrisScorer(state).exact())
        times.append(time.perf_counter() - t0)
    print(f"Aer: {SHOTS} shots of a 9-qubit QTris circuit in {aer_seconds:.3f} s "
          f"({circuit.size()} operations, depth {circuit.depth()})")
    return SHOTS / aer_seconds, statistics.median(times) * 1000


def queue_throughput() -> tuple[float, float] | None:
    if not os.environ.get("REDIS_URL"):
        print("REDIS_URL is not set: skipping the queue measurement")
        return None
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from games.services import SeatHolder, create_match, start_match
    from simulator import services
    from simulator.access import StatsAccess
    from simulator.models import Run
    from tests.support.worker import CeleryWorker

    call_command("migrate", verbosity=0)
    worker = CeleryWorker(visibility_timeout=600)
    url = connection.settings_dict
    if url["ENGINE"].endswith("sqlite3"):
        worker.extra_env["DATABASE_URL"] = f"sqlite:///{url['NAME']}"
    else:
        worker.extra_env["DATABASE_URL"] = os.environ["DATABASE_URL"]
    from django.conf import settings

    settings.SIMULATOR_QUEUE = worker.queue
    user, _ = User.objects.get_or_create(username="bench-simulator")
    match = create_match("qtris", [SeatHolder("A", bot="random"), SeatHolder("B", bot="random")],
                         seed=random.randrange(2**40), teacher=user, label="bench")
    start_match(match.pk)
    match.refresh_from_db()
    access = StatsAccess(match, True, None, None)
    try:
        worker.start()
        warm, _ = services.request_run(services.RunRequest(match.pk, "aer", shots=100, seed=0), access)
        while Run.objects.get(pk=warm.pk).is_active:
            time.sleep(0.05)
        t0 = time.perf_counter()
        ids = [services.request_run(services.RunRequest(match.pk, "aer", shots=QUEUE_SHOTS, seed=i + 1),
                                    access)[0].pk for i in range(QUEUE_RUNS)]
        while Run.objects.filter(pk__in=ids, status__in=Run.ACTIVE).exists():
            time.sleep(0.05)
        wall = time.perf_counter() - t0
        runs = list(Run.objects.filter(pk__in=ids))
        done = [r for r in runs if r.status == Run.Status.DONE]
        sim = sum(r.simulation_seconds or 0 for r in done)
        print(f"queue: {len(done)}/{QUEUE_RUNS} runs of {QUEUE_SHOTS} shots in {wall:.2f} s with one "
              f"worker; simulation {sim:.2f} s of it")
        runs_per_min = len(done) / wall * 60
        overhead = (wall - sim) / sim if sim else float("inf")
        return runs_per_min, overhead
    finally:
        worker.cleanup()
        match.delete()


def main() -> None:
    import django

    django.setup()
    shots_per_s, exact_ms = aer_and_exact()
    print(f"exact distribution of the same position: {exact_ms:.2f} ms (median of 20)")
    queue = queue_throughput()
    runs_per_min, ratio = queue if queue else (float("nan"), float("nan"))
    print(f"simulator-throughput: aer_shots_per_s={shots_per_s:.0f} exact_ms={exact_ms:.2f} "
          f"runs_per_min={runs_per_min:.1f} queue_overhead_ratio={ratio:.2f}")


if __name__ == "__main__":
    main()

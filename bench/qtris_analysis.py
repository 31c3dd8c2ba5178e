"""Bench: exact QTris analysis vs estimating the same win probability with Qiskit Aer.

Prints the median time of ``GAME.analysis`` on random advanced positions next to the time
Qiskit Aer takes to estimate the same win probability to ±0.01 (95%) by sampling the
position's circuit (10^4 shots), and their ratio. Run: ``.venv/bin/python bench/qtris_analysis.py``.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engines.qtris import GAME  # noqa: E402
from games.engines.qtris.scoring import outcome_of_bitstring, score_of_outcome  # noqa: E402

SHOTS = 10_000  # 1.96 * sqrt(0.25 / n) <= 0.01  ->  n ≈ 9604


def positions(n: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        st = GAME.setup(2, "advanced", seed * 1000 + k,
                        {"first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True})
        for _ in range(rng.randint(2, 16)):
            if st["phase"] != "operations":
                break
            seat = GAME.to_act(st)[0]
            st, _ = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
        if st["phase"] == "operations":
            out.append(st)
    return out


def main() -> None:
    from qiskit import transpile
    from qiskit_aer import AerSimulator

    sim = AerSimulator()
    states = positions(20)
    t_exact, t_aer, errors = [], [], []
    for st in states:
        t0 = time.perf_counter()
        a = GAME.analysis(st)
        t_exact.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        qc = transpile(GAME.circuit(st), sim)
        counts = sim.run(qc, shots=SHOTS).result().get_counts()
        wins = 0
        for key, c in counts.items():
            s = score_of_outcome(outcome_of_bitstring(key))
            wins += c * (s["white"] > s["black"])
        t_aer.append(time.perf_counter() - t0)
        errors.append(abs(wins / SHOTS - a["p_win"]["white"]))
    ex = statistics.median(t_exact) * 1000
    ae = statistics.median(t_aer) * 1000
    print(f"positions: {len(states)}, shots per Aer estimate: {SHOTS}")
    print(f"max |Aer estimate - exact p_win(white)|: {max(errors):.4f}")
    print(f"qtris-analysis: analysis_median_ms={ex:.3f} aer_median_ms={ae:.3f} ratio={ae / ex:.1f}")


if __name__ == "__main__":
    main()

"""Entanglion bots: win rate of the partner bot with itself over seeded games, with a random
partner on either seat (a weak student), random+random for comparison, and the median
decision time. Run: .venv/bin/python bench/entanglion_bots.py [games] [variant]"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import get_bot  # noqa: E402
from games.engines import get_game  # noqa: E402

GAME = get_game("entanglion")


def play(levels: tuple[str, str], seed: int, variant: str, times: list[float]) -> dict:
    rng = random.Random(f"bench:{seed}")
    state = GAME.setup(players=2, variant=variant, seed=seed)
    bots = [get_bot("entanglion", level) for level in levels]
    actions = 0
    while GAME.outcome(state) is None and actions < 3000:
        seat = GAME.to_act(state)[0]
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        t = time.perf_counter()
        action = bots[seat].choose(view, legal, rng)
        if levels[seat] == levels[0] == levels[1] or levels[seat] != "random":
            times.append(time.perf_counter() - t)   # the partner bot's decisions
        state, _ = GAME.apply(state, seat, action)
        actions += 1
    return GAME.outcome(state) or {"result": "unfinished", "components": 0, "turns": 0}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    variant = sys.argv[2] if len(sys.argv) > 2 else "easy"
    for levels in (("partner", "partner"), ("partner", "random"), ("random", "partner"),
                   ("random", "random")):
        times: list[float] = []
        t0 = time.perf_counter()
        outs = [play(levels, seed, variant, times) for seed in range(games)]
        wins = sum(o["result"] == "won" for o in outs)
        comps = statistics.mean(o["components"] for o in outs)
        turns = statistics.median(o["turns"] for o in outs)
        print(f"{'+'.join(levels):16s} {variant}: won {wins}/{games} ({100 * wins / games:.1f}%), "
              f"mean components {comps:.2f}/8, median turns {turns}, "
              f"median decision {1000 * statistics.median(times):.2f} ms "
              f"(p95 {1000 * sorted(times)[int(0.95 * len(times))]:.2f} ms), "
              f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()

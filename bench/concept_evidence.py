"""Bench: how often each concept-evidence detector fires (games/engines/base.py, "Concept
evidence") in games of each game's best bot against the random bot.

Plays ``--games`` (default 200) seeded two-seat games per game (the variants in turn, the best
bot in seat 0 and seat 1 in turn; QuantumPoker in physics mode every other game; QTris's Eve
variant seats three: the best bot takes one seat, the random bot the others) and prints, per
game and detector, its concept and kind and how many times it fired on the best bot's moves and
on the random bot's moves. A misconception on the best bot's moves would break the rule that a
detector never judges a move that was good for the game (``tests/engines/test_concept_evidence.py``
checks it on fewer games).

Run: ``.venv/bin/python bench/concept_evidence.py`` (``--game qtris`` for one game; QTris is the
slowest, about a second per game: its best bot values all 512 boards of every play).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import bot_levels  # noqa: E402
from games.engines import abilities_of, get_game, list_games  # noqa: E402

OPTIONS = {"quantum-poker": lambda i: {"physics_mode": i % 2 == 1}}


def bench(slug: str, games: int) -> tuple[Counter, Counter, dict, float, int]:
    game = get_game(slug)
    bots = bot_levels(slug)
    best, weak = list(bots.values())[-1], bots["random"]
    fired: dict[str, Counter] = {"best": Counter(), "random": Counter()}
    kinds: dict[str, tuple[str, str]] = {}
    moves = 0
    start = time.perf_counter()
    for i in range(games):
        variant = game.variants[i % len(game.variants)]
        players = game.player_range(variant)[0]
        options = OPTIONS[slug](i) if slug in OPTIONS else {}
        state = game.setup(players=players, variant=variant, seed=i, options=options)
        rng = random.Random(f"bench-evidence:{slug}:{i}")
        seat_of_best = i % 2
        for _ in range(5000):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            who = "best" if seat == seat_of_best else "random"
            bot = best if who == "best" else weak
            action = bot.choose(game.view(state, seat), game.legal_actions(state, seat), rng)
            after, _ = game.apply(state, seat, action)
            for e in abilities_of(game).evidence_for(game, state, seat, action, after):
                fired[who][e["code"]] += 1
                kinds[e["code"]] = (e["concept"], e["kind"])
            moves += 1
            state = after
    for code in getattr(game, "evidence_texts", {}):
        kinds.setdefault(code, ("", ""))
    return fired["best"], fired["random"], kinds, time.perf_counter() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", action="append", help="a game's slug (default: every game)")
    args = parser.parse_args()
    slugs = args.game or [g.slug for g in list_games() if abilities_of(g).concept_evidence]
    for slug in slugs:
        best, weak, kinds, seconds, moves = bench(slug, args.games)
        print(f"\n{slug}: {args.games} games, {moves} moves, {seconds:.0f} s")
        print(f"  {'detector':<22} {'concept':<14} {'kind':<14} {'best bot':>9} {'random':>8}")
        for code, (concept, kind) in sorted(kinds.items(), key=lambda kv: (kv[1][1], kv[1][0], kv[0])):
            print(f"  {code:<22} {concept or '-':<14} {kind or '-':<14} {best[code]:>9} {weak[code]:>8}")
        mistakes = sum(n for code, n in best.items() if kinds[code][1] == "misconception")
        print(f"  misconceptions on the best bot's moves: {mistakes}")


if __name__ == "__main__":
    main()

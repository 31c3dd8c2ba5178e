"""Bench: the strong QuantumPoker bot against the bots it replaced, in physics mode.

Plays ``--matches`` (default 200) seeded two-player matches in physics mode, each seed twice
with the bots in swapped seats (same deals, Pauli cards and coins: luck cancels), with the
classic 5 community cards (``--cards 5 10`` adds the table option of 10), and prints for each
pairing the matches each bot won (most chips after the match's hands; equal chips is a draw),
their chips in all (each starts every match with 20), and the seeds where one bot ends ahead
over both seatings, with a sign test over those seeds.

The bots:
* strong (``SearchStrongBot``, ``BOTS["strong"]``): for two players it searches the remaining
  plays (all of them with 5 community cards, 3 plies with more), both players choosing their
  best, and values the end by the exact expected payout of the showdown under the real
  physics and the rulebook payout, over what its view lets it know (a card whose state it can
  follow -- its own, shown, remembered -- is |0⟩, |1⟩, |+⟩ or |−⟩; any other is 50/50). So it
  plans H·Z·H = X (a Z on its |+⟩, then an H: a sure 1 on a doubled bet), knows H·H = I (no
  H wasted on a card where a second H cancels it), SWAPs for a card it can follow, and does
  not count on an H its opponent can take first.
* one-step (``OneStepStrongBot``): the first version of the strong bot: one play deep,
  maximising its win chance; it applies the real gates to the cards it can follow.
* classic (``ClassicStrongBot``): the same one-play search with every H a coin.
Run: ``.venv/bin/python bench/poker_bots.py`` (about half a minute per pairing).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots.quantum_poker import (  # noqa: E402
    ClassicStrongBot,
    OneStepStrongBot,
    SearchStrongBot,
)
from games.engines import get_game  # noqa: E402

GAME = get_game("quantum-poker")
OPPONENTS = {"one-step": OneStepStrongBot, "classic": ClassicStrongBot}


def play_match(seed: int, bots: dict, variant: str = "classic", physics: bool = True,
               community_cards: int = 5) -> dict:
    rng = random.Random(seed)
    state = GAME.setup(players=len(bots), variant=variant, seed=seed,
                       options={"physics_mode": physics, "community_cards": community_cards})
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        action = bots[seat].choose(GAME.view(state, seat), legal, rng)
        state, _ = GAME.apply(state, seat, action)
    return GAME.outcome(state)


def compare(matches: int, variant: str = "classic", physics: bool = True,
            community_cards: int = 5, old: type = OneStepStrongBot) -> dict:
    """``matches`` seeds, each played twice with the bots in swapped seats (same deals and
    Pauli cards: the chance results depend only on the seed and the action number), so luck
    cancels and what is left is the difference the bots' choices make."""
    new, old_bot = SearchStrongBot(), old()
    tally = {"games": 0, "new_wins": 0, "old_wins": 0, "draws": 0, "new_chips": 0,
             "old_chips": 0, "pairs_new": 0, "pairs_old": 0, "pairs_even": 0, "seconds": 0.0}
    start = time.perf_counter()
    for seed in range(matches):
        pair = 0
        for new_seat in (0, 1):
            out = play_match(seed, {new_seat: new, 1 - new_seat: old_bot}, variant, physics,
                             community_cards)
            chips = out["scores"]
            tally["games"] += 1
            tally["new_chips"] += chips[new_seat]
            tally["old_chips"] += chips[1 - new_seat]
            pair += chips[new_seat] - chips[1 - new_seat]
            if chips[new_seat] > chips[1 - new_seat]:
                tally["new_wins"] += 1
            elif chips[new_seat] < chips[1 - new_seat]:
                tally["old_wins"] += 1
            else:
                tally["draws"] += 1
        key = "pairs_new" if pair > 0 else "pairs_old" if pair < 0 else "pairs_even"
        tally[key] += 1
    tally["seconds"] = time.perf_counter() - start
    return tally


def sign_test(ahead: int, behind: int) -> float:
    """Two-sided sign test over the seeds that are not even: the chance of a split at least
    this lopsided if neither bot were better (each such seed a fair coin)."""
    n, k = ahead + behind, min(ahead, behind)
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--variant", default="classic", choices=GAME.variants)
    parser.add_argument("--cards", type=int, nargs="+", default=[5])
    parser.add_argument("--against", nargs="+", default=list(OPPONENTS), choices=OPPONENTS)
    args = parser.parse_args()
    for cards in args.cards:
        for name in args.against:
            t = compare(args.matches, args.variant, physics=True, community_cards=cards,
                        old=OPPONENTS[name])
            print(f"QuantumPoker, physics mode, {args.variant}, {cards} community cards: "
                  f"strong vs {name}, {args.matches} seeds x 2 seatings = {t['games']} "
                  f"matches (2 players, {t['seconds'] / t['games'] * 1000:.0f} ms a match)")
            print(f"  wins:  strong {t['new_wins']}, {name} {t['old_wins']}, "
                  f"draws {t['draws']}")
            print(f"  chips: strong {t['new_chips']}, {name} {t['old_chips']} "
                  f"(both start each match with 20)")
            print(f"  seeds ahead over both seatings: strong {t['pairs_new']}, {name} "
                  f"{t['pairs_old']}, even {t['pairs_even']} (sign test: p = "
                  f"{sign_test(t['pairs_new'], t['pairs_old']):.1e})")


if __name__ == "__main__":
    main()

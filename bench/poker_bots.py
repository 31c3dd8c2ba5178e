"""Bench: the physics-aware strong QuantumPoker bot against the classic strong bot.

Plays ``--matches`` (default 200) seeded two-player matches in physics mode, each seed twice
with the bots in swapped seats, and prints the matches each bot won (most chips at the end;
equal chips is a draw) and their chips in all, with the classic 5 community cards and with
the table option of 10. The classic bot models every H as a coin (the simplified
game); the new one applies the real gates (H·H = I, H·Z·H = X) to the cards it can follow.
Run: ``.venv/bin/python bench/poker_bots.py``.

Reading it: the two bots choose differently only when one of their own cards is superposed
and an H, Z or Y is to be applied to it (an H on |−⟩ gives a sure 1, an H on |+⟩ a sure 0);
both bots prefer X to H, so that is rare with 5 community cards and less rare with 10. A seed
whose two seatings end level is one where the choices made no difference.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots.quantum_poker import ClassicStrongBot, StrongBot  # noqa: E402
from games.engines import get_game  # noqa: E402

GAME = get_game("quantum-poker")


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
            community_cards: int = 5) -> dict:
    """``matches`` seeds, each played twice with the bots in swapped seats (same deals and
    Pauli cards: the chance results depend only on the seed and the action number), so luck
    cancels and what is left is the difference the bots' choices make."""
    new, old = StrongBot(), ClassicStrongBot()
    tally = {"games": 0, "new_wins": 0, "old_wins": 0, "draws": 0, "new_chips": 0,
             "old_chips": 0, "pairs_new": 0, "pairs_old": 0, "pairs_even": 0}
    for seed in range(matches):
        pair = 0
        for new_seat in (0, 1):
            out = play_match(seed, {new_seat: new, 1 - new_seat: old}, variant, physics,
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
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--variant", default="classic", choices=GAME.variants)
    args = parser.parse_args()
    for cards in (5, 10):
        t = compare(args.matches, args.variant, physics=True, community_cards=cards)
        print(f"QuantumPoker, physics mode, {args.variant}, {cards} community cards, "
              f"{args.matches} seeds x 2 seatings = {t['games']} matches (2 players):")
        print(f"  new strong (knows H·H = I, H·Z·H = X): {t['new_wins']} wins, "
              f"{t['new_chips']} chips")
        print(f"  classic strong (H = coin):             {t['old_wins']} wins, "
              f"{t['old_chips']} chips")
        print(f"  draws: {t['draws']}")
        print(f"  seeds where the new bot ends with more chips over both seatings: "
              f"{t['pairs_new']}, the classic bot: {t['pairs_old']}, even (the bots' choices "
              f"made no difference): {t['pairs_even']}")


if __name__ == "__main__":
    main()

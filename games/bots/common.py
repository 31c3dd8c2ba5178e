"""What every game's bots share."""
from __future__ import annotations

import random

from games.engines import Action


class RandomBot:
    """Any legal action, uniformly: the weakest opponent, and a baseline for the others."""

    label = "Random"

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)

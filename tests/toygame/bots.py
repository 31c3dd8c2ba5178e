"""The toy coin's bots (``games.bots``'s shape: ``BOTS``, weakest first)."""
from __future__ import annotations

import random

from games.engines import Action


class RandomBot:
    label = "Random"

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)


BOTS = {"random": RandomBot()}

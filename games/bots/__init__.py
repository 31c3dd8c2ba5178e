"""Bots per game. A bot sees only ``game.view(state, seat)`` and its seat's legal actions.

Each game's bot module (named in the registry, ``games.engines.GAMES``) has ``BOTS = {"random": Bot, "strong": Bot, ...}``
where a Bot has ``choose(view, legal, rng) -> action``, listed weakest first: the last one is the
game's best (``DEFAULT_LEVEL`` "strong" stands for it where a game names its best otherwise, e.g.
Entanglion's "partner").
"""
from __future__ import annotations

import importlib
import random
from typing import Protocol

from games.engines import Action, bots_module
from games.engines.base import gettext_noop

# what a teacher reads for a level (``games.names.bot_level_name``); "none": a game without bots
LEVEL_NAMES = {
    "none": gettext_noop("no bot"),
    "random": gettext_noop("random"),
    "medium": gettext_noop("medium"),
    "strong": gettext_noop("strong"),
    "partner": gettext_noop("partner"),
}

class Bot(Protocol):
    label: str

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action: ...


def bot_levels(slug: str) -> dict[str, Bot]:
    module_name = bots_module(slug)
    if not module_name:
        return {}
    try:
        return importlib.import_module(module_name).BOTS
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return {}
        raise


DEFAULT_LEVEL = "strong"


def resolve_level(slug: str, level: str) -> str:
    """The level a session asks for; the default "strong" is the game's best bot when the game
    has no level of that name. An unknown level stays as it is (the caller refuses it)."""
    levels = bot_levels(slug)
    if level == DEFAULT_LEVEL and levels and level not in levels:
        return list(levels)[-1]
    return level


def get_bot(slug: str, level: str) -> Bot:
    levels = bot_levels(slug)
    if level not in levels:
        raise LookupError(f"no bot {level!r} for {slug!r}")
    return levels[level]

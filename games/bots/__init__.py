"""Bots per game. A bot sees only ``game.view(state, seat)`` and its seat's legal actions.

Each game's bot module (``games.bots.<module>``) has ``BOTS = {"random": Bot, "strong": Bot, ...}``
where a Bot has ``choose(view, legal, rng) -> action``.
"""
from __future__ import annotations

import importlib
import random
from typing import Protocol

from games.engines import Action

_MODULES = {
    "qtris": "games.bots.qtris",
    "quantum-tictactoe": "games.bots.quantum_tictactoe",
    "quantum-poker": "games.bots.quantum_poker",
    "quantum-ticket-to-ride": "games.bots.quantum_ticket_to_ride",
}


class Bot(Protocol):
    label: str

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action: ...


def bot_levels(slug: str) -> dict[str, Bot]:
    module_name = _MODULES.get(slug)
    if module_name is None:
        return {}
    try:
        return importlib.import_module(module_name).BOTS
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return {}
        raise


def get_bot(slug: str, level: str) -> Bot:
    levels = bot_levels(slug)
    if level not in levels:
        raise LookupError(f"no bot {level!r} for {slug!r}")
    return levels[level]

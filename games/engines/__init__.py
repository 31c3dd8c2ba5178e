"""Game engines: pure Python, one module per game. ``get_game(slug)`` returns the engine."""
from __future__ import annotations

import importlib
from functools import cache

from .base import (
    FINISH_ACTION,
    Abilities,
    Action,
    Event,
    Game,
    IllegalAction,
    RulesVersionUnsupported,
    State,
    abilities_of,
    apply_logged,
    chance,
    clone,
    events_for,
    is_finish,
    replay,
    replay_steps,
    rules_versions,
    under_rules,
)

# slug -> module holding a module-level ``GAME`` object implementing ``Game``
_MODULES = {
    "qtris": "games.engines.qtris",
    "quantum-tictactoe": "games.engines.quantum_tictactoe",
    "quantum-poker": "games.engines.quantum_poker",
    "entanglion": "games.engines.entanglion",
    "quantum-ticket-to-ride": "games.engines.quantum_ticket_to_ride",
}


class UnknownGame(LookupError):
    pass


@cache  # (a game found once is the same object for the life of the process; a miss is not kept)
def get_game(slug: str, rules_version: int | None = None) -> Game:
    """The engine of ``slug``; with ``rules_version`` (a match's ``rules_version``) the engine
    that plays those rules (``under_rules``: ``RulesVersionUnsupported`` when it no longer can)."""
    if rules_version is not None:
        return under_rules(get_game(slug), rules_version)
    module_name = _MODULES.get(slug)
    if module_name is None:
        raise UnknownGame(f"no game called {slug!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise UnknownGame(f"the game {slug!r} is not available yet") from exc
        raise
    return module.GAME


def list_games() -> list[Game]:
    """The games that are implemented, in a stable order."""
    games = []
    for slug in _MODULES:
        try:
            games.append(get_game(slug))
        except UnknownGame:
            continue
    return games


__all__ = ["FINISH_ACTION", "Abilities", "Action", "Event", "Game", "IllegalAction",
           "RulesVersionUnsupported", "State", "UnknownGame",
           "abilities_of", "apply_logged", "chance", "clone", "events_for", "get_game", "is_finish",
           "list_games", "replay",
           "replay_steps", "rules_versions", "under_rules"]

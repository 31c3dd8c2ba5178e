"""Game engines: pure Python, one module per game. ``get_game(slug)`` returns the engine.

``GAMES`` is the one registry of the games: per slug, the module of its engine (a module-level
``GAME`` implementing ``Game``), the module of its bots (``BOTS``, see ``games.bots``) and its
board script (a static path, ``games/<slug>.js`` by default). Everything else about a game the
platform reads from its engine (base.py, "A game declares itself"). ``register_game`` adds one
at run time (a game kept outside this package, e.g. the tests' toy game).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from .base import (
    FINISH_ACTION,
    Abilities,
    Action,
    Event,
    Game,
    IllegalAction,
    NotScorable,
    RulesVersionUnsupported,
    Scorer,
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


@dataclass(frozen=True)
class Registered:
    """A game's entry in the registry: where its engine, bots and board are."""

    engine: str       # module with a module-level ``GAME``
    bots: str = ""    # module with ``BOTS`` ("" : a game without bots)
    board: str = ""   # static path of its board script ("": ``games/<slug>.js``)


# slug -> the game's modules, in the order the games are listed
GAMES: dict[str, Registered] = {
    "qtris": Registered("games.engines.qtris", "games.bots.qtris"),
    "quantum-tictactoe": Registered("games.engines.quantum_tictactoe", "games.bots.quantum_tictactoe"),
    "quantum-poker": Registered("games.engines.quantum_poker", "games.bots.quantum_poker"),
    "entanglion": Registered("games.engines.entanglion", "games.bots.entanglion"),
    "quantum-ticket-to-ride": Registered("games.engines.quantum_ticket_to_ride",
                                         "games.bots.quantum_ticket_to_ride"),
}

DEFAULT_GAME = "qtris"  # the game a new session gets when none is chosen


def register_game(slug: str, engine: str, bots: str = "", *, board: str = "") -> None:
    """Add (or replace) a game at run time: one line, like an entry of ``GAMES``."""
    GAMES[slug] = Registered(engine, bots, board)
    get_game.cache_clear()


def unregister_game(slug: str) -> None:
    """Remove a game added by ``register_game`` (a test's, when it is done)."""
    GAMES.pop(slug, None)
    get_game.cache_clear()


def board_path(slug: str) -> str:
    """The static path of the board script of ``slug`` (``static(board_path(slug))`` is its URL)."""
    entry = GAMES.get(slug)
    return (entry.board if entry and entry.board else f"games/{slug}.js")


def bots_module(slug: str) -> str:
    """The module of the bots of ``slug`` ("" for none)."""
    entry = GAMES.get(slug)
    return entry.bots if entry else ""


class UnknownGame(LookupError):
    pass


@cache  # (a game found once is the same object for the life of the process; a miss is not kept)
def get_game(slug: str, rules_version: int | None = None) -> Game:
    """The engine of ``slug``; with ``rules_version`` (a match's ``rules_version``) the engine
    that plays those rules (``under_rules``: ``RulesVersionUnsupported`` when it no longer can)."""
    if rules_version is not None:
        return under_rules(get_game(slug), rules_version)
    entry = GAMES.get(slug)
    if entry is None:
        raise UnknownGame(f"no game called {slug!r}")
    module_name = entry.engine
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise UnknownGame(f"the game {slug!r} is not available yet") from exc
        raise
    return module.GAME


def find_games(**declared: object) -> list[Game]:
    """The games whose abilities declare these values, e.g. ``find_games(exercises=True)``."""
    return [g for g in list_games()
            if all(getattr(abilities_of(g), k) == v for k, v in declared.items())]


def list_games() -> list[Game]:
    """The games that are implemented, in a stable order."""
    games = []
    for slug in list(GAMES):
        try:
            games.append(get_game(slug))
        except UnknownGame:
            continue
    return games


__all__ = ["DEFAULT_GAME", "FINISH_ACTION", "GAMES", "Abilities", "Action", "Event", "Game",
           "IllegalAction", "NotScorable", "Registered", "RulesVersionUnsupported", "Scorer", "State",
           "UnknownGame", "board_path", "bots_module", "find_games", "register_game", "unregister_game",
           "abilities_of", "apply_logged", "chance", "clone", "events_for", "get_game", "is_finish",
           "list_games", "replay",
           "replay_steps", "rules_versions", "under_rules"]

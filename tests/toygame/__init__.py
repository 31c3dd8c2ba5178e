"""A sixth game, only in the tests: its engine (``engine.py``), its bots (``bots.py``) and its
board (``static/toygame/toy-coin.js``) plug into the platform with the one registry line of
``register`` (no other file of the app names it). ``registered()`` adds it for a block of
tests and takes it away after; ``settings.py`` is the test settings of a server that has it.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from games.engines import register_game, unregister_game

SLUG = "toy-coin"
STATIC_DIR = Path(__file__).resolve().parent / "static"


def register() -> None:
    register_game(SLUG, "tests.toygame.engine", "tests.toygame.bots", board="toygame/toy-coin.js")


@contextmanager
def registered() -> Iterator[None]:
    register()
    try:
        yield
    finally:
        unregister_game(SLUG)

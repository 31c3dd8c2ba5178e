"""Helpers for the Entanglion engine tests: tables set up through the engine's own options, and
chance outcomes chosen by trying match seeds (the real engine runs; nothing is mocked)."""
from __future__ import annotations

from collections.abc import Callable

from games.engines import clone, get_game

GAME = get_game("entanglion")
ALL_ON = ["PHI PLUS", "PHI MINUS", "PSI PLUS", "PSI MINUS", "OMEGA ZERO", "OMEGA ONE",
          "OMEGA TWO", "OMEGA THREE"]


def table(**options) -> dict:
    """A started game; ``first`` defaults to Mercurial."""
    options.setdefault("first", 0)
    return GAME.setup(players=2, variant=options.pop("variant", "easy"), seed=1,
                      options=options)


def rolls(events: list[dict], purpose: str | None = None) -> list[int]:
    """The d8 results that counted, in order (the last roll of each event)."""
    return [e["rolls"][-1] for e in events
            if e["type"] == "roll" and e.get("die") == "d8"
            and (purpose is None or e.get("purpose", "").startswith(purpose))]


def codes(events: list[dict]) -> list[str]:
    return [e["code"] for e in events]


def apply_where(state: dict, seat: int, action: dict,
                wanted: Callable[[dict, list[dict]], bool], tries: int = 20000):
    """Apply ``action`` under the first match seed whose chance results satisfy ``wanted``
    (the seed only drives dice and shuffles; everything else is the given state)."""
    for seed in range(tries):
        trial = clone(state)
        trial["seed"] = seed
        after, events = GAME.apply(trial, seat, action)
        if wanted(after, events):
            return after, events
    raise AssertionError("no seed gives the wanted chance outcome")


def d8(*values: int, purpose: str | None = None):
    """``wanted`` for ``apply_where``: these d8 results, in order."""
    return lambda state, events: rolls(events, purpose)[:len(values)] == list(values)

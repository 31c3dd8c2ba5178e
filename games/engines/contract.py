"""The generic checks of the engine contract, done once for every engine (pure Python).

Every engine subclasses ``Engine`` and declares the shape of its actions and options
(``schema.py``)::

    class MyGame(Engine):
        min_players, max_players, variants = 2, 4, ("basic",)
        actions = Actions(play=Obj(card=Text()), draw=Obj(draw=TrueOnly()))
        options = Options(hands=Int(1, 100))

        def start(self, players, variant, seed, options) -> State: ...   # instead of setup
        def play(self, state, seat, kind, action) -> tuple[State, list[Event]]: ...  # apply

``setup`` refuses an unknown variant, a player count out of ``player_range(variant)``, a seed
that is not a whole number and options of the wrong shape, then calls ``start`` (``variant``
None: the first variant). ``apply`` refuses an action once the game is over (``game_over``), a
seat out of range or not to act (``not_your_turn``), an action that is not an object of a
declared type with exactly its fields of their types (``bad_action``), then calls ``play`` with
the action's type; the engine checks only its rules by hand. Every refusal is ``IllegalAction(code, msgid, params)``, its msgid registered
with ``gettext_noop`` (here in ``CONTRACT_TEXTS`` and ``schema.SCHEMA_TEXTS``) and translated by
the platform (``games.errors.from_illegal``). ``tests/test_engine_conformance.py`` checks the
generic refusals once for every game.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Action, Event, IllegalAction, State, gettext_noop, is_int
from .guide import Guide
from .schema import Actions, Options

CONTRACT_TEXTS = {
    "bad_variant": gettext_noop("Unknown variant %(variant)s: choose %(choices)s."),
    "bad_players": gettext_noop("%(game)s is for %(lo)s to %(hi)s players."),
    "bad_players_exactly": gettext_noop("%(game)s is for exactly %(n)s players."),
    "bad_seed": gettext_noop("The seed must be an integer."),
    "game_over": gettext_noop("The game is over."),
    "bad_seat": gettext_noop("No such seat."),
    "not_your_turn": gettext_noop("It is not your turn."),
}


def refusal(code: str, text: str | None = None, **params: Any) -> IllegalAction:
    """One of the contract's refusals: ``code`` with the msgid ``CONTRACT_TEXTS[text or code]``."""
    return IllegalAction(code, CONTRACT_TEXTS[text or code], params)


class Engine:
    """The contract's generic checks (see the module docstring); a subclass declares
    ``actions`` and ``options`` and implements ``start`` and ``play``."""

    name: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]
    actions: Actions = Actions()
    options: Options = Options()
    # what the platform may read beside ``abilities`` (base.py, "A game declares itself"):
    # none of it by default
    board_texts: Mapping[str, str] = {}
    summary_texts: Mapping[str, str] = {}
    evidence_texts: Mapping[str, str] = {}
    exercise_examples: tuple[Mapping[str, Any], ...] = ()
    exercise_variant: str = ""
    how_to_play: Guide | None = None  # the game's rules page (guide.py)

    # ----------------------------------------------------------------- what varies per game

    def player_range(self, variant: str) -> tuple[int, int]:
        """The numbers of players ``variant`` is for (inclusive)."""
        return self.min_players, self.max_players

    def seats(self, state: State) -> int:
        """The number of seats at the table of ``state``."""
        return state["players"]

    def is_over(self, state: State) -> bool:
        """Whether the game of ``state`` is over (an engine may say it faster)."""
        return self.outcome(state) is not None  # type: ignore[attr-defined]

    def not_your_turn(self, state: State, seat: int) -> IllegalAction:
        """The refusal of a seat that is not to act (an engine may say whose turn it is)."""
        return refusal("not_your_turn")

    def start(self, players: int, variant: str, seed: int, options: dict) -> State:
        raise NotImplementedError

    def play(self, state: State, seat: int, kind: str, action: Action) -> tuple[State, list[Event]]:
        raise NotImplementedError

    # ----------------------------------------------------------------- the checks

    def setup(self, players: int = 2, variant: str | None = None, seed: int = 0,
              options: dict | None = None) -> State:
        if variant is None:
            variant = self.variants[0]
        if not isinstance(variant, str) or variant not in self.variants:
            raise refusal("bad_variant", variant=repr(variant), choices=", ".join(self.variants))
        lo, hi = self.player_range(variant)
        if not is_int(players) or not lo <= players <= hi:
            if lo == hi:
                raise refusal("bad_players", "bad_players_exactly", game=self.name, n=lo)
            raise refusal("bad_players", game=self.name, lo=lo, hi=hi)
        if not is_int(seed):
            raise refusal("bad_seed")
        return self.start(players, variant, seed, self.options.check(options))

    def check_seat(self, state: State, seat: Any, code: str = "bad_seat") -> None:
        """Refuses a seat that is not a seat of this table (``code``: ``bad_seat`` for a view,
        ``not_your_turn`` for an action: that seat has no turn)."""
        if not is_int(seat) or not 0 <= seat < self.seats(state):
            raise refusal(code, "bad_seat")

    def check_action(self, state: State, seat: Any, action: Any) -> str:
        """The type of ``action`` if ``seat`` may make it now as far as the contract goes (the
        game goes on, the seat is to act, the action has the shape of its type); else the
        refusal."""
        if self.is_over(state):
            raise refusal("game_over")
        self.check_seat(state, seat, "not_your_turn")
        if seat not in self.to_act(state):  # type: ignore[attr-defined]
            raise self.not_your_turn(state, seat)
        return self.actions.check(action)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        kind = self.check_action(state, seat, action)
        return self.play(state, seat, kind, action)


__all__ = ["CONTRACT_TEXTS", "Engine", "refusal"]

"""The shared engine protocol every game implements (see shared/DESIGN.md).

Engines are pure Python: no Django import. A state is plain JSON-able data (a dict);
``apply`` never mutates its input, it returns a new state and the events it caused.
"""
from __future__ import annotations

import copy
import random
from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """Raised by ``apply`` (and setup) when an action or option is not allowed.

    ``code`` is a short machine-readable reason, ``message`` says it in words for a student.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@runtime_checkable
class Game(Protocol):
    slug: str
    name: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]

    def setup(self, players: int = 2, variant: str = "basic", seed: int = 0,
              options: dict | None = None) -> State: ...
    def to_act(self, state: State) -> list[int]: ...
    def legal_actions(self, state: State, seat: int) -> list[Action]: ...
    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...
    def view(self, state: State, seat: int | None) -> dict: ...
    def outcome(self, state: State) -> dict | None: ...
    def analysis(self, state: State) -> dict: ...
    def circuit(self, state: State): ...


def is_int(value: Any) -> bool:
    """True for a real ``int`` (never a ``bool``): how every engine checks seats, squares,
    cards and int options coming from JSON."""
    return isinstance(value, int) and not isinstance(value, bool)


def chance(seed: int, action_number: int, salt: str = "") -> random.Random:
    """The PRNG for the chance results of one action: seeded from the match seed and the
    action number, so ``(game, variant, options, seed, actions)`` reproduces a match."""
    return random.Random(f"{seed}:{action_number}:{salt}")


def clone(state: State) -> State:
    return copy.deepcopy(state)


def replay(game: Game, players: int, variant: str, options: dict | None, seed: int,
           actions: list[tuple[int, Action]]) -> list[State]:
    """Rebuild every state of a match from its stored log: [initial, after 1, after 2, ...]."""
    state = game.setup(players=players, variant=variant, seed=seed, options=options or {})
    states = [state]
    for seat, action in actions:
        state, _ = game.apply(state, seat, action)
        states.append(state)
    return states

"""A game's "How to play" page, declared by its engine (pure Python, no Django).

An engine may declare ``how_to_play``: a ``Guide``, the game's rules in the project's own words
(the same words as its ``docs/rules/<game>.md``), in sections with ``gettext_noop`` msgids, and
worked ``Example``s. An example is a real position and a real action: the position is the
engine's set-up (``players``, ``variant``, ``seed``, ``options``) with ``moves`` applied, the
action is applied to it, and the page draws the position before and after it with the game's own
board script, as ``view_seat`` sees them (``example_states``; ``tests/test_rules_pages.py`` checks
every example of every game). The platform renders the page at ``/games/<slug>/rules/``::

    GUIDE = Guide(sections=(
        Section(gettext_noop("Goal"), paragraphs=(gettext_noop("Get three in a row."),)),
        Section(gettext_noop("The cards"), sections=(
            Section("X", paragraphs=(gettext_noop("X flips a tile."),), examples=(
                Example(gettext_noop("X on a white circle"), gettext_noop("It turns black."),
                        action={"card": "X", "squares": [5]}, options={...}),)),
        )),
    ))

    class MyGame(Engine):
        how_to_play = GUIDE
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .base import Action, Event, Game, State


@dataclass(frozen=True)
class Example:
    """A worked example: ``seat`` makes ``action`` in the position reached from the set-up by
    ``moves`` (``(seat, action)`` pairs, in order)."""

    title: str                 # msgid
    text: str                  # msgid: what the action does
    action: Action
    seat: int = 0
    moves: tuple[tuple[int, Action], ...] = ()
    players: int = 2
    variant: str | None = None
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    view_seat: int | None = None   # whose view the boards show (None: a spectator's)


@dataclass(frozen=True)
class Section:
    """A heading with its paragraphs, its bullet points, its examples and its sub-sections."""

    heading: str               # msgid (or a gate's name, shown as it is)
    paragraphs: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    examples: tuple[Example, ...] = ()
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Guide:
    """A game's rules page: its sections, in order (the goal, a turn, the cards, the variants)."""

    sections: tuple[Section, ...]

    def examples(self) -> Iterator[Example]:
        """Every example of the guide, in the order of the page."""
        def walk(sections: tuple[Section, ...]) -> Iterator[Example]:
            for s in sections:
                yield from s.examples
                yield from walk(s.sections)
        return walk(self.sections)

    def msgids(self) -> Iterator[str]:
        """Every text of the guide (headings, paragraphs, items, examples' titles and texts)."""
        def walk(sections: tuple[Section, ...]) -> Iterator[str]:
            for s in sections:
                yield s.heading
                yield from s.paragraphs
                yield from s.items
                for e in s.examples:
                    yield e.title
                    yield e.text
                yield from walk(s.sections)
        return walk(self.sections)


def example_before(game: Game, example: Example) -> State:
    """The position of ``example`` before its action: the set-up with its ``moves`` applied."""
    state = game.setup(players=example.players, variant=example.variant, seed=example.seed,
                       options=dict(example.options))
    for seat, action in example.moves:
        state, _events = game.apply(state, seat, action)
    return state


def example_states(game: Game, example: Example) -> tuple[State, State, list[Event]]:
    """``(before, after, events)``: the example's position, the position after its action and
    the events the action caused (``after, events = game.apply(before, seat, action)``)."""
    before = example_before(game, example)
    after, events = game.apply(before, example.seat, example.action)
    return before, after, events


__all__ = ["Example", "Guide", "Section", "example_before", "example_states"]

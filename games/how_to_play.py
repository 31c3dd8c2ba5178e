"""A game's "How to play" page in the reader's language: its engine's ``how_to_play`` guide
(games/engines/guide.py) as flat blocks with their heading levels, and every worked example's
position before and after its action, made by the engine (``example_states``) and seen as the
example's ``view_seat`` sees them, for the game's own board script to draw."""
from __future__ import annotations

from django.utils.translation import gettext as _

from games.engines import Game, events_for
from games.engines.guide import Example, Guide, Section, example_states
from games.event_text import localize, localize_view
from games.names import game_name


def guide_of(game: Game) -> Guide | None:
    """The rules page the engine declares (None: the game has none)."""
    return game.how_to_play  # type: ignore[attr-defined]


def example_frames(game: Game, example: Example) -> dict:
    """The example's two boards: the views before and after its action, and the events of it,
    in the active language."""
    before, after, events = example_states(game, example)
    seat = example.view_seat
    return {
        "seat": seat,
        "before": localize_view(game.slug, game.view(before, seat)),
        "after": localize_view(game.slug, game.view(after, seat)),
        "events": localize(game.slug, events_for(events, seat)),
        "seats": [{"index": i, "name": _("Player %(number)s") % {"number": i + 1}}
                  for i in range(example.players)],
    }


def rules_page(game: Game) -> dict:
    """``{"blocks": [...], "examples": [...]}``: each block a heading (with its level, 2 for a
    section, 3 for a sub-section ...), its paragraphs and items translated, and its examples
    (their heading one level deeper, ``index`` into ``examples``: the boards' data)."""
    guide = guide_of(game)
    blocks: list[dict] = []
    examples: list[dict] = []

    def walk(sections: tuple[Section, ...], level: int) -> None:
        for s in sections:
            block = {"level": level, "heading": _(s.heading), "anchor": f"s{len(blocks) + 1}",
                     "paragraphs": [_(p) for p in s.paragraphs], "items": [_(i) for i in s.items],
                     "examples": []}
            blocks.append(block)
            for e in s.examples:
                block["examples"].append({"index": len(examples), "level": min(level + 1, 6),
                                          "title": _(e.title), "text": _(e.text)})
                examples.append(example_frames(game, e))
            walk(s.sections, level + 1)

    if guide is not None:
        walk(guide.sections, 2)
    return {"name": game_name(game.slug), "blocks": blocks, "examples": examples}

"""A match at a glance, for the teacher's dashboard card and the session report: a few facts
read from the engine's public (spectator) view, as the engine declares them
(``Abilities.summary``: its ``summary(view)``, its texts in ``summary_texts``). A game that
declares none has none.

``match_summary(game_slug, state)`` -> ``{"facts": {...}, "text": "...", "rank": (...)}`` or None:
``facts`` are machine values (tests, CSV), ``text`` one line in the reader's language, ``rank``
a sort key for the session report (smaller ranks first).
"""
from __future__ import annotations

from django.utils.translation import gettext, ngettext

from games.engines import State, UnknownGame, abilities_of, get_game
from games.engines.base import render_text


def has_summary(game_slug: str) -> bool:
    try:
        return abilities_of(get_game(game_slug)).summary
    except UnknownGame:
        return False


def match_summary(game_slug: str, state: State) -> dict | None:
    if not has_summary(game_slug):
        return None
    game = get_game(game_slug)
    summary = game.summary(game.view(state, None))  # type: ignore[attr-defined]
    texts = game.summary_texts  # type: ignore[attr-defined]
    text = "".join(render_text(texts, part["code"], part.get("params") or {}, gettext, ngettext) for part in summary["text"])
    return {**summary, "text": text}

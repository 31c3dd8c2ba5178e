"""Event texts in the reader's language: the one place where events are rendered for a reader.

Engines emit events with a ``code`` and ``params`` beside the English ``text`` and register
``{code: msgid}`` as ``event_texts`` (see games/engines/base.py). ``localize`` gives a copy of
the events with ``text`` rendered through gettext in the active language (the reader's: the
page's or the socket's, see classrooms/language.py). Events without a registered code keep
their English text.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext

from games.engines import Event, get_game
from games.engines.base import render_text


def texts_of(game_slug: str) -> dict[str, str]:
    return getattr(get_game(game_slug), "event_texts", None) or {}


def localize(game_slug: str, events: Iterable[Event]) -> list[Event]:
    """``events`` with their ``text`` in the active language."""
    texts = texts_of(game_slug)
    out: list[Event] = []
    for e in events:
        code = e.get("code") if isinstance(e, dict) else None
        if isinstance(code, str) and code in texts:
            try:
                e = {**e, "text": render_text(texts, code, e.get("params") or {}, gettext)}
            except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
                pass
        out.append(e)
    return out


def localize_view(game_slug: str, view: dict) -> dict:
    """A seat's view whose recent ``events`` (QTris and QuantumPoker keep them in the view)
    are in the active language."""
    if isinstance(view, dict) and isinstance(view.get("events"), list):
        return {**view, "events": localize(game_slug, view["events"])}
    return view

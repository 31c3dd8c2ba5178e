"""Event texts in the reader's language: the one place where events are rendered for a reader.

Engines emit events with a ``code`` and ``params`` beside the English ``text`` and register
``{code: msgid}`` as ``event_texts`` (see games/engines/base.py). ``localize`` gives a copy of
the events with ``text`` rendered through gettext in the active language (the reader's: the
page's or the socket's, see classrooms/language.py). Events without a registered code keep
their English text.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import orjson
from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from core.memo import remembered
from games.engines import Event, get_game
from games.engines.base import render_text

# the platform's own events, beside every game's (codes no engine uses)
PLATFORM_TEXTS = {
    "timed_out": gettext_noop("Time ran out for %(name)s: the random bot moved for them."),
}


def platform_event(type_: str, code: str, params: dict, **fields) -> Event:
    """An event of the platform (not of the game's engine), e.g. a move the clock forced."""
    return {"type": type_, **fields, "code": code, "params": params,
            "text": render_text(PLATFORM_TEXTS, code, params)}


@cache
def texts_of(game_slug: str) -> dict[str, str]:
    return {**PLATFORM_TEXTS, **(getattr(get_game(game_slug), "event_texts", None) or {})}


# (game, language, the event as JSON) → the event rendered: a view carries the game's events so
# far (QTris, QuantumPoker), so each move would render them all again, for every seat
_RENDERED: dict[tuple[str, str, bytes], Event] = {}
_RENDERED_KEPT = 20_000


def localize(game_slug: str, events: Iterable[Event]) -> list[Event]:
    """``events`` with their ``text`` in the active language (each a new dict), and every text
    inside them that has a ``<key>_message`` beside it (``_localize_messages``)."""
    texts = texts_of(game_slug)
    language = get_language() or ""
    out: list[Event] = []
    for e in events:
        if not isinstance(e, dict):
            out.append(e)
            continue
        try:
            key = (game_slug, language, orjson.dumps(e, option=orjson.OPT_SORT_KEYS))
        except TypeError:  # not plain JSON: rendered, not remembered
            out.append(_localized(texts, e))
            continue
        out.append(dict(remembered(_RENDERED, key, lambda e=e: _localized(texts, e), _RENDERED_KEPT)))
    return out


def _localized(texts: dict[str, str], e: Event) -> Event:
    code = e.get("code")
    if isinstance(code, str) and code in texts:
        try:
            e = {**e, "text": render_text(texts, code, e.get("params") or {}, gettext, ngettext)}
        except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
            pass
    if isinstance(e.get("explain"), dict):
        e = {**e, "explain": localize_explain(texts, e["explain"])}
    return _localize_messages(texts, e) if _may_hold_messages(e) else e


def localize_explain(texts: dict[str, str], explain: dict) -> dict:
    """An explanation of a card play (QTris: ``messages`` beside the English ``text``, and the
    squares' ``changes``) in the active language: its texts, without the messages they were
    rendered from (no page reads them; they were a fifth of a QTris move's bytes)."""
    messages = explain.get("messages")
    if not isinstance(messages, list):
        return explain
    try:
        out = {key: value for key, value in explain.items() if key != "messages"}
        out["text"] = " ".join(render_text(texts, m["code"], m["params"], gettext, ngettext) for m in messages)
        out["changes"] = [
            {**{key: value for key, value in ch.items() if key not in ("before_message", "after_message")},
             "before": render_text(texts, ch["before_message"]["code"], ch["before_message"]["params"], gettext, ngettext),
             "after": render_text(texts, ch["after_message"]["code"], ch["after_message"]["params"], gettext, ngettext)}
            if "before_message" in ch else ch for ch in explain.get("changes", [])]
        return out
    except (KeyError, TypeError, ValueError):
        return explain


def localize_preview(game_slug: str, result: dict) -> dict:
    """A preview's explanation in the active language."""
    if isinstance(result, dict) and isinstance(result.get("explain"), dict):
        return {**result, "explain": localize_explain(texts_of(game_slug), result["explain"])}
    return result


def localize_view(game_slug: str, view: dict) -> dict:
    """A seat's view in the active language: its recent ``events`` (QTris and QuantumPoker keep
    them in the view; Entanglion its last move's ``dice``), and every text ``key`` that has a message beside it as ``key_message``
    (QuantumPoker's physics-mode notes)."""
    if not isinstance(view, dict):
        return view
    # the events a view keeps: its recent ``events``, Entanglion's ``dice`` (the last move's rolls),
    # rendered whole by ``localize`` (each event once, remembered); the rest of the view walked
    events = [key for key in ("events", "dice") if isinstance(view.get(key), list)]
    for key in events:
        view = {**view, key: localize(game_slug, view[key])}
    rest = {key: value for key, value in view.items() if key not in events} if events else view
    if not _may_hold_messages(rest):
        return view
    walked = _localize_messages(texts_of(game_slug), rest)
    if walked is rest:
        return view
    # (in the view's order; a message rendered at the top level is left out, as further in)
    return {key: view[key] if key in events else walked[key] for key in view if key in events or key in walked}


def _may_hold_messages(value) -> bool:
    """Whether ``value`` may have a ``<key>_message`` anywhere: found in its JSON text (in C),
    so that a view without one (most of them: a board is mostly numbers) is not walked."""
    try:
        return b'_message":' in orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # (not plain JSON: walked)
        return True


def _localize_messages(texts: dict[str, str], value):
    """``value`` with every text that has a ``<key>_message`` beside it rendered in the active
    language, the message left out (no page reads it). Containers with nothing to render are
    returned as they are, not copied (a view is large and mostly numbers: walking it is the cost;
    copying it was twice that)."""
    if isinstance(value, list):
        out = None
        for i, item in enumerate(value):
            if isinstance(item, dict | list):
                new = _localize_messages(texts, item)
                if new is not item:
                    out = out if out is not None else list(value)
                    out[i] = new
        return value if out is None else out
    if not isinstance(value, dict):
        return value
    out = None
    rendered = []
    for key, item in value.items():
        if isinstance(item, str) and isinstance(m := value.get(f"{key}_message"), dict) and m.get("code") in texts:
            try:
                text = render_text(texts, m["code"], m.get("params") or {}, gettext, ngettext)
            except (KeyError, TypeError, ValueError):
                continue
            out = out if out is not None else dict(value)
            out[key] = text
            rendered.append(f"{key}_message")
        elif isinstance(item, dict | list) and not (key.endswith("_message") and isinstance(value.get(key[:-8]), str)):
            new = _localize_messages(texts, item)
            if new is not item:
                out = out if out is not None else dict(value)
                out[key] = new
    for key in rendered:  # the reader is given the texts, not the messages they were rendered from
        out.pop(key, None)
    return value if out is None else out

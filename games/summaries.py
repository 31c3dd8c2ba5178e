"""A match at a glance, for the teacher's dashboard card and the session report: a few facts
read from the engine's public (spectator) view, per game. A game without an entry has none.

``match_summary(game_slug, state)`` -> ``{"facts": {...}, "text": "...", "rank": (...)}`` or None:
``facts`` are machine values (tests, CSV), ``text`` one line in the reader's language, ``rank``
a sort key for the session report (smaller ranks first).
"""
from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from games.engines import State, get_game


def _entanglion(view: dict) -> dict:
    ships = view["ships"]
    found = view["components"]["found"]
    total = view["components"]["total"]
    turns = view.get("turn_number", 0)
    where = (_("both ships on %(planet)s") % {"planet": ships["mercurial"]} if view.get("inside")
             else _("Mercurial on %(m)s, Rubicon on %(r)s") % {"m": ships["mercurial"], "r": ships["rubicon"]})
    text = _("%(found)d of %(total)d components · turn %(turn)d · detection rate %(rate)s · %(where)s · %(ket)s") % {
        "found": found, "total": total, "turn": turns, "rate": view["detection"]["rate"], "where": where,
        "ket": view["state"]["ket"]}
    result = view.get("result")
    if result == "won":
        text = _("Won in %(turns)d turns · ") % {"turns": turns} + text
    elif result == "lost":
        text = _("Caught after %(turns)d turns · ") % {"turns": turns} + text
    elif result == "time_up":
        text = _("Time ran out after %(turns)d turns · ") % {"turns": turns} + text
    return {
        "facts": {"components": found, "total": total, "detection_rate": view["detection"]["rate"],
                  "detection_index": view["detection"]["index"], "ships": ships, "ket": view["state"]["ket"],
                  "turns": turns, "result": result},
        "text": text,
        # more components first, then fewer turns
        "rank": (-found, turns),
    }


_SUMMARIES: dict[str, Callable[[dict], dict]] = {"entanglion": _entanglion}


def has_summary(game_slug: str) -> bool:
    return game_slug in _SUMMARIES


def match_summary(game_slug: str, state: State) -> dict | None:
    summarise = _SUMMARIES.get(game_slug)
    if summarise is None:
        return None
    return summarise(get_game(game_slug).view(state, None))

"""The read side of teaching moments (see games/engines/base.py): what the recent moves of some
matches taught, from the stored log.

A moment is derived by the engine (``teaching_moments``) from one action's stored public events
and the public events of the actions before it. Only the last ``RECENT`` actions of a match are
read for moments, each with at most ``HISTORY`` earlier actions as context: one query per match,
never a replay, and the result is cached per (match, log length), so a move at one table
recomputes that table only.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

from games.engines import abilities_of, events_for, get_game
from games.event_text import localize
from games.models import Action, Match

RECENT = 8      # the last actions of a match whose moments are read
HISTORY = 40    # earlier actions given to the engine as context (a gate sequence on one square)
CACHE_SECONDS = 3600


def match_moments(match: Match) -> list[dict]:
    """The moments of the last ``RECENT`` actions of ``match``, newest first, in English (see
    ``newest_moments`` for the reader's language). Each has the engine's ``code``, ``params``,
    ``text`` and ``kind``, the ``seq`` of the action and its time ``at``."""
    return moments_at(match.pk, match.game, match.seq)


def _key(match_id: int, seq: int) -> str:
    return f"moments:{match_id}:{seq}"


def _has_moments(game_slug: str, seq: int) -> bool:
    return bool(seq) and abilities_of(get_game(game_slug)).teaching_moments


def moments_at(match_id: int, game_slug: str, seq: int, cached: dict[str, list[dict]] | None = None) -> list[dict]:
    """``match_moments`` of the match ``match_id`` when its log holds ``seq`` actions (what a
    move's snapshot tells); ``cached``: what the cache held, read already (``tables_moments``)."""
    if not _has_moments(game_slug, seq):
        return []
    key = _key(match_id, seq)
    found = cache.get(key) if cached is None else cached.get(key)
    if found is not None:
        return found
    game = get_game(game_slug)
    rows = list(Action.objects.filter(match_id=match_id, seq__lt=seq).order_by("-seq")
                .values_list("seq", "events", "created_at")[:HISTORY + RECENT])
    rows.reverse()
    log = [events_for(events if isinstance(events, list) else [], None) for _seq, events, _at in rows]
    found = []
    for i in range(max(0, len(rows) - RECENT), len(rows)):
        action_seq, _events, at = rows[i]
        for n, m in enumerate(game.teaching_moments(log[i], log[max(0, i - HISTORY):i])):
            found.append({"id": f"{match_id}-{action_seq}-{n}", "code": m["code"], "params": m["params"],
                          "text": m["text"], "kind": m.get("kind", m["code"]), "seq": action_seq,
                          "at": at.isoformat()})
    found.reverse()
    cache.set(key, found, CACHE_SECONDS)
    return found


def table_moments(number: int, match: Match, cached: dict[str, list[dict]] | None = None) -> dict:
    """One table's moments as ``newest_moments`` reads them (with the match's ``status``)."""
    return {"match": match.pk, "number": number, "game": match.game, "status": match.status,
            "moments": moments_at(match.pk, match.game, match.seq, cached)}


def tables_moments(tables: Iterable[tuple[int, Match]]) -> dict[int, dict]:
    """``table_moments`` of some tables (``(number, match)``) by match id, the cached ones read
    in one round trip (a projector's payload names every table of the session)."""
    tables = list(tables)
    cached = cache.get_many([_key(m.pk, m.seq) for _n, m in tables if _has_moments(m.game, m.seq)])
    return {match.pk: table_moments(number, match, cached) for number, match in tables}


def newest_moments(tables: Iterable[dict], limit: int = 6) -> list[dict]:
    """The newest ``limit`` moments of some tables (``table_moments``), each with its ``table``
    number, the text in the active language."""
    found = []
    for table in tables:
        for m in table["moments"]:
            found.append((m["at"], table["match"], m["seq"], table["number"], table["game"], m))
    found.sort(key=lambda f: f[:3], reverse=True)
    out = []
    for _at, _pk, _seq, number, game, m in found[:limit]:
        [localized] = localize(game, [m])
        out.append({"id": m["id"], "table": number, "game": game, "kind": m["kind"], "text": localized["text"]})
    return out


def recent_moments(tables: Iterable[tuple[int, Match]], limit: int = 6) -> list[dict]:
    """``newest_moments`` of the matches of some tables (``(number, match)``)."""
    return newest_moments(tables_moments(tables).values(), limit)

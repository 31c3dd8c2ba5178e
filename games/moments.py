"""The read side of teaching moments (see games/engines/base.py): what the recent moves of some
matches taught, from the stored log.

A moment is derived by the engine (``teaching_moments``) from one action's stored public events
and the public events of the actions before it. Only the last ``RECENT`` actions of a match are
read for moments, each with at most ``HISTORY`` earlier actions as context: one query for all
the matches asked about at once, never a replay, and the result is cached per (match, log
length), so a move at one table recomputes that table only.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber

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


def moments_at(match_id: int, game_slug: str, seq: int) -> list[dict]:
    """``match_moments`` of the match ``match_id`` when its log holds ``seq`` actions (what a
    move's snapshot tells)."""
    return moments_of([(match_id, game_slug, seq)])[match_id]


def moments_of(matches: Iterable[tuple[int, str, int]]) -> dict[int, list[dict]]:
    """``moments_at`` of many matches (``(match id, game, log length)``) by match id: those the
    cache holds in one round trip, the others from one query of their last actions (a projector
    follows the moves of a class's many tables at once)."""
    wanted = {match_id: (game_slug, seq) for match_id, game_slug, seq in matches}
    out: dict[int, list[dict]] = {m: [] for m in wanted}
    keyed = {_key(m, seq): m for m, (game_slug, seq) in wanted.items() if _has_moments(game_slug, seq)}
    if not keyed:
        return out
    cached = cache.get_many(list(keyed))
    for key, found in cached.items():
        out[keyed[key]] = found
    missing = {keyed[key]: wanted[keyed[key]] for key in keyed if key not in cached}
    if missing:
        logs = _last_actions(missing)
        computed = {m: _moments(m, game_slug, logs.get(m, [])) for m, (game_slug, _seq) in missing.items()}
        out.update(computed)
        cache.set_many({_key(m, missing[m][1]): found for m, found in computed.items()}, CACHE_SECONDS)
    return out


def _last_actions(matches: dict[int, tuple[str, int]]) -> dict[int, list[tuple]]:
    """The last ``HISTORY + RECENT`` actions before each match's log length (``(seq, events,
    created_at)``, oldest first), by match id: one query."""
    below = Q()
    for match_id, (_game, seq) in matches.items():
        below |= Q(match_id=match_id, seq__lt=seq)
    rows = (Action.objects.filter(below)
            .annotate(back=Window(RowNumber(), partition_by=[F("match_id")], order_by=F("seq").desc()))
            .filter(back__lte=HISTORY + RECENT)
            .order_by("match_id", "seq").values_list("match_id", "seq", "events", "created_at"))
    logs: dict[int, list[tuple]] = {}
    for match_id, seq, events, at in rows:
        logs.setdefault(match_id, []).append((seq, events, at))
    return logs


def _moments(match_id: int, game_slug: str, rows: list[tuple]) -> list[dict]:
    """The moments of the last ``RECENT`` of ``rows`` (``_last_actions``' of one match), newest first."""
    game = get_game(game_slug)
    log = [events_for(events if isinstance(events, list) else [], None) for _seq, events, _at in rows]
    found = []
    for i in range(max(0, len(rows) - RECENT), len(rows)):
        action_seq, _events, at = rows[i]
        for n, m in enumerate(game.teaching_moments(log[i], log[max(0, i - HISTORY):i])):
            found.append({"id": f"{match_id}-{action_seq}-{n}", "code": m["code"], "params": m["params"],
                          "text": m["text"], "kind": m.get("kind", m["code"]), "seq": action_seq,
                          "at": at.isoformat()})
    found.reverse()
    return found


def table_moments(number: int, match: Match, moments: list[dict]) -> dict:
    """One table's moments as ``newest_moments`` reads them (with the match's ``status``)."""
    return {"match": match.pk, "number": number, "game": match.game, "status": match.status, "moments": moments}


def tables_moments(tables: Iterable[tuple[int, Match]]) -> dict[int, dict]:
    """``table_moments`` of some tables (``(number, match)``) by match id (``moments_of``: a
    projector's payload names every table of the session)."""
    tables = list(tables)
    found = moments_of((match.pk, match.game, match.seq) for _n, match in tables)
    return {match.pk: table_moments(number, match, found[match.pk]) for number, match in tables}


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

"""Session standings: points per finished game, running totals per student, tie-breaks, the
tables' public results and, for a co-operative game, the teams' ranking.

``session_standings(session)`` works for every session: in a session run as rounds it counts the
rounds' tables only; in a "free" session every finished table of the session.

Points of one finished game (``game_points``), each in [0, 1]:

* 2 seats, competitive: win 1, draw ½, loss 0 (from the outcome's ``winners``: none, or every
  seat, is a draw);
* 3 to 5 seats with one score per seat (QuantumPoker's chips, Ticket-to-Ride's points): each seat's
  share of the other seats it outscored, a tie counting ½ — so 1 for outscoring everyone, 0 for
  being outscored by everyone;
* a game with sides (QTris teams, Eve): the winning side's seats 1, the others 0, a tie ½;
* co-operative (Entanglion): every seat 1 for a win, 0 for a loss.

Standings order (best first): points; then **Buchholz** (the sum of the total points of every
student met at a table: a hard schedule counts); then **Sonneborn–Berger** (for each student met,
the result against them — 1, ½, 0 by who outscored whom — times their total points: wins over
strong students count more); then games won; students equal on all four share a place (listed
by name). Bots are nobody's opponents in the tie-breaks (they have no standings).

A **bye** is a game of a round in which the student had a bot at the table because the
pairing left them over (or their co-op partner was missing); the game is played and scored as
any other, ``byes`` counts them, and the pairing gives the next bye to someone else.

QTris ``luck``: the student's actual score (qtris lines of their side) minus the exact expected
score of the board just before the final measurement (the engine's own analysis), summed over
their finished QTris games (the Eve variant, scored in sets, is left out); None for other games.

Co-operative games (``teams``): one row per team (the students who shared a table, with a bot
partner where one was missing), ranked by the game's summary rank (``games.summaries``;
Entanglion: more components, then fewer turns) summed over the team's finished games, then by
games won.

Only public facts leave this module: names, points, results and the outcome's public scores —
never a hand, a hidden card or a seat's private view (the projector shows it all).
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Count, Max, Q
from django.utils.translation import get_language

from classrooms.models import ClassSession, Participant, Table
from games.engines import abilities_of, get_game
from games.models import Match
from games.selectors import current_state
from games.snapshot import seat_name
from games.summaries import has_summary, match_summary

_HALF = Fraction(1, 2)


def is_cooperative(game_slug: str) -> bool:
    """Whether the seats of this game win or lose together (the engine's ``cooperative``)."""
    return abilities_of(get_game(game_slug)).cooperative


def game_points(outcome: dict, seats: int, *, cooperative: bool = False) -> list[Fraction]:
    """Points per seat of one finished game (see the module docstring); exact fractions."""
    winners = sorted({w for w in outcome.get("winners") or [] if 0 <= w < seats})
    if cooperative:
        return [Fraction(1 if winners else 0)] * seats
    scores = outcome.get("scores")
    if seats >= 3 and isinstance(scores, list) and len(scores) == seats:
        return [_outscored_share(scores, s) for s in range(seats)]
    if not winners or len(winners) == seats:
        return [_HALF] * seats
    return [Fraction(1 if s in winners else 0) for s in range(seats)]


def _outscored_share(scores: list, seat: int) -> Fraction:
    total = sum(pairwise(scores, seat, other) for other in range(len(scores)) if other != seat)
    return total / (len(scores) - 1)


def pairwise(scores: list, seat: int, other: int) -> Fraction:
    """1 if ``seat`` outscored ``other``, ½ for a tie, 0 otherwise (None scores count as 0)."""
    a, b = scores[seat] or 0, scores[other] or 0
    return Fraction(1) if a > b else _HALF if a == b else Fraction(0)


def result_of(outcome: dict, seats: int, seat: int, *, cooperative: bool = False) -> str:
    """"won", "drawn" or "lost" for one seat of a finished game."""
    winners = {w for w in outcome.get("winners") or [] if 0 <= w < seats}
    if cooperative:
        return "won" if winners else "lost"
    if not winners or len(winners) == seats:
        return "drawn"
    return "won" if seat in winners else "lost"


# --------------------------------------------------------------------------- records


@dataclass
class Record:
    """One student's games so far (what standings and pairing read)."""

    participant: int
    name: str
    points: Fraction = Fraction(0)
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    first_seats: int = 0  # games in which they sat first (X, the first player)
    luck: float | None = None
    # per game, per student met: (opponent id, result against them)
    met: list[tuple[int, Fraction]] = field(default_factory=list)

    @property
    def opponents(self) -> set[int]:
        return {o for o, _r in self.met}


def counted_tables(session: ClassSession, tables: list[Table] | None = None) -> list[Table]:
    """The tables the standings count (of ``tables``, ``session.seated_tables()`` by default): a
    session's rounds, or every table of a free session."""
    tables = session.seated_tables() if tables is None else tables
    if session.format == ClassSession.Format.ROUNDS:
        return [t for t in tables if t.round_id is not None]
    return tables


def records(session: ClassSession, tables: list[Table] | None = None) -> dict[int, Record]:
    """Every student of the session (removed ones too) with their finished games."""
    tables = counted_tables(session, tables)
    cooperative = is_cooperative(session.game)
    out = {p.pk: Record(p.pk, p.display_name) for p in session.participants.all()}
    for table in tables:
        match = table.match
        seats = match.seat_list
        humans = [s for s in seats if s.participant_id in out]
        if match.status != Match.Status.FINISHED or not match.outcome:
            continue
        n = len(seats)
        points = game_points(match.outcome, n, cooperative=cooperative)
        scores = match.outcome.get("scores") if isinstance(match.outcome.get("scores"), list) else None
        luck = luck_of(match)
        # a bye: a bot seated from the start (not one that took a removed student's seat)
        has_bot = any(s.bot and s.former_participant_id is None for s in seats)
        for s in humans:
            rec = out[s.participant_id]
            rec.points += points[s.index]
            rec.played += 1
            result = result_of(match.outcome, n, s.index, cooperative=cooperative)
            setattr(rec, result, getattr(rec, result) + 1)
            rec.byes += 1 if has_bot and table.round_id is not None else 0
            rec.first_seats += 1 if s.index == 0 else 0
            if luck is not None and s.index < len(luck):
                rec.luck = (rec.luck or 0.0) + luck[s.index]
            if cooperative:
                continue
            for other in humans:
                if other is s:
                    continue
                if n == 2 or scores is None or len(scores) != n:
                    against = points[s.index]
                else:
                    against = pairwise(scores, s.index, other.index)
                rec.met.append((other.participant_id, against))
    return out


def opponents_met(session: ClassSession) -> dict[int, set[int]]:
    """Who has met whom at any table of the session (finished or not): the pairing avoids rematches."""
    met: dict[int, set[int]] = defaultdict(set)
    for table in session.seated_tables():
        ids = [s.participant_id for s in table.match.seat_list if s.participant_id]
        for a in ids:
            met[a].update(b for b in ids if b != a)
    return met


def luck_of(match: Match) -> list[float] | None:
    """A finished match's luck per seat (the engine's ``luck``: actual minus expected score), or
    None for a game or variant without it; cached per move."""
    engine = match.engine
    if not abilities_of(engine).luck or not match.outcome:
        return None
    key = f"standings-luck:{match.pk}:{match.seq}"
    found = cache.get(key)
    if found is not None:
        return found
    luck = engine.luck(current_state(match), match.outcome)
    if luck is not None:
        cache.set(key, luck, 3600)
    return luck


# --------------------------------------------------------------------------- standings


def _num(x: Fraction | float) -> float:
    return round(float(x), 3)


def ranked_students(recs: dict[int, Record], removed: set[int] = frozenset()) -> list[dict]:
    """The standings rows, best first, with places (equal on every tie-break: the same place)."""
    buchholz = {pid: sum((recs[o].points for o, _r in r.met if o in recs), Fraction(0)) for pid, r in recs.items()}
    sb = {pid: sum((res * recs[o].points for o, res in r.met if o in recs), Fraction(0)) for pid, r in recs.items()}
    rows = [r for pid, r in recs.items() if pid not in removed]
    key = {r.participant: (-r.points, -buchholz[r.participant], -sb[r.participant], -r.won) for r in rows}
    rows.sort(key=lambda r: (key[r.participant], r.name.casefold(), r.participant))
    out = []
    place, previous = 0, None
    for i, r in enumerate(rows, start=1):
        if key[r.participant] != previous:
            place, previous = i, key[r.participant]
        out.append({
            "participant": r.participant, "name": r.name, "place": place, "points": _num(r.points),
            "played": r.played, "won": r.won, "drawn": r.drawn, "lost": r.lost, "byes": r.byes,
            "tiebreaks": {"buchholz": _num(buchholz[r.participant]),
                          "sonneborn_berger": _num(sb[r.participant]), "won": r.won},
            "luck": None if r.luck is None else round(r.luck, 3),
        })
    return out


def _tables(session: ClassSession, tables: list[Table]) -> list[dict]:
    cooperative = is_cooperative(session.game)
    out = []
    for table in tables:
        match = table.match
        seats = match.seat_list
        finished = match.status == Match.Status.FINISHED and bool(match.outcome)
        points = game_points(match.outcome, len(seats), cooperative=cooperative) if finished else None
        winners = set(match.outcome.get("winners") or []) if finished else set()
        out.append({
            "number": table.number,
            "round": table.round.number if table.round_id else None,
            "status": match.status,
            "seats": [{"name": seat_name(s), "bot": bool(s.bot),
                       "points": _num(points[s.index]) if points else None} for s in seats],
            "winners": [seat_name(s) for s in seats if s.index in winners],
        })
    return out


def _teams(session: ClassSession, tables: list[Table], recs: dict[int, Record]) -> list[dict]:
    if not is_cooperative(session.game):
        return []
    teams: dict[tuple, dict] = {}
    for table in tables:
        match = table.match
        seats = match.seat_list
        members = tuple(sorted(s.participant_id for s in seats if s.participant_id))
        if not members:
            continue
        team = teams.setdefault(members, {
            "members": list(members), "names": [recs[m].name if m in recs else "?" for m in members],
            "bots": sum(1 for s in seats if s.bot), "played": 0, "won": 0, "rank": None, "facts": None})
        if match.status != Match.Status.FINISHED or not match.outcome:
            continue
        team["played"] += 1
        team["won"] += 1 if match.outcome.get("winners") else 0
        if has_summary(session.game):
            summary = match_summary(session.game, current_state(match))
            rank = list(summary["rank"])
            team["rank"] = rank if team["rank"] is None else [a + b for a, b in zip(team["rank"], rank, strict=True)]
            facts = summary["facts"]
            previous = team["facts"] or {}
            team["facts"] = {"components": previous.get("components", 0) + facts.get("components", 0),
                             "turns": previous.get("turns", 0) + facts.get("turns", 0)}
    rows = [t for t in teams.values() if t["played"]]
    rows.sort(key=lambda t: (t["rank"] or [], -t["won"], [n.casefold() for n in t["names"]]))
    place, previous = 0, None
    for i, t in enumerate(rows, start=1):
        mark = (t["rank"], t["won"])
        if mark != previous:
            place, previous = i, mark
        t["place"] = place
        facts = t.pop("facts") or {}
        t["components"], t["turns"] = facts.get("components"), facts.get("turns")
    return rows


def current_round(session: ClassSession):
    return session.rounds.order_by("-number").first()


def people_counts(session: ClassSession) -> dict[str, int]:
    """How many rows the session's participants have (merged ones too), removed, in the waiting
    room, and joined (admitted, not removed): one query. Part of the standings' cache key."""
    return session.participants.aggregate(n=Count("id"), gone=Count("id", filter=Q(removed=True)),
                                          waiting=Count("id", filter=Q(admitted=False)),
                                          joined=Count("id", filter=Q(removed=False, admitted=True)))


def counts_of(participants: list[Participant]) -> dict[str, int]:
    """``people_counts`` of the session whose participants (every row) were just read."""
    return {"n": len(participants), "gone": sum(p.removed for p in participants),
            "waiting": sum(not p.admitted for p in participants),
            "joined": sum(p.admitted and not p.removed for p in participants)}


def _signature(session: ClassSession, tables: list[Table] | None = None, people: dict[str, int] | None = None) -> str:
    """What the standings depend on; they change only when a table is added, starts or finishes,
    a student joins, is removed or let back in, or a round starts. A key must never describe a
    newer session than the standings cached under it (those would stay stale until the next
    change): the participants are counted before the standings read theirs, and the tables are
    read off ``tables`` itself, the very rows the standings are then computed from, when the
    caller has read them; else counted before the standings read them (two aggregate queries).
    ``people``: ``people_counts``, when the caller has them (read before the standings)."""
    people = people_counts(session) if people is None else people
    if tables is None:
        counts = session.tables.aggregate(
            n=Count("id"), playing=Count("id", filter=Q(match__status=Match.Status.PLAYING)),
            done=Count("id", filter=Q(match__status=Match.Status.FINISHED)), last=Max("match__finished_at"),
            rounds=Max("round__number"))
        return f"{session.format}:{sorted(counts.items())}:{sorted(people.items())}"
    rows = ",".join(t.made("standings_key", lambda t=t: repr((
        t.pk, t.number, t.round.number if t.round_id else None, t.match.status, t.match.finished_at,
        [(s.participant_id, s.bot, s.former_participant_id) for s in t.match.seat_list]))) for t in tables)
    return f"{session.format}:read:[{rows}]:{sorted(people.items())}"


def cached_standings(session: ClassSession, tables: list[Table] | None = None,
                     people: dict[str, int] | None = None) -> dict:
    """``session_standings``, computed once per change of the session (every lobby asks at once);
    ``tables``: the session's ``seated_tables()`` when the caller has read them already; ``people``:
    its ``people_counts``, likewise."""
    # per language too: a seat handed to a bot is named in the reader's language
    signature = _signature(session, tables, people)
    key = f"standings:{session.pk}:{get_language()}:{hashlib.sha1(signature.encode()).hexdigest()}"
    found = cache.get(key)
    if found is None:
        found = session_standings(session, tables)
        cache.set(key, found, 600)
    return found


def session_standings(session: ClassSession, tables: list[Table] | None = None) -> dict:
    """The session's standings (see the module docstring); public facts only."""
    tables = counted_tables(session, tables)
    recs = records(session, tables)
    # removed (or merged away) students, and those still in the waiting room, are not ranked
    removed = set(session.participants.filter(Q(removed=True) | Q(admitted=False)).values_list("pk", flat=True))
    latest = current_round(session)
    return {
        "format": session.format,
        "round": latest.number if latest else None,
        "students": ranked_students(recs, removed),
        "tables": _tables(session, tables),
        "teams": _teams(session, tables, recs),
    }

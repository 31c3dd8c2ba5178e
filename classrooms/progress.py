"""A class member's progress over weeks: every finished game of every session they joined (as a
participant linked to their class card, ``Participant.member``), with its result, points and
QTris luck, their totals, the exercises they solved; and per class the same per member and per
week. Read by the teacher's progress pages (``classrooms.progress_views``) and their CSV.

Points and results are the standings' own (``classrooms.standings.game_points`` / ``result_of``:
win 1, draw ½, loss 0; the share of the others outscored at larger tables; co-op: 1 for a win);
Luck is the standings' ``luck_of`` (actual minus the exact expected score; None for other
games and for the Eve variant). Every finished table of a session counts (free tables and rounds).

An **exercise is solved** by a member who won (co-op: whose team won) a finished game at a table
of a session opened from that exercise (``ClassSession.exercise``); a draw or a loss is not a
solution. Each exercise counts once however often it was solved.

Only names of the same class's sessions appear (the opponents at the member's tables, bots by
their level's name): the pages are the owning teacher's.
"""
from __future__ import annotations

import datetime
from collections import defaultdict

from django.urls import reverse
from django.utils import timezone

from classrooms import understanding
from classrooms.models import Participant, Table
from classrooms.standings import game_points, is_cooperative, luck_of, result_of
from games.models import Match
from games.snapshot import seat_name


def _week_of(moment: datetime.datetime) -> datetime.date:
    """The Monday of the (local) week of ``moment``."""
    day = timezone.localtime(moment).date()
    return day - datetime.timedelta(days=day.weekday())


def game_rows(participants: list[Participant]) -> list[dict]:
    """One row per finished game of the given participants, oldest first."""
    by_id = {p.pk: p for p in participants}
    if not by_id:
        return []
    tables = (Table.objects.filter(match__seats__participant_id__in=list(by_id),
                                   match__status=Match.Status.FINISHED)
              .select_related("match", "session", "session__exercise")
              .prefetch_related("match__seats").distinct())
    rows = []
    for table in tables:
        match, session = table.match, table.session
        if not match.outcome:
            continue
        seats = list(match.seats.all())
        n = len(seats)
        cooperative = is_cooperative(match.game)
        points = game_points(match.outcome, n, cooperative=cooperative)
        luck = luck_of(match)
        when = match.finished_at or session.created_at
        for seat in seats:
            participant = by_id.get(seat.participant_id)
            if participant is None:
                continue
            result = result_of(match.outcome, n, seat.index, cooperative=cooperative)
            seat_luck = luck[seat.index] if luck is not None and seat.index < len(luck) else None
            exercise = session.exercise
            rows.append({
                "member": participant.member_id, "name": participant.display_name,
                "date": when, "week": _week_of(when), "session": session.pk, "game": match.game,
                "variant": match.variant, "table": table.number, "match": match.pk,
                "replay_url": reverse("games:replay", args=[match.pk]),
                "opponents": [seat_name(s) for s in seats if s is not seat],
                "cooperative": cooperative, "result": result, "points": round(float(points[seat.index]), 3),
                "luck": None if seat_luck is None else round(seat_luck, 3),
                "exercise": exercise.pk if exercise else None, "exercise_name": exercise.name if exercise else "",
                "solved": bool(exercise) and result == "won",
            })
    rows.sort(key=lambda r: (r["date"], r["session"], r["table"], r["member"] or 0))
    return rows


def totals(rows: list[dict]) -> dict:
    lucks = [r["luck"] for r in rows if r["luck"] is not None]
    return {
        "played": len(rows),
        "won": sum(r["result"] == "won" for r in rows),
        "drawn": sum(r["result"] == "drawn" for r in rows),
        "lost": sum(r["result"] == "lost" for r in rows),
        "points": round(sum(r["points"] for r in rows), 3),
        "luck": round(sum(lucks), 3) if lucks else None,
        "exercises_solved": len({r["exercise"] for r in rows if r["solved"]}),
        "sessions": len({r["session"] for r in rows}),
    }


def weekly(rows: list[dict]) -> list[dict]:
    """Per week (Monday's date), oldest first: games, points, wins, QTris luck, members who played."""
    weeks: dict[datetime.date, list[dict]] = defaultdict(list)
    for r in rows:
        weeks[r["week"]].append(r)
    out = []
    for week in sorted(weeks):
        week_rows = weeks[week]
        out.append({"week": week, **totals(week_rows), "members": len({r["member"] for r in week_rows})})
    return out


def member_progress(member) -> dict:
    """One class member: their games (oldest first), totals and weeks, and the concept evidence
    of their moves per concept (``classrooms.understanding``)."""
    participants = list(Participant.objects.filter(member=member))
    rows = game_rows(participants)
    return {"member": member, "games": rows, "totals": totals(rows), "weeks": weekly(rows),
            "exercises": sorted({r["exercise_name"] for r in rows if r["solved"]}, key=str.casefold),
            "concepts": understanding.by_concept(understanding.members_evidence(participants))}


def class_progress(classroom, members) -> dict:
    """Every member of the class (``members``: the class cards, in their order) with their totals,
    the class's weeks and every game row (for the CSV)."""
    members = list(members)
    participants = list(Participant.objects.filter(member__in=members))
    rows = game_rows(participants)
    per_member: dict[int, list[dict]] = defaultdict(list)
    for r in rows:
        per_member[r["member"]].append(r)
    return {
        "members": [{"member": m, "totals": totals(per_member.get(m.pk, []))} for m in members],
        "weeks": weekly(rows),
        "games": rows,
        # the members' concept evidence per week (``classrooms.understanding``)
        "concept_weeks": understanding.weekly_grid(understanding.members_evidence(participants), _week_of),
        "concepts": understanding.concepts(),
    }

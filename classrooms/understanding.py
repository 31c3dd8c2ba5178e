"""What each student understood: the concept evidence of the stored moves (games/engines/base.py,
"Concept evidence"), gathered per student and concept for the teacher's pages only.

Evidence is derived, never stored: each person's move of the log is judged once by its engine
(``Abilities.evidence_for`` with the states before and after it) and the result is kept per
match and log length, in this process (with the last state, so that a new move is judged from
the state before it without a replay) and in the shared cache (without the state). A move at
one table judges that move only; a page of a 300-student school replays each match at most once.

The evidence of a match names seats, not students: it is given to a student through the seats
when it is read (the holder of the seat, or the student whose seat was handed to a bot). A
member deleted with their data has no seat left (``cards.delete_member``): their evidence goes
with it. A move made by a bot, or by the random bot when a seat's time ran out, is no evidence
of anybody's understanding and is not judged.

Evidence is an observation of some moves, not a grade: the pages say so.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext_lazy

from classrooms.models import ClassSession, Participant, Table
from games.engines import abilities_of, events_for, get_game
from games.engines.base import (
    CONCEPTS,
    EVIDENCE_KINDS,
    apply_logged,
    is_finish,
    render_text,
    replay_steps,
)
from games.models import Action, Match, Seat

SHOWS, MISCONCEPTION = EVIDENCE_KINDS
CONCEPT_NAMES = {
    "superposition": pgettext_lazy("quantum concept", "superposition"),
    "measurement": pgettext_lazy("quantum concept", "measurement"),
    "entanglement": pgettext_lazy("quantum concept", "entanglement"),
    "phase": pgettext_lazy("quantum concept", "phase"),
    "interference": pgettext_lazy("quantum concept", "interference"),
    "noise": pgettext_lazy("quantum concept", "noise"),
}
logger = logging.getLogger(__name__)
DEBRIEF_MOMENTS = 5
CACHE_SECONDS = 6 * 3600

# --- the evidence of a match's moves, judged once per move ---------------------------------

_MAX_MATCHES = 4000
_lock = threading.Lock()
# (match id, seed) -> (log length, state after it, the evidence of its moves)
_judged: OrderedDict[tuple[int, int], tuple[int, Any, tuple[dict, ...]]] = OrderedDict()


@dataclass(frozen=True)
class MatchRef:
    """What judging a match's moves needs to know of it (a ``Match`` row, or a move's snapshot)."""
    match: int
    seed: int
    seq: int
    game: str
    rules_version: int | None = None

    @classmethod
    def of(cls, match: Match) -> MatchRef:
        return cls(match.pk, match.seed, match.seq, match.game, match.rules_version)


def forget() -> None:
    """Drop this process's judged moves (tests start empty)."""
    with _lock:
        _judged.clear()


def _cache_key(ref: MatchRef) -> str:
    return f"evidence:{ref.match}:{ref.seed}:{ref.seq}"


def _engine(ref: MatchRef):
    from games.engines.base import under_rules

    return under_rules(get_game(ref.game), ref.rules_version)


def _judge(game, before, entry: tuple[int, int, Any, bool, bool], after) -> list[dict]:
    """The evidence of one logged action (none for a bot's move, a timed-out seat's or the
    platform's finish)."""
    seq, seat, action, by_bot, timed_out = entry
    if by_bot or timed_out or is_finish(action):
        return []
    return [{"seq": seq, "seat": seat, **e} for e in abilities_of(game).evidence_for(game, before, seat, action, after)]


_LOG_FIELDS = ("seq", "seat", "action", "by_bot", "timed_out")


def match_evidence(ref: MatchRef, last: Any = None) -> list[dict]:
    """The evidence of every person's move of a match's first ``ref.seq`` actions, oldest first:
    ``{"seq", "seat", "concept", "kind", "code", "params"}``. ``last``: the state after them,
    when the caller holds it (the move path does: the new move is then judged without being
    applied again)."""
    if not ref.seq or not abilities_of(get_game(ref.game)).concept_evidence:
        return []
    with _lock:
        held = _judged.get((ref.match, ref.seed))
    if held is not None and held[0] == ref.seq:
        return list(held[2])
    found = cache.get(_cache_key(ref))
    if found is not None:
        return found
    game = _engine(ref)
    if held is not None and held[0] < ref.seq:  # the new moves only, from the state before them
        seq0, state, judged = held
        log = Action.objects.filter(match_id=ref.match, seq__gte=seq0, seq__lt=ref.seq).order_by("seq")
        found = list(judged)
        for entry in log.values_list(*_LOG_FIELDS):
            if last is not None and entry[0] == ref.seq - 1:
                after = last
            else:
                after, _events = apply_logged(game, state, entry[1], entry[2])
            found += _judge(game, state, entry, after)
            state = after
    else:
        match = Match.objects.get(pk=ref.match)
        entries = list(match.actions.filter(seq__lt=ref.seq).order_by("seq").values_list(*_LOG_FIELDS))
        steps = replay_steps(game, match.players, match.variant, match.options, match.seed,
                             [(e[1], e[2]) for e in entries])
        state, _ = next(steps)
        found = []
        for entry, (after, _events) in zip(entries, steps, strict=True):
            found += _judge(game, state, entry, after)
            state = after
    _remember(ref, state, found)
    return found


def _remember(ref: MatchRef, state, found: list[dict]) -> None:
    with _lock:
        current = _judged.get((ref.match, ref.seed))
        if current is None or current[0] <= ref.seq:
            _judged[(ref.match, ref.seed)] = (ref.seq, state, tuple(found))
            _judged.move_to_end((ref.match, ref.seed))
            while len(_judged) > _MAX_MATCHES:
                _judged.popitem(last=False)
    cache.set(_cache_key(ref), found, CACHE_SECONDS)


def judge_move(snap, applied=None) -> None:
    """Judge the moves up to a match's new log length (``snap``: its ``games.snapshot.Snapshot``
    after a change), where the move was made. With ``applied`` (``games.services.Applied``) and
    the evidence before the call held here or in the shared cache, only the person's move of the
    call is judged, from the states the move service had (the bots' moves, a timed-out seat's
    and the finish are no evidence): no query, no replay. Otherwise only the new moves are
    judged, from the state before them when this process judged the earlier ones. Never in the
    way of the move's news: a failure is logged, and the evidence is judged again when read."""
    try:
        ref = MatchRef(snap.match, snap.seed, snap.seq, snap.game, snap.rules_version)
        if applied is None or not _judge_call(ref, snap.state, applied):
            match_evidence(ref, snap.state)
    except Exception:  # noqa: BLE001 (the move stands; its evidence is judged when read)
        logger.exception("concept evidence of match %s at move %s", snap.match, snap.seq)


def _judge_call(ref: MatchRef, state, applied) -> bool:
    """The evidence after one call of the move service from the evidence before it; False when
    that is neither held here nor in the shared cache."""
    game = get_game(ref.game)
    if not abilities_of(game).concept_evidence:
        return True
    before = MatchRef(ref.match, ref.seed, applied.began, ref.game, ref.rules_version)
    with _lock:
        held = _judged.get((ref.match, ref.seed))
    found = list(held[2]) if held is not None and held[0] == applied.began else (
        [] if applied.began == 0 else cache.get(_cache_key(before)))
    if found is None:
        return False
    if applied.made is not None:
        seq, seat, action, state_before, state_after = applied.made
        found += _judge(_engine(ref), state_before, (seq, seat, action, False, False), state_after)
    _remember(ref, state, found)
    return True


def evidence_of(refs: Iterable[MatchRef]) -> dict[int, list[dict]]:
    """``match_evidence`` of many matches: what this process holds, then the shared cache in one
    trip, then the rest judged."""
    refs = [r for r in refs if r.seq and abilities_of(get_game(r.game)).concept_evidence]
    out: dict[int, list[dict]] = {}
    missing = []
    with _lock:
        for r in refs:
            held = _judged.get((r.match, r.seed))
            if held is not None and held[0] == r.seq:
                out[r.match] = list(held[2])
            else:
                missing.append(r)
    shared = cache.get_many([_cache_key(r) for r in missing]) if missing else {}
    for r in missing:
        found = shared.get(_cache_key(r))
        out[r.match] = found if found is not None else match_evidence(r)
    return out


# --- who sat where --------------------------------------------------------------------------

@dataclass
class Seating:
    """A session's tables as evidence is read: each match (``MatchRef``), its table number and
    the student of each seat (a participant id; a seat handed to a bot: its former holder), and
    the students' names. Kept by the dashboard's socket between two payloads (a move changes
    only the matches' log lengths)."""
    matches: dict[int, MatchRef] = field(default_factory=dict)
    numbers: dict[int, int] = field(default_factory=dict)
    students: dict[int, dict[int, int]] = field(default_factory=dict)  # match -> seat -> participant
    names: dict[int, str] = field(default_factory=dict)  # participant -> name, roster order

    def moved(self, ref: MatchRef) -> None:
        if ref.match in self.matches and ref.seq > self.matches[ref.match].seq:
            self.matches[ref.match] = ref


def session_seating(session: ClassSession, seated: list[Table] | None = None,
                    names: dict[int, str] | None = None) -> Seating:
    """``seated``: the session's ``seated_tables()`` when the caller has read them already;
    ``names``: its students' names by id (not merged away, in the order they joined), likewise."""
    seating = Seating()
    for table in session.seated_tables() if seated is None else seated:
        seating.matches[table.match_id] = MatchRef.of(table.match)
        seating.numbers[table.match_id] = table.number
        for seat in table.match.seat_list:
            if student := seat.participant_id or seat.former_participant_id:
                seating.students.setdefault(table.match_id, {})[seat.index] = student
    seating.names = names if names is not None else dict(
        session.participants.filter(merged_into=None).values_list("pk", "display_name"))  # in join order
    return seating


# --- the moves behind the grid --------------------------------------------------------------

def texts_of(game_slug: str) -> dict[str, str]:
    return getattr(get_game(game_slug), "evidence_texts", None) or {}


def evidence_text(game_slug: str, e: dict) -> str:
    """One piece of evidence as a sentence in the active language."""
    texts = texts_of(game_slug)
    try:
        return render_text(texts, e["code"], e.get("params") or {}, gettext, ngettext)
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
        return render_text(texts, e["code"], e.get("params") or {})


def replay_step_url(match_id: int, seq: int) -> str:
    """The replay at the step just after the move ``seq`` (step 0 is the set-up)."""
    return f"{reverse('games:replay', args=[match_id])}?step={seq + 1}"


def moves_of(seating: Seating, evidence: dict[int, list[dict]], *, texts: bool = True) -> list[dict]:
    """Every piece of evidence given to a student, in the order played (match, then move)."""
    out = []
    for match_id in sorted(evidence):
        ref = seating.matches[match_id]
        seats = seating.students.get(match_id, {})
        for e in evidence[match_id]:
            student = seats.get(e["seat"])
            if student is None or student not in seating.names:
                continue
            out.append({"student": student, "name": seating.names[student], "match": match_id,
                        "table": seating.numbers.get(match_id), "game": ref.game, "seq": e["seq"],
                        "step": e["seq"] + 1, "concept": e["concept"], "kind": e["kind"], "code": e["code"],
                        "params": e["params"],
                        "text": evidence_text(ref.game, e) if texts else "",
                        "replay_url": replay_step_url(match_id, e["seq"]) if texts else ""})
    return out


def concepts() -> list[dict]:
    return [{"key": c, "name": str(CONCEPT_NAMES[c])} for c in CONCEPTS]


def grid(names: dict[int, str], moves: list[dict]) -> list[dict]:
    """A row per student (roster order; only students with evidence), a cell per concept with
    its counts and moves."""
    cells: dict[int, dict[str, dict]] = defaultdict(dict)
    for m in moves:
        cell = cells[m["student"]].setdefault(m["concept"], {SHOWS: 0, MISCONCEPTION: 0, "moves": []})
        cell[m["kind"]] += 1
        cell["moves"].append(m)
    concept_names = {c: str(CONCEPT_NAMES[c]) for c in CONCEPTS}  # (translated once, not per student)
    none: dict = {}
    rows = []
    for student, name in names.items():
        if student not in cells:
            continue
        mine = cells[student]
        rows.append({"participant": student, "name": name, "cells": [
            {"concept": c, "concept_name": concept_names[c], "shows": mine.get(c, none).get(SHOWS, 0),
             "misconception": mine.get(c, none).get(MISCONCEPTION, 0),
             "moves": mine.get(c, none).get("moves", [])} for c in CONCEPTS]})
    return rows


def need_help(names: dict[int, str], moves: list[dict]) -> list[dict]:
    """Students with a misconception of a concept that no later move of theirs showed: each
    with the concept and the misconceptions since their last move that showed it."""
    since: dict[tuple[int, str], list[dict]] = {}
    for m in moves:  # (in the order played)
        key = (m["student"], m["concept"])
        if m["kind"] == SHOWS:
            since.pop(key, None)
        else:
            since.setdefault(key, []).append(m)
    order = {pk: i for i, pk in enumerate(names)}
    return [{"participant": student, "name": names[student], "concept": concept,
             "concept_name": str(CONCEPT_NAMES[concept]), "moves": found}
            for (student, concept), found in sorted(since.items(),
                                                    key=lambda kv: (order[kv[0][0]], CONCEPTS.index(kv[0][1])))]


def common_misconception(moves: list[dict]) -> dict | None:
    """The misconception the most students showed (then the most often), with two example moves
    (of two students when two had it)."""
    by_code: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for m in moves:
        if m["kind"] == MISCONCEPTION:
            by_code[(m["game"], m["code"])].append(m)
    if not by_code:
        return None
    (game, code), found = max(by_code.items(), key=lambda kv: (len({m["student"] for m in kv[1]}), len(kv[1]),
                                                               kv[0]))
    examples = [found[0]]
    other = next((m for m in found if m["student"] != found[0]["student"]), None)
    if other is None and len(found) > 1:
        other = found[1]
    if other is not None:
        examples.append(other)
    return {"game": game, "code": code, "concept": found[0]["concept"],
            "concept_name": str(CONCEPT_NAMES[found[0]["concept"]]),
            "students": len({m["student"] for m in found}), "count": len(found), "examples": examples}


def session_understanding(session: ClassSession) -> dict:
    """The session report's part: the concepts, the students × concepts grid (each cell with its
    moves), the students who may need help, the class's most common misconception, every move."""
    seating = session_seating(session)
    moves = moves_of(seating, evidence_of(seating.matches.values()))
    return {"concepts": concepts(), "grid": grid(seating.names, moves), "need_help": need_help(seating.names, moves),
            "common": common_misconception(moves), "moves": moves}


def compact(seating: Seating) -> dict:
    """The dashboard's grid: per student the counts of each concept (no moves, no texts)."""
    moves = moves_of(seating, evidence_of(seating.matches.values()), texts=False)
    rows = grid(seating.names, moves)
    helped = {(h["participant"], h["concept"]) for h in need_help(seating.names, moves)}
    return {"concepts": concepts(), "students": [
        {"participant": r["participant"], "name": r["name"],
         "cells": [[c["shows"], c["misconception"], (r["participant"], c["concept"]) in helped] for c in r["cells"]]}
        for r in rows]}


def live_compact(seating: Seating, refs: Iterable[MatchRef]) -> dict:
    """``compact`` after some moves (their matches' new log lengths): only those moves are judged."""
    for ref in refs:
        seating.moved(ref)
    return compact(seating)


# --- the exports ----------------------------------------------------------------------------

def export_rows(understanding: dict) -> list[dict]:
    """Every move as the CSV and JSON have it (plain keys; the text in the active language)."""
    return [{"student": m["name"], "table": m["table"], "match": m["match"], "move": m["step"],
             "game": m["game"], "concept": m["concept"], "kind": m["kind"], "code": m["code"], "text": m["text"],
             "replay": m["replay_url"]} for m in understanding["moves"]]


# --- the debrief on the projector -----------------------------------------------------------

def _teaching_moments(seating: Seating) -> list[dict]:
    """Every teaching moment of the session's matches (public events only), in the order played."""
    out = []
    for match_id, ref in sorted(seating.matches.items()):
        game = get_game(ref.game)
        if not ref.seq or not abilities_of(game).teaching_moments:
            continue
        log = [(seq, events_for(events if isinstance(events, list) else [], None))
               for seq, events in Action.objects.filter(match_id=match_id).order_by("seq").values_list("seq", "events")]
        history: list[list[dict]] = []
        for seq, events in log:
            for m in game.teaching_moments(events, history[-40:]):
                out.append({"match": match_id, "table": seating.numbers.get(match_id), "game": ref.game,
                            "seq": seq, "code": m["code"], "params": m["params"], "kind": "moment",
                            "text": m["text"]})
            history.append(events)
    return out


def debrief(session: ClassSession) -> list[dict]:
    """The most instructive moments of the lesson across all tables (at most ``DEBRIEF_MOMENTS``):
    a misconception of each kind the class showed (the most shared first), then a teaching
    moment of each kind, in turn; each with its match, move and text, and the student's name
    (shown only when the teacher chooses)."""
    from games.event_text import localize

    seating = session_seating(session)
    moves = moves_of(seating, evidence_of(seating.matches.values()))
    mistaken: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for m in moves:
        if m["kind"] == MISCONCEPTION:
            mistaken[(m["game"], m["code"])].append(m)
    first = [found[0] for found in sorted(mistaken.values(), key=lambda f: (-len({m["student"] for m in f}), -len(f)))]
    taught: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for m in _teaching_moments(seating):
        taught[(m["game"], m["code"])].append(m)
    lessons = [found[0] for found in sorted(taught.values(), key=lambda f: -len(f))]
    chosen: list[dict] = []
    while len(chosen) < DEBRIEF_MOMENTS and (first or lessons):
        for pool in (first, lessons):
            if pool and len(chosen) < DEBRIEF_MOMENTS:
                chosen.append(pool.pop(0))
    out = []
    for n, m in enumerate(chosen, start=1):
        text = m["text"] if m["kind"] != "moment" else localize(m["game"], [m])[0]["text"]
        student = m.get("name") or ""
        out.append({"n": n, "match": m["match"], "table": m["table"], "game": m["game"], "seq": m["seq"],
                    "kind": m["kind"], "code": m["code"], "concept": m.get("concept"),
                    "concept_name": str(CONCEPT_NAMES[m["concept"]]) if m.get("concept") else "",
                    "text": text, "name": student})
    return out


# --- over weeks (class members) -------------------------------------------------------------

def members_evidence(participants: list[Participant]) -> list[dict]:
    """Every piece of evidence of the given participants (a class member's, over their
    sessions), in the order played, each with its session's ``date`` (the match's start)."""
    ids = {p.pk for p in participants}
    if not ids:
        return []
    names = {p.pk: p.display_name for p in participants}
    member_of = {p.pk: p.member_id for p in participants}
    seats = list(Seat.objects.filter(match__table__isnull=False).filter(participant_id__in=ids)
                 .values_list("match_id", "index", "participant_id")) + list(
        Seat.objects.filter(match__table__isnull=False, former_participant_id__in=ids)
        .values_list("match_id", "index", "former_participant_id"))
    seating = Seating(names=names)
    for match_id, index, pid in seats:
        seating.students.setdefault(match_id, {})[index] = pid
    when = {}
    for table in Table.objects.filter(match_id__in=list(seating.students)).select_related("match", "session"):
        seating.matches[table.match_id] = MatchRef.of(table.match)
        seating.numbers[table.match_id] = table.number
        when[table.match_id] = table.match.started_at or table.session.created_at
    moves = moves_of(seating, evidence_of(seating.matches.values()))
    for m in moves:
        m["date"] = when[m["match"]]
        m["member"] = member_of[m["student"]]
    return moves


def by_concept(moves: list[dict]) -> list[dict]:
    """A member's page: per concept (that has evidence) the counts and the moves, newest first."""
    out = []
    for c in CONCEPTS:
        found = [m for m in moves if m["concept"] == c]
        if found:
            out.append({"concept": c, "concept_name": str(CONCEPT_NAMES[c]),
                        "shows": sum(m["kind"] == SHOWS for m in found),
                        "misconception": sum(m["kind"] == MISCONCEPTION for m in found),
                        "moves": list(reversed(found))})
    return out


def weekly_grid(moves: list[dict], week_of) -> list[dict]:
    """Per week (oldest first), per concept: the class members' evidence counts and how many
    members showed it."""
    weeks: dict[Any, list[dict]] = defaultdict(list)
    for m in moves:
        weeks[week_of(m["date"])].append(m)
    out = []
    for week in sorted(weeks):
        found = weeks[week]
        out.append({"week": week, "cells": [
            {"concept": c, "concept_name": str(CONCEPT_NAMES[c]),
             "shows": sum(m["concept"] == c and m["kind"] == SHOWS for m in found),
             "misconception": sum(m["concept"] == c and m["kind"] == MISCONCEPTION for m in found),
             "members": len({m["member"] for m in found if m["concept"] == c})} for c in CONCEPTS]})
    return out


DEBRIEF_BEFORE = 2  # steps shown before the moment's move (its context)


def debrief_frames(moment: dict, *, names: bool) -> tuple[list[dict], list[dict]]:
    """A moment's replay for the projector: the public frames (as a spectator sees them) from a
    few steps before its move to the step after it, and the seats; unless ``names``, each seat
    is "Player n" and the students' names are taken out of the texts."""
    from games.selectors import replay_frames
    from games.snapshot import localized_seats, seats_summary

    match = Match.objects.get(pk=moment["match"])
    frames = replay_frames(match, None)[max(0, moment["seq"] - DEBRIEF_BEFORE):moment["seq"] + 2]
    seats = localized_seats(seats_summary(match.seats.all()))
    if names:
        return frames, seats
    anonymous = [{**s, "name": gettext("Player %(number)s") % {"number": s["index"] + 1}} for s in seats]
    real = sorted(((s["name"], a["name"]) for s, a in zip(seats, anonymous, strict=True) if s["name"]),
                  key=lambda pair: -len(pair[0]))
    real += [(s["was"], a["name"]) for s, a in zip(seats, anonymous, strict=True) if s.get("was")]

    def unnamed(text: str) -> str:
        for name, player in real:
            text = text.replace(name, player)
        return text

    for f in frames:
        f["events"] = [{**e, "text": unnamed(e["text"])} if isinstance(e.get("text"), str) else e for e in f["events"]]
    return frames, [{k: v for k, v in s.items() if k != "was"} for s in anonymous]

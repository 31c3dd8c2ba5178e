"""Pace of a match: the per-move clock, the teacher's pause and the lesson's end.

The times live on ``Match`` (all optional):

* ``move_seconds``: the table's clock (None: no clock). After every change of the log, while the
  match is playing and not paused, ``deadline`` = now + ``move_seconds`` for the seat(s) in
  ``to_act``; several seats to act at once (simultaneous decisions) share that one deadline.
* ``ends_at``: time is up for the whole game ("finish in N minutes" of the session).
* ``paused``: moves are refused (``AppError("paused")``) and both times are frozen: what was left
  is kept in ``clock_left_ms`` / ``finish_left_ms`` and given back on resume.

Passing a time changes nothing by itself: whoever notices it (a match socket's timer, a socket
connecting, the teacher's dashboard) asks ``games.services.enforce_time``, which re-checks under
the match's row lock and the log's ``seq``, so a deadline is enforced exactly once. A move that
arrives after the deadline but before the enforcement is accepted (as lichess accepts a move
until the flag falls): the log decides, and the seq check makes the loser of the race a no-op.

This module reads and sets the fields; ``games.services`` writes the log.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.engines import State
from games.models import Match

DUE_FINISH = "finish"
DUE_CLOCK = "clock"


def epoch_ms(moment: datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def left_ms(moment: datetime | None, now: datetime) -> int | None:
    return None if moment is None else max(0, int((moment - now).total_seconds() * 1000))


def rewind(match: Match, state: State, now: datetime | None = None) -> None:
    """After the log changed: the clock starts again for whoever is to act now (or stops)."""
    now = now or timezone.now()
    running = (match.status == Match.Status.PLAYING and match.move_seconds
               and bool(match.engine.to_act(state)))
    if match.paused:
        match.deadline = None
        match.clock_left_ms = match.move_seconds * 1000 if running else None
    else:
        match.deadline = now + timedelta(seconds=match.move_seconds) if running else None


def due(match: Match, now: datetime | None = None) -> str | None:
    """What is overdue now: ``DUE_FINISH`` (time is up), ``DUE_CLOCK`` (the move clock ran out)
    or None. Nothing is due in a paused match or one that is not playing."""
    if match.paused or match.status != Match.Status.PLAYING:
        return None
    now = now or timezone.now()
    if match.ends_at is not None and match.ends_at <= now:
        return DUE_FINISH
    if match.deadline is not None and match.deadline <= now:
        return DUE_CLOCK
    return None


def pause(match: Match, now: datetime) -> bool:
    """Freeze both times (what is left is kept); False when there was nothing to pause."""
    if match.paused or match.status not in (Match.Status.WAITING, Match.Status.PLAYING):
        return False
    match.paused = True
    match.clock_left_ms = left_ms(match.deadline, now)
    match.finish_left_ms = left_ms(match.ends_at, now)
    match.deadline = match.ends_at = None
    return True


def resume(match: Match, now: datetime) -> bool:
    """Give the frozen times back, counting from now; False when it was not paused."""
    if not match.paused:
        return False
    match.paused = False
    if match.clock_left_ms is not None:
        match.deadline = now + timedelta(milliseconds=match.clock_left_ms)
    if match.finish_left_ms is not None:
        match.ends_at = now + timedelta(milliseconds=match.finish_left_ms)
    match.clock_left_ms = match.finish_left_ms = None
    return True


def forget_passed_end(match: Match, now: datetime) -> None:
    """A table starting now whose end has already passed (seated while the lesson's countdown
    ran, started after it ran out) starts with fresh time: no move of it was played under that
    countdown, and ending it at once would put a game of chance into the standings."""
    if match.ends_at is not None and match.ends_at <= now:
        match.ends_at = None
    if match.finish_left_ms is not None and match.finish_left_ms <= 0:
        match.finish_left_ms = None


def finish_in(match: Match, seconds: int, now: datetime) -> None:
    """Time is up ``seconds`` from now (from the resume, while paused)."""
    if match.paused:
        match.finish_left_ms = seconds * 1000
    else:
        match.ends_at = now + timedelta(seconds=seconds)


def set_move_seconds(match: Match, seconds: int | None, state: State, now: datetime) -> None:
    """A new clock for the table: it starts afresh for whoever is to act."""
    match.move_seconds = seconds
    rewind(match, state, now)


PACE_FIELDS = ["move_seconds", "deadline", "ends_at", "paused", "clock_left_ms", "finish_left_ms"]


def clock_message(match: Match) -> dict:
    """The pace in a snapshot (server side): absolute times in epoch milliseconds."""
    return {"move_seconds": match.move_seconds, "deadline": epoch_ms(match.deadline),
            "ends_at": epoch_ms(match.ends_at), "paused": match.paused,
            "clock_left_ms": match.clock_left_ms, "finish_left_ms": match.finish_left_ms}


def clock_payload(clock: dict | None, now_ms: int) -> dict | None:
    """What a browser is sent: the time left now (milliseconds, so that the browser's own
    clock may be wrong), never an absolute time. None when the match has no clock, no end
    and no pause."""
    if not clock:
        return None
    paused = bool(clock.get("paused"))

    def left(absolute: str, frozen: str) -> int | None:
        if paused:
            return clock.get(frozen)
        at = clock.get(absolute)
        return None if at is None else max(0, at - now_ms)

    out = {"move_seconds": clock.get("move_seconds"), "paused": paused,
           "move_left_ms": left("deadline", "clock_left_ms"),
           "finish_left_ms": left("ends_at", "finish_left_ms")}
    if out["move_seconds"] is None and out["finish_left_ms"] is None and not paused:
        return None
    return out

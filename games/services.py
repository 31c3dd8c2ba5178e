"""Match services: create and start matches, apply actions through the engine, bots' turns.

Every action goes through ``submit_action``: inside one transaction the match row is locked,
the sequence number checked, the engine validates and applies the action, the action is
appended to the log (unique (match, seq)) and bots whose turn it now is play theirs.
Broadcasting happens only after the commit, by the caller (see ``games.broadcast``).

Bots (``_play_bots``) play in the transaction of whatever made it their decision (a move, a
start, a resume, a seat handed to a bot, a time-out), each at once, also while a person decides
at the same time; a bot never times out. A table of bots alone that plays longer than
``MAX_BOT_ACTIONS_PER_CALL`` goes on in further transactions after the commit
(``continue_bots``), each told to the pages like a move.
"""
from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import limits
from games import pace, rows, state_cache
from games.bots import get_bot
from games.broadcast import announce_match_changed
from games.engines import FINISH_ACTION, IllegalAction, State, abilities_of, chance, get_game
from games.errors import AppError, from_illegal
from games.event_text import localize_preview, platform_event
from games.models import Action, Match, Seat
from games.selectors import current_state
from games.signals import match_changed
from games.snapshot import Snapshot, snapshot

MAX_BOT_ACTIONS_PER_CALL = 400  # bot actions in one transaction; more go on after the commit
MAX_BOT_BATCHES = 100  # ``continue_bots``: a game of bots alone longer than this is stopped, logged
TIMEOUT_BOT = "random"  # the level that moves for a seat whose time ran out (every game has it)
MOVE_FIELDS = ("seq", "status", "outcome", "finished_at", *pace.PACE_FIELDS)  # what a move changes

log = logging.getLogger(__name__)


# the app's one error (``games.errors.AppError``) under the name this module used before
ActionRejected = AppError


@dataclass
class SeatHolder:
    name: str
    participant_id: int | None = None
    bot: str = ""


@dataclass
class Applied:
    """What one call of ``submit_action`` appended to the log."""

    match_id: int
    seq: int  # log length afterwards
    events: list[dict] = field(default_factory=list)
    finished: bool = False
    snapshot: Snapshot | None = None  # the match afterwards
    bots_due: bool = False  # the bots stopped at MAX_BOT_ACTIONS_PER_CALL with a decision of theirs awaited
    # the person's move of the call, if any: (its seq, seat, action, the state before, after), for
    # followers that judge it without reading the log again (``classrooms.understanding``)
    made: tuple | None = None
    began: int = field(init=False)  # log length before the call

    def __post_init__(self) -> None:
        self.began = self.seq


def create_match(game_slug: str, holders: list[SeatHolder], *, variant: str = "basic",
                 options: dict | None = None, seed: int | None = None, teacher=None,
                 label: str = "") -> Match:
    """Create a match (status waiting) after the engine accepted its set-up."""
    game = get_game(game_slug)
    options = options or {}
    problem = limits.options_problem(options)
    if problem:
        raise AppError("too_large", problem)
    seed = secrets.randbelow(2**62) if seed is None else seed
    try:
        state = game.setup(players=len(holders), variant=variant, seed=seed, options=options)
    except IllegalAction as exc:
        raise from_illegal(exc) from exc
    with transaction.atomic():
        match = Match.objects.create(game=game_slug, variant=variant, options=options, seed=seed,
                                     rules_version=game.rules_version,  # played and replayed under
                                     players=len(holders), teacher=teacher, label=label)
        Seat.objects.bulk_create(
            Seat(match=match, index=i, name=h.name, participant_id=h.participant_id, bot=h.bot)
            for i, h in enumerate(holders)
        )
    state_cache.put(match.pk, seed, 0, state)
    return match


def start_match(match_id: int) -> Applied:
    """Start a waiting match; bots whose decision opens the game play at once."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.WAITING:
            return Applied(match_id, match.seq)
        match.status = Match.Status.PLAYING
        match.started_at = timezone.now()
        pace.forget_passed_end(match, match.started_at)
        state = current_state(match)
        applied = Applied(match_id, match.seq)
        state = _bots_then_close(match, state, applied)
    transaction.on_commit(lambda: state_cache.put(match_id, match.seed, applied.seq, state))
    _bots_go_on(applied)
    return applied


def resume_match(match_id: int, now: datetime) -> Applied | None:
    """The teacher's pause ends for this match (``games.pace.resume``): the frozen times count
    again from ``now`` and bots whose decision waited play at once. None when it was not paused."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if not pace.resume(match, now):
            return None
        state = current_state(match)
        applied = Applied(match_id, match.seq)
        if match.status == Match.Status.PLAYING:
            state = _bots_then_close(match, state, applied)
        else:
            match.save(update_fields=pace.PACE_FIELDS)
    transaction.on_commit(lambda: state_cache.put(match_id, match.seed, applied.seq, state))
    _bots_go_on(applied)
    return applied


def submit_action(match_id: int, seat: int, seq: int, action: object, *,
                  participant_ids: tuple[int, ...] | None = None) -> Applied:
    """Validate and apply one action of ``seat``; ``seq`` must equal the log length.

    With ``participant_ids`` the seat must be held by one of them right now (a seat handed to
    a bot, or another student's seat, is refused)."""
    try:
        with transaction.atomic():
            match, seats = _locked_with_seats(match_id)
            if participant_ids is not None and not any(
                    s.index == seat and s.participant_id in participant_ids for s in seats):
                raise AppError("not_your_seat", _("You can only act for your own seat."))
            if match.status != Match.Status.PLAYING:
                raise AppError("not_playing", _("This match is %(status)s.")
                               % {"status": match.get_status_display()})
            if match.paused:
                raise AppError("paused", _("The game is paused by your teacher: wait until they "
                                           "resume it. Your move was not applied."))
            if seq != match.seq:
                raise AppError("stale", _("That move was based on an old board (move %(seq)s); the "
                                          "board is now at move %(now)s. It was not applied.")
                               % {"seq": seq, "now": match.seq})
            state = current_state(match)
            applied = Applied(match_id, match.seq)
            before = state
            state = _apply(match, state, seat, action, applied, by_bot=False)
            applied.made = (applied.seq - 1, seat, action, before, state)
            state = _play_bots(match, state, applied, seats)
            _finish_if_over(match, state, applied)
            pace.rewind(match, state)
            rows.save_match(match, MOVE_FIELDS)
            applied.snapshot = snapshot(match, state, seats)
    except IntegrityError as exc:  # a concurrent writer took this seq first
        raise AppError("stale", _("Someone else's move was recorded first; it was not applied.")) from exc
    transaction.on_commit(lambda: state_cache.put(match_id, match.seed, applied.seq, state))
    transaction.on_commit(lambda: match_changed.send(Match, match_id=match_id, status_changed=applied.finished,
                                                     snapshot=applied.snapshot, applied=applied),
                          robust=True)  # committed: a follower's failure (Redis down) must not hide it
    _bots_go_on(applied)
    return applied


def _locked_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """The match and its seats, their rows locked, in one query. The seats are locked too so that
    PostgreSQL, having waited for a writer's lock, returns their latest rows as well as the match's
    (a seat handed to a bot meanwhile is seen); seats change only under the match's lock."""
    return rows.lock_match_with_seats(match_id)


def _bots_then_close(match: Match, state: State, applied: Applied) -> State:
    """Bots play their turns, the match finishes if it is over, and is saved and snapshotted."""
    before = match.seq
    state = _play_bots(match, state, applied)
    _finish_if_over(match, state, applied)
    if match.seq != before or (match.deadline is None and match.clock_left_ms is None):
        pace.rewind(match, state)  # (a seat handed to a bot that did not move keeps its clock)
    match.save()
    applied.snapshot = snapshot(match, state)
    return state


def _apply(match: Match, state: State, seat: int, action: object, applied: Applied,
           *, by_bot: bool, timed_out: dict | None = None) -> State:
    """``timed_out``: the platform's event saying this seat's time ran out (the move is the
    random bot's), logged before the move's own events."""
    state, events = _engine_apply(match.engine, state, seat, action)
    return _record(match, state, seat, action, events, applied, by_bot=by_bot, timed_out=timed_out)


def _engine_apply(game, state: State, seat: int, action: object) -> tuple[State, list[dict]]:
    """The engine applies ``action`` (an object) for ``seat``; its refusal is the app's error."""
    if not isinstance(action, dict):
        raise AppError("bad_action", _("An action must be a JSON object."))
    try:
        return game.apply(state, seat, action)
    except IllegalAction as exc:
        raise from_illegal(exc) from exc


def _record(match: Match, state: State, seat: int, action: dict, events: list[dict], applied: Applied,
            *, by_bot: bool, timed_out: dict | None = None) -> State:
    """An action the engine applied (``state``, ``events``: what it gave) appended to the log."""
    if timed_out is not None:
        events = [timed_out, *events]
    rows.append_action(match, seat=seat, action=action, events=events, by_bot=by_bot,
                       timed_out=timed_out is not None)
    match.seq += 1
    applied.seq = match.seq
    applied.events.extend(events)
    return state


def _play_bots(match: Match, state: State, applied: Applied, seats=None) -> State:
    """Every bot whose decision is awaited makes it at once, until only people are awaited or
    the game is over. Where several seats decide at the same time (QTris's rolls and mulligans)
    a bot makes its own decision and the people's are awaited; it does not wait for them. A bot
    never pre-empts a human teammate: a decision its move would take from a person also awaited
    (a QTris side's move, which any seat of the side may make) is left to the person. None plays
    in a paused match (a table started, or a seat handed to a bot, during the teacher's pause
    waits for ``resume_match``). After ``MAX_BOT_ACTIONS_PER_CALL`` actions with a bot still
    to act, ``applied.bots_due`` says so (``continue_bots`` goes on after the commit)."""
    if match.paused:
        return state
    game = match.engine
    bots = {s.index: s.bot for s in (match.seats.all() if seats is None else seats) if s.bot}
    if not bots:
        return state
    for _turn in range(MAX_BOT_ACTIONS_PER_CALL):
        if game.outcome(state) is not None:
            return state
        move = _bot_move(match, game, state, bots)
        if move is None:
            return state
        seat, action, state, events = move
        state = _record(match, state, seat, action, events, applied, by_bot=True)
    applied.bots_due = game.outcome(state) is None and any(s in bots for s in game.to_act(state))
    return state


def _bot_move(match: Match, game, state: State, bots: dict[int, str]):
    """The first decision awaited of a bot that it may make now: (seat, action, the state after
    it, its events), or None (only people are awaited, or the bots awaited all share their
    team's decision with a person, whose it is: ``Abilities.teams``)."""
    waiting = game.to_act(state)
    abilities = abilities_of(game)
    people_teams = {abilities.team_of(game, state, s) for s in waiting if s not in bots}
    for seat in waiting:
        if seat not in bots or abilities.team_of(game, state, seat) in people_teams:
            continue
        legal = game.legal_actions(state, seat)
        if not legal:
            continue
        bot = get_bot(match.game, bots[seat])
        action = bot.choose(game.view(state, seat), legal, chance(match.seed, match.seq, "bot"))
        after, events = _engine_apply(game, state, seat, action)
        return seat, action, after, events
    return None


def _bots_go_on(applied: Applied) -> None:
    """After the commit: the bots that stopped at ``MAX_BOT_ACTIONS_PER_CALL`` go on."""
    if applied.bots_due:
        transaction.on_commit(lambda: continue_bots(applied.match_id), robust=True)


def continue_bots(match_id: int) -> int:
    """A table whose bots stopped at ``MAX_BOT_ACTIONS_PER_CALL`` (a long game of bots alone)
    plays on, a batch per transaction, each told to the match's pages and the dashboard like a
    move, until a person's decision is awaited or the game is over. Returns the actions played."""
    played = 0
    for _batch in range(MAX_BOT_BATCHES):
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(pk=match_id).first()
            if match is None or match.status != Match.Status.PLAYING or match.paused:
                return played
            state = current_state(match)
            applied = Applied(match_id, match.seq)
            before = match.seq
            state = _bots_then_close(match, state, applied)
            played += match.seq - before
            transaction.on_commit(lambda a=applied, st=state, sd=match.seed: state_cache.put(match_id, sd, a.seq, st))
            if match.seq != before:
                transaction.on_commit(lambda a=applied: _announce(a), robust=True)
        if not applied.bots_due:
            return played
    log.error("match %s: bots alone still playing after %s actions; stopped", match_id, played)
    return played


def _announce(applied: Applied) -> None:
    """A change made by the bots alone: its pages and the dashboard are told (as after a move)."""
    announce_match_changed(applied.match_id, applied.snapshot, applied.events)
    match_changed.send(Match, match_id=applied.match_id, status_changed=applied.finished,
                       snapshot=applied.snapshot, applied=applied)


def _finish_if_over(match: Match, state: State, applied: Applied) -> None:
    outcome = match.engine.outcome(state)
    if outcome is not None and match.status == Match.Status.PLAYING:
        match.status = Match.Status.FINISHED
        match.outcome = outcome
        match.finished_at = timezone.now()
        applied.finished = True


def enforce_time(match_id: int, seq: int | None = None) -> Applied | None:
    """Whatever time has run out on this match, enforced once: under the row lock (and, with
    ``seq``, only if the log is still where the caller saw it) time being up ends the game by
    its rule (``finish``, logged as ``FINISH_ACTION``), else the seat(s) whose move clock ran
    out get the random bot's move (seeing only their own view), marked ``timed_out`` in the log.
    None when nothing was due (another enforcer, or a move, came first)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or (seq is not None and match.seq != seq):
            return None
        kind = pace.due(match)
        if kind is None:
            return None
        seats = list(match.seats.all())
        state = current_state(match)
        applied = Applied(match_id, match.seq)
        if kind == pace.DUE_FINISH:
            state = _finish_now(match, state, applied)
        else:
            state = _time_out(match, state, applied, seats)
            state = _play_bots(match, state, applied, seats)
        _finish_if_over(match, state, applied)
        pace.rewind(match, state)
        match.save(update_fields=["seq", "status", "outcome", "finished_at", *pace.PACE_FIELDS])
        applied.snapshot = snapshot(match, state, seats)
    transaction.on_commit(lambda: state_cache.put(match_id, match.seed, applied.seq, state))
    transaction.on_commit(lambda: match_changed.send(Match, match_id=match_id, status_changed=applied.finished,
                                                     snapshot=applied.snapshot, applied=applied),
                          robust=True)  # committed: a follower's failure (Redis down) must not hide it
    _bots_go_on(applied)
    return applied


def _finish_now(match: Match, state: State, applied: Applied) -> State:
    """Time is up: the engine ends the game by its rule; the log records it for replays."""
    state, events = match.engine.finish(state)
    Action.objects.create(match=match, seq=match.seq, seat=0, action=FINISH_ACTION, events=events)
    match.seq += 1
    applied.seq = match.seq
    applied.events.extend(events)
    return state


def _time_out(match: Match, state: State, applied: Applied, seats: list[Seat]) -> State:
    """The random bot moves for every person whose (shared) clock ran out and who still has to
    act. A bot's seat never times out: its own decisions are made at once (``_play_bots``, run
    after this); one still awaited waits for its human teammate, whose time this is."""
    game = match.engine
    names = {s.index: s.name for s in seats}
    bots = {s.index for s in seats if s.bot}
    bot = get_bot(match.game, TIMEOUT_BOT)
    for seat in game.to_act(state):
        if seat in bots or game.outcome(state) is not None or seat not in game.to_act(state):
            continue
        legal = game.legal_actions(state, seat)
        if not legal:
            continue
        action = bot.choose(game.view(state, seat), legal, chance(match.seed, match.seq, "timeout"))
        mark = platform_event("timeout", "timed_out", {"name": names.get(seat, "")}, seat=seat)
        state = _apply(match, state, seat, action, applied, by_bot=True, timed_out=mark)
    return state


def preview_action(match_id: int, seat: int, action: object) -> dict:
    """What ``action`` would do for ``seat`` now, without applying it (games declaring
    ``Abilities.preview``), without the odds where the seat may not see them. Raises
    ``AppError`` when there is nothing to preview (and why)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise AppError("gone", _("This match no longer exists."))
    game = match.engine
    abilities = abilities_of(game)
    if not abilities.preview:
        raise AppError("no_preview", _("This game has no previews."))
    if not isinstance(action, dict):
        raise AppError("bad_action", _("An action must be a JSON object."))
    try:
        result = game.preview(current_state(match), seat, action)
    except IllegalAction as exc:
        raise from_illegal(exc) from exc
    return localize_preview(match.game, abilities.preview_for(result, show_odds=match.show_odds))


def replace_with_bot(match_id: int, participant_id: int, level: str) -> Applied | None:
    """A removed student's seat is handed to a bot (the seat remembers whose it was), which plays
    at once if it is its turn. None when the student held no seat here, or when the game is over:
    a finished game stays theirs (its result counts for them, its replay is theirs again if the
    teacher lets them back in)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status not in (Match.Status.WAITING, Match.Status.PLAYING):
            return None
        changed = match.seats.filter(participant_id=participant_id).update(
            participant_id=None, bot=level, former_participant_id=participant_id)
        if not changed:
            return None
        state = current_state(match)
        applied = Applied(match_id, match.seq)
        if match.status == Match.Status.PLAYING:
            state = _bots_then_close(match, state, applied)
        else:
            applied.snapshot = snapshot(match, state)  # the new seat names, for the pages open on it
    transaction.on_commit(lambda: state_cache.put(match_id, match.seed, applied.seq, state))
    _bots_go_on(applied)
    return applied

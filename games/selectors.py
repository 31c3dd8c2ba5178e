"""The read side of matches: the engine states rebuilt from a match's stored log (the engine's
own ``replay``, through the state cache), and what a browser is sent: its own seat's view (or
the public one), never the full state."""
from __future__ import annotations

import time
from collections.abc import Iterator

from django.utils.translation import gettext

from core.memo import remembered
from games import pace, state_cache
from games.engines import (
    Event,
    Game,
    RulesVersionUnsupported,
    State,
    abilities_of,
    events_for,
    get_game,
    is_finish,
    replay_steps,
)
from games.errors import rules_version_refused
from games.event_text import localize, localize_view
from games.models import Match
from games.snapshot import Snapshot, localized_seats, snapshot


def current_state(match: Match) -> State:
    """The engine state after the whole stored log (from the cache when it is current)."""
    state = state_cache.get(match.pk, match.seed, match.seq)
    if state is None:
        state = state_at(match, match.seq)
        state_cache.put(match.pk, match.seed, match.seq, state)
    return state


def state_at(match: Match, upto: int) -> State:
    """The engine state after the first ``upto`` actions of the log."""
    return states_of(match, upto)[-1]


def states_of(match: Match, upto: int | None = None) -> list[State]:
    """Every state from the set-up through action ``upto`` (all by default), rebuilt by the engine."""
    return [state for state, _ in replayed(match, upto)]


def replayed(match: Match, upto: int | None = None) -> Iterator[tuple[State, list[Event]]]:
    """The engine's replay of the stored log: (state, events of the action that led to it), from
    the set-up (with no events) through action ``upto`` (all by default)."""
    game = match.engine  # under the match's rules version (refused when no longer played)
    log = match.actions.order_by("seq").values_list("seat", "action")
    if upto is not None:
        log = log[:upto]
    return replay_steps(game, match.players, match.variant, match.options, match.seed, log)


def engine_of(snap: Snapshot) -> Game:
    """The engine of a snapshot's match, under the match's rules version."""
    if snap.rules_version is None:
        return get_game(snap.game)
    try:
        return get_game(snap.game, snap.rules_version)
    except RulesVersionUnsupported as exc:
        raise rules_version_refused(exc) from exc


def match_payload(match: Match, seat: int | None, *, is_teacher: bool = False,
                  events: list | None = None) -> dict:
    """The payload for ``seat``, read from the database (and the state cache)."""
    return seat_payload(snapshot(match, current_state(match)), seat, is_teacher=is_teacher, events=events)


# (match, seed, log length) → the engine's analysis of that state: the same for every seat, so the
# views of one move built in one process (the actor's, the other seats', the teacher's) share it
_ANALYSES: dict[tuple[int, int, int], dict] = {}
_ANALYSES_KEPT = 512


def analysis_of(snap: Snapshot) -> dict:
    """``game.analysis(snap.state)``, computed once per state and process (not to be changed)."""
    return remembered(_ANALYSES, (snap.match, snap.seed, snap.seq),
                      lambda: engine_of(snap).analysis(snap.state), _ANALYSES_KEPT)


# the same key → a player's part of the analysis, where the engine computes it alone
_PUBLIC_ANALYSES: dict[tuple[int, int, int], dict] = {}


def analysis_seen(snap: Snapshot, *, is_teacher: bool) -> dict | None:
    """The part of the state's analysis a reader may see (``Abilities.analysis_for``). A
    player's is the public keys: from ``public_analysis`` where the engine has it (Ticket-to-Ride's
    claimed lengths, without the teacher's planning per seat), else from the whole analysis;
    each computed once per state and process."""
    game = engine_of(snap)
    abilities = abilities_of(game)
    if is_teacher or not abilities.public_analysis or not abilities.may_see_analysis(
            is_teacher=False, show_odds=snap.show_odds):
        return abilities.analysis_for(analysis_of(snap), is_teacher=is_teacher, show_odds=snap.show_odds)
    return remembered(_PUBLIC_ANALYSES, (snap.match, snap.seed, snap.seq),
                      lambda: game.public_analysis(snap.state), _ANALYSES_KEPT)  # type: ignore[attr-defined]


def seat_payload(snap: Snapshot, seat: int | None, *, is_teacher: bool = False,
                 events: list | None = None) -> dict:
    """What one browser is sent after a change: its seat's view, built from a snapshot."""
    game = engine_of(snap)
    state = snap.state
    to_act = game.to_act(state)
    payload = {
        "type": "state",
        "match": snap.match,
        "game": snap.game,
        "variant": snap.variant,
        "status": snap.status,
        "seq": snap.seq,
        "seat": seat,
        "seats": localized_seats(snap.seats),
        "view": localize_view(snap.game, game.view(state, seat)),
        "to_act": to_act,
        "legal": game.legal_actions(state, seat) if seat is not None and seat in to_act
        and snap.status == Match.Status.PLAYING else [],
        "outcome": game.outcome(state),
        "events": localize(snap.game, events_for(events or [], seat)),
    }
    clock = pace.clock_payload(snap.clock, int(time.time() * 1000))
    if clock is not None and snap.status == Match.Status.PLAYING:
        if clock["finish_left_ms"] is not None:  # the rule is said before the time is up
            clock["finish_rule"] = gettext(game.finish_rule)
        payload["clock"] = clock
    if abilities_of(game).may_see_analysis(is_teacher=is_teacher, show_odds=snap.show_odds):
        payload["analysis"] = localize_view(snap.game, analysis_seen(snap, is_teacher=is_teacher))
    return payload


def event_history(match: Match, seat: int | None) -> list[dict]:
    """The whole event log of a match so far, as ``seat`` may see it (None: the public events
    only), in the reader's language: for a page opened or reloaded mid-game. Read from the events
    the log stored with each action (the engine's own, the clock's mark first where time ran out),
    so a socket that opens does not make the engine replay the game."""
    if match.seq == 0:
        return []
    events: list[dict] = []
    for caused in match.actions.order_by("seq").values_list("events", flat=True)[:match.seq]:
        events.extend(events_for(caused, seat))
    return localize(match.game, events)


def action_for(actor: int, action: dict, seat: int | None) -> dict | None:
    """A logged action as ``seat`` may see it: live play never sends a seat another seat's
    action (a Ticket-to-Ride run's path, the cards a QTris mulligan or Eve's measurement put
    face down), only its views and the events it may see, so neither does a replay: a seat's
    own actions, and the platform's "time is up", which every seat saw end the game."""
    if is_finish(action) or (seat is not None and seat == actor):
        return action
    return None


def replay_frames(match: Match, seat: int | None) -> list[dict]:
    """Every step of a match, rebuilt by the engine from the stored log, as ``seat`` may see it
    (None: a spectator, the teacher), through the same hidden-information policy as live play:
    each step's view for that seat, the events it may see (texts in the viewer's language) and
    only its own actions (``action_for``). At the end the views show what the rules reveal then
    (the last frame), and nothing more."""
    game = match.engine
    states = states_of(match)
    log = list(match.actions.order_by("seq"))
    frames = [{"seq": 0, "seat": None, "action": None, "events": [], "by_bot": False,
               "timed_out": False,
               "view": localize_view(match.game, game.view(states[0], seat))}]
    for entry, state in zip(log, states[1:], strict=True):
        frames.append({
            "seq": entry.seq + 1,
            "seat": entry.seat,
            "action": action_for(entry.seat, entry.action, seat),
            "events": localize(match.game, events_for(entry.events, seat)),
            "by_bot": entry.by_bot,
            "timed_out": entry.timed_out,
            "view": localize_view(match.game, game.view(state, seat)),
        })
    return frames

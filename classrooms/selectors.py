"""What the dashboard (teacher) and a lobby (one student) are shown."""
from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from classrooms import understanding
from classrooms.models import ClassSession, Participant, Table
from classrooms.standings import cached_standings, counts_of, current_round, people_counts
from classrooms.ticket_progress import shows_progress, table_progress
from games import pace
from games.engines import State, abilities_of, get_game
from games.models import Match
from games.moments import newest_moments, tables_moments
from games.names import game_name, variant_name
from games.selectors import current_state
from games.snapshot import Snapshot, seat_name
from games.summaries import has_summary, match_summary


def tables_summary(session: ClassSession, seated: list[Table] | None = None) -> list[dict]:
    """A row per table (``seated``: the session's ``seated_tables()`` when read already): each a
    new dict, made once per table object and language (``Table.made``)."""
    language = get_language()
    return [dict(table.made(("row", language), lambda table=table: _row(table)))
            for table in (session.seated_tables() if seated is None else seated)]


def _row(table: Table) -> dict:
    match = table.match
    seats = [{"index": s.index, "name": seat_name(s), "bot": s.bot or None, "participant": s.participant_id}
             for s in match.seat_list]
    return {
        "number": table.number,
        "round": table.round.number if table.round_id else None,
        "match": match.pk,
        "move_seconds": match.move_seconds,  # this table's clock per move (None: no clock)
        "seats": seats,
        "outcome": match.outcome,
        "watch_url": match_url("games:play", match.pk),
        "replay_url": match_url("games:replay", match.pk),
        **play_fields(match.game, match.status, match.seq, lambda m=match: current_state(m), seats,
                      (match.pk, match.seed, match.seq)),
    }


def match_url(name: str, match_id: int) -> str:
    """``reverse(name, args=[match_id])``, remembered: a dashboard names two pages of every table
    of the session, on every rebuild."""
    return _match_url(name, match_id, get_script_prefix())


@lru_cache(maxsize=16384)
def _match_url(name: str, match_id: int, _prefix: str) -> str:
    return reverse(name, args=[match_id])


def play_fields(game_slug: str, status: str, seq: int, state_of: Callable[[], State], seats: list[dict],
                key: tuple[int, int, int]) -> dict:
    """The fields of a table's row that a move may change, from the match's engine state alone
    (``state_of``: asked only when a field needs it; ``key``: match id, seed, log length)."""
    return {
        "status": status,
        "moves": seq,
        "to_act": list(get_game(game_slug).to_act(state_of())) if status == Match.Status.PLAYING else [],
        "summary": _summary(game_slug, state_of()) if has_summary(game_slug) else None,
        # Ticket-to-Ride: routes, progress (teacher pages only)
        "ticket": table_progress(state_of(), {s["index"]: s["name"] for s in seats}, key, game_slug)
        if shows_progress(game_slug, status) else None,
    }


def patched_row(row: dict, snap: Snapshot) -> dict:
    """A dashboard row after a move of its match that left the match's status as it was: only
    ``play_fields`` change (seats, outcome, clock and round change by a command or a status
    change, which rebuild the whole payload). No query."""
    return {**row, **play_fields(snap.game, snap.status, snap.seq, lambda: snap.state, row["seats"],
                                 (snap.match, snap.seed, snap.seq))}


def _summary(game_slug: str, state: State) -> dict:
    """The game's facts at a glance (Entanglion: components found, detection rate, the ships)."""
    summary = match_summary(game_slug, state)
    return {**summary, "rank": list(summary["rank"])}


def ranked_tables(tables: list[dict]) -> list[dict]:
    """The session report's order: for a game with a summary rank (Entanglion: more components,
    then fewer turns) the best table first, each with its ``place``; otherwise by table number."""
    if not tables or any(t["summary"] is None for t in tables):
        return tables
    ordered = sorted(tables, key=lambda t: (t["summary"]["rank"], t["number"]))
    place = 0
    previous = None
    for i, t in enumerate(ordered, start=1):
        if t["summary"]["rank"] != previous:
            place, previous = i, t["summary"]["rank"]
        t["place"] = place
    return ordered


def roster_state(participant: Participant, current_table: dict | None, played: bool) -> str:
    """waiting (in the waiting room) · joined (never seated yet) · seated (table waiting to
    start) · playing · finished (their last game is over, waiting for the next) · removed."""
    if participant.removed:
        return "removed"
    if not participant.admitted:
        return "waiting"
    if current_table is not None:
        return "playing" if current_table["status"] == Match.Status.PLAYING else "seated"
    return "finished" if played else "joined"


def dashboard_payload(session: ClassSession) -> dict:
    return dashboard_payload_and_seating(session)[0]


def tables_after(session: ClassSession, kept: list[Table] | None, moved: AbstractSet[int]) -> list[Table]:
    """The session's ``seated_tables()``: those an earlier payload read (``kept``) with the tables
    of the matches in ``moved`` (that changed since) read again, or all of them read afresh
    (nothing kept, or a moved match that ``kept`` does not hold: a table seated since). A
    lesson's dashboard and projector read its many tables again every second or two while only
    the tables in play change."""
    if kept is None:
        return session.seated_tables()
    place = {table.match_id: i for i, table in enumerate(kept)}
    if not moved <= place.keys():
        return session.seated_tables()
    tables = list(kept)
    if moved:
        fresh = session.seated_tables(moved)
        if len(fresh) != len(moved):  # (a table gone meanwhile)
            return session.seated_tables()
        for table in fresh:
            tables[place[table.match_id]] = table
    return tables


def dashboard_payload_and_seating(session: ClassSession, seated: list[Table] | None = None
                                  ) -> tuple[dict, understanding.Seating]:
    """``dashboard_payload``, and who sat where (``understanding.Seating``): the dashboard's
    socket keeps it to fill the concept grid in after a move without a rebuild. ``seated``: the
    session's ``seated_tables()`` when the caller has them (``tables_after``)."""
    seated = session.seated_tables() if seated is None else seated
    everyone = list(session.participants.all())  # in join order (merged rows too: counted)
    students = [p for p in everyone if p.merged_into_id is None]  # one row per student: merged rows are gone
    seating = understanding.session_seating(session, seated, {p.pk: p.display_name for p in students})
    tables = tables_summary(session, seated)
    live = (Match.Status.WAITING, Match.Status.PLAYING)
    table_of = {s["participant"]: t for t in tables for s in t["seats"]
                if s["participant"] and t["status"] in live}
    played = {s["participant"] for t in tables for s in t["seats"] if s["participant"]}
    participants = []
    for p in students:
        current = None if p.removed else table_of.get(p.pk)
        participants.append({"id": p.pk, "name": p.display_name, "table": current["number"] if current else None,
                             "state": roster_state(p, current, p.pk in played), "card": p.member_id is not None,
                             "joined_ms": int(p.joined_at.timestamp() * 1000), "comeback": p.comeback})
    return {
        "type": "dashboard",
        "session": session_summary(session),
        # the dashboard counts the joins of the last minute against its own clock set by this one
        "now_ms": int(timezone.now().timestamp() * 1000),
        "burst": {"per_minute": settings.JOIN_BURST_PER_MINUTE,
                  "minutes": list(settings.REMOVE_RECENT_CHOICES)},
        "participants": participants,
        "tables": tables,
        "rounds": rounds_summary(session, tables),
        "standings": cached_standings(session, seated, counts_of(everyone)),
        # what each student understood, in counts (the report has the moves behind them)
        "understanding": understanding.compact(seating),
    }, seating


def rounds_summary(session: ClassSession, tables: list[dict]) -> dict:
    """The rounds control: the current round, how it was paired, which tables still play, and
    whether the next round may start (every table of the session finished)."""
    latest = current_round(session)
    live = (Match.Status.WAITING, Match.Status.PLAYING)
    return {
        "format": session.format,
        "round": latest.number if latest else None,
        "method": latest.method if latest else None,
        "method_name": latest.get_method_display() if latest else None,
        "playing": [t["number"] for t in tables if t["status"] in live],
        "can_start": session.is_live and not any(t["status"] in live for t in tables),
    }


def session_summary(session: ClassSession) -> dict:
    game = get_game(session.game)
    return {
        "id": session.pk,
        "game": session.game,
        "game_name": game_name(session.game),
        "variant": session.variant,
        "variant_name": variant_name(session.game, session.variant),
        "join_code": session.join_code if session.is_live else None,
        "status": session.status,
        "show_odds": session.show_odds,
        "max_participants": session.max_participants,
        "waiting_room": session.waiting_room,
        "bot_level": session.bot_level,
        "table_size": session.options.get("table_size", game.min_players),
        "pace": session_pace(session),
    }


def session_pace(session: ClassSession) -> dict:
    """The dashboard's pace controls: the clock per move, the pause, the time left until the
    end (milliseconds; frozen while paused) and the choices the teacher has."""
    finish_left = session.finish_left_ms if session.paused else pace.left_ms(session.ends_at, timezone.now())
    return {"move_seconds": session.move_seconds, "paused": session.paused,
            "finish_left_ms": finish_left,
            "move_choices": list(settings.MOVE_CLOCK_CHOICES),
            "finish_choices": list(settings.FINISH_IN_CHOICES)}


def _standing(session: ClassSession, participant: Participant) -> dict | None:
    """The student's own line of the standings (public facts: place, points), once a game counted."""
    table = cached_standings(session)
    mine = next((row for row in table["students"] if row["participant"] == participant.pk), None)
    if mine is None or not (mine["played"] or table["round"]):
        return None
    return {"place": mine["place"], "of": len(table["students"]), "points": mine["points"],
            "played": mine["played"], "round": table["round"]}


def lobby_payload(session: ClassSession, participant: Participant | None) -> dict:
    if participant is not None and participant.merged_into_id is not None:
        # the teacher merged this student's two rows: the lobby's page makes the browser the kept one
        return {"type": "lobby", "status": session.status, "removed": False, "moved": True, "match": None,
                "lobby_url": reverse("classrooms:lobby", args=[session.pk])}
    if participant is None or participant.removed:
        asking = participant is not None and participant.comeback in (Participant.Comeback.SAME,
                                                                      Participant.Comeback.NEW)
        refused = participant is not None and participant.comeback == Participant.Comeback.REFUSED
        message = (_("Your teacher removed you from this session. We asked them to let you back in: this page "
                     "changes as soon as they do.") if asking
                   else _("Your teacher removed you from this session and has not let you back in.") if refused
                   else _("Your teacher removed you from this session."))
        return {"type": "lobby", "status": session.status, "removed": True, "comeback": asking, "match": None,
                "message": message}
    if not participant.admitted:
        return {"type": "lobby", "status": session.status, "removed": False, "waiting_room": True,
                "name": participant.display_name, "match": None, "match_status": None, "standing": None,
                "message": _("You are in the waiting room: wait for your teacher to let you in.")}
    seat_match = Match.objects.filter(table__session=session, seats__participant_id=participant.pk) \
        .order_by("-id").first()
    payload = {"type": "lobby", "status": session.status, "removed": False,
               "name": participant.display_name, "match": None, "match_status": None}
    if seat_match is not None:
        payload["match"] = seat_match.pk
        payload["match_status"] = seat_match.status
        payload["table"] = seat_match.display_label
        payload["play_url"] = reverse("games:play", args=[seat_match.pk])
    payload["standing"] = _standing(session, participant)
    if session.status == ClassSession.Status.ENDED:
        payload["replays"] = [
            {"table": m.display_label, "status": m.status, "url": reverse("games:replay", args=[m.pk])}
            for m in Match.objects.filter(table__session=session, seats__participant_id=participant.pk,
                                          seq__gt=0).order_by("id")]
    return payload


# --- the projector ---------------------------------------------------------------------------

PODIUM_PLACES = 3
DONE = (Match.Status.FINISHED, Match.Status.ABANDONED)


def screen_phase(session: ClassSession, statuses: list[str]) -> str:
    """lobby (open, no game started yet) · play · podium (the session ended, or every table of
    the current round / of the session finished)."""
    if session.status == ClassSession.Status.ENDED:
        return "podium"
    if statuses and all(s in DONE for s in statuses) and Match.Status.FINISHED in statuses:
        return "podium"
    if session.status == ClassSession.Status.OPEN and all(s == Match.Status.WAITING for s in statuses):
        return "lobby"
    return "play"


def podium(standings: dict) -> list[dict]:
    """The top three places (ties share a place, so more than three names may stand on it): the
    teams of a co-operative game, otherwise the students who played."""
    if standings.get("teams"):
        rows = [{"place": t["place"], "name": ", ".join(t["names"]), "points": t["won"]}
                for t in standings["teams"]]
    else:
        rows = [{"place": s["place"], "name": s["name"], "points": s["points"]}
                for s in standings["students"] if s["played"]]
    return [r for r in rows if r["place"] <= PODIUM_PLACES]


def screen_payload(session: ClassSession) -> dict:
    return screen_payload_and_moments(session)[0]


def screen_payload_and_moments(session: ClassSession, seated: list[Table] | None = None
                               ) -> tuple[dict, dict[int, dict]]:
    """``screen_payload``, and each table's moments (``games.moments.table_moments``) by match id:
    the projector's socket keeps them to follow a move at one table without a rebuild.
    ``seated``: as for ``dashboard_payload_and_seating``.

    What the projector shows (``/sessions/<id>/screen/``, the whole class sees it): the join
    code while the lobby is open, the standings, the recent teaching moments, the podium. Public
    facts only: names, points, results and moments made of public events — never a seat's view,
    a hand or a mission, and nothing of the dashboard's payload."""
    tables = session.seated_tables() if seated is None else seated
    people = people_counts(session)
    standings = cached_standings(session, tables, people)  # (the dashboard's cache entry, when it has the same tables)
    latest = standings.get("round")
    current = [t for t in tables if latest is None or (t.round_id and t.round.number == latest)]
    phase = screen_phase(session, [t.match.status for t in current])
    students = [{k: s[k] for k in ("name", "place", "points", "played", "won", "drawn", "lost", "luck")}
                for s in standings["students"]]
    # each table's moments (``Table.made``), those not made yet found in one trip to the cache
    found = tables_moments((t.number, t.match) for t in tables if not t.has_made("moments"))
    moments = {t.match_id: t.made("moments", lambda t=t: found[t.match_id]) for t in tables}
    return {
        "type": "screen",
        "session": {"id": session.pk, "game": session.game, "game_name": game_name(session.game),
                    "status": session.status, "format": standings["format"], "round": latest},
        "phase": phase,
        "join_code": session.join_code if phase == "lobby" else None,
        "joined": people["joined"],
        "students": students,
        "tables": standings["tables"],
        "teams": [{k: t[k] for k in ("names", "place", "played", "won", "components", "turns")}
                  for t in standings["teams"]],
        "luck": abilities_of(get_game(session.game)).luck,
        "moments": newest_moments(moments.values()),
        "podium": podium(standings) if phase == "podium" else [],
    }, moments


def class_session_language(browser_session) -> str | None:
    """The language the teacher set on the class session this browser last joined, or None
    (registered with ``core.language`` as the class session's language of a browser)."""
    from core.language import CLASS_SESSION_KEY

    session_id = browser_session.get(CLASS_SESSION_KEY)
    if not isinstance(session_id, int):
        return None
    return ClassSession.objects.filter(pk=session_id).values_list("language", flat=True).first()

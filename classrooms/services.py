"""Class sessions: open, join, pair into tables, start, remove, lock, end, delete.

Every change that the dashboard or a lobby shows is announced after commit through
``classrooms.broadcast.announce_session_changed``.
"""
from __future__ import annotations

import random
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from classrooms import codes, names, pairing, standings
from classrooms.broadcast import announce_session_changed
from classrooms.models import Classroom, ClassSession, Participant, Round, Table
from core import language, limits
from games import pace
from games import services as match_services
from games.access import LOBBY_URL_KEY, PARTICIPANT_IDS_KEY
from games.bots import bot_levels, resolve_level
from games.broadcast import announce_match_changed, announce_seat_lost
from games.engines import IllegalAction, get_game
from games.errors import AppError, from_illegal
from games.models import Match, Seat
from games.names import game_name
from games.selectors import current_state

SESSION_PARTICIPANTS_KEY = "session_participants"  # {class session id: participant id}
MAX_MERGE_HOPS = 5  # a participant merged into one that was merged again (each merge is one hop)
MAX_PARTICIPANT_ROWS = 1000  # per session, removed ones too: what a script filling it can store
REMOVE_RECENT_MAX_MINUTES = 60


# the app's one error (``games.errors.AppError``) under the name this module used before
SessionError = AppError


def table_size(session: ClassSession) -> int:
    game = get_game(session.game)
    size = session.options.get("table_size", game.min_players) if isinstance(session.options, dict) else game.min_players
    return size


def engine_options(session: ClassSession) -> dict:
    """The session's options minus the platform's own (table size)."""
    return {k: v for k, v in (session.options or {}).items() if k != "table_size"}


def open_session(classroom: Classroom, game_slug: str, *, variant: str | None = None,
                 options: dict | None = None, bot_level: str = "strong", show_odds: bool = True,
                 max_participants: int | None = None, language: str = "",
                 move_seconds: int | None = None, waiting_room: bool = False) -> ClassSession:
    game = get_game(game_slug)
    check_move_seconds(move_seconds)
    if language not in ("", *(code for code, _name in settings.LANGUAGES)):
        raise AppError("bad_language", gettext("Choose one of the offered languages."))
    cap = settings.PARTICIPANT_CAP_DEFAULT if max_participants is None else max_participants
    if type(cap) is not int or not 1 <= cap <= settings.PARTICIPANT_CAP_MAX:
        raise AppError("bad_cap", gettext("The cap must be a whole number from 1 to %(max)d.")
                           % {"max": settings.PARTICIPANT_CAP_MAX})
    variant = variant or game.variants[0]
    if variant not in game.variants:
        raise AppError("bad_variant", gettext("%(game)s has no variant %(variant)r.")
                       % {"game": game_name(game.slug), "variant": variant})
    problem = limits.options_problem(options)
    if problem:  # before the engine sees them: a 200,000-card deck is refused here, whoever asks
        raise AppError("too_large", problem)
    options = dict(options or {})
    size = options.get("table_size", game.min_players)
    if type(size) is not int or not game.min_players <= size <= game.max_players:
        raise AppError("bad_table_size", gettext("Tables of %(game)s seat %(min)d to %(max)d players.")
                       % {"game": game_name(game.slug), "min": game.min_players, "max": game.max_players})
    levels = bot_levels(game_slug)
    bot_level = resolve_level(game_slug, bot_level)
    if levels and bot_level not in levels:
        raise AppError("bad_bot", gettext("No bot called %(bot)r; choose one of %(levels)s.")
                       % {"bot": bot_level, "levels": ", ".join(levels)})
    try:  # the engine checks the options once, here, so no table fails later
        game.setup(players=size, variant=variant, seed=1, options={k: v for k, v in options.items() if k != "table_size"})
    except IllegalAction as exc:
        raise from_illegal(exc) from exc
    for _ in range(20):
        try:
            with transaction.atomic():
                return ClassSession.objects.create(
                    classroom=classroom, game=game_slug, variant=variant, options=options,
                    bot_level=bot_level, join_code=codes.new_code(), show_odds=show_odds,
                    max_participants=cap, language=language, move_seconds=move_seconds,
                    waiting_room=bool(waiting_room))
        except IntegrityError:
            continue  # the code is in use by another live session: draw again
    raise AppError("no_code", gettext("Could not find a free join code; try again."))


def find_joinable(code: str) -> ClassSession | None:
    """A live session a join code opens; never a homework session (only a class card opens those,
    ``classrooms.homework``)."""
    return ClassSession.objects.filter(join_code=codes.normalise(code)).exclude(
        status=ClassSession.Status.ENDED).exclude(format=ClassSession.Format.HOMEWORK).first()


def returning_participant(session: ClassSession, browser_session, *,
                          removed: bool = False) -> Participant | None:
    """The participant this browser joined as (``removed``: even if the teacher removed them).
    A participant the teacher merged into another is that other one: the browser is told so
    (``remember_participant``) and acts as the kept participant from now on."""
    pid = (browser_session.get(SESSION_PARTICIPANTS_KEY) or {}).get(str(session.pk))
    if pid is None:
        return None
    found = Participant.objects.filter(pk=pid, session=session).first()
    for _ in range(MAX_MERGE_HOPS):
        if found is None or found.merged_into_id is None:
            break
        found = Participant.objects.filter(pk=found.merged_into_id, session=session).first()
        if found is not None:
            remember_participant(browser_session, session.pk, found.pk)
    if found is None or found.merged_into_id is not None:
        return None
    return found if removed or not found.removed else None


def ask_to_come_back(participant: Participant, *, same_browser: bool) -> Participant:
    """A removed student tried to join again (from the browser they used, or from another one
    with the same name or card): they stay removed, and the teacher's dashboard shows that they
    ask to come back (``readmit`` lets them in, ``refuse_comeback`` says no). A request the
    teacher refused is not asked again."""
    if participant.comeback != Participant.Comeback.REFUSED:
        kind = Participant.Comeback.SAME if same_browser else Participant.Comeback.NEW
        if participant.comeback != Participant.Comeback.NEW:  # "another browser" stays said
            participant.comeback = kind
        participant.comeback_at = timezone.now()
        participant.save(update_fields=["comeback", "comeback_at"])
        transaction.on_commit(lambda: announce_session_changed(participant.session_id))
    return participant


def same_name(participants, name: str) -> Participant | None:
    """The session's participant (not merged away) whose name is ``name``, case forgiven."""
    wanted = name.lower()
    return next((p for p in participants if p.merged_into_id is None and p.display_name.lower() == wanted), None)


def check_room_for(locked: ClassSession) -> None:
    """A new participant would fit (``locked``: the session row, locked): the teacher's cap counts
    the students not removed (waiting ones too); every row, removed ones too, has a ceiling."""
    counts = locked.participants.aggregate(active=Count("id", filter=Q(removed=False)), rows=Count("id"))
    if counts["active"] >= locked.max_participants or counts["rows"] >= MAX_PARTICIPANT_ROWS:
        raise AppError("full", ngettext("This class session is full (%(n)d student): ask your teacher.",
                                        "This class session is full (%(n)d students): ask your teacher.",
                                        locked.max_participants) % {"n": locked.max_participants}, status=403)


def join(session: ClassSession, raw_name: str, browser_session, *, may_add=None) -> Participant:
    """A student joins by name; the same browser coming back is the same participant.

    A removed student does not come back by joining again, from their browser under any name or
    from another browser under their name: they stay removed and the teacher sees that they ask
    to come back (``ask_to_come_back``; the removed participant is returned, the lobby says
    so). A name that a class-card member of the session holds is refused (the card is who they
    are). With the waiting room on, a new student waits until the teacher lets them in.
    ``may_add()`` is asked before a new participant is made (the per-address cap)."""
    existing = returning_participant(session, browser_session, removed=True)
    if existing is not None:
        if existing.removed:
            remember_participant(browser_session, session.pk, existing.pk)
            return ask_to_come_back(existing, same_browser=True)
        return existing
    if session.status == ClassSession.Status.ENDED:
        raise AppError("ended", gettext("This class session has ended."), status=403)
    try:
        name = names.clean_name(raw_name)
    except names.BadName as exc:
        raise AppError("bad_name", str(exc)) from exc
    known = same_name(session.participants.all(), name)
    if known is not None and known.removed:
        remember_participant(browser_session, session.pk, known.pk)
        return ask_to_come_back(known, same_browser=False)
    if known is not None and known.member_id is not None:
        raise AppError("card_name", gettext("%(name)s joined with a class card: open “I have a class card” and "
                                            "type your card's code.") % {"name": known.display_name}, status=403)
    if session.status == ClassSession.Status.LOCKED:
        raise AppError("locked", gettext("This class session is locked: ask your teacher."), status=403)
    if may_add is not None and not may_add():
        raise AppError("slow_down", gettext("Too many new students from this network at once: wait a minute and try again."),
                       status=429)
    for _ in range(5):
        try:
            with transaction.atomic():
                # the session row locked: simultaneous joins are counted one after the other
                locked = ClassSession.objects.select_for_update().get(pk=session.pk)
                check_room_for(locked)
                taken = set(locked.participants.values_list("display_name", flat=True))
                participant = Participant.objects.create(session=session, display_name=names.unique_name(name, taken),
                                                         admitted=not locked.waiting_room)
            break
        except IntegrityError:
            continue
    else:
        raise AppError("busy", gettext("Too many students joined at once; try again."))
    remember_participant(browser_session, session.pk, participant.pk)
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return participant


def remember_participant(browser_session, session_id: int, participant_id: int) -> None:
    mapping = dict(browser_session.get(SESSION_PARTICIPANTS_KEY) or {})
    mapping[str(session_id)] = participant_id
    browser_session[SESSION_PARTICIPANTS_KEY] = mapping
    browser_session[PARTICIPANT_IDS_KEY] = sorted(set(mapping.values()))
    browser_session[LOBBY_URL_KEY] = reverse("classrooms:lobby", args=[session_id])
    browser_session[language.CLASS_SESSION_KEY] = session_id


def seated_participant_ids(session: ClassSession) -> set[int]:
    """Students at a table still waiting or playing; after their game they can be seated again."""
    match_ids = session.tables.filter(match__status__in=[Match.Status.WAITING, Match.Status.PLAYING]) \
        .values_list("match_id", flat=True)
    return set(Seat.objects.filter(match_id__in=match_ids, participant_id__isnull=False)
               .values_list("participant_id", flat=True))


def playing_participants(session: ClassSession):
    """The students who take part: not removed, not merged away, not in the waiting room."""
    return session.participants.filter(removed=False, admitted=True)


def waiting_participants(session: ClassSession) -> list[Participant]:
    """The students without a table (in the lesson, not in the waiting room)."""
    seated = seated_participant_ids(session)
    return [p for p in playing_participants(session) if p.pk not in seated]


def seat_table(session: ClassSession, participants: list[Participant], bots: int = 0,
               extra_options: dict | None = None, *, round: Round | None = None,
               in_order: bool = False) -> Table:
    """Seat these participants (and ``bots`` bots) at a new table of the session;
    ``extra_options`` (checked by the caller) change this table's engine options only (e.g. a
    Ticket-to-Ride map for this table). ``round``: the table belongs to that round; ``in_order``:
    the participants sit in the order given (the pairing's), bots after them."""
    size = table_size(session)
    if session.status == ClassSession.Status.ENDED:
        raise AppError("ended", gettext("This class session has ended."))
    if len(participants) + bots != size:
        raise AppError("bad_table", ngettext("A table of this game seats %(n)d player.",
                                             "A table of this game seats %(n)d players.", size) % {"n": size})
    if not participants:
        raise AppError("bad_table", gettext("Seat at least one student at a table."))
    seated = seated_participant_ids(session)
    for p in participants:
        if p.session_id != session.pk or p.removed:
            raise AppError("bad_table", gettext("%(name)s is not in this session.") % {"name": p.display_name})
        if not p.admitted:
            raise AppError("bad_table", gettext("%(name)s is still in the waiting room: let them in first.")
                           % {"name": p.display_name})
        if p.pk in seated:
            raise AppError("bad_table", gettext("%(name)s already has a table.") % {"name": p.display_name})
    holders = [match_services.SeatHolder(p.display_name, participant_id=p.pk) for p in participants]
    levels = list(bot_levels(session.game))
    level = session.bot_level if session.bot_level in levels else (levels[0] if levels else "")
    if bots and not level:
        raise AppError("no_bot", gettext("This game has no bot yet."))
    holders += [match_services.SeatHolder(f"Bot {i + 1} ({level})", bot=level) for i in range(bots)]
    if not in_order:
        random.SystemRandom().shuffle(holders)  # who sits first (X, dealer, …) is left to chance
    if countdown_over(session):  # a "finish in" that ran out is not passed on: fresh time
        clear_countdown(session)
    with transaction.atomic():
        number = (session.tables.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        match = match_services.create_match(
            session.game, holders, variant=session.variant, options=engine_options(session) | (extra_options or {}),
            teacher=session.classroom.teacher, label=f"Table {number}")
        match.show_odds = session.show_odds
        # the session's pace: its clock, its pause and its end (while it runs) hold at a table
        # seated later too
        match.move_seconds, match.paused = session.move_seconds, session.paused
        match.ends_at, match.finish_left_ms = session.ends_at, session.finish_left_ms
        match.save(update_fields=["show_odds", *pace.PACE_FIELDS])
        table = Table.objects.create(session=session, number=number, match=match, round=round)
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return table


def auto_pair(session: ClassSession) -> list[Table]:
    """Waiting students into tables of the game's size, shuffled; a short table gets bots."""
    waiting = waiting_participants(session)
    secrets.SystemRandom().shuffle(waiting)
    size = table_size(session)
    tables = []
    for start in range(0, len(waiting), size):
        group = waiting[start:start + size]
        tables.append(seat_table(session, group, bots=size - len(group)))
    return tables


def unfinished_tables(session: ClassSession) -> list[Table]:
    """The session's tables still waiting or playing (the next round waits for them)."""
    return list(session.tables.filter(match__status__in=[Match.Status.WAITING, Match.Status.PLAYING])
                .order_by("number"))


def next_round(session: ClassSession) -> Round:
    """Pair and start the next round (the first one turns the session into a session of rounds).

    Refused while any table of the session is still waiting or playing (the message names them),
    for an ended session, and with nobody to pair. Removed students are not paired; students who
    joined since the last round enter now with 0 points. See ``classrooms.pairing``."""
    if session.status == ClassSession.Status.ENDED:
        raise AppError("ended", gettext("This class session has ended."))
    playing = unfinished_tables(session)
    if playing:
        raise AppError("round_playing", gettext(
            "The next round starts when every table has finished; still playing: %(tables)s.")
            % {"tables": ", ".join(gettext("Table %(number)s") % {"number": t.number} for t in playing)})
    students = list(playing_participants(session))
    if not students:
        raise AppError("nobody_to_pair", gettext("No student to pair yet: wait until students join."))
    if session.format != ClassSession.Format.ROUNDS:
        session.format = ClassSession.Format.ROUNDS
        session.save(update_fields=["format"])
    previous = standings.current_round(session)
    recs = standings.records(session)
    order = {row["participant"]: i for i, row in enumerate(standings.ranked_students(recs))}
    met = standings.opponents_met(session)
    partner = _last_partners(previous) if previous else {}
    players = [pairing.Player(id=p.pk, place=order.get(p.pk, len(order)), byes=recs[p.pk].byes,
                              first_seats=recs[p.pk].first_seats, opponents=frozenset(met.get(p.pk, ())),
                              partner=partner.get(p.pk)) for p in students]
    size = table_size(session)
    number = previous.number + 1 if previous else 1
    paired = pairing.pair_round(players, size, number, cooperative=standings.is_cooperative(session.game))
    if previous is not None and previous.finished_at is None:
        previous.finished_at = timezone.now()
        previous.save(update_fields=["finished_at"])
    # a new round starts with fresh time: a "finish in" was for the tables that were playing
    # (all finished now), even if its countdown still runs; the teacher may set one again
    clear_countdown(session)
    new_round = Round.objects.create(session=session, number=number, method=paired.method)
    by_id = {p.pk: p for p in students}
    for ids in paired.tables:
        seat_table(session, [by_id[i] for i in ids], bots=size - len(ids), round=new_round, in_order=True)
    for table in new_round.tables.all():
        applied = match_services.start_match(table.match_id)
        transaction.on_commit(lambda a=applied: announce_match_changed(a.match_id, a.snapshot, a.events))
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return new_round


def _last_partners(previous: Round) -> dict[int, int]:
    """Co-op: each student's teammate at their table of the last round."""
    partners = {}
    for table in previous.tables.prefetch_related("match__seats"):
        ids = [s.participant_id for s in table.match.seats.all() if s.participant_id]
        if len(ids) == 2:
            partners[ids[0]], partners[ids[1]] = ids[1], ids[0]
    return partners


def start_all(session: ClassSession) -> int:
    started = 0
    for table in session.tables.select_related("match"):
        if table.match.status == Match.Status.WAITING:
            applied = match_services.start_match(table.match_id)
            transaction.on_commit(lambda a=applied: announce_match_changed(a.match_id, a.snapshot, a.events))
            started += 1
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return started


def remove_participant(session: ClassSession, participant_id: int) -> None:
    """Remove a student: their seat goes to a bot so their table plays on."""
    participant = session.participants.filter(pk=participant_id, removed=False).first()
    if participant is None:
        raise AppError("no_participant", gettext("No such student in this session."))
    participant.removed = True
    participant.save(update_fields=["removed"])
    level = session.bot_level or next(iter(bot_levels(session.game)), "")
    for table in session.tables.filter(match__seats__participant_id=participant.pk).distinct():
        applied = match_services.replace_with_bot(table.match_id, participant.pk, level)
        if applied is not None:
            transaction.on_commit(lambda m=table.match_id: announce_seat_lost(m, participant.pk))
            transaction.on_commit(lambda a=applied: announce_match_changed(a.match_id, a.snapshot, a.events))
    transaction.on_commit(lambda: announce_session_changed(session.pk))


def readmit(session: ClassSession, participant_id: int) -> None:
    """The teacher lets a removed student back in (turned away from the waiting room too): every
    browser that was them, or asked to come back as them, is them again."""
    participant = session.participants.filter(pk=participant_id, removed=True, merged_into=None).first()
    if participant is None:
        raise AppError("no_participant", gettext("No removed student with that id in this session."))
    participant.removed, participant.admitted = False, True
    participant.comeback, participant.comeback_at = Participant.Comeback.NONE, None
    participant.save(update_fields=["removed", "admitted", "comeback", "comeback_at"])
    transaction.on_commit(lambda: announce_session_changed(session.pk))


def refuse_comeback(session: ClassSession, participant_id: int) -> None:
    """The teacher says no to a removed student's request to come back: they stay removed, their
    page says so, and joining again asks no more."""
    participant = session.participants.filter(
        pk=participant_id, removed=True, merged_into=None,
        comeback__in=[Participant.Comeback.SAME, Participant.Comeback.NEW]).first()
    if participant is None:
        raise AppError("no_request", gettext("That student is not asking to come back."))
    participant.comeback = Participant.Comeback.REFUSED
    participant.save(update_fields=["comeback"])
    transaction.on_commit(lambda: announce_session_changed(session.pk))


# --- the waiting room, and a session filled by a script -------------------------------------

def set_waiting_room(session: ClassSession, on) -> None:
    """With the waiting room on, new students wait until the teacher lets them in; turning it off
    lets nobody in by itself (those waiting still wait for a click)."""
    if type(on) is not bool:
        raise AppError("bad_message", gettext("waiting_room needs \"on\": true or false."))
    if session.status == ClassSession.Status.ENDED:
        raise AppError("ended", gettext("This class session has ended."))
    session.waiting_room = on
    session.save(update_fields=["waiting_room"])
    transaction.on_commit(lambda: announce_session_changed(session.pk))


def _waiting(session: ClassSession, ids) -> list[Participant]:
    """The waiting students named by ``ids`` (a list of ids, or "all")."""
    waiting = session.participants.filter(removed=False, admitted=False)
    if ids == "all":
        found = list(waiting)
    elif isinstance(ids, list) and ids and all(type(i) is int for i in ids) and len(ids) <= MAX_PARTICIPANT_ROWS:
        found = list(waiting.filter(pk__in=ids))
        if len(found) != len(set(ids)):
            raise AppError("not_waiting", gettext("Some of those students are not waiting to be let in."))
    else:
        raise AppError("bad_message", gettext("Name the students: \"participants\": [ids], or \"all\"."))
    if not found:
        raise AppError("nobody_waiting_room", gettext("Nobody is waiting to be let in."))
    return found


def admit(session: ClassSession, ids) -> int:
    """Let waiting students in (``ids``: their ids, or "all"); their pages change at once."""
    found = _waiting(session, ids)
    Participant.objects.filter(pk__in=[p.pk for p in found]).update(admitted=True)
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return len(found)


def turn_away(session: ClassSession, ids) -> int:
    """Turn waiting students away: they are removed (never seated), their browser stays out and
    asking again shows the teacher a request, as for any removed student."""
    found = _waiting(session, ids)
    Participant.objects.filter(pk__in=[p.pk for p in found]).update(removed=True)
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return len(found)


def recent_joins(session: ClassSession, minutes: int):
    """Students not removed who joined in the last ``minutes`` without a class card."""
    since = timezone.now() - timedelta(minutes=minutes)
    return session.participants.filter(removed=False, member=None, joined_at__gte=since)


def remove_recent(session: ClassSession, minutes) -> int:
    """Remove everyone who joined by name in the last ``minutes`` (a burst of joins from a script):
    bots take their seats, their places are free again. Class-card holders stay (a card cannot be
    made up); a real student removed by it asks to come back and the teacher lets them in."""
    if type(minutes) is not int or not 1 <= minutes <= REMOVE_RECENT_MAX_MINUTES:
        raise AppError("bad_minutes", gettext("Minutes: a whole number from 1 to %(max)d.")
                       % {"max": REMOVE_RECENT_MAX_MINUTES})
    ids = list(recent_joins(session, minutes).values_list("pk", flat=True))
    if not ids:
        raise AppError("nobody_recent", ngettext("Nobody joined by name in the last minute.",
                                                 "Nobody joined by name in the last %(n)d minutes.", minutes)
                       % {"n": minutes})
    for pid in ids:
        remove_participant(session, pid)
    return len(ids)


# --- one student, two rows: merge ------------------------------------------------------------

def merge_participants(session: ClassSession, merged_id, kept_id) -> Participant:
    """The teacher's "merge into…": the participant ``merged_id`` is the same student as
    ``kept_id``. Its seats (with their moves and results) become the kept one's, its class card
    too; it leaves the roster, and a browser that was it is the kept one from its next page.
    Refused, saying why, when both hold seats at tables still playing (one of them would have
    two live seats), when they sat at the same table (two students) or hold two different
    class cards."""
    if type(merged_id) is not int or type(kept_id) is not int:
        raise AppError("bad_message", gettext("merge needs \"participant\" and \"into\": two ids."))
    if merged_id == kept_id:
        raise AppError("bad_merge", gettext("Choose another student to merge into."))
    rows = {p.pk: p for p in session.participants.select_for_update().filter(pk__in=[merged_id, kept_id],
                                                                             merged_into=None)}
    if len(rows) != 2:
        raise AppError("no_participant", gettext("No such student in this session."))
    merged, kept = rows[merged_id], rows[kept_id]
    if kept.removed:
        raise AppError("bad_merge", gettext("%(name)s was removed: let them back in first, then merge.")
                       % {"name": kept.display_name})
    if merged.member_id and kept.member_id and merged.member_id != kept.member_id:
        raise AppError("bad_merge", gettext("%(a)s and %(b)s joined with two different class cards: they are "
                                            "two students.") % {"a": merged.display_name, "b": kept.display_name})
    tables = dict(session.tables.values_list("match_id", "number"))
    pair = (merged.pk, kept.pk)
    seats = list(Seat.objects.filter(match_id__in=tables).filter(
        Q(participant_id__in=pair) | Q(former_participant_id__in=pair)))
    holders: dict[int, set[int]] = {}  # match id: which of the two held a seat there
    for seat in seats:
        holders.setdefault(seat.match_id, set()).add(seat.participant_id or seat.former_participant_id)
    shared = sorted(tables[m] for m, who in holders.items() if len(who) == 2)
    if shared:
        raise AppError("bad_merge", gettext("%(a)s and %(b)s sat at the same table (%(tables)s): they are two "
                                            "students.") % {"a": merged.display_name, "b": kept.display_name,
                                                             "tables": _table_list(shared)})
    live = set(Match.objects.filter(pk__in=holders, status__in=[Match.Status.WAITING, Match.Status.PLAYING])
               .values_list("pk", flat=True))
    live_of = {pid: sorted(tables[s.match_id] for s in seats if s.match_id in live and s.participant_id == pid)
               for pid in pair}
    if live_of[merged.pk] and live_of[kept.pk]:
        raise AppError("merge_live", gettext(
            "Both have a seat at a table still playing (%(name_a)s: %(tables_a)s; %(name_b)s: %(tables_b)s): "
            "merge them when one of those games has finished.")
            % {"name_a": merged.display_name, "tables_a": _table_list(live_of[merged.pk]),
               "name_b": kept.display_name, "tables_b": _table_list(live_of[kept.pk])})
    moved = set(holders)
    Seat.objects.filter(match_id__in=moved, participant_id=merged.pk).update(participant_id=kept.pk,
                                                                            name=kept.display_name[:40])
    Seat.objects.filter(match_id__in=moved, former_participant_id=merged.pk).update(former_participant_id=kept.pk,
                                                                                   name=kept.display_name[:40])
    if merged.member_id and not kept.member_id:
        kept.member_id = merged.member_id
    kept.admitted = kept.admitted or (merged.admitted and not merged.removed)
    merged.member_id = None
    merged.removed, merged.merged_into = True, kept
    merged.comeback, merged.comeback_at = Participant.Comeback.NONE, None
    merged.save(update_fields=["member", "removed", "merged_into", "comeback", "comeback_at"])
    kept.save(update_fields=["member", "admitted"])
    for match_id in moved & set(live):  # the pages open on a live table show the new name
        transaction.on_commit(lambda m=match_id: announce_match_changed(m))
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return kept


def _table_list(numbers: list[int]) -> str:
    return ", ".join(gettext("Table %(number)s") % {"number": n} for n in numbers)


def set_participant_cap(session: ClassSession, cap: int) -> None:
    if type(cap) is not int or not 1 <= cap <= settings.PARTICIPANT_CAP_MAX:
        raise AppError("bad_cap", gettext("The cap must be a whole number from 1 to %(max)d.")
                           % {"max": settings.PARTICIPANT_CAP_MAX})
    session.max_participants = cap
    session.save(update_fields=["max_participants"])
    transaction.on_commit(lambda: announce_session_changed(session.pk))


def set_status(session: ClassSession, status: str) -> None:
    if session.status == ClassSession.Status.ENDED:
        raise AppError("ended", gettext("This class session has ended."))
    session.status = status
    if status == ClassSession.Status.ENDED:
        session.ended_at = timezone.now()
        stopped = Match.objects.filter(table__session=session,
                                       status__in=[Match.Status.WAITING, Match.Status.PLAYING])
        stopped_ids = list(stopped.values_list("pk", flat=True))
        stopped.update(status=Match.Status.ABANDONED)
        for match_id in stopped_ids:  # the game pages open on them say so at once
            transaction.on_commit(lambda m=match_id: announce_match_changed(m))
    session.save(update_fields=["status", "ended_at"])
    transaction.on_commit(lambda: announce_session_changed(session.pk))


def set_show_odds(session: ClassSession, show: bool) -> None:
    session.show_odds = show
    session.save(update_fields=["show_odds"])
    Match.objects.filter(table__session=session).update(show_odds=show)
    for match_id in session.tables.values_list("match_id", flat=True):
        transaction.on_commit(lambda m=match_id: announce_match_changed(m))
    transaction.on_commit(lambda: announce_session_changed(session.pk))


# --- pace: the clock per move, pause all tables, finish in N minutes (games/pace.py) --------

def check_move_seconds(seconds) -> None:
    if seconds is not None and (type(seconds) is not int or seconds not in settings.MOVE_CLOCK_CHOICES):
        raise AppError("bad_clock", gettext("Seconds per move: none or one of %(choices)s.")
                       % {"choices": ", ".join(map(str, settings.MOVE_CLOCK_CHOICES))})


def _live_match_ids(session: ClassSession) -> list[int]:
    return list(session.tables.filter(match__status__in=[Match.Status.WAITING, Match.Status.PLAYING])
                .values_list("match_id", flat=True))


def _each_live_match(session: ClassSession, change) -> int:
    """``change(match, now)`` on every waiting or playing table, each under its row lock; the
    pages open on a changed table are told. Returns how many changed."""
    now = timezone.now()
    changed = 0
    for match_id in _live_match_ids(session):
        match = Match.objects.select_for_update().get(pk=match_id)
        if change(match, now) is not False:
            match.save(update_fields=pace.PACE_FIELDS)
            transaction.on_commit(lambda m=match_id: announce_match_changed(m))
            changed += 1
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return changed


def pause_all(session: ClassSession) -> int:
    """Every live table is paused: moves are refused, clocks and the end keep what is left."""
    if session.status == ClassSession.Status.ENDED:
        raise AppError("ended", gettext("This class session has ended."))
    if session.paused:
        raise AppError("already_paused", gettext("The tables are already paused."))
    now = timezone.now()
    if countdown_over(session, now):
        clear_countdown(session)  # (its tables' own ends, owed or not, are frozen with them)
    session.paused = True
    session.finish_left_ms = pace.left_ms(session.ends_at, now)
    session.ends_at = None
    session.save(update_fields=["paused", "finish_left_ms", "ends_at"])
    return _each_live_match(session, pace.pause)


def resume_all(session: ClassSession) -> int:
    """The paused tables play on; each clock and the end get back what they had left."""
    if not session.paused:
        raise AppError("not_paused", gettext("The tables are not paused."))
    now = timezone.now()
    session.paused = False
    if session.finish_left_ms:  # (none left: the countdown is over, not given back)
        session.ends_at = now + timedelta(milliseconds=session.finish_left_ms)
    session.finish_left_ms = None
    session.save(update_fields=["paused", "finish_left_ms", "ends_at"])
    resumed = 0
    for match_id in _live_match_ids(session):  # each under its row lock; waiting bots play now
        applied = match_services.resume_match(match_id, now)
        if applied is not None:
            transaction.on_commit(lambda a=applied: announce_match_changed(a.match_id, a.snapshot, a.events))
            resumed += 1
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return resumed


def finish_in(session: ClassSession, seconds) -> int:
    """Time is up for every table ``seconds`` from now (counted from the resume while paused);
    then each unfinished game ends by its own rule (``games.services.enforce_time``). A table
    seated while the countdown runs shares it; a new round starts with fresh time. Refused with
    no table seated: there is no game to finish (a countdown kept for tables not seated yet is
    what ended a next round's new games after their first move)."""
    if session.status == ClassSession.Status.ENDED:
        raise AppError("ended", gettext("This class session has ended."))
    if type(seconds) is not int or seconds not in settings.FINISH_IN_CHOICES:
        raise AppError("bad_finish", gettext("Finish in: one of %(choices)s seconds.")
                       % {"choices": ", ".join(map(str, settings.FINISH_IN_CHOICES))})
    if not _live_match_ids(session):
        raise AppError("nothing_to_finish", gettext(
            "No table is playing: seat or start the tables (or the next round) first, then choose "
            "when they finish."))
    now = timezone.now()
    if session.paused:
        session.finish_left_ms = seconds * 1000
    else:
        session.ends_at = now + timedelta(seconds=seconds)
    session.save(update_fields=["ends_at", "finish_left_ms"])
    return _each_live_match(session, lambda match, at: pace.finish_in(match, seconds, at))


def set_move_clock(session: ClassSession, seconds, table=None) -> int:
    """A new clock per move (None: no clock): with ``table`` (its number) for that live table
    only; without, for the session (the tables seated later) and every live table."""
    check_move_seconds(seconds)
    if table is not None:
        return _set_table_clock(session, table, seconds)
    session.move_seconds = seconds
    session.save(update_fields=["move_seconds"])
    return _each_live_match(session, lambda match, at: pace.set_move_seconds(
        match, seconds, current_state(match), at))


def _set_table_clock(session: ClassSession, number, seconds: int | None) -> int:
    if type(number) is not int:
        raise AppError("bad_message", gettext("\"table\" must be a table's number."))
    found = session.tables.filter(number=number).values_list("match_id", flat=True).first()
    if found is None:
        raise AppError("no_table", gettext("This session has no table %(number)s.") % {"number": number})
    now = timezone.now()
    match = Match.objects.select_for_update().get(pk=found)
    if match.status not in (Match.Status.WAITING, Match.Status.PLAYING):
        raise AppError("table_over", gettext("Table %(number)s has finished: its clock no longer runs.")
                       % {"number": number})
    pace.set_move_seconds(match, seconds, current_state(match), now)
    match.save(update_fields=pace.PACE_FIELDS)
    transaction.on_commit(lambda: announce_match_changed(match.pk))
    transaction.on_commit(lambda: announce_session_changed(session.pk))
    return 1


def enforce_overdue(session: ClassSession) -> int:
    """Every table of the session whose time has passed gets it enforced (the dashboard notices
    it even when no student's page is open). Returns how many tables changed. Once the
    session's "finish in" has run out and every table it ended has ended, the countdown is
    cleared: tables seated later (next round, auto-pair, a late joiner) start with fresh time."""
    now = timezone.now()
    done = 0
    overdue = Match.objects.filter(Q(deadline__lte=now) | Q(ends_at__lte=now), table__session=session,
                                   status=Match.Status.PLAYING, paused=False)
    for match in overdue:
        if pace.due(match, now):
            applied = match_services.enforce_time(match.pk, match.seq)
            if applied is not None:
                announce_match_changed(applied.match_id, applied.snapshot, applied.events)
                done += 1
    if countdown_over(session, now) and not Match.objects.filter(
            table__session=session, status=Match.Status.PLAYING, paused=False, ends_at__lte=now).exists():
        clear_countdown(session)
    return done


def countdown_over(session: ClassSession, now=None) -> bool:
    """The session's "finish in" has run out (while paused its time is frozen: over only when
    nothing was left of it)."""
    if session.paused:
        return session.finish_left_ms is not None and session.finish_left_ms <= 0
    return session.ends_at is not None and session.ends_at <= (now or timezone.now())


def clear_countdown(session: ClassSession) -> None:
    """The session has no "finish in" any more (the dashboard shows none; a table seated from
    now on starts with fresh time). A countdown the teacher set meanwhile (another value) is
    kept: the row is changed only where it still holds the one read."""
    if session.ends_at is None and session.finish_left_ms is None:
        return
    ClassSession.objects.filter(pk=session.pk, ends_at=session.ends_at,
                                finish_left_ms=session.finish_left_ms).update(ends_at=None, finish_left_ms=None)
    session.ends_at = session.finish_left_ms = None
    transaction.on_commit(lambda: announce_session_changed(session.pk))


def delete_classroom(classroom: Classroom) -> None:
    """Delete a class with everything of it: sessions, their participants and tables, the
    tables' matches (seats, action logs, circuit runs), exercises, token and policy. Matches
    hang off tables (not the other way round), so they are deleted explicitly."""
    session_ids = list(classroom.sessions.values_list("pk", flat=True))
    with transaction.atomic():
        Match.objects.filter(table__session__classroom=classroom).delete()
        classroom.delete()
    for session_id in session_ids:
        transaction.on_commit(lambda s=session_id: announce_session_changed(s))


def delete_session(session: ClassSession) -> None:
    """Delete a class session with its participants, tables, matches and their logs."""
    session_id = session.pk
    with transaction.atomic():
        Match.objects.filter(table__session=session).delete()
        session.delete()
    transaction.on_commit(lambda: announce_session_changed(session_id))

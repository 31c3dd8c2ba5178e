"""Homework, self-paced: the teacher assigns an exercise (a saved one or a rulebook example) or
games from a game's starting position, against a bot, with a due date; students open it with
their class card and play at their own pace; the teacher sees completion and results per member.

Each assignment has its own class session (format "homework"; its join code is never shown and
``services.find_joinable`` does not find it: only a class card opens it, through
``start_game``). A student's game there is an ordinary table, the student against bots of the
assignment's level, so the match page, replays, progress (``classrooms.progress``) and a
member's data deletion (``cards.delete_member``: their participants, with their seats scrubbed)
hold as for any session. An assignment is deleted with its session (and all its games) by the
teacher, or by the retention purge once its due date is older than the retention period.

**The completion rule** is ``completion``: an exercise is done when the member won (solved) it
once, in a game finished by the due date; a game assignment is done when the member finished
``games_required`` games by the due date (any result). Games finished after the due date are
counted as late, not towards completion; after the due date an assignment not done is missed.
"""
from __future__ import annotations

import datetime
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext

from classrooms import cards, exercises, services
from classrooms.models import (
    Assignment,
    ClassMember,
    Classroom,
    ClassSession,
    Exercise,
    Participant,
    Table,
)
from classrooms.progress import game_rows
from games import services as match_services
from games.access import LOBBY_URL_KEY
from games.bots import bot_levels, resolve_level
from games.broadcast import announce_match_changed
from games.engines import get_game, list_games
from games.errors import AppError
from games.models import Match
from games.names import game_name, variant_name

MAX_GAMES = 10
BROWSER_CARD_KEY = "homework_card"  # the hash of the card this browser opened homework with

DONE, NOT_YET, MISSED = "done", "not_yet", "missed"


def default_level(game_slug: str) -> str:
    levels = bot_levels(game_slug)
    return "medium" if "medium" in levels else resolve_level(game_slug, "strong")


def sources(classroom: Classroom) -> dict[str, list[tuple[str, str]]]:
    """What can be assigned, as (value, label): the class's exercises, the rulebook examples,
    and every game with bots in each of its variants (its starting position)."""
    games = []
    for game in list_games():
        if not bot_levels(game.slug):
            continue
        for variant in game.variants:
            games.append((f"game:{game.slug}:{variant}", f"{game_name(game.slug)} ({variant_name(game.slug, variant)})"))
    return {
        "exercises": [(f"exercise:{ex.pk}", ex.name) for ex in classroom.exercises.all()],
        "examples": [(f"example:{ex['key']}", ex["name"]) for ex in exercises.examples_for_reader()],
        "games": games,
    }


def parse_due(raw, now: datetime.datetime | None = None) -> datetime.datetime:
    """A due date from a form's ``datetime-local`` (the reader's time zone) or a datetime: in the
    future, or a clear error."""
    now = now or timezone.now()
    due = raw
    if isinstance(raw, str):
        try:
            due = datetime.datetime.fromisoformat(raw.strip())
        except ValueError:
            due = None
    if not isinstance(due, datetime.datetime):
        raise AppError("bad_due", gettext("Give a due date and time."))
    if timezone.is_naive(due):
        due = timezone.make_aware(due, timezone.get_current_timezone())
    if due <= now:
        raise AppError("bad_due", gettext("The due date must be in the future."))
    return due


def _games_required(raw, default: int) -> int:
    if raw in (None, ""):
        return default
    try:
        number = int(str(raw).strip())
    except ValueError:
        number = 0
    if not 1 <= number <= MAX_GAMES:
        raise AppError("bad_games", gettext("The number of games must be a whole number from 1 to %(max)d.")
                       % {"max": MAX_GAMES})
    return number


def create_assignment(classroom: Classroom, source: str, *, due_at, bot_level: str = "",
                      games_required=None, title: str = "", now: datetime.datetime | None = None) -> Assignment:
    """Validate everything, then make the assignment and its session; bad input raises AppError
    and nothing is made."""
    kind, exercise, example = None, None, None
    parts = (source or "").split(":") if isinstance(source, str) else []
    if len(parts) == 2 and parts[0] == "exercise" and parts[1].isdigit():
        exercise = Exercise.objects.filter(classroom=classroom, pk=int(parts[1])).first()
        kind = Assignment.Kind.EXERCISE if exercise else None
    elif len(parts) == 2 and parts[0] == "example":
        example = next((ex for ex in exercises.EXAMPLES if ex["key"] == parts[1]), None)
        kind = Assignment.Kind.EXERCISE if example else None
    elif len(parts) == 3 and parts[0] == "game":
        kind = Assignment.Kind.GAME
        game_slug, variant = parts[1], parts[2]
        try:
            game = get_game(game_slug)
        except Exception:  # noqa: BLE001 — an unknown slug is a user error here
            kind = None
        else:
            if variant not in game.variants:
                kind = None
    if kind is None:
        raise AppError("bad_source", gettext("Choose an exercise or a game to assign."))
    if exercise is not None:
        game_slug, variant = exercise.game, exercise.variant
    elif example is not None:
        game_slug, variant = example["game"], example["variant"]
    levels = bot_levels(game_slug)
    if not levels:
        raise AppError("no_bot", gettext("This game has no bot yet."))
    bot_level = resolve_level(game_slug, bot_level or default_level(game_slug))
    if bot_level not in levels:
        raise AppError("bad_bot", gettext("No bot called %(bot)r; choose one of %(levels)s.")
                       % {"bot": bot_level, "levels": ", ".join(levels)})
    required = 1 if kind == Assignment.Kind.EXERCISE else _games_required(games_required, 3)
    due = parse_due(due_at, now)
    title = (title or "").strip()
    if len(title) > 80:
        raise AppError("long_name", gettext("The name is too long (80 characters at most)."))
    with transaction.atomic():
        if example is not None:
            exercise = exercises.create_exercise(classroom, gettext(example["name"])[:80], example["game"],
                                                 example["variant"], example["options"])
        if exercise is not None:
            session = exercises.open_session_from(exercise, bot_level=bot_level)
            title = title or exercise.name
        else:
            session = services.open_session(classroom, game_slug, variant=variant, bot_level=bot_level)
            title = title or f"{game_name(game_slug)} ({variant_name(game.slug, variant)})"
        session.format = ClassSession.Format.HOMEWORK
        session.max_participants = settings.PARTICIPANT_CAP_MAX
        session.save(update_fields=["format", "max_participants"])
        return Assignment.objects.create(
            classroom=classroom, title=title[:80], kind=kind, exercise=exercise, game=game_slug, variant=variant,
            bot_level=bot_level, games_required=required, due_at=due, session=session)


def delete_assignment(assignment: Assignment) -> None:
    """The assignment with its session and every game played for it."""
    services.delete_session(assignment.session)  # the assignment goes with it (CASCADE)


def purge_overdue(now: datetime.datetime | None = None) -> int:
    """Assignments due longer ago than the retention period go, with all their games."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.RETENTION_DAYS)
    count = 0
    for assignment in Assignment.objects.filter(due_at__lt=cutoff).select_related("session").iterator():
        delete_assignment(assignment)
        count += 1
    return count


# --- the completion rule ------------------------------------------------------------------

def completion(assignment: Assignment, games: list[dict], now: datetime.datetime | None = None) -> dict:
    """A member's state on an assignment from their finished games for it (``progress`` rows:
    "date" = when the game finished, "result"). See the module's docstring."""
    now = now or timezone.now()
    on_time = [g for g in games if g["date"] <= assignment.due_at]
    late = [g for g in games if g["date"] > assignment.due_at]
    if assignment.kind == Assignment.Kind.EXERCISE:
        required, count = 1, int(any(g["result"] == "won" for g in on_time))
    else:
        required, count = assignment.games_required, len(on_time)
    state = DONE if count >= required else (MISSED if now > assignment.due_at else NOT_YET)
    return {"state": state, "count": min(count, required), "required": required, "late": len(late),
            "played": len(games), "won": sum(g["result"] == "won" for g in games),
            "drawn": sum(g["result"] == "drawn" for g in games), "lost": sum(g["result"] == "lost" for g in games)}


def state_word(state: str) -> str:
    words = {DONE: pgettext("homework state", "done"), NOT_YET: pgettext("homework state", "not yet"),
             MISSED: pgettext("homework state", "missed")}
    return words[state]


def _games_by_member(assignment: Assignment, members) -> dict[int, list[dict]]:
    participants = list(Participant.objects.filter(session=assignment.session, member__in=list(members)))
    by_member: dict[int, list[dict]] = {}
    for row in game_rows(participants):
        row["late"] = row["date"] > assignment.due_at
        by_member.setdefault(row["member"], []).append(row)
    return by_member


def class_report(assignment: Assignment, now: datetime.datetime | None = None) -> list[dict]:
    """One row per member of the class: their state, counts and games (with replay links)."""
    members = list(assignment.classroom.members.all())
    games = _games_by_member(assignment, members)
    rows = []
    for member in members:
        mine = games.get(member.pk, [])
        status = completion(assignment, mine, now)
        rows.append({"member": member, "games": mine, "state_word": state_word(status["state"]), **status})
    return rows


def _live_table(assignment: Assignment, participant: Participant | None) -> Table | None:
    if participant is None:
        return None
    return (assignment.session.tables.filter(match__status__in=[Match.Status.WAITING, Match.Status.PLAYING],
                                             match__seats__participant_id=participant.pk)
            .select_related("match").first())


def member_homework(member: ClassMember, now: datetime.datetime | None = None) -> list[dict]:
    """The member's assignments (their class's), soonest due first, with their state and games."""
    assignments = list(member.classroom.assignments.select_related("session"))
    out = []
    for assignment in assignments:
        participant = Participant.objects.filter(session=assignment.session, member=member).first()
        mine = _games_by_member(assignment, [member]).get(member.pk, [])
        live = _live_table(assignment, participant)
        out.append({"assignment": assignment, "games": mine, "live_match": live.match_id if live else None,
                    **completion(assignment, mine, now)})
    for item in out:
        item["state_word"] = state_word(item["state"])
    return out


# --- the student's side ---------------------------------------------------------------------

def _bad_card() -> AppError:
    return AppError("bad_card", gettext("This card code is not valid, or it was replaced by a new one. Check the "
                                        "code or ask your teacher."), status=403)


def open_with_card(typed: str, browser_session) -> ClassMember:
    """The browser opens homework with a card: remembered (by its hash) for the next visits."""
    member = cards.member_by_card_anywhere(typed)
    if member is None:
        raise _bad_card()
    browser_session[BROWSER_CARD_KEY] = member.card_code_hash
    return member


def browser_member(browser_session) -> ClassMember | None:
    """The member whose card this browser opened homework with (None once the card was re-issued
    or the member deleted)."""
    digest = browser_session.get(BROWSER_CARD_KEY)
    if not isinstance(digest, str):
        return None
    return ClassMember.objects.filter(card_code_hash=digest, classroom__cards_enabled=True).select_related(
        "classroom").first()


def start_game(assignment: Assignment, member: ClassMember, browser_session) -> Table:
    """The member's game for the assignment: the one still going, or a new table (them against
    bots of the assignment's level), started. The browser becomes the member's seat."""
    if assignment.classroom_id != member.classroom_id:
        raise _bad_card()
    session = assignment.session
    participant = cards.join_with_card(session, member.card_code, browser_session)
    browser_session[LOBBY_URL_KEY] = reverse("classrooms:homework")
    table = _live_table(assignment, participant)
    if table is None:
        size = services.table_size(session)
        # an exercise is the first seat's puzzle: the student sits first, the bots after them
        table = services.seat_table(session, [participant], bots=size - 1,
                                    in_order=assignment.kind == Assignment.Kind.EXERCISE)
    if table.match.status == Match.Status.WAITING:
        applied = match_services.start_match(table.match_id)
        transaction.on_commit(lambda a=applied: announce_match_changed(a.match_id, a.snapshot, a.events))
    return table

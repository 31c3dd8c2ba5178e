"""Teachers (Django users), their classes, class sessions with join codes, participants."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.engines import DEFAULT_GAME


class Classroom(models.Model):
    teacher = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classrooms")
    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)
    # class cards (opt-in): the teacher keeps a roster of nicknames, each with a card to join by
    cards_enabled = models.BooleanField(default=False)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class ClassMember(models.Model):
    """A student of a class with a card (``classrooms.cards``): a nickname only (no account, no
    e-mail) and a card code to join the class's sessions as the same member on any device.
    The code is kept so that the teacher can reprint the card; it is looked up by its hash, and
    re-issuing a card replaces both (the old code stops working). Deleting a member deletes all
    their data (``classrooms.cards.delete_member``)."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="members")
    nickname = models.CharField(max_length=24)
    card_code = models.CharField(max_length=12, help_text="as printed, e.g. K7QH-M3WX")
    card_code_hash = models.CharField(max_length=64, unique=True, help_text="sha256 of the normalised code")
    issued_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True, help_text="last joined a session (retention)")

    class Meta:
        ordering = ["nickname", "id"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "nickname"], name="unique_nickname_in_class")
        ]

    def __str__(self) -> str:
        return self.nickname


def default_participant_cap() -> int:
    return settings.PARTICIPANT_CAP_DEFAULT


class ClassSession(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        LOCKED = "locked", _("locked")
        ENDED = "ended", _("ended")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="sessions")
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, default="basic")
    options = models.JSONField(default=dict, blank=True)
    bot_level = models.CharField(max_length=20, default="strong")
    join_code = models.CharField(max_length=12)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    show_odds = models.BooleanField(default=True)
    # the teacher's language for the students of this session ("": each browser's own); a student
    # who picks another language with the header's switcher keeps theirs
    language = models.CharField(max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    max_participants = models.PositiveSmallIntegerField(
        default=default_participant_cap, help_text="students who may join (waiting ones count too, removed ones not)")
    # the waiting room: a new student waits until the teacher lets them in (``services.admit``)
    waiting_room = models.BooleanField(default=False)
    class Format(models.TextChoices):
        FREE = "free", _("free tables")
        ROUNDS = "rounds", _("rounds")
        HOMEWORK = "homework", _("homework")

    # "rounds": the teacher runs the session as rounds, re-paired by classrooms.pairing each round
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.FREE)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # pace, copied to every table's match (games/pace.py): the per-move clock, the pause and
    # the lesson's end ("finish in N minutes")
    move_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    paused = models.BooleanField(default=False)
    ends_at = models.DateTimeField(null=True, blank=True)
    finish_left_ms = models.PositiveIntegerField(null=True, blank=True)
    # the exercise the session was opened from (its tables all start from its position); the
    # progress pages count who solved it (``classrooms.progress``)
    exercise = models.ForeignKey("Exercise", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="sessions")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["join_code"], condition=~Q(status="ended"), name="join_code_unique_while_live"
            )
        ]

    def __str__(self) -> str:
        return f"{self.classroom} · {self.game} · {self.join_code}"

    @property
    def is_live(self) -> bool:
        return self.status != self.Status.ENDED

    def seated_tables(self, match_ids: Iterable[int] | None = None) -> list[Table]:
        """Every table in number order, with its match, its round and the match's seats as a list
        in seat order (``table.match.seat_list``: reading it builds no query, where each
        ``match.seats.all()`` of a prefetch builds a queryset). A dashboard payload reads them
        once for its rows, its standings and its concept grid.

        Two queries, the seats handed to their matches here: Django's ``Prefetch`` does the same
        with a fifth more CPU (it sets each seat's match through the descriptor and checks its
        caches per seat), and a dashboard or projector payload of a lesson's 75 tables rebuilds
        this every second or two. ``match_ids``: only the tables of those matches (a payload's
        tables read again after their moves, ``selectors.tables_after``)."""
        from games.models import Seat

        tables = self.tables.select_related("match", "round").order_by("number")
        if match_ids is not None:
            tables = tables.filter(match_id__in=list(match_ids))
        tables = list(tables)
        matches = {table.match_id: table.match for table in tables}
        for match in matches.values():
            match.seat_list = []
        for seat in Seat.objects.filter(match_id__in=matches).order_by("match_id", "index"):
            match = matches[seat.match_id]
            seat._state.fields_cache["match"] = match  # (``seat.match`` without a query, as a prefetch sets it)
            match.seat_list.append(seat)
        return tables


class Participant(models.Model):
    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="participants")
    display_name = models.CharField(max_length=24)
    joined_at = models.DateTimeField(auto_now_add=True)
    removed = models.BooleanField(default=False)
    # the class member who joined with their card (None: a one-off join by name); deleting the
    # member deletes their participants (after ``cards.delete_member`` scrubbed their seats)
    member = models.ForeignKey(ClassMember, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="participants")
    # False while the student waits in the session's waiting room (not paired, seated or ranked)
    admitted = models.BooleanField(default=True)
    # the teacher merged this participant into another (one student, two rows): its seats and
    # results moved there, and a browser that was this one becomes that one (it is also removed)
    merged_into = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE,
                                    related_name="merged")

    class Comeback(models.TextChoices):
        """A removed student who tries to join again asks the teacher to let them back in."""
        NONE = "", _("no request")
        SAME = "same", _("asks to come back")
        NEW = "new", _("asks to come back from another browser")
        REFUSED = "refused", _("was not let back in")

    comeback = models.CharField(max_length=8, blank=True, default="", choices=Comeback.choices)
    comeback_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # the join order: the dashboard's roster and the concept grid list students in it
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "display_name"], name="unique_name_in_session")
        ]

    def __str__(self) -> str:
        return self.display_name


class Round(models.Model):
    """One round of a session run as rounds: its tables were paired together (``method``, see
    ``classrooms.pairing``) and started together; the next round waits until they all finished."""

    class Method(models.TextChoices):
        ROUND_ROBIN = "round-robin", _("round-robin")
        SWISS = "swiss", _("Swiss (by points)")
        TEAMS = "teams", _("teams play again")

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=12, choices=Method.choices)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return f"{self.session} · round {self.number}"


class Table(models.Model):
    """A table of a class session: one match and the participants seated at it."""

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="table")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="tables")

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="unique_table_number")]

    def made(self, part: Hashable, make: Callable[[], Any]) -> Any:
        """``make()``, made once for this object: what a payload derives from a table read with
        its match and seats (its dashboard row, its moments, its part of the standings' key). A
        table that a teacher's socket keeps for its next payload (``selectors.tables_after``) is
        the same object, unchanged, so that payload reuses what this one made; a table read again
        is a new object."""
        made = self.__dict__.setdefault("_made", {})
        if part not in made:
            made[part] = make()
        return made[part]

    def has_made(self, part: Hashable) -> bool:
        return part in self.__dict__.get("_made", ())

    def refresh_from_db(self, *args, **kwargs) -> None:
        self.__dict__.pop("_made", None)  # (read again: nothing made of it before holds)
        super().refresh_from_db(*args, **kwargs)


class Exercise(models.Model):
    """A teacher's starting position for a game (the engine's ``options``), saved to a class, from
    which a session can be opened so that every table plays the same puzzle."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="exercises")
    game = models.CharField(max_length=40, default=DEFAULT_GAME)
    variant = models.CharField(max_length=40, default="basic")
    name = models.CharField(max_length=80)
    options = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.classroom} · {self.name}"

    @property
    def display_name(self) -> str:
        """The name in the reader's language when it is a rulebook example's (saved as it was
        offered: in English, or in the language of the day it was saved)."""
        from classrooms.exercises import exercise_name

        return exercise_name(self.name)


class TicketMap(models.Model):
    """A teacher's Quantum Ticket-to-Ride map (cities, routes, missions), uploaded to a class and
    checked by the engine's map validator; a session of the class may be played on it."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="ticket_maps")
    name = models.CharField(max_length=80)
    data = models.JSONField(help_text="the map as the engine reads it (validated on upload)")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return f"{self.classroom} · {self.name}"


class Assignment(models.Model):
    """Homework (``classrooms.homework``): an exercise to solve, or games to finish from a game's
    starting position, against a bot, by a due date. Its own class session (format "homework",
    joined only with a class card) holds the students' games, so progress, replays and a member's
    data deletion work as for any session."""

    class Kind(models.TextChoices):
        EXERCISE = "exercise", _("solve an exercise")
        GAME = "game", _("play games")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    title = models.CharField(max_length=80)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    exercise = models.ForeignKey(Exercise, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="assignments")
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40)
    bot_level = models.CharField(max_length=20)
    games_required = models.PositiveSmallIntegerField(default=1)
    due_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    session = models.OneToOneField(ClassSession, on_delete=models.CASCADE, related_name="assignment")

    class Meta:
        ordering = ["due_at", "id"]

    def __str__(self) -> str:
        return f"{self.classroom} · {self.title}"

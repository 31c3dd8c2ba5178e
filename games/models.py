"""A match is stored as the tuple that reproduces it: (game, variant, options, seed, actions),
played and replayed under the engine's rules version it was created with (``rules_version``).

Seats are held by a participant (an opaque id handed out by the classrooms app, kept in the
browser's session) or by a bot. ``Match.teacher`` may watch the match.
"""
from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting to start")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40, default="basic")
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    # the engine's rules version when the match was created: replays, statistics, standings and
    # progress re-run the log under these rules, or refuse (games/engines/base.py "Rules versions")
    rules_version = models.PositiveSmallIntegerField(
        help_text="the engine's rules version the match is played and replayed under")
    players = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=80, blank=True)  # "Table 3" (English; shown as display_label)
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.WAITING)
    seq = models.PositiveIntegerField(default=0, help_text="number of actions in the log")
    show_odds = models.BooleanField(default=True, help_text="players see the live odds")
    outcome = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # pace (games/pace.py): the per-move clock, the lesson's end, the teacher's pause
    move_seconds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="seconds per move; empty: no clock")
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="when the seats to act now run out of time (shared)")
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text="when time is up for the whole game (finish in N minutes)")
    paused = models.BooleanField(default=False)
    clock_left_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="while paused: what was left of the move clock")
    finish_left_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="while paused: what was left until time is up")

    class Meta:
        ordering = ["id"]

    @property
    def engine(self):
        """The engine that plays this match: its game under the rules version it was created
        with, never under other rules (``AppError`` "rules_version", 410, when this server no
        longer plays them; see games/engines/base.py "Rules versions")."""
        from games.engines import RulesVersionUnsupported, get_game
        from games.errors import rules_version_refused

        try:
            return get_game(self.game, self.rules_version)
        except RulesVersionUnsupported as exc:
            raise rules_version_refused(exc) from exc

    @property
    def display_label(self) -> str:
        """The label in the reader's language ("Table 3" -> "Mesa 3")."""
        found = re.fullmatch(r"Table (\d+)", self.label or "")
        return gettext("Table %(number)s") % {"number": found[1]} if found else self.label

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    participant_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    bot = models.CharField(max_length=20, blank=True, help_text="bot level, empty for a person")
    former_participant_id = models.BigIntegerField(
        null=True, blank=True, db_index=True,
        help_text="the participant whose seat was handed to a bot (removed by the teacher)")

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="one_holder_per_seat")]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.index})"


class Action(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(help_text="0-based position in the log")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list)
    by_bot = models.BooleanField(default=False)
    timed_out = models.BooleanField(
        default=False, help_text="the seat's time ran out: the random bot made this move")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_action_per_seq")]

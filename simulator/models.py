"""Stored circuit runs, IBM Quantum credentials per class, and who may ask for statistics."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Backend(models.TextChoices):
    EXACT = "exact", _("exact (Born rule, no shots)")
    AER = "aer", _("Qiskit Aer (ideal)")
    AER_NOISY = "aer-noisy", _("Qiskit Aer with a device's noise")
    IBM = "ibm", _("IBM Quantum hardware")


class Run(models.Model):
    """N shots of one position (a match after ``action_number`` actions) on one back end."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="runs")
    action_number = models.PositiveIntegerField(help_text="the position after this many actions")
    backend = models.CharField(max_length=12, choices=Backend.choices)
    device = models.CharField(max_length=40, blank=True, help_text="IBM device (real or fake)")
    shots = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField()
    request_key = models.CharField(max_length=64, unique=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    requested_by_participant = models.BigIntegerField(null=True, blank=True)
    # the players' circuit of the position (games.engines.Abilities.private_circuit), asked for
    # by a player: what players may see of its results (the teacher's runs are the teacher's)
    public_circuit = models.BooleanField(default=False)

    circuit_qasm = models.TextField(blank=True, help_text="OpenQASM 3 of the logical circuit")
    transpiled_depth = models.PositiveIntegerField(null=True, blank=True)
    transpiled_two_qubit_gates = models.PositiveIntegerField(null=True, blank=True)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    shots_done = models.PositiveIntegerField(default=0)
    counts = models.JSONField(null=True, blank=True, help_text="final-register outcome → shots")
    probabilities = models.JSONField(null=True, blank=True, help_text="exact: outcome → p")
    scores = models.JSONField(null=True, blank=True, help_text="score distribution and summary")
    error = models.TextField(blank=True)

    task_id = models.CharField(max_length=64, blank=True)
    job_id = models.CharField(max_length=80, blank=True, help_text="hardware job id")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="times a worker took it up")
    completions = models.PositiveSmallIntegerField(default=0, help_text="times a result was stored")

    queued_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    simulation_seconds = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-queued_at", "-id"]
        indexes = [models.Index(fields=["match", "action_number"])]

    def __str__(self) -> str:
        return f"run {self.pk}: {self.backend} {self.device} ×{self.shots} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class IBMCredential(models.Model):
    """A class's IBM Quantum API token, encrypted (see ``simulator.credentials``).

    The token is never shown again and never sent to a browser."""

    classroom = models.OneToOneField("classrooms.Classroom", on_delete=models.CASCADE,
                                     related_name="ibm_credential")
    token_encrypted = models.TextField()
    token_hint = models.CharField(max_length=8, blank=True, help_text="last characters, for recognition")
    channel = models.CharField(max_length=40, default="ibm_quantum_platform")
    instance = models.CharField(max_length=200, blank=True)
    default_device = models.CharField(max_length=40, blank=True)
    saved_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"IBM token of {self.classroom} (…{self.token_hint})"


class QuantumPolicy(models.Model):
    """Per-class choices about statistics: may students run their own match's position?"""

    classroom = models.OneToOneField("classrooms.Classroom", on_delete=models.CASCADE,
                                     related_name="quantum_policy")
    students_may_run = models.BooleanField(default=False)
    student_max_shots = models.PositiveIntegerField(default=4096)

    def __str__(self) -> str:
        return f"quantum policy of {self.classroom}"

"""Runs: request (idempotent), execute (claim → simulate → store once), poll hardware, cancel.

A request becomes one ``Run`` row keyed by (match, action number, back end, device, shots,
seed); asking twice returns the same row. The Celery task gets the run id only and may be
delivered more than once (acks_late, a worker killed mid-run): it claims the run only while
it is queued or running, and stores a result with a conditional update on ``status=running``,
so a run is finished exactly once and a cancelled run stays cancelled.
"""
from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import AppError
from games.models import Match
from simulator import backends, devices, ibm, quotas
from simulator.access import StatsAccess, classroom_of
from simulator.backends import BackendError, Execution, RunCancelled
from simulator.credentials import CredentialError, decrypt
from simulator.models import Backend, IBMCredential, Run
from simulator.positions import Position, load_position, no_such_position, qasm3_of
from simulator.scoring import NotScorable, score_table

log = logging.getLogger(__name__)

MAX_SHOTS = 200_000
STUDENT_MAX_SHOTS_LIMIT = 100_000  # the most a teacher may let students ask for (form and API)
DEFAULT_SHOTS = 4096


# the app's one error (``games.errors.AppError``, a 400 here) under the name this module used
RunRequestError = AppError


@dataclass
class RunRequest:
    match_id: int
    backend: str
    shots: int = DEFAULT_SHOTS
    action_number: int | None = None
    device: str = ""
    seed: int | None = None


def default_seed(match: Match, action_number: int, backend: str, device: str) -> int:
    digest = hashlib.sha256(f"{match.seed}:{action_number}:{backend}:{device}".encode()).hexdigest()
    return int(digest[:12], 16)


def request_key(match_id: int, action_number: int, backend: str, device: str, shots: int,
                seed: int, public: bool = False) -> str:
    raw = f"{match_id}|{action_number}|{backend}|{device}|{shots}|{seed}" + ("|public" if public else "")
    return hashlib.sha256(raw.encode()).hexdigest()


def _validate(req: RunRequest, access: StatsAccess) -> tuple[int, str, int, int]:
    match = access.match
    if req.backend not in Backend.values:
        raise AppError("bad_backend", _("Unknown back end %(backend)r; choose one of %(choices)s.")
                       % {"backend": req.backend, "choices": ", ".join(Backend.values)})
    action = match.seq if req.action_number is None else req.action_number
    if not isinstance(action, int) or action < 0 or action > match.seq:
        raise AppError("bad_position", no_such_position(match, action))
    device = (req.device or "").strip()
    shots = 0 if req.backend == Backend.EXACT else req.shots
    if req.backend != Backend.EXACT:
        if not isinstance(shots, int) or not 1 <= shots <= MAX_SHOTS:
            raise AppError("bad_shots", _("shots must be a whole number from 1 to %(max)d.") % {"max": MAX_SHOTS})
        if access.max_shots is not None and shots > access.max_shots:
            raise AppError("too_many_shots", ngettext("Students may ask for at most %(max)d shot.",
                                                      "Students may ask for at most %(max)d shots.",
                                                      access.max_shots) % {"max": access.max_shots})
    if req.backend in (Backend.EXACT, Backend.AER):
        device = ""
    elif req.backend == Backend.AER_NOISY:
        device = device or devices.DEFAULT_DEVICE
        if device not in devices.FAKE_DEVICES:
            raise AppError("bad_device", _("Unknown device %(device)r; choose one of %(choices)s.")
                           % {"device": device, "choices": ", ".join(devices.FAKE_DEVICES)})
    elif req.backend == Backend.IBM:
        if not access.is_teacher:
            raise AppError("teacher_only", _("Only the teacher can send circuits to IBM Quantum hardware."))
        classroom = classroom_of(match)
        credential = IBMCredential.objects.filter(classroom=classroom).first() if classroom else None
        if credential is None:
            raise AppError("no_token", _("Save an IBM Quantum API token for this class first."))
        device = device or credential.default_device
        if not device:
            raise AppError("no_device", _("Name the IBM Quantum device to use (e.g. ibm_brisbane)."))
    seed = req.seed if req.seed is not None else default_seed(match, action, req.backend, device)
    if not isinstance(seed, int) or not 0 <= seed < 2**62:
        raise AppError("bad_seed", _("seed must be a whole number from 0 to 2^62."))
    return action, device, shots, seed


def request_run(req: RunRequest, access: StatsAccess, *, user=None) -> tuple[Run, bool]:
    """The run for this request, created and enqueued if new (or re-queued if it had failed
    or been cancelled). Returns ``(run, created)``."""
    action, device, shots, seed = _validate(req, access)
    try:
        position = load_position(access.match, action, public=access.public_circuit)
    except NotScorable as exc:
        raise AppError("no_circuit", str(exc)) from exc
    key = request_key(access.match.pk, action, req.backend, device, shots, seed, access.public_circuit)
    existing = Run.objects.filter(request_key=key).values_list("status", flat=True).first()
    if existing is None or existing in (Run.Status.FAILED, Run.Status.CANCELLED):
        try:  # a new (or re-queued) run counts against the quotas; asking again for one does not
            quotas.check(classroom_of(access.match), user, access.participant_id)
        except quotas.QuotaExceeded as exc:
            raise AppError("quota", str(exc)) from exc
    with transaction.atomic():
        run, created = Run.objects.get_or_create(request_key=key, defaults={
            "match": access.match, "action_number": action, "backend": req.backend,
            "device": device, "shots": shots, "seed": seed,
            "requested_by": user if user is not None and user.is_authenticated else None,
            "requested_by_participant": access.participant_id,
            "public_circuit": access.public_circuit,
            "circuit_qasm": qasm3_of(position.circuit)})
        if not created:
            run = Run.objects.select_for_update().get(pk=run.pk)
            if run.status not in (Run.Status.FAILED, Run.Status.CANCELLED):
                return run, False
            Run.objects.filter(pk=run.pk).update(
                status=Run.Status.QUEUED, error="", shots_done=0, job_id="", started_at=None,
                finished_at=None, queued_at=timezone.now(), counts=None, probabilities=None,
                scores=None)
            run.refresh_from_db()
        run_id = run.pk
        transaction.on_commit(lambda: enqueue(run_id))
    return run, created


def enqueue(run_id: int) -> None:
    from simulator.tasks import execute_run

    queue = getattr(settings, "SIMULATOR_QUEUE", "") or None
    result = execute_run.apply_async((run_id,), queue=queue)
    Run.objects.filter(pk=run_id, task_id="").update(task_id=result.id or "")


def cancel_run(run: Run) -> bool:
    """Cancel a queued or running run; the task notices and stops. Returns False if it had
    already ended."""
    changed = Run.objects.filter(pk=run.pk, status__in=Run.ACTIVE).update(
        status=Run.Status.CANCELLED, finished_at=timezone.now(), error="Cancelled.")
    if not changed:
        return False
    run.refresh_from_db()
    if run.task_id and not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        try:
            from celery import current_app as app

            app.control.revoke(run.task_id)
        except Exception:  # revoking is a courtesy; the task checks the status anyway
            log.warning("could not revoke task %s", run.task_id, exc_info=True)
    if run.backend == Backend.IBM and run.job_id:
        from simulator.tasks import cancel_hardware_job

        transaction.on_commit(lambda: cancel_hardware_job.apply_async(
            (run.pk,), queue=getattr(settings, "SIMULATOR_QUEUE", "") or None))
    return True


# ------------------------------------------------------------------ executing (in a task)

def claim(run_id: int) -> Run | None:
    """Mark the run running (again, after a lost worker); None if it has ended."""
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.status not in Run.ACTIVE:
            return None
        if run.backend == Backend.IBM and run.job_id:
            return run  # already submitted: only polling is left
        run.status = Run.Status.RUNNING
        run.attempts += 1
        run.started_at = timezone.now()
        run.shots_done = 0
        run.save(update_fields=["status", "attempts", "started_at", "shots_done"])
    return run


def _progress(run_id: int):
    def report(done: int) -> bool:
        return bool(Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).update(shots_done=done))
    return report


def _pause() -> float:
    """Seconds to wait after each chunk: 0 in production; tests and demos slow runs down
    with SIMULATOR_CHUNK_PAUSE to watch progress (or to kill a worker mid-run)."""
    return float(os.environ.get("SIMULATOR_CHUNK_PAUSE", "0") or 0)


def finish(run_id: int, position: Position, execution: Execution) -> bool:
    """Store the result, once: only a running run takes it."""
    weights = execution.counts if execution.counts is not None else execution.probabilities
    scores = score_table(position.scorer, weights or {})
    actual = position.scorer.actual()
    scores["actual"] = list(actual) if actual is not None else None
    updated = Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).update(
        status=Run.Status.DONE, counts=execution.counts, probabilities=execution.probabilities,
        scores=scores, simulation_seconds=execution.seconds, finished_at=timezone.now(),
        shots_done=F("shots"), error="",
        transpiled_depth=execution.transpiled_depth,
        transpiled_two_qubit_gates=execution.transpiled_two_qubit_gates,
        completions=F("completions") + 1)
    return bool(updated)


def fail(run_id: int, message: str) -> None:
    Run.objects.filter(pk=run_id, status__in=Run.ACTIVE).update(
        status=Run.Status.FAILED, error=message[:4000], finished_at=timezone.now())


def note_retry(run_id: int, message: str) -> None:
    Run.objects.filter(pk=run_id, status__in=Run.ACTIVE).update(error=f"Retrying: {message}"[:4000])


def execute(run_id: int) -> str:
    """Do the work of a run (called by the task). Returns what happened: done, skipped,
    cancelled, failed, submitted. Raises ``TransientBackendError`` to be retried."""
    run = claim(run_id)
    if run is None:
        return "skipped"
    if run.backend == Backend.IBM and run.job_id:
        return "submitted"
    try:
        position = load_position(run.match, run.action_number, public=run.public_circuit)
        if run.backend == Backend.EXACT:
            execution = backends.exact_probabilities(position.circuit, position.scorer.exact())
        elif run.backend == Backend.AER:
            execution = backends.run_aer(position.circuit, run.shots, run.seed,
                                         _progress(run_id), _pause())
        elif run.backend == Backend.AER_NOISY:
            execution = backends.run_noisy(position.circuit, run.shots, run.seed, run.device,
                                           _progress(run_id), _pause())
        else:
            submit_hardware(run, position)
            return "submitted"
    except RunCancelled:
        return "cancelled"
    except backends.TransientBackendError:
        raise
    except (BackendError, NotScorable, CredentialError) as exc:
        fail(run_id, str(exc))
        return "failed"
    except Exception as exc:  # a bug must not leave the run spinning forever
        log.exception("run %s failed", run_id)
        fail(run_id, f"Unexpected error: {type(exc).__name__}: {exc}")
        return "failed"
    return "done" if finish(run_id, position, execution) else "cancelled"


# ------------------------------------------------------------------ hardware

def account_for(run: Run) -> ibm.Account:
    classroom = classroom_of(run.match)
    credential = IBMCredential.objects.filter(classroom=classroom).first() if classroom else None
    if credential is None:
        raise BackendError("No IBM Quantum token is saved for this class any more.")
    return ibm.Account(decrypt(credential.token_encrypted), credential.channel, credential.instance)


def submit_hardware(run: Run, position: Position) -> None:
    service = ibm.connect(account_for(run))
    submitted = ibm.submit(service, run.device, position.circuit, run.shots, run.seed)
    Run.objects.filter(pk=run.pk).update(
        job_id=submitted.job_id, transpiled_depth=submitted.transpiled_depth,
        transpiled_two_qubit_gates=submitted.transpiled_two_qubit_gates)


def poll_hardware(run_id: int) -> str:
    """One look at a hardware job: pending, done, failed, cancelled or skipped."""
    run = Run.objects.select_related("match").filter(pk=run_id).first()
    if run is None or run.status != Run.Status.RUNNING or not run.job_id:
        return "skipped"
    try:
        position = load_position(run.match, run.action_number, public=run.public_circuit)
        service = ibm.connect(account_for(run))
        state = ibm.poll(service, run.job_id, position.circuit.cregs[0].name)
    except backends.TransientBackendError:
        raise
    except (BackendError, NotScorable, CredentialError) as exc:
        fail(run_id, str(exc))
        return "failed"
    if state.status == "pending":
        return "pending"
    if state.status != "done":
        fail(run_id, state.error)
        return state.status
    counts = backends.normalise_counts(state.counts or {}, position.circuit)
    execution = Execution(counts=counts, seconds=state.seconds or 0.0,
                          transpiled_depth=run.transpiled_depth,
                          transpiled_two_qubit_gates=run.transpiled_two_qubit_gates)
    return "done" if finish(run_id, position, execution) else "cancelled"


def cancel_hardware(run_id: int) -> None:
    run = Run.objects.select_related("match").filter(pk=run_id).first()
    if run is None or not run.job_id:
        return
    try:
        ibm.cancel(ibm.connect(account_for(run)), run.job_id)
    except BackendError:
        pass

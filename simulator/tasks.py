"""Celery tasks: ids in, never objects. Late acks and reject-on-worker-lost (a killed worker's
run is delivered again); the services make a repeated delivery harmless."""
from __future__ import annotations

import time

from celery import shared_task
from django.conf import settings

from simulator import services
from simulator.backends import TransientBackendError

POLL_SECONDS = 5
MAX_POLLS = 2000


def _retries() -> int:
    return int(getattr(settings, "SIMULATOR_HARDWARE_RETRIES", 4))


def _queue() -> str | None:
    return getattr(settings, "SIMULATOR_QUEUE", "") or None


def _eager(task) -> bool:
    return bool(task.request.is_eager)


def _retry_or_fail(task, run_id: int, exc: TransientBackendError):
    if task.request.retries >= _retries():
        services.fail(run_id, f"{exc} (gave up after {task.request.retries + 1} attempts)")
        return "failed"
    services.note_retry(run_id, str(exc))
    raise task.retry(exc=exc, countdown=min(300, 5 * 2 ** task.request.retries),
                     max_retries=_retries())


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, name="simulator.execute_run")
def execute_run(self, run_id: int) -> str:
    try:
        outcome = services.execute(run_id)
    except TransientBackendError as exc:
        return _retry_or_fail(self, run_id, exc)
    if outcome == "submitted":
        schedule_poll(run_id, eager=_eager(self))
    return outcome


def schedule_poll(run_id: int, *, eager: bool) -> None:
    if eager:
        # no worker in the embedded default: look at the job until it ends, briefly apart
        for _ in range(MAX_POLLS):
            try:
                state = services.poll_hardware(run_id)
            except TransientBackendError as exc:
                services.fail(run_id, str(exc))
                return
            if state != "pending":
                return
            time.sleep(0.2)
        services.fail(run_id, "The hardware job did not finish in time.")
        return
    poll_run.apply_async((run_id,), countdown=POLL_SECONDS, queue=_queue())


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, name="simulator.poll_run")
def poll_run(self, run_id: int, polls: int = 0) -> str:
    """One short look at a hardware job; schedules the next look while it is pending."""
    try:
        state = services.poll_hardware(run_id)
    except TransientBackendError as exc:
        return _retry_or_fail(self, run_id, exc)
    if state == "pending":
        if polls >= MAX_POLLS:
            services.fail(run_id, "The hardware job did not finish in time.")
            return "failed"
        poll_run.apply_async((run_id, polls + 1), countdown=POLL_SECONDS, queue=_queue())
    return state


@shared_task(acks_late=True, name="simulator.cancel_hardware_job")
def cancel_hardware_job(run_id: int) -> None:
    services.cancel_hardware(run_id)

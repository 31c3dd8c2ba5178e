"""The real pipeline: runs go through Redis to a separate Celery worker process on the test
database. A worker killed (SIGKILL) in the middle of a run: the message was not acknowledged
(acks_late), it is delivered again to a new worker, and the run is finished exactly once."""
from __future__ import annotations

import os
import time

import pytest
from django.contrib.auth.models import User

from simulator import services
from simulator.models import Run
from tests.support.worker import CeleryWorker
from tests.test_simulator_fixtures import class_table, finished_qtris, teacher_access

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                       reason="needs REDIS_URL: the pipeline tests start a real Celery worker"),
    pytest.mark.server,
]

CHUNK_PAUSE = "0.4"  # seconds after each tenth of a run: long enough to kill a worker mid-run


@pytest.fixture(scope="module")
def workers(django_db_setup, django_db_blocker):
    started: list[CeleryWorker] = []
    queue = CeleryWorker().queue

    def start() -> CeleryWorker:
        worker = CeleryWorker(queue=queue, visibility_timeout=3,
                              extra_env={"SIMULATOR_CHUNK_PAUSE": CHUNK_PAUSE})
        worker.start()
        started.append(worker)
        return worker

    start.queue = queue
    yield start
    for worker in started:
        worker.cleanup()


@pytest.fixture
def pipeline(workers, transactional_db, settings):
    from config.celery import app

    assert not app.conf.task_always_eager
    settings.SIMULATOR_QUEUE = workers.queue
    return workers


def wait_for(run_id: int, predicate, timeout: float = 45) -> Run:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = Run.objects.get(pk=run_id)
        if predicate(run):
            return run
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} stuck: {Run.objects.filter(pk=run_id).values()[0]}")


def test_runs_go_through_the_queue_to_a_real_worker(pipeline):
    worker = pipeline()
    teacher = User.objects.create_user("ms-curie", password="radium-1898-Polonium")
    match = finished_qtris(teacher)
    class_table(teacher, match)
    run, created = services.request_run(services.RunRequest(match.pk, "aer", shots=400),
                                        teacher_access(match))
    assert created and run.status == Run.Status.QUEUED
    run = wait_for(run.pk, lambda r: r.status == Run.Status.DONE)
    assert sum(run.counts.values()) == 400 and run.attempts == 1 and run.completions == 1
    assert run.task_id
    again, created = services.request_run(services.RunRequest(match.pk, "aer", shots=400),
                                          teacher_access(match))
    assert not created and again.pk == run.pk
    noisy, _ = services.request_run(services.RunRequest(match.pk, "aer-noisy", shots=300,
                                                        device="fake_manila"), teacher_access(match))
    noisy = wait_for(noisy.pk, lambda r: not r.is_active)
    assert noisy.status == Run.Status.FAILED and "needs 9 qubits" in noisy.error
    # cancelling a running run: the worker stops at the next chunk
    long, _ = services.request_run(services.RunRequest(match.pk, "aer", shots=6000),
                                   teacher_access(match))
    wait_for(long.pk, lambda r: r.shots_done > 0)
    assert services.cancel_run(long)
    time.sleep(1.0)
    long.refresh_from_db()
    assert long.status == Run.Status.CANCELLED and long.completions == 0 and long.counts is None
    worker.stop()


def test_a_worker_killed_mid_run_the_run_finishes_exactly_once(pipeline):
    first = pipeline()
    teacher = User.objects.create_user("ms-curie", password="radium-1898-Polonium")
    match = finished_qtris(teacher, seed=9)
    class_table(teacher, match)
    run, _ = services.request_run(services.RunRequest(match.pk, "aer", shots=8000),
                                  teacher_access(match))
    wait_for(run.pk, lambda r: r.status == Run.Status.RUNNING and r.shots_done > 0)
    first.kill()
    run.refresh_from_db()
    assert run.status == Run.Status.RUNNING and run.completions == 0 and run.shots_done < 8000
    pipeline()  # a new worker: the unacknowledged message comes back after the visibility timeout
    run = wait_for(run.pk, lambda r: r.status == Run.Status.DONE, timeout=60)
    assert run.attempts == 2
    assert run.completions == 1
    assert sum(run.counts.values()) == 8000
    time.sleep(1.5)  # no late duplicate finishes it again
    run.refresh_from_db()
    assert run.completions == 1

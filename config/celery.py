"""The Celery app. Broker: Redis in production; in the embedded default tasks run eagerly
in-process (CELERY_TASK_ALWAYS_EAGER), so nothing else needs to run. A worker or beat refuses
to start on the built-in SECRET_KEY with DEBUG off, as the web server does."""
import os

from celery import Celery
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("quantum_classroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
@beat_init.connect
def refuse_insecure_start(**kwargs) -> None:
    """Fail closed like the web server: with DEBUG off no worker (nor beat) runs on the built-in
    SECRET_KEY (``core.checks``). SystemExit, because Celery only logs a handler's Exception."""
    from core.checks import insecure_start_problem

    problem = insecure_start_problem()
    if problem:
        raise SystemExit(f"Refusing to start: {problem}")

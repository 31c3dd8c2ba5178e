"""Fail closed: with DEBUG off the app will not run on the built-in SECRET_KEY.

``check --deploy`` reports it (``qc.E001``), and the ASGI application refuses to start
(``refuse_insecure_start``, called by ``config.asgi``)."""
from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

BUILTIN_KEY_MESSAGE = ("SECRET_KEY is the built-in development key. Set SECRET_KEY to a long random "
                       "string (or DEBUG=1 on a laptop).")


def insecure_start_problem() -> str | None:
    if not settings.DEBUG and settings.SECRET_KEY == settings.BUILTIN_SECRET_KEY:
        return BUILTIN_KEY_MESSAGE
    return None


@register(Tags.security, deploy=True)
def builtin_secret_key(app_configs=None, **kwargs):
    if settings.SECRET_KEY == settings.BUILTIN_SECRET_KEY:
        return [Error(BUILTIN_KEY_MESSAGE, id="qc.E001")]
    return []


@register(Tags.security, deploy=True)
def runs_in_a_worker(app_configs=None, **kwargs):
    if not settings.DEBUG and settings.CELERY_TASK_ALWAYS_EAGER:
        return [Warning("Circuit runs would execute inside the web process: set REDIS_URL (or CELERY_BROKER_URL) "
                        "and run Celery workers.", id="qc.W001")]
    return []


def refuse_insecure_start() -> None:
    problem = insecure_start_problem()
    if problem:
        raise ImproperlyConfigured(problem)

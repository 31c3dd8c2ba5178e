"""Fail closed: with DEBUG off the app will not run on the built-in SECRET_KEY, nor without its
static files collected.

``check --deploy`` reports them (``qc.E001``, ``qc.E002``), and the ASGI application refuses to
start (``refuse_insecure_start`` and ``refuse_uncollected_static``, called by ``config.asgi`` and
``manage.py serve``)."""
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


COLLECTSTATIC = "run manage.py collectstatic (after every update of the code)"


def uncollected_static_problem() -> str | None:
    """Production serves the collected, hashed static files (``core.staticfiles``): without them
    every page would fail on its first ``{% static %}``. So: the manifest exists and names every
    static file there is (none added since the last collectstatic)."""
    if not settings.STATIC_HASHED:
        return None
    from django.contrib.staticfiles.finders import get_finders
    from django.contrib.staticfiles.storage import staticfiles_storage

    try:
        collected = staticfiles_storage.load_manifest()[0]
    except ValueError as exc:  # an unreadable manifest
        return f"The static files' manifest in {settings.STATIC_ROOT} is unreadable ({exc}): {COLLECTSTATIC}."
    if not collected:
        return f"The static files are not collected in STATIC_ROOT ({settings.STATIC_ROOT}): {COLLECTSTATIC}."
    missing = sorted({path for finder in get_finders() for path, _storage in finder.list(["CVS", ".*", "*~"])
                      if path not in collected})
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        return (f"Static files not collected in STATIC_ROOT ({settings.STATIC_ROOT}): "
                f"{', '.join(missing[:3])}{more}: {COLLECTSTATIC}.")
    return None


@register(Tags.staticfiles, deploy=True)
def static_files_collected(app_configs=None, **kwargs):
    problem = uncollected_static_problem()
    return [Error(problem, id="qc.E002")] if problem else []


def refuse_uncollected_static() -> None:
    problem = uncollected_static_problem()
    if problem:
        raise ImproperlyConfigured(problem)

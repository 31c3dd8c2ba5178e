"""The one application error: a machine ``code``, a ``message`` a student can read and an HTTP
``status``. Services raise it; the REST API (``config.api.exception_handler``), the views and the
live sockets (``as_message``) turn it into a JSON body, a form error or an error message, with
the same code and words everywhere.

Engines raise their own ``IllegalAction(code, message)`` (they import no Django);
``from_illegal`` is the one place it becomes an ``AppError``.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.engines import IllegalAction, RulesVersionUnsupported
from games.engines.base import render_refusal

# codes whose status is the same wherever they are raised and not 400 (a refusal of the
# request as sent); a raise site may give its own status (joining a locked session: 403)
STATUS_BY_CODE = {
    "stale": 409,            # based on an old board: sync and try again
    "not_your_seat": 403,
    "not_finished": 403,
    "gone": 404,
    "rules_version": 410,    # a match recorded under rules this server no longer plays
    "internal": 500,
    "unavailable": 503,      # the database could not be reached: nothing applied, try again
}


class AppError(Exception):
    """A request the app refuses, and why: ``code`` (machine), ``message`` (for a student,
    already translated), ``status`` (HTTP; by default from ``STATUS_BY_CODE``, else 400)."""

    def __init__(self, code: str, message: str, status: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.status = status if status is not None else STATUS_BY_CODE.get(code, 400)

    def as_dict(self) -> dict[str, str]:
        """The JSON body of a refused API request."""
        return {"code": self.code, "message": self.message}

    def as_message(self, **extra: Any) -> dict[str, Any]:
        """The error message a socket sends (``extra``: e.g. the ``seq`` it answers)."""
        return {"type": "error", "code": self.code, "message": self.message, **extra}


def from_illegal(exc: IllegalAction) -> AppError:
    """An engine's refusal as the app's error (the engine's English words, translated where the
    catalogue has them)."""
    msgid, params = getattr(exc, "msgid", exc.message), getattr(exc, "params", None)
    try:
        # a parameter that is itself a msgid ("kitten turned right", a game's name, a map's
        # problems) is translated too
        message = render_refusal(msgid, params, gettext)
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
        message = exc.message
    return AppError(exc.code, message, 409 if exc.code == "stale" else 400)


__all__ = ["STATUS_BY_CODE", "AppError", "from_illegal"]


def database_unavailable() -> AppError:
    """The answer to a request made while PostgreSQL is unreachable (down, restarting): nothing
    was applied (the transaction never committed); the same request later succeeds or is "stale"."""
    return AppError("unavailable", gettext("The server could not reach its database: your move was not "
                                           "applied. Try again in a moment."))


def rules_version_refused(exc: RulesVersionUnsupported) -> AppError:
    """A match recorded under a rules version the engine no longer plays, refused in words (its
    replay, statistics and moves are not re-run under other rules)."""
    from games.names import game_name

    return AppError("rules_version", gettext(
        "This game was played under version %(version)s of the rules of %(game)s, which this "
        "server no longer plays: it cannot be replayed or continued.")
        % {"version": exc.version, "game": game_name(exc.slug)})

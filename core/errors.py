"""The one application error: a machine ``code``, a ``message`` a person can read and an HTTP
``status``. Services raise it; the REST API (``core.api.exception_handler``), the views and the
live sockets (``as_message``) turn it into a JSON body, a form error or an error message, with
the same code and words everywhere. (An engine's refusal becomes one in ``games.errors``.)
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

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



def database_unavailable() -> AppError:
    """The answer to a request made while PostgreSQL is unreachable (down, restarting): nothing
    was applied (the transaction never committed); the same request later succeeds or is "stale"."""
    return AppError("unavailable", gettext("The server could not reach its database: your move was not "
                                           "applied. Try again in a moment."))


__all__ = ["STATUS_BY_CODE", "AppError", "database_unavailable"]

"""Engines' refusals as the app's one error (``core.errors.AppError``, re-exported here).

Engines raise their own ``IllegalAction(code, message)`` (they import no Django);
``from_illegal`` is the one place it becomes an ``AppError``.
"""
from __future__ import annotations

from django.utils.translation import gettext, ngettext

from core.errors import STATUS_BY_CODE, AppError, database_unavailable
from games.engines import IllegalAction, RulesVersionUnsupported
from games.engines.base import render_refusal


def from_illegal(exc: IllegalAction) -> AppError:
    """An engine's refusal as the app's error (the engine's English words, translated where the
    catalogue has them)."""
    msgid, params = getattr(exc, "msgid", exc.message), getattr(exc, "params", None)
    try:
        # a parameter that is itself a msgid ("kitten turned right", a game's name, a map's
        # problems) is translated too
        message = render_refusal(msgid, params, gettext, ngettext)
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
        message = exc.message
    return AppError(exc.code, message, 409 if exc.code == "stale" else 400)


__all__ = ["STATUS_BY_CODE", "AppError", "database_unavailable", "from_illegal", "rules_version_refused"]


def rules_version_refused(exc: RulesVersionUnsupported) -> AppError:
    """A match recorded under a rules version the engine no longer plays, refused in words (its
    replay, statistics and moves are not re-run under other rules)."""
    from games.names import game_name

    return AppError("rules_version", gettext(
        "This game was played under version %(version)s of the rules of %(game)s, which this "
        "server no longer plays: it cannot be replayed or continued.")
        % {"version": exc.version, "game": game_name(exc.slug)})

"""Signals of the games app, for apps that follow matches (the classrooms' live dashboard).

``match_changed`` is sent after the commit of a change to a match's log or status, with
``match_id`` and ``status_changed`` (the match started, finished or was stopped), and where a
call of the move service made it, ``snapshot`` (the match afterwards) and ``applied``
(``games.services.Applied``: the log length before the call and the person's move, if any)."""
from __future__ import annotations

from django.dispatch import Signal

match_changed = Signal()

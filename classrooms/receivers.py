"""The dashboard follows the matches of its tables: a move, a start, an end."""
from __future__ import annotations

from django.dispatch import receiver

from classrooms.broadcast import announce_session_changed
from classrooms.models import Table
from games.signals import match_changed


@receiver(match_changed)
def table_changed(sender, match_id: int, status_changed: bool = False, snapshot=None, **kwargs) -> None:
    """Runs after the commit of the change. A move concerns only the teacher's dashboard; a match
    that ended concerns its students' lobbies too. The match's ``snapshot`` (if any) goes along,
    so the teacher's sockets in another process need not rebuild its state from the log."""
    # (order_by(): not the tables' default order, whose join to the session costs every move)
    session_id = Table.objects.filter(match_id=match_id).order_by().values_list("session_id", flat=True).first()
    if session_id is not None:
        announce_session_changed(session_id, teacher_only=not status_changed, snapshot=snapshot)

"""Retention: a class session nobody used for ``SESSION_IDLE_DAYS`` (default 30: no student joined,
no table was started, no move was made) ends by itself, and ended class sessions' student data
goes ``RETENTION_DAYS`` (default 365) after they ended,
homework due longer ago goes with its games (``classrooms.homework.purge_overdue``), class
members (cards) who joined no session for as long go with all their data (their homework games
too), and expired
browser sessions are cleared. Run daily by Celery beat
(``classrooms.tasks.purge_expired_data``) or by ``manage.py purge_expired``."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from classrooms import cards, homework, services
from classrooms.models import ClassSession, Participant
from games.models import Action, Match


def last_activity(session: ClassSession) -> object:
    """When the session was last used: opened, joined, a table's match made, a move."""
    return max(t for t in (session.created_at, session.last_join, session.last_match, session.last_move)
               if t is not None)


def end_idle_sessions(now=None) -> int:
    """End every live session (homework's excepted: its assignment's due date rules it) unused for
    ``SESSION_IDLE_DAYS``, as the teacher's "end" would (its unfinished games are abandoned);
    the retention period counts from now. Returns how many ended."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.SESSION_IDLE_DAYS)
    latest = lambda qs, field: Subquery(qs.order_by(f"-{field}").values(field)[:1])  # noqa: E731
    candidates = (ClassSession.objects.exclude(status=ClassSession.Status.ENDED)
                  .exclude(format=ClassSession.Format.HOMEWORK).filter(created_at__lt=cutoff)
                  .annotate(last_join=latest(Participant.objects.filter(session=OuterRef("pk")), "joined_at"),
                            last_match=latest(Match.objects.filter(table__session=OuterRef("pk")), "created_at"),
                            last_move=latest(Action.objects.filter(match__table__session=OuterRef("pk")),
                                             "created_at")))
    ended = 0
    for session in candidates.iterator():
        if last_activity(session) < cutoff:
            services.set_status(session, ClassSession.Status.ENDED)
            ClassSession.objects.filter(pk=session.pk).update(ended_at=now)  # (the purge's "now")
            ended += 1
    return ended


def purge_expired(now=None) -> dict:
    """Delete ended sessions older than the retention period (participants, tables, matches,
    seats, logs, runs: everything ``services.delete_session`` deletes) and expired Django
    sessions. Returns what was deleted."""
    now = now or timezone.now()
    idle_ended = end_idle_sessions(now)
    cutoff = now - timedelta(days=settings.RETENTION_DAYS)
    expired = ClassSession.objects.filter(status=ClassSession.Status.ENDED, ended_at__lt=cutoff)
    sessions = 0
    for session in expired.iterator():
        services.delete_session(session)
        sessions += 1
    # homework due longer ago than the retention period, with every game played for it
    assignments = homework.purge_overdue(now)
    # class members (cards) who joined nothing for the retention period, with all their data
    members = cards.purge_inactive_members(now)
    browser_sessions, _ = Session.objects.filter(expire_date__lt=now).delete()
    return {"idle_sessions_ended": idle_ended, "class_sessions": sessions, "assignments": assignments, "class_members": members, "browser_sessions": browser_sessions}

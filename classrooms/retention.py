"""Retention: ended class sessions' student data goes after ``RETENTION_DAYS`` (default 365),
homework due longer ago goes with its games (``classrooms.homework.purge_overdue``), class
members (cards) who joined no session for as long go with all their data (their homework games
too), and expired
browser sessions are cleared. Run daily by Celery beat
(``classrooms.tasks.purge_expired_data``) or by ``manage.py purge_expired``."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from classrooms import cards, homework, services
from classrooms.models import ClassSession


def purge_expired(now=None) -> dict:
    """Delete ended sessions older than the retention period (participants, tables, matches,
    seats, logs, runs: everything ``services.delete_session`` deletes) and expired Django
    sessions. Returns what was deleted."""
    now = now or timezone.now()
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
    return {"class_sessions": sessions, "assignments": assignments, "class_members": members, "browser_sessions": browser_sessions}

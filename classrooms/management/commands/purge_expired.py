"""``manage.py purge_expired``: the retention policy now (what Celery beat runs daily)."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from classrooms.retention import purge_expired


class Command(BaseCommand):
    help = ("End class sessions idle for SESSION_IDLE_DAYS; delete ended class sessions older than "
            "RETENTION_DAYS, class members inactive for as long, "
            "homework due as long ago and expired browser sessions.")

    def handle(self, *args, **options):
        done = purge_expired()
        self.stdout.write(f"Ended {done['idle_sessions_ended']} idle class session(s). "
                          f"Deleted {done['class_sessions']} ended class session(s), "
                          f"{done['assignments']} long overdue homework, "
                          f"{done['class_members']} inactive class member(s) and "
                          f"{done['browser_sessions']} expired browser session(s).")

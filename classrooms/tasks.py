"""Periodic tasks (Celery beat: CELERY_BEAT_SCHEDULE in settings)."""
from __future__ import annotations

from celery import shared_task

from classrooms.retention import purge_expired


@shared_task(name="classrooms.purge_expired_data")
def purge_expired_data() -> dict:
    return purge_expired()

"""The Celery app. Broker: Redis in production; in the embedded default tasks run eagerly
in-process (CELERY_TASK_ALWAYS_EAGER), so nothing else needs to run."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("quantum_classroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

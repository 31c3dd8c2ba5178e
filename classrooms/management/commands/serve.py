"""``manage.py serve``: migrate, make sure the demo teacher exists, print the URL and login,
then run the ASGI server (HTTP + WebSockets)."""
from __future__ import annotations

import os

from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand

DEMO_USER = "teacher"
DEMO_PASSWORD = "quantum-demo"


class Command(BaseCommand):
    help = "Run Quantum Classroom on its embedded default (or whatever the environment configures)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--no-demo", action="store_true", help="do not create the demo teacher")

    def handle(self, *args, host: str, port: int, no_demo: bool, **options):
        call_command("migrate", interactive=False, verbosity=0)
        if not no_demo and not User.objects.filter(username=DEMO_USER).exists():
            User.objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
        self.stdout.write(self.style.SUCCESS(f"Quantum Classroom: http://{host}:{port}/"))
        if not no_demo:
            self.stdout.write(f"Demo teacher login: {DEMO_USER} / {DEMO_PASSWORD}")
        self.stdout.write(f"Students join at http://{host}:{port}/join/")
        from daphne.cli import CommandLineInterface

        CommandLineInterface().run(["-b", host, "-p", str(port), "config.asgi:application"])

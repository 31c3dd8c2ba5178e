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
        parser.add_argument("--lan", action="store_true", default=os.environ.get("SERVE_LAN", "") in {"1", "true", "yes"},
                            help="serve the local network (listen on 0.0.0.0): students' phones open the join "
                                 "link at this machine's LAN address (make run does this)")

    def handle(self, *args, host: str, port: int, no_demo: bool, lan: bool = False, **options):
        call_command("migrate", interactive=False, verbosity=0)
        shown = host
        if lan:
            from classrooms.join_link import admit_lan_address, lan_address

            address = lan_address()
            host = "0.0.0.0"
            if address:
                admit_lan_address(address)
                shown = address
            else:
                self.stdout.write(self.style.WARNING(
                    "No local network address found: phones cannot reach this machine. Set PUBLIC_URL if "
                    "students reach it another way."))
        if not no_demo and not User.objects.filter(username=DEMO_USER).exists():
            User.objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
        self.stdout.write(self.style.SUCCESS(f"Quantum Classroom: http://{shown}:{port}/"))
        if not no_demo:
            self.stdout.write(f"Demo teacher login: {DEMO_USER} / {DEMO_PASSWORD}")
        self.stdout.write(f"Students join at http://{shown}:{port}/join/")
        from daphne.cli import CommandLineInterface

        CommandLineInterface().run(["-b", host, "-p", str(port), "config.asgi:application"])

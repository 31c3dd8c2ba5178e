"""``manage.py serve``: migrate, in development make sure the demo teacher exists (with a
random password generated for this database), print the URL and login, then run the ASGI
server (HTTP + WebSockets). With DEBUG off there is no demo teacher and the built-in
SECRET_KEY is refused."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from config.checks import refuse_insecure_start

DEMO_USER = "teacher"
DEMO_PASSWORD_FILE = Path(settings.BASE_DIR) / ".demo-teacher-password"


def demo_teacher_password() -> str:
    """The demo teacher's password for this database: the one saved beside the project if it
    still opens this database's demo account, else a new random one (saved for next time)."""
    user = User.objects.filter(username=DEMO_USER).first()
    try:
        saved = DEMO_PASSWORD_FILE.read_text().strip()
    except OSError:
        saved = ""
    if user is not None and saved and user.check_password(saved):
        return saved
    password = secrets.token_urlsafe(12)
    if user is None:
        User.objects.create_user(DEMO_USER, password=password)
    else:
        user.set_password(password)
        user.save(update_fields=["password"])
    DEMO_PASSWORD_FILE.write_text(password + "\n")
    DEMO_PASSWORD_FILE.chmod(0o600)
    return password


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
        try:
            refuse_insecure_start()
        except ImproperlyConfigured as exc:  # a clear line, not a traceback
            raise CommandError(str(exc)) from exc
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
        demo = settings.DEBUG and not no_demo  # never a demo account in production
        password = demo_teacher_password() if demo else ""
        self.stdout.write(self.style.SUCCESS(f"Quantum Classroom: http://{shown}:{port}/"))
        if demo:
            self.stdout.write(f"Demo teacher login: {DEMO_USER} / {password}")
        self.stdout.write(f"Students join at http://{shown}:{port}/join/")
        from daphne.cli import CommandLineInterface

        CommandLineInterface().run(["-b", host, "-p", str(port), "config.asgi:application"])

"""``manage.py serve``: migrate, in development make sure the demo teacher exists (with a
random password generated for this database), print the URL and login, then run the ASGI
server (HTTP + WebSockets). With DEBUG off there is no demo teacher and the built-in
SECRET_KEY is refused.

``--workers N`` (production, or ``WEB_CONCURRENCY``): N daphne processes behind ONE port. The
listening socket is bound once here and inherited by every worker (``daphne --fd``); the kernel
hands each new connection to one of them. This process stays as a small supervisor: a worker that
dies is started again (at most ``MAX_RESTARTS`` times a minute, then the whole server stops with
an error rather than flap), SIGTERM/SIGINT stop all workers. More than one worker needs a shared
channel layer (Redis): with the in-memory layer each process would have its own groups and a move
made on one worker would never reach a socket held by another, so that is refused.
``--workers 1`` (the default, ``make run``) is daphne in this process, as before. ``--lan``
admits this machine's LAN address (the one printed) in every worker: it is handed to them in
their environment (``LAN_ADDRESS``, read by the settings), as one named there is used as it is.
``--server uvicorn`` (``pip install 'uvicorn[standard]'``, the ``uvicorn`` extra) runs uvicorn
workers the same way (``uvicorn --fd``), without its proxy-header handling (the app believes
``X-Forwarded-For`` from ``TRUSTED_PROXIES`` only)."""
from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from core.checks import refuse_insecure_start, refuse_uncollected_static

DEMO_USER = "teacher"
DEMO_PASSWORD_FILE = Path(settings.BASE_DIR) / ".demo-teacher-password"
MAX_RESTARTS = 5  # per worker slot and minute
SHARED_LAYER_REQUIRED = (
    "--workers %(n)s needs a shared channel layer: set REDIS_URL (with the in-memory layer each "
    "worker has its own groups and moves made on one worker never reach sockets on another). "
    "Use --workers 1 on the embedded default.")


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
        parser.add_argument("--server", choices=["daphne", "uvicorn"], default=os.environ.get("ASGI_SERVER", "daphne"),
                            help="the ASGI server of each worker (uvicorn needs the uvicorn extra)")
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "1")),
                            help="ASGI processes behind the one port (more than 1 needs REDIS_URL)")

    def handle(self, *args, host: str, port: int, no_demo: bool, lan: bool = False, workers: int = 1,
               server: str = "daphne", **options):
        try:
            refuse_insecure_start()
            refuse_uncollected_static()
        except ImproperlyConfigured as exc:  # a clear line, not a traceback
            raise CommandError(str(exc)) from exc
        if workers < 1:
            raise CommandError("--workers must be at least 1")
        if workers > 1 and settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
            raise CommandError(SHARED_LAYER_REQUIRED % {"n": workers})
        if server == "uvicorn":
            try:
                import uvicorn  # noqa: F401
            except ImportError as exc:
                raise CommandError("--server uvicorn needs uvicorn: pip install 'uvicorn[standard]'") from exc
        call_command("migrate", interactive=False, verbosity=0)
        shown = host
        if lan:
            from core.lan import admit_lan_address, lan_address

            address = settings.LAN_ADDRESS or lan_address()  # (named in the environment: that one)
            host = "0.0.0.0"
            if address:
                admit_lan_address(address)
                os.environ["LAN_ADDRESS"] = address  # the workers' settings admit it too
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
        if workers > 1 or server != "daphne":
            self.supervise(host, port, workers, server)
            return
        from daphne.cli import CommandLineInterface

        CommandLineInterface().run(["-b", host, "-p", str(port), "config.asgi:application"])

    def supervise(self, host: str, port: int, workers: int, server: str = "daphne") -> None:
        """Bind the port once, run ``workers`` server processes on it, restart any that dies."""
        from django.db import connections

        connections.close_all()  # the workers open their own
        listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((host, port))
        except OSError as exc:
            raise CommandError(f"cannot listen on {host}:{port}: {exc}") from exc
        listener.listen(2048)
        listener.set_inheritable(True)
        fd = listener.fileno()
        command = [sys.executable, "-m", "daphne", "--fd", str(fd), "config.asgi:application"]
        if server == "uvicorn":
            command = [sys.executable, "-m", "uvicorn", "--fd", str(fd), "--lifespan", "off", "--no-proxy-headers",
                       "--no-access-log", "--log-level", "warning", "config.asgi:application"]
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)

        def spawn() -> subprocess.Popen:
            return subprocess.Popen(command, pass_fds=(fd,), cwd=settings.BASE_DIR)

        procs = [spawn() for _ in range(workers)]
        restarts: list[list[float]] = [[] for _ in range(workers)]
        self.stdout.write(f"{workers} workers on {host}:{port} (pids {' '.join(str(p.pid) for p in procs)})")
        self.stdout.flush()
        failed = ""
        try:
            while not stopping and not failed:
                time.sleep(0.5)
                for slot, proc in enumerate(procs):
                    code = proc.poll()
                    if code is None or stopping:
                        continue
                    now = time.monotonic()
                    restarts[slot] = [t for t in restarts[slot] if now - t < 60] + [now]
                    if len(restarts[slot]) > MAX_RESTARTS:
                        failed = f"worker {slot} exited {MAX_RESTARTS + 1} times within a minute (last code {code})"
                        break
                    procs[slot] = spawn()
                    self.stderr.write(f"worker {slot} (pid {proc.pid}) exited with {code}: "
                                      f"restarted as pid {procs[slot].pid}")
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
            deadline = time.monotonic() + 10
            for proc in procs:
                try:
                    proc.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            listener.close()
        if failed:
            raise CommandError(failed)

"""Start and stop a real server process (daphne, the production ASGI server) on the test
database, for tests that speak HTTP and WebSocket to it the way browsers do."""
from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


COLLECTED = ROOT / ".static-collected"
_collected: dict[str, Path] = {}


def _static_key(settings_module: str) -> str:
    """What the collected files depend on: the project's (and the tests') static files, the
    storage, and the packages that bring static files of their own."""
    digest = hashlib.sha256(settings_module.encode())
    for package in ("django", "servestatic", "djangorestframework", "drf-spectacular", "drf-spectacular-sidecar"):
        digest.update(f"{package}={version(package)};".encode())
    digest.update((ROOT / "core" / "staticfiles.py").read_bytes())
    for directory in [ROOT / "static", *sorted((ROOT / "tests").glob("**/static"))]:
        for path in sorted(p for p in directory.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


DEVELOPMENT_VALUES = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE", "STATIC_HASHED"}


def fresh_shell_env(**extra: str) -> dict[str, str]:
    """The environment of a fresh shell on a server (none of the development values the tests
    set: the app's production defaults), with ``extra``."""
    return {k: v for k, v in os.environ.items() if k not in DEVELOPMENT_VALUES} | extra


def collected_static_root(settings_module: str = "config.settings_test") -> Path:
    """A STATIC_ROOT collected by production's storage (hashed names, rewritten imports, gzip) for
    the servers of ``settings_module``. ``collectstatic`` runs once per change of what it
    depends on: the directory is named by that, shared by the test processes (and runs) until
    the files change; made under another name and renamed, so a process never sees half of it."""
    if settings_module in _collected:
        return _collected[settings_module]
    root = COLLECTED / f"{settings_module}-{_static_key(settings_module)}"
    if not (root / "staticfiles.json").exists():
        COLLECTED.mkdir(exist_ok=True)
        building = COLLECTED / f".{root.name}-{os.getpid()}"
        env = dict(os.environ, DJANGO_SETTINGS_MODULE=settings_module, DEBUG="1", STATIC_HASHED="1",
                   STATIC_ROOT=str(building))
        done = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        if done.returncode:
            shutil.rmtree(building, ignore_errors=True)
            raise RuntimeError(f"collectstatic failed: {done.stderr[-3000:]}")
        try:
            building.rename(root)
        except OSError:  # another process made it first
            shutil.rmtree(building, ignore_errors=True)
        for old in COLLECTED.iterdir():  # other versions of the files, untouched for 3 hours (34 MB each)
            if old != root and time.time() - old.stat().st_mtime > 3 * 3600:
                shutil.rmtree(old, ignore_errors=True)
    os.utime(root)  # (in use: not "untouched")
    _collected[settings_module] = root
    return root


class LiveServer:
    def __init__(self, port: int | None = None, extra_env: dict[str, str] | None = None,
                 bind: str = "127.0.0.1"):
        self.port = port or free_port()
        self.bind = bind  # "0.0.0.0": reachable at this machine's LAN address too
        self.extra_env = extra_env or {}
        self.process: subprocess.Popen | None = None
        self.log_path = ROOT / f".server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["DATABASE_URL"] = test_database_url()
        # the test settings: the development values and the tests' fast password hasher (a
        # teacher's login checks in microseconds); extra_env may name another module
        env["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        env.setdefault("DEBUG", "1")  # development values: plain HTTP, the built-in key
        env.setdefault("JOIN_WRONG_CODES_PER_MINUTE", "10")
        # every simulated student of the run comes from 127.0.0.1, one browser may play several
        # sessions in a minute: the join caps are tested in-process (tests/test_security.py)
        env.setdefault("JOIN_NEW_PARTICIPANTS_PER_BROWSER_PER_MINUTE", "20")
        env.setdefault("JOIN_NEW_PARTICIPANTS_PER_ADDRESS_PER_MINUTE", "2000")
        # production's static files: hashed names (the scripts' imports rewritten), ServeStatic
        env.setdefault("STATIC_HASHED", "1")
        env.update(self.extra_env)
        if env["STATIC_HASHED"] == "1" and "STATIC_ROOT" not in self.extra_env:
            env["STATIC_ROOT"] = str(collected_static_root(env["DJANGO_SETTINGS_MODULE"]))
        return env

    def start(self) -> None:
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", self.bind, "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT)
        # seconds on a quiet machine; a worker's first server starts beside the other workers'
        # servers, Celery workers and Chromiums, all importing at once on two cores. A server that
        # failed to start fails every later test of its worker (a session fixture), so the wait is
        # long rather than tight
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start in {START_SECONDS} s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self.log_path.unlink(missing_ok=True)

    def kill(self) -> None:
        """A hard stop, as a crash would be: nothing is flushed or closed politely."""
        if self.process:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.kill()
        self.start()

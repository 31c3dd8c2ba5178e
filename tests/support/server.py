"""Start and stop a real server process (daphne, the production ASGI server) on the test
database, for tests that speak HTTP and WebSocket to it the way browsers do."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


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
        env.update(self.extra_env)
        return env

    def start(self) -> None:
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", self.bind, "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start in 30 s")

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

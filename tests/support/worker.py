"""A real Celery worker process on the test database and REDIS_URL, for pipeline tests.

``celery -A tests.support.worker:app worker`` loads the project's Celery app and gives the
Redis transport a short visibility timeout (env ``TEST_VISIBILITY_TIMEOUT``), so that a
message whose worker was killed mid-task is delivered again within seconds, not an hour.
Each test session uses its own queue so that it never meets another process's tasks.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def __getattr__(name: str):
    if name == "app":
        from config.celery import app

        timeout = int(os.environ.get("TEST_VISIBILITY_TIMEOUT", "3"))
        app.conf.broker_transport_options = {
            "visibility_timeout": timeout, "unacked_restore_interval": 1,
            "unacked_restore_throttle": 1}
        return app
    raise AttributeError(name)


class CeleryWorker:
    def __init__(self, queue: str | None = None, visibility_timeout: int = 3,
                 extra_env: dict[str, str] | None = None):
        self.queue = queue or f"qc-test-{uuid.uuid4().hex[:8]}"
        self.visibility_timeout = visibility_timeout
        self.extra_env = extra_env or {}
        self.process: subprocess.Popen | None = None
        self.log_path = ROOT / f".worker-{self.queue}.log"

    def env(self) -> dict[str, str]:
        from tests.support.server import test_database_url

        env = dict(os.environ)
        env["DATABASE_URL"] = test_database_url()
        env["DJANGO_SETTINGS_MODULE"] = "config.settings"
        env["CELERY_QUEUE"] = self.queue
        env["DB_CONN_MAX_AGE"] = "0"
        env["TEST_VISIBILITY_TIMEOUT"] = str(self.visibility_timeout)
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        env.update(self.extra_env)
        return env

    def start(self, ready_timeout: float = 120) -> None:
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tests.support.worker:app", "worker",
             "--pool=solo", "-Q", self.queue, "-n", f"{self.queue}-{uuid.uuid4().hex[:4]}@%h",
             "--loglevel=INFO", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=self.env(), stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited: {self.log_path.read_text()[-3000:]}")
            if b" ready." in self.log_path.read_bytes():
                return
            time.sleep(0.2)
        raise RuntimeError(f"worker not ready in {ready_timeout} s: {self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: a crash, nothing acknowledged or cleaned up."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def cleanup(self) -> None:
        self.stop()
        self.log_path.unlink(missing_ok=True)
        try:
            import redis

            client = redis.Redis.from_url(os.environ["REDIS_URL"])
            client.delete(self.queue)
        except Exception:
            pass

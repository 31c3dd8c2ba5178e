"""A PostgreSQL cluster and a redis-server of a test's own, on spare ports, that the test may stop
and start again (the fault tests): never the machine's shared services."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.support.server import free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def available() -> bool:
    """The binaries are here, and we may run them as user postgres (runuser needs root)."""
    return os.geteuid() == 0 and (PG_BIN / "initdb").exists() and Path(REDIS_SERVER).exists() and shutil.which("runuser") is not None


def wait_port(port: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.3):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


class Postgres:
    """A throwaway cluster run as user ``postgres`` (initdb refuses root), trust auth, fsync off."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="qc-faults-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        shutil.chown(self.dir, "postgres", "postgres")
        os.chmod(self.dir, 0o755)

    def _as_postgres(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["runuser", "-u", "postgres", "--", *args], check=check,
                              capture_output=True, text=True, cwd=self.dir)

    def init(self, database: str = "qc") -> None:
        self._as_postgres(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                          "--no-sync", "-E", "UTF8")
        self.start()
        self._as_postgres(str(PG_BIN / "createdb"), "-h", str(self.dir), "-p", str(self.port), "-U",
                          "postgres", database)

    def url(self, database: str = "qc") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
        self._as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
                          "-w", "-t", "30", "start")

    def stop(self) -> None:
        self._as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A redis-server subprocess, nothing saved; a restart is a SIGKILL and a fresh start (empty)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    cleanup = kill

"""``manage.py serve --workers N``: N daphne processes behind one port.

Runs against real PostgreSQL and Redis (a database and a Redis db + prefix of its own, never the
suite's), the two-worker test is skipped unless DATABASE_URL (PostgreSQL) and REDIS_URL are set; the
refusal without Redis runs everywhere."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
DB_NAME = f"qc_serve_workers_test_{os.getpid()}"  # (a run's own: runs side by side do not share it)
PREFIX = "qcserveworkers"

needs_services = [
    pytest.mark.server,
    pytest.mark.skipif(not os.environ.get("REDIS_URL")
                       or not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
                       reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: serves several real workers"),
]

SEED = """
import json
from django.contrib.sessions.backends.db import SessionStore
from games import services
from games.access import PARTICIPANT_IDS_KEY
cookies = []
for pid in (1, 2):
    s = SessionStore(); s[PARTICIPANT_IDS_KEY] = [pid]; s.create(); cookies.append(s.session_key)
match = services.create_match("quantum-tictactoe", [services.SeatHolder(f"S{pid}", participant_id=pid) for pid in (1, 2)])
services.start_match(match.pk)
print(json.dumps({"cookies": cookies, "match": match.pk}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_db_of_our_own() -> str:
    """The Redis database after those of the run's xdist workers (config/settings_test.py gives
    each worker the URL's number plus its own): no worker's cache clearing reaches it."""
    parts = urlsplit(os.environ["REDIS_URL"])
    db = int(parts.path.strip("/") or 0)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw"):  # (the worker's own is already its URL's: the run's base + worker)
        db += int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    else:
        db += 1
    return urlunsplit(parts._replace(path=f"/{db % 16}"))


@pytest.fixture
def served_env():
    import psycopg

    base = urlsplit(os.environ["DATABASE_URL"])
    with psycopg.connect(urlunsplit(base._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update({"DATABASE_URL": urlunsplit(base._replace(path="/" + DB_NAME)), "REDIS_URL": redis_db_of_our_own(),
                "CHANNELS_PREFIX": PREFIX, "CACHE_PREFIX": PREFIX, "DJANGO_SETTINGS_MODULE": "config.settings",
                "DEBUG": "1", "SOCKETS_PER_BROWSER": "100"})
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    yield env
    with psycopg.connect(urlunsplit(base._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def accepting(pid: int) -> bool:
    """The worker's event loop watches the port's socket (``--fd N`` of its command line): it
    accepts connections (from /proc: an epoll instance of the process lists N)."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        port_fd = args[args.index(b"--fd") + 1].decode()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            if os.readlink(fd) == "anon_inode:[eventpoll]":
                watched = Path(f"/proc/{pid}/fdinfo/{fd.name}").read_text().split("\n")
                if any(line.startswith(f"tfd: {port_fd:>8} ") for line in watched):
                    return True
    except (OSError, ValueError):  # (a process starting or gone)
        pass
    return False


def worker_pids(supervisor: int) -> list[int]:
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    return [int(c) for c in children]


def established_by_pid(port: int, pids: list[int]) -> dict[int, int]:
    """How many established connections on ``port`` each worker process holds (from /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                inodes.add(fields[9])
    held = {}
    for pid in pids:
        fds = Path(f"/proc/{pid}/fd")
        count = 0
        for fd in fds.iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                count += 1
        held[pid] = count
    return held


@needs_services[0]
@needs_services[1]
def test_two_workers_one_port_share_a_match(served_env):
    import websockets

    seeded = subprocess.run([sys.executable, "manage.py", "shell", "-c", SEED], cwd=ROOT, env=served_env,
                            check=True, capture_output=True, text=True)
    data = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "serve", "--workers", "2", "--port", str(port),
                               "--no-demo"], cwd=ROOT, env=served_env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        # the supervisor's port takes connections at once; each worker serves them once its event
        # loop watches the port, which under load can come a while after the other's
        deadline = time.monotonic() + 90
        while len([pid for pid in worker_pids(server.pid) if accepting(pid)]) < 2:
            assert server.poll() is None and time.monotonic() < deadline, server.stdout.read()
            time.sleep(0.2)
        pids = worker_pids(server.pid)
        assert len(pids) == 2

        async def play() -> dict[int, int]:
            url = f"ws://127.0.0.1:{port}/ws/matches/{data['match']}/"
            origin = f"http://127.0.0.1:{port}"

            async def connect(cookie):
                return await websockets.connect(url, origin=origin, additional_headers={
                    "Cookie": f"sessionid={cookie}"}, open_timeout=30)

            async def state_after(ws, seq):
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if message["type"] == "state" and message["seq"] > seq:
                        return message

            # several sockets of each player, so that both processes hold some of them
            first = [await connect(data["cookies"][0]) for _ in range(6)]
            second = [await connect(data["cookies"][1]) for _ in range(6)]
            states = [await state_after(ws, -1) for ws in first + second]
            held = established_by_pid(port, pids)
            # which process accepts is the kernel's choice: a few more sockets if one took them all
            while min(held.values()) == 0 and len(first) + len(second) < 40:
                side = 0 if len(first) <= len(second) else 1
                ws = await connect(data["cookies"][side])
                (first, second)[side].append(ws)
                state = await state_after(ws, -1)
                states = states[:len(first) - 1] + [state] + states[len(first) - 1:] if side == 0 else states + [state]
                held = established_by_pid(port, pids)
            mover = next(ws for ws, st in zip(first + second, states, strict=True) if st["legal"])
            start = states[0]["seq"]
            action = next(st for st in states if st["legal"])["legal"][0]
            await mover.send(json.dumps({"type": "act", "seq": start, "action": action}))
            # every socket of both players, on whichever process, receives the move
            after = [await state_after(ws, start) for ws in first + second]
            assert len({st["seq"] for st in after}) == 1
            for ws in first + second:
                await ws.close()
            return held

        held = asyncio.run(play())
        assert sum(held.values()) >= 12
        assert all(count > 0 for count in held.values()), f"one process held every socket: {held}"

        # a worker that dies is started again, and the port keeps serving
        os.kill(pids[0], signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            now = worker_pids(server.pid)
            if len(now) == 2 and pids[0] not in now:
                break
            time.sleep(0.2)
        assert len(now) == 2 and pids[0] not in now and pids[1] in now, now
        pids = now
        for _ in range(6):  # both processes answer (one of them the new one)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/join/", timeout=30) as response:
                assert response.status == 200
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
    # the supervisor stopped its workers with it
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_several_workers_refused_without_redis():
    env = dict(os.environ)
    for name in ("REDIS_URL", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1"})
    result = subprocess.run([sys.executable, "manage.py", "serve", "--workers", "2", "--port", str(free_port()),
                             "--no-demo"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "--workers 2 needs a shared channel layer: set REDIS_URL" in result.stderr

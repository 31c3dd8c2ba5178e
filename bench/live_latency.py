#!/usr/bin/env python
"""Live-play latency on the real stack: ASGI server processes (daphne), PostgreSQL, the Redis
channel layer, and simulated students playing Quantum tic-tac-toe over real WebSockets.

Measures the time from sending an action to receiving its broadcast (the new state), and the
same round trip against a bare echo socket served by the same server processes (the floor).
Needs DATABASE_URL (PostgreSQL; a database ``qc_bench`` is made afresh beside it) and REDIS_URL.

    .venv/bin/python bench/live_latency.py --clients 300 --seconds 40

Last line: ``live-latency: clients=N p50_ms=… p99_ms=… floor_p50_ms=… floor_p99_ms=… ratio_p99=…``
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BENCH_DB = os.environ.get("BENCH_DB", "qc_bench")  # two benches at once: give each its own
BENCH_PREFIX = os.environ.get("BENCH_PREFIX", "qcbench")
RAMP_UP_SECONDS = 5  # students connect over a few seconds, as a class does


def bench_env() -> dict[str, str]:
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    if not base.startswith(("postgres://", "postgresql://")):
        sys.exit("live_latency needs PostgreSQL: set DATABASE_URL=postgres://…")
    parts = urlsplit(base)
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": urlunsplit(parts._replace(path="/" + BENCH_DB)),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "CHANNELS_PREFIX": BENCH_PREFIX, "CACHE_PREFIX": BENCH_PREFIX, "ECHO_SOCKET": "1",
        "DEBUG": "0", "SECRET_KEY": "bench-" + "k" * 60, "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0", "DJANGO_SETTINGS_MODULE": "config.settings",
        "DB_CONN_MAX_AGE": "60",
        # simulated students open many sockets each and stay quiet between moves
        "SOCKETS_PER_BROWSER": "1000", "SOCKET_IDLE_SECONDS": "3600",
    })
    return env


def recreate_database(env: dict[str, str]) -> None:
    import psycopg

    admin = urlunsplit(urlsplit(env["DATABASE_URL"])._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)


def seat_students(pairs: int, matches_per_pair: int) -> list[dict]:
    """Students (with browser sessions) and their matches, made through the services."""
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from games.access import PARTICIPANT_IDS_KEY

    students = []
    for pair in range(pairs):
        ids = (2 * pair + 1, 2 * pair + 2)
        cookies = []
        for pid in ids:
            session = SessionStore()
            session[PARTICIPANT_IDS_KEY] = [pid]
            session.create()
            cookies.append(session.session_key)
        matches = []
        for _ in range(matches_per_pair):
            holders = [services.SeatHolder(f"S{pid}", participant_id=pid) for pid in ids]
            match = services.create_match("quantum-tictactoe", holders)
            services.start_match(match.pk)
            matches.append(match.pk)
        students += [{"cookie": cookies[0], "matches": matches}, {"cookie": cookies[1], "matches": matches}]
    return students


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVERS = {
    "daphne": lambda port: [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                            "config.asgi:application"],
    "uvicorn": lambda port: [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                             "--port", str(port), "--ws", "websockets", "--lifespan", "off",
                             "--log-level", "warning", "--no-access-log"],
}


def start_servers(env: dict[str, str], workers: int, server: str) -> tuple[list[subprocess.Popen], list[int]]:
    ports = [free_port() for _ in range(workers)]
    procs = [subprocess.Popen(SERVERS[server](p), cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(f"/tmp/live-latency-{p}.log", "wb"))
             for p in ports]
    for port in ports:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
    return procs, ports


HANDSHAKE_RETRIES: list[str] = []


async def open_socket(port: int, path: str, cookie: str | None = None):
    """Connect as the browser does: on a failed handshake, retry with backoff (counted)."""
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    for attempt in range(6):
        try:
            return await websockets.connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                                            additional_headers=headers, open_timeout=30, max_queue=None)
        except (OSError, websockets.exceptions.InvalidMessage, websockets.exceptions.InvalidStatus) as exc:
            HANDSHAKE_RETRIES.append(type(exc).__name__)
            await asyncio.sleep(0.3 * 2**attempt)
    raise RuntimeError(f"could not connect to {path}")


async def next_state(ws, after_seq: int) -> dict:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state" and message["seq"] > after_seq:
            return message
        if message["type"] == "error":
            raise RuntimeError(message["message"])


async def student(index: int, info: dict, ports: list[int], deadline: float, samples: list[float],
                  errors: list[str]) -> None:
    rng = random.Random(index)
    port = ports[index % len(ports)]
    await asyncio.sleep(rng.uniform(0, RAMP_UP_SECONDS))
    for match_id in info["matches"]:
        if time.monotonic() > deadline:
            return
        async with await open_socket(port, f"/ws/matches/{match_id}/", info["cookie"]) as ws:
            state = await next_state(ws, -1)
            while state["outcome"] is None and time.monotonic() < deadline + 5:
                if state["legal"]:
                    await asyncio.sleep(rng.uniform(0.6, 1.4))  # thinking: each student acts about every 2 s
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "seq": state["seq"], "action": rng.choice(state["legal"])}))
                    try:
                        state = await asyncio.wait_for(next_state(ws, state["seq"]), 30)
                    except (TimeoutError, RuntimeError, websockets.exceptions.ConnectionClosed) as exc:
                        errors.append(f"acting: {type(exc).__name__} {exc}")
                        return
                    samples.append((time.perf_counter() - sent) * 1000)
                else:
                    try:
                        state = await asyncio.wait_for(next_state(ws, state["seq"]), 60)
                    except (TimeoutError, RuntimeError, websockets.exceptions.ConnectionClosed) as exc:
                        if time.monotonic() < deadline + 5:  # later, the opponent has simply stopped
                            errors.append(f"waiting: {type(exc).__name__} {exc}")
                        return


async def echo_client(index: int, port: int, deadline: float, samples: list[float]) -> None:
    rng = random.Random(10_000 + index)
    await asyncio.sleep(rng.uniform(0, RAMP_UP_SECONDS))
    async with await open_socket(port, "/ws/echo/") as ws:
        while time.monotonic() < deadline:
            payload = json.dumps({"type": "act", "seq": index, "action": {"squares": [1, 2]}})
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            samples.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(rng.uniform(1.5, 2.5))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(clients: int, seconds: float, ports: list[int], students: list[dict]) -> tuple[list, list, list]:
    floor: list[float] = []
    deadline = time.monotonic() + RAMP_UP_SECONDS + seconds / 2
    await asyncio.gather(*(echo_client(i, ports[i % len(ports)], deadline, floor) for i in range(clients)))
    live: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + RAMP_UP_SECONDS + seconds
    await asyncio.gather(*(student(i, s, ports, deadline, live, errors) for i, s in enumerate(students)))
    return live, floor, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--workers", type=int, default=2, help="ASGI server processes")
    parser.add_argument("--server", choices=sorted(SERVERS), default="daphne")
    args = parser.parse_args()
    env = bench_env()
    os.environ.update(env)
    recreate_database(env)
    matches_per_pair = max(2, int(args.seconds / 8) + 2)
    students = seat_students(args.clients // 2, matches_per_pair)
    procs, ports = start_servers(env, args.workers, args.server)
    try:
        live, floor, errors = asyncio.run(run(len(students), args.seconds, ports, students))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    for error in sorted(set(errors))[:5]:
        print("error:", error)
    if not live or not floor:
        sys.exit(f"no samples (errors: {errors[:3]})")
    p50, p99 = statistics.median(live), percentile(live, 0.99)
    f50, f99 = statistics.median(floor), percentile(floor, 0.99)
    print(f"actions={len(live)} errors={len(errors)} echo_round_trips={len(floor)} workers={args.workers} server={args.server} "
          f"seconds={args.seconds:g} actions_per_s={len(live) / args.seconds:.1f} "
          f"handshake_retries={len(HANDSHAKE_RETRIES)}")
    print(f"live-latency: clients={len(students)} p50_ms={p50:.1f} p99_ms={p99:.1f} "
          f"floor_p50_ms={f50:.1f} floor_p99_ms={f99:.1f} ratio_p99={p99 / f99:.2f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Live-play latency on the real stack: ``manage.py serve --workers N`` (N daphne processes behind
one port), PostgreSQL, the Redis channel layer, and simulated students playing over real
WebSockets in realistic classes.

Needs DATABASE_URL (PostgreSQL; a database ``$BENCH_DB``, default ``qc_bench``, is made afresh
beside it for every run) and REDIS_URL (the keys go under ``$BENCH_PREFIX``, default ``qcbench``).

    .venv/bin/python bench/live_latency.py --clients 300 --seconds 40
    .venv/bin/python bench/live_latency.py --game qtris --clients 300 --workers 2 --runs 3
    .venv/bin/python bench/live_latency.py --clients 1000 --workers 4 --generators 2
    .venv/bin/python bench/live_latency.py --game quantum-ticket-to-ride --whole-states

Games (``--game``): quantum-tictactoe, qtris (variant basic), quantum-poker, entanglion (easy:
the engine's first variant, a session's default; co-operative pairs) and quantum-ticket-to-ride
(basic missions on the default Europe map, the session form's default).

What one run does:

- Classes of 30 students (28 for 4-seat poker tables): per class a ClassSession opened through
  ``classrooms.services`` (a Classroom of the bench teacher), every student joined through
  ``services.join`` with a browser session of their own, seated at tables of the game (2 seats:
  the smallest table of tic-tac-toe, QTris and Ticket-to-Ride, Entanglion's only one; QuantumPoker
  4 by default, ``--poker-seats``). Each table has several matches made in advance
  that its students play one after the other. Per class the teacher has the dashboard socket
  ``/ws/sessions/<id>/`` and the projector socket ``/ws/sessions/<id>/screen/`` open (a logged-in
  session cookie), so the per-move dashboard and projector rebuilds are measured too
  (``--no-teachers`` leaves them out).
- Floor: first, as many echo sockets as students send a message about every 2 s to
  ``/ws/echo/`` in the same server processes: the round-trip floor of socket + server.
- Live: every student opens their match socket, thinks 0.6–1.4 s when it is their turn, sends an
  action from their own ``legal`` list (complete actions: what the page offers) and times the
  round trip until the state with a higher ``seq`` arrives (each socket's messages are timed
  on arrival by a reader task of their own, not when the student, thinking over a move of
  their own, reads them). Latency samples count only
  acknowledged actions. The action is a random one, as the weakest bot plays, except in
  Ticket-to-Ride, where at random a run (a path from the mission's start to its target along
  one's own routes) almost never comes: there a student claims the routes of the cheapest path
  that completes their mission (the planner bot's ``search.plan``), else draws, and at the run
  step runs a listed path that matches (now and then one that misses), else ends the turn; so
  about one run a game, near its end, as in class (``runs_made`` on the run line counts them).
- Patches (``--patches``, the default; ``--whole-states`` turns it off): the match sockets ask
  for patches (``/ws/matches/<id>/?patches=1``) as the pages do: a whole ``state`` on opening,
  then ``patch`` messages numbered ``n`` that each student applies to its own copy with
  ``core.jsonpatch.apply`` (a patch out of turn is an error, and a ``sync`` brings the whole
  state again, as on the page). Each student's last socket sends one ``sync`` at the end and
  compares the whole state it brings with its patched copy (``diverged`` counts those that
  differ beyond ``n``, the events and the history; the bench exits 1 unless it is 0).
- Message sizes: the bytes of every state or patch message that another seat's move sent to a
  student's socket (what the mover's opponents or partner receive in steady play, not the first
  state with its history, nor the whole state that answers a ``sync``: the end-of-run check
  below, whose answer may hold a move made meanwhile): p50 / p99 / max as ``msg_p50_bytes`` ``msg_p99_bytes``
  ``msg_max_bytes``; with and without ``--patches`` they compare the two. The sockets offer
  permessage-deflate as browsers do (``--no-compression``: they do not), and the same messages'
  bytes on the wire, compressed as the server compresses them, are ``wire_p50_bytes``
  ``wire_p99_bytes``.
- Server CPU per action: utime+stime (children included) from /proc of the ASGI processes (the
  serve supervisor and its workers), of every process whose command line starts with
  ``postgres`` and of ``redis-server``, over the live phase only, divided by the acknowledged
  actions. PostgreSQL and Redis are the machine's: other work on them is counted too (run on a
  quiet machine).
- No lost or doubled moves: every client keeps (match, seq, action) of each action it sent; an
  action is acknowledged when a state with a higher seq came and no error for that seq. After the
  run the games' Action log is compared: every acknowledged action is in the log at its (match,
  seq) (``lost`` otherwise) and every non-bot action of the log is one that some client sent at
  that seq (``doubled`` otherwise: applied twice, or applied from nowhere). The bench exits 1
  unless both are 0. Where two seats act at once (QTris's mulligan) the state a client takes for
  its answer can be the other seat's move, and its own refusal (``stale``) come later, after its
  socket closed at the end of the match or run: an acknowledged action whose place in the log
  holds another client's action sent at that same seq lost that race (``raced``, printed on the
  run line), it is not lost. With patches the same: a patch carries the ``seq`` of the state it makes.
- Ramp-up: the sockets open at random over ``--ramp-up`` seconds (5, or clients/100 when more:
  10 s for 1,000), for the echo phase and again for the live phase; the live phase is the
  ramp-up plus ``--seconds``.
- The load generator: asyncio + ``websockets``, one process driving all its sockets. Its own CPU
  (user+system) is printed as ``generator_cpu_pct`` (of one core). When it nears 100 % it is the
  bottleneck: ``--generators K`` forks K processes, each driving every K-th class (students, echo
  clients and teacher sockets), which send their samples back over a pipe.
- ``--runs R``: the whole run R times (fresh database each), the median of p50, p99 and CPU.
- ``--profile``: py-spy (``make bench`` installs it; ``pip install py-spy``) samples the ASGI
  processes over the live phase, only threads holding the GIL (``--gil``: Python's CPU, not its
  waits on PostgreSQL or Redis); the top 25 functions by own and by cumulative samples go to
  ``bench/profiles/<game>-<clients>c-<workers>w-<time>.txt`` (and the raw collapsed stacks
  beside it).

The server runs with ``STATIC_HASHED=0`` unless it is set (no page is loaded, so no
collectstatic is needed).

Last line (parseable): ``live-latency: game=… clients=N workers=W p50_ms=… p99_ms=…
floor_p99_ms=… cpu_ms_per_action=… patches=on msg_p50_bytes=… msg_p99_bytes=… msg_max_bytes=…
lost=0 doubled=0 diverged=0`` (plus a few more key=value pairs; ``diverged`` with patches only).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BENCH_DB = os.environ.get("BENCH_DB", "qc_bench")  # two benches at once: give each its own
BENCH_PREFIX = os.environ.get("BENCH_PREFIX", "qcbench")
ECHO_PATH = "/ws/echo/"  # --raw-echo: "/ws/echo/raw/"
RAMP_UP_SECONDS = 5.0  # students connect over a few seconds, as a class does (--ramp-up)
CLASS_SIZE = 30
# seats at a table and the variant played (the engine's first: the one a session gets by default)
GAMES = {"quantum-tictactoe": {"seats": 2, "variant": None}, "qtris": {"seats": 2, "variant": "basic"},
         "quantum-poker": {"seats": 4, "variant": None}, "entanglion": {"seats": 2, "variant": "easy"},
         "quantum-ticket-to-ride": {"seats": 2, "variant": "basic"}}
TICKET_PLAN_BUDGET = 3_000  # A* expansions per decision, as the planner bot's
TICKET_TRY_MISS = 0.3  # the chance a Ticket-to-Ride student runs a joined path that misses
CLK = os.sysconf("SC_CLK_TCK")
GAME = "quantum-tictactoe"  # --game
PATCHES = True  # --patches / --whole-states: the match sockets ask for patches, as the pages do
COMPRESSION = True  # --compression / --no-compression: the sockets offer permessage-deflate, as browsers do


def bench_env() -> dict[str, str]:
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    if not base.startswith(("postgres://", "postgresql://")):
        sys.exit("live_latency needs PostgreSQL: set DATABASE_URL=postgres://…")
    parts = urlsplit(base)
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update({
        "DATABASE_URL": urlunsplit(parts._replace(path="/" + BENCH_DB)),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "CHANNELS_PREFIX": BENCH_PREFIX, "CACHE_PREFIX": BENCH_PREFIX, "ECHO_SOCKET": "1",
        "DEBUG": "0", "SECRET_KEY": "bench-" + "k" * 60, "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0", "DJANGO_SETTINGS_MODULE": "config.settings",
        "DB_CONN_MAX_AGE": "60",
        # the bench loads no page: static files as they are (serve refuses hashed ones uncollected)
        "STATIC_HASHED": os.environ.get("STATIC_HASHED", "0"),
        # simulated students open many sockets each and stay quiet between moves
        "SOCKETS_PER_BROWSER": "1000", "SOCKET_IDLE_SECONDS": "3600",
        "JOIN_NEW_PARTICIPANTS_PER_BROWSER_PER_MINUTE": "100000",
        "JOIN_NEW_PARTICIPANTS_PER_ADDRESS_PER_MINUTE": "100000",
    })
    return env


def recreate_database(env: dict[str, str]) -> None:
    import psycopg

    if "django" in sys.modules:
        from django.db import connections

        connections.close_all()
    admin = urlunsplit(urlsplit(env["DATABASE_URL"])._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)


def teacher_cookie(user) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0] if getattr(
        settings, "AUTHENTICATION_BACKENDS", None) else "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def seat_classes(game: str, clients: int, seats: int, matches_per_table: int) -> tuple[list[dict], list[dict]]:
    """Classes of students (with browser sessions), their tables and matches, made through the
    services; returns (students, classes) with the cookies and ids the sockets need."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from classrooms import services
    from classrooms.models import Classroom, Table
    from games import services as match_services

    User.objects.filter(username="benchteacher").delete()
    teacher = User.objects.create_user("benchteacher", password="bench-" + "p" * 20)
    cookie_of_teacher = teacher_cookie(teacher)
    per_class = CLASS_SIZE - CLASS_SIZE % seats
    options = {"table_size": seats} if game == "quantum-poker" else {}
    students: list[dict] = []
    classes: list[dict] = []
    left = clients - clients % seats
    number = 0
    while left > 0:
        size = min(per_class, left)
        left -= size
        classroom = Classroom.objects.create(teacher=teacher, name=f"Bench class {len(classes) + 1}")
        session = services.open_session(classroom, game, variant=GAMES[game]["variant"], options=options,
                                        max_participants=max(size, 1))
        classes.append({"session": session.pk, "teacher_cookie": cookie_of_teacher, "index": len(classes)})
        joined = []
        for _ in range(size):
            number += 1
            browser = SessionStore()
            participant = services.join(session, f"Student {number}", browser)
            browser.save()
            joined.append((participant, browser.session_key))
        for start in range(0, size, seats):
            group = joined[start:start + seats]
            table = services.seat_table(session, [p for p, _ in group], in_order=True)
            matches = [table.match_id]
            for extra in range(matches_per_table - 1):  # the next games of this table, made ahead
                holders = [match_services.SeatHolder(p.display_name, participant_id=p.pk) for p, _ in group]
                match = match_services.create_match(game, holders, variant=session.variant,
                                                    options=services.engine_options(session),
                                                    teacher=teacher, label=f"Table {table.number}.{extra + 2}")
                Table.objects.create(session=session, number=100 * (extra + 1) + table.number, match=match)
                matches.append(match.pk)
            for match_id in matches:
                match_services.start_match(match_id)
            students += [{"cookie": cookie, "matches": matches, "class": len(classes) - 1} for _, cookie in group]
    return students, classes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict[str, str], workers: int, port: int, server: str = "daphne") -> subprocess.Popen:
    """``manage.py serve --workers N`` on one port (``--workers 1``: daphne in the one process)."""
    log = open(f"/tmp/live-latency-{port}.log", "wb")
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--no-demo", "--workers", str(workers),
                             "--server", server, "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"server exited: {Path(f'/tmp/live-latency-{port}.log').read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    # every worker up (each imports the app before it accepts)
    while (workers > 1 or server != "daphne") and len(server_pids(proc.pid)) < workers + 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0 if workers > 1 else 0)
    return proc


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        for pid in server_pids(proc.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait()


# --- CPU from /proc ---------------------------------------------------------------------------

def cpu_ticks(pid: int) -> int:
    """utime + stime + cutime + cstime of one process (0 if it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat[stat.rindex(")") + 2:].split()
    return sum(int(f) for f in fields[11:15])


def server_pids(root: int) -> list[int]:
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        try:
            todo += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            pass
    return pids


def service_pids() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {"postgres": [], "redis": []}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        base = cmd.rsplit("/", 1)[-1]
        if cmd.startswith("postgres") or base.startswith("postgres"):
            found["postgres"].append(int(entry.name))
        elif base.startswith("redis-server"):
            found["redis"].append(int(entry.name))
    return found


def cpu_snapshot(server: int) -> dict[str, dict[int, int]]:
    groups = {"server": server_pids(server), **service_pids()}
    return {name: {pid: cpu_ticks(pid) for pid in pids} for name, pids in groups.items()}


def cpu_seconds(before: dict, after: dict) -> dict[str, float]:
    return {name: sum(ticks - before[name].get(pid, 0) for pid, ticks in after[name].items()) / CLK
            for name in after}


# --- the simulated clients (in one or several generator processes) -----------------------------

class Tally:
    def __init__(self) -> None:
        self.samples: list[float] = []
        self.floor: list[float] = []
        self.floor_at: list[float] = []  # wall time of each echo round trip (the echo CPU window)
        self.broadcast: list[float] = []  # an action's send → the state it made on another seat's socket
        self.errors: list[str] = []
        self.retries = 0
        self.sent: list[tuple[int, int, str]] = []  # (match, seq, action json) of every action sent
        self.acked: list[tuple[int, int, str]] = []
        self.teacher_messages = 0
        # bytes of each state / patch message that another seat's move sent to a student's socket
        self.msg_bytes: list[int] = []
        self.wire_bytes: list[int] = []  # the same messages' bytes on the wire (compressed)
        self.checked = 0  # patched states compared with the whole state of a sync (--patches)
        self.diverged = 0  # ... and found different

    def result(self, cpu: float) -> dict:
        return {"samples": self.samples, "floor": self.floor, "floor_at": self.floor_at, "broadcast": self.broadcast, "errors": self.errors, "retries": self.retries,
                "sent": self.sent, "acked": self.acked, "teacher_messages": self.teacher_messages, "cpu": cpu,
                "msg_bytes": self.msg_bytes, "wire_bytes": self.wire_bytes, "checked": self.checked, "diverged": self.diverged}


async def open_socket(port: int, path: str, tally: Tally, cookie: str | None = None):
    """Connect as the browser does: on a failed handshake, retry with backoff (counted)."""
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    for attempt in range(6):
        try:
            return await websockets.connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                                            additional_headers=headers, open_timeout=30, max_queue=None,
                                            compression="deflate" if COMPRESSION else None)
        except (OSError, websockets.exceptions.InvalidMessage, websockets.exceptions.InvalidStatus):
            tally.retries += 1
            await asyncio.sleep(0.3 * 2**attempt)
    raise RuntimeError(f"could not connect to {path}")


def deflating(ws) -> bool:
    """The socket's messages are compressed on the wire (the server accepted permessage-deflate)."""
    return "permessage-deflate" in (ws.response.headers.get("Sec-WebSocket-Extensions") or "")


def wire_bytes(data: bytes) -> int:
    """The bytes of one message on the wire as the server deflates it (core/wsdeflate.py)."""
    from core import wsdeflate

    return len(wsdeflate.deflated(data))


def canonical(action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


async def student(index: int, info: dict, port: int, deadline: float, tally: Tally) -> None:
    rng = random.Random(index)
    await asyncio.sleep(rng.uniform(0, RAMP_UP_SECONDS))
    for match_id in info["matches"]:
        if time.monotonic() >= deadline:
            return
        try:
            ws = await open_socket(port, f"/ws/matches/{match_id}/{'?patches=1' if PATCHES else ''}", tally,
                                   info["cookie"])
        except RuntimeError as exc:
            tally.errors.append(f"connect: {exc}")
            return
        async with ws:
            await play_match(ws, match_id, rng, deadline, tally, match_id == info["matches"][-1])


def choose_action(game: str, state: dict, rng: random.Random) -> dict:
    """What a student sends: a complete action from its ``legal`` list (the page only offers
    those), at random as the weakest bot plays, except in Ticket-to-Ride (``ticket_action``)."""
    if game == "quantum-ticket-to-ride":
        return ticket_action(state["view"], state["legal"], rng)
    return rng.choice(state["legal"])


def ticket_action(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """A Ticket-to-Ride student with a plan, so that runs come at the rate of a class (about one
    per game, near its end) and not almost never, as at random: they claim the routes of the
    cheapest path that completes their mission (``search.plan``, the planner bot's search
    without its blocking), else draw, else do anything legal; at the run step they run a path
    that matches (the view's ``run_paths`` say which) and now and then (``TICKET_TRY_MISS``) one
    that joins start and target but misses, else end the turn. A run is always one of the
    ``legal`` runs: the page's path picker offers only those."""
    from games.engines.quantum_ticket_to_ride.search import plan

    runs = [a for a in legal if "run" in a]
    if view["step"] == "run":
        matching = {tuple(t["cities"]) for t in view["run_paths"] if t["match"]}
        good = [a for a in runs if tuple(a["run"]) in matching]
        if good or (runs and rng.random() < TICKET_TRY_MISS):
            return rng.choice(good or runs)
        return {"pass": True}
    claims = {a["claim"] for a in legal if "claim" in a}
    routes, seat, hand = view["map"]["routes"], view["seat"], Counter(view["hand"] or [])

    def price(r: int) -> float | None:
        owner = routes[r]["owner"]
        if owner is not None:
            return 0 if owner == seat else None
        return routes[r]["length"] + 0.25 * max(0, routes[r]["length"] - hand[routes[r]["gate"]])

    best = plan(view["map"], view["mission"], price, budget=TICKET_PLAN_BUDGET) if claims else None
    ready = [r for r in best.routes if r in claims] if best is not None else []
    if ready:
        return {"claim": rng.choice(ready)}
    if {"draw": True} in legal:
        return {"draw": True}
    return rng.choice(legal)


# (match, seq) → when a student of this generator sent the action at that seq (perf_counter): the
# match's other students are driven by the same generator process, so they time its broadcast
SENT_AT: dict[tuple[int, int], float] = {}


def comparable(state: dict) -> dict:
    """A state without what differs between a patched copy and a whole resend of the same move:
    its number on the socket, the events (a sync's state has none) and the opening's history."""
    return {k: v for k, v in state.items() if k not in ("n", "events", "history")}


async def play_match(ws, match_id: int, rng: random.Random, deadline: float, tally: Tally, last: bool) -> None:
    from core import jsonpatch

    state: dict | None = None  # this seat's state: the last whole one, with the patches since applied
    pending: dict[int, tuple[str, float]] = {}  # seq -> (action, sent at)
    answered: dict[int, float] = {}  # seq -> round trip, until no error comes for it
    last_sent_seq = -1
    check_next = False  # a sync was sent: compare the whole state it brings with the patched one
    missed = False  # a patch did not follow the state held: patches wait for the whole state again
    compressed = deflating(ws)

    def take(text: str, arrived: float) -> None:
        nonlocal state, check_next, missed
        message = json.loads(text)
        kind = message["type"]
        if kind in ("state", "patch"):
            seq = message["seq"]
            # another seat's move; not the whole state answering this socket's sync (it may hold a
            # move made meanwhile: the whole view of the end-of-run check, not steady play)
            if (state is not None and seq > state["seq"] and seq - 1 not in pending
                    and not (kind == "state" and (check_next or missed))):
                data = text.encode()
                tally.msg_bytes.append(len(data))
                tally.wire_bytes.append(wire_bytes(data) if compressed else len(data))
                sent = SENT_AT.get((match_id, seq - 1))  # another seat's action, made at seq - 1
                if sent is not None:
                    tally.broadcast.append((arrived - sent) * 1000)
            if kind == "patch":  # what changed since the state before on this socket, as the page applies it
                if missed:
                    return
                if state is None or message["n"] != state.get("n", 0) + 1:
                    tally.errors.append(f"patch n={message['n']} after n={state and state.get('n')}: one missed")
                    missed = True  # (as the page does: ask for the whole state again)
                    asyncio.ensure_future(ws.send(json.dumps({"type": "sync"})))
                    return
                try:
                    state = jsonpatch.apply(state, message["ops"])
                except Exception as exc:  # (an operation this copy of core.jsonpatch does not know)
                    tally.errors.append(f"patch n={message['n']} not applied: {exc!r}")
                    missed = True
                    asyncio.ensure_future(ws.send(json.dumps({"type": "sync"})))
                    return
                if state.get("n") != message["n"] or state["seq"] != seq:
                    tally.errors.append(f"patch n={message['n']} seq={seq} gave n={state.get('n')} seq={state['seq']}")
            elif PATCHES:  # every state of the socket counts, in the order sent (the patches build on it)
                if check_next and state is not None and state["seq"] == seq:
                    check_next = False
                    tally.checked += 1
                    if not jsonpatch.same(comparable(state), comparable(message)):
                        tally.diverged += 1
                        keys = sorted(k for k in comparable(message) if not jsonpatch.same(state.get(k), message[k]))
                        tally.errors.append(f"patched state differs from the whole one in {keys}")
                state, missed = message, False
            elif state is None or seq > state["seq"]:
                state = message
            for s in [s for s in pending if seq > s]:
                action, sent = pending.pop(s)
                answered[s] = (arrived - sent) * 1000
                tally.acked.append((match_id, s, action))
        elif kind == "error":
            seq = message.get("seq")
            if message.get("code") != "stale":
                tally.errors.append(f"error {message.get('code')}: {message.get('message')}")
            if seq in pending:
                pending.pop(seq)
            elif seq in answered:  # the state that came was someone else's move: not ours
                answered.pop(seq)
                action = next(a for m, s, a in reversed(tally.acked) if m == match_id and s == seq)
                tally.acked.remove((match_id, seq, action))

    # every message is timed when it arrives, by a reader of its own: a student thinking over
    # their own move (QTris's mulligan: both seats act at once) reads what came meanwhile only
    # afterwards, and that wait is the bench's, not the server's
    inbox: asyncio.Queue = asyncio.Queue()

    async def read_all() -> None:
        try:
            async for text in ws:
                inbox.put_nowait((time.perf_counter(), text))
        except websockets.exceptions.ConnectionClosed as exc:
            inbox.put_nowait((time.perf_counter(), exc))
        else:
            inbox.put_nowait((time.perf_counter(), websockets.exceptions.ConnectionClosedOK(None, None)))

    reader = asyncio.ensure_future(read_all())

    async def receive(timeout: float) -> bool:
        try:
            arrived, text = await asyncio.wait_for(inbox.get(), timeout)
        except TimeoutError:
            return False
        if isinstance(text, Exception):
            raise text
        take(text, arrived)
        return True

    try:
        if not await receive(30) or state is None:
            tally.errors.append("no state in 30 s after opening the socket")
            return
        while state["outcome"] is None and time.monotonic() < deadline:
            if state["legal"] and state["seq"] > last_sent_seq and not pending:
                await asyncio.sleep(rng.uniform(0.6, 1.4))  # thinking: each student acts about every 2 s
                while await receive(0.001):  # what came meanwhile (the other player's move)
                    pass
                if not (state["legal"] and state["seq"] > last_sent_seq) or state["outcome"] is not None:
                    continue
                action = choose_action(GAME, state, rng)
                last_sent_seq = state["seq"]
                pending[last_sent_seq] = (canonical(action), time.perf_counter())
                SENT_AT[(match_id, last_sent_seq)] = pending[last_sent_seq][1]
                tally.sent.append((match_id, last_sent_seq, canonical(action)))
                await ws.send(json.dumps({"type": "act", "seq": last_sent_seq, "action": action}))
            elif not await receive(30 if pending else max(0.05, min(60.0, deadline - time.monotonic()))):
                if pending:
                    tally.errors.append("no answer in 30 s")
                elif time.monotonic() < deadline:
                    tally.errors.append("waited 60 s for a move")
                break  # (past the deadline the others have simply stopped)
        if PATCHES and state is not None and (last or time.monotonic() >= deadline):
            # the copy kept by patches is the state the server holds: asked once per student (its
            # last socket), so the check costs the server a sync per student, not one per match
            check_next = True
            await ws.send(json.dumps({"type": "sync"}))
        end = time.monotonic() + 1.5  # late answers (an error for the last action) still count
        while time.monotonic() < end and await receive(max(0.01, end - time.monotonic())):
            pass
    except websockets.exceptions.ConnectionClosed as exc:
        tally.errors.append(f"closed: {exc}")
    finally:
        reader.cancel()
    tally.samples += answered.values()


async def teacher_socket(port: int, path: str, cookie: str, deadline: float, tally: Tally) -> None:
    try:
        ws = await open_socket(port, path, tally, cookie)
    except RuntimeError as exc:
        tally.errors.append(f"teacher connect: {exc}")
        return
    async with ws:
        try:
            while time.monotonic() < deadline:
                try:
                    await asyncio.wait_for(ws.recv(), max(0.05, deadline - time.monotonic()))
                    tally.teacher_messages += 1
                except TimeoutError:
                    pass
        except websockets.exceptions.ConnectionClosed as exc:
            tally.errors.append(f"teacher socket closed: {exc}")


async def echo_client(index: int, port: int, deadline: float, tally: Tally) -> None:
    rng = random.Random(10_000 + index)
    await asyncio.sleep(rng.uniform(0, RAMP_UP_SECONDS))
    async with await open_socket(port, ECHO_PATH, tally) as ws:
        while time.monotonic() < deadline:
            payload = json.dumps({"type": "act", "seq": index, "action": {"squares": [1, 2]}})
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            tally.floor.append((time.perf_counter() - sent) * 1000)
            tally.floor_at.append(time.time())
            await asyncio.sleep(rng.uniform(1.5, 2.5))


def to_monotonic(wall: float) -> float:
    return time.monotonic() + (wall - time.time())


async def drive(share: dict, port: int, live_start: float, live_end: float, teachers: bool) -> dict:
    """One generator's share: echo clients until ``live_start`` (wall clock), then the students
    (and teacher sockets) until ``live_end``."""
    tally = Tally()
    echo_deadline = to_monotonic(live_start) - 0.5
    await asyncio.gather(*(echo_client(i, port, echo_deadline, tally) for i in share["echo"]))
    await asyncio.sleep(max(0.0, live_start - time.time()))
    cpu0 = time.process_time()
    deadline = to_monotonic(live_end)
    jobs = [student(i, s, port, deadline, tally) for i, s in share["students"]]
    if teachers:
        for c in share["classes"]:
            for suffix in ("", "screen/"):
                jobs.append(teacher_socket(port, f"/ws/sessions/{c['session']}/{suffix}", c["teacher_cookie"],
                                           deadline, tally))
    await asyncio.gather(*jobs)
    return tally.result(time.process_time() - cpu0)


def generator(share: dict, port: int, live_start: float, live_end: float, teachers: bool, conn) -> None:
    conn.send(asyncio.run(drive(share, port, live_start, live_end, teachers)))
    conn.close()


def shares(students: list[dict], classes: list[dict], k: int) -> list[dict]:
    out = [{"students": [], "classes": [], "echo": []} for _ in range(k)]
    for c in classes:
        out[c["index"] % k]["classes"].append(c)
    for i, s in enumerate(students):
        out[s["class"] % k]["students"].append((i, s))
        out[s["class"] % k]["echo"].append(i)
    return out


# --- checks against the database, profile -----------------------------------------------------

def check_log(sent: list, acked: list) -> tuple[int, int, int]:
    from games.models import Action

    sent_at = defaultdict(set)
    for match_id, seq, action in sent:
        sent_at[(match_id, seq)].add(action)
    logged = {}
    doubled = 0
    for match_id, seq, action, by_bot, timed_out in Action.objects.values_list(
            "match_id", "seq", "action", "by_bot", "timed_out"):
        logged[(match_id, seq)] = canonical(action)
        if not (by_bot or timed_out) and canonical(action) not in sent_at.get((match_id, seq), ()):
            doubled += 1
    missing = [(match_id, seq, action) for match_id, seq, action in set(acked) if logged.get((match_id, seq)) != action]
    # (another client's action sent at the same seq holds the place: this one was refused, see above)
    raced = sum(1 for match_id, seq, action in missing if logged.get((match_id, seq)) in sent_at[(match_id, seq)] - {action})
    lost = len(missing) - raced + len(acked) - len(set(acked))  # (or one send acknowledged twice)
    return lost, doubled, raced


def summarise_profile(raw: Path, out: Path) -> None:
    own, cum = Counter(), Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        n = int(count)
        total += n
        frames = [f for f in stack.split(";") if not f.startswith(("process ", "thread "))]
        if not frames:
            continue
        own[frames[-1]] += n
        for frame in set(frames):
            cum[frame] += n
    lines = [f"py-spy samples of the ASGI processes over the live phase: {total}", "",
             "top 25 by own samples (% of all)"]
    lines += [f"{100 * n / total:6.2f}%  {frame}" for frame, n in own.most_common(25)]
    lines += ["", "top 25 by cumulative samples (% of all)"]
    lines += [f"{100 * n / total:6.2f}%  {frame}" for frame, n in cum.most_common(25)]
    out.write_text("\n".join(lines) + "\n")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def one_run(args, env: dict[str, str], run: int) -> dict:
    recreate_database(env)
    seats = args.poker_seats if args.game == "quantum-poker" else GAMES[args.game]["seats"]
    matches_per_table = max(2, int(args.seconds / 8) + 2)
    students, classes = seat_classes(args.game, args.clients, seats, matches_per_table)
    from django.db import connections

    connections.close_all()
    port = free_port()
    server = start_server(env, args.workers, port, args.server)
    profiler = None
    try:
        floor_seconds = RAMP_UP_SECONDS + max(5.0, args.seconds / 2)
        live_start = time.time() + floor_seconds
        live_end = live_start + RAMP_UP_SECONDS + args.seconds
        ctx = multiprocessing.get_context("fork")
        pipes, procs = [], []
        for share in shares(students, classes, args.generators):
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=generator, args=(share, port, live_start, live_end, not args.no_teachers, child))
            proc.start()
            child.close()  # (a generator that dies then ends its pipe: EOFError, not a wait for ever)
            pipes.append(parent)
            procs.append(proc)
        # the echo floor's CPU: the server's, over the echo phase after its ramp-up (every socket open)
        echo_window = (live_start - floor_seconds + RAMP_UP_SECONDS + 1.0, live_start - 1.0)
        time.sleep(max(0.0, echo_window[0] - time.time()))
        echo_before = cpu_snapshot(server.pid)
        time.sleep(max(0.0, echo_window[1] - time.time()))
        echo_after = cpu_snapshot(server.pid)
        time.sleep(max(0.0, live_start - time.time()))
        before = cpu_snapshot(server.pid)
        if args.profile:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            raw = ROOT / "bench" / "profiles" / f"{args.game}-{args.clients}c-{args.workers}w-{stamp}-run{run}.collapsed"
            raw.parent.mkdir(exist_ok=True)
            profiler = subprocess.Popen([shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy")),
                                         "record", "--pid", str(server.pid), "--subprocesses", "--format", "raw",
                                         "--rate", "50", "--nonblocking", "--gil", "-o", str(raw),
                                         "--duration", str(int(RAMP_UP_SECONDS + args.seconds))],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            results = [p.recv() for p in pipes]
        except EOFError:
            sys.exit("a load generator died (its traceback is above)")
        after = cpu_snapshot(server.pid)
        live_seconds = time.time() - live_start
        for proc in procs:
            proc.join()
        if profiler is not None:
            profiler.wait(60)
            summary = raw.with_suffix(".txt")
            summarise_profile(raw, summary)
            print(f"profile: {summary.relative_to(ROOT)}")
    finally:
        stop_server(server)
    merged = Tally()
    cpu_generators = 0.0
    for r in results:
        merged.samples += r["samples"]
        merged.floor += r["floor"]
        merged.floor_at += r["floor_at"]
        merged.broadcast += r["broadcast"]
        merged.errors += r["errors"]
        merged.retries += r["retries"]
        merged.sent += r["sent"]
        merged.acked += r["acked"]
        merged.teacher_messages += r["teacher_messages"]
        merged.msg_bytes += r["msg_bytes"]
        merged.wire_bytes += r["wire_bytes"]
        merged.checked += r["checked"]
        merged.diverged += r["diverged"]
        cpu_generators += r["cpu"]
    lost, doubled, raced = check_log(merged.sent, merged.acked)
    cpu = cpu_seconds(before, after)
    actions = max(1, len(merged.acked))
    per_action = {name: 1000 * seconds / actions for name, seconds in cpu.items()}
    echoes = sum(1 for t in merged.floor_at if echo_window[0] <= t <= echo_window[1])
    echo_cpu = 1000 * cpu_seconds(echo_before, echo_after)["server"] / max(1, echoes)
    for error, n in Counter(merged.errors).most_common(5):
        print(f"  error x{n}: {error}")
    if not merged.samples or not merged.floor:
        sys.exit(f"no samples (errors: {merged.errors[:3]})")
    out = {
        "p50": statistics.median(merged.samples), "p99": percentile(merged.samples, 0.99),
        "f50": statistics.median(merged.floor), "f99": percentile(merged.floor, 0.99),
        "cpu": sum(per_action.values()), "lost": lost, "doubled": doubled, "errors": len(merged.errors),
        "students": len(students), "echo_cpu": echo_cpu,
        "b50": statistics.median(merged.broadcast) if merged.broadcast else float("nan"),
        "b99": percentile(merged.broadcast, 0.99) if merged.broadcast else float("nan"),
        "m50": statistics.median(merged.msg_bytes) if merged.msg_bytes else float("nan"),
        "m99": percentile(merged.msg_bytes, 0.99) if merged.msg_bytes else float("nan"),
        "mmax": max(merged.msg_bytes, default=float("nan")), "diverged": merged.diverged,
        "w50": statistics.median(merged.wire_bytes) if merged.wire_bytes else float("nan"),
        "w99": percentile(merged.wire_bytes, 0.99) if merged.wire_bytes else float("nan"),
    }
    ticket_runs = sum(1 for _, _, action in merged.acked if action.startswith('{"run":'))
    print(f"run {run}: actions={len(merged.acked)} sent={len(merged.sent)} errors={len(merged.errors)} "
          f"echo_round_trips={len(merged.floor)} classes={len(classes)} teacher_messages={merged.teacher_messages} "
          f"actions_per_s={len(merged.acked) / live_seconds:.1f} handshake_retries={merged.retries} "
          f"p50_ms={out['p50']:.1f} p99_ms={out['p99']:.1f} floor_p99_ms={out['f99']:.1f} "
          f"broadcast_p50_ms={out['b50']:.1f} broadcast_p99_ms={out['b99']:.1f} ({len(merged.broadcast)})"
          + (f" runs_made={ticket_runs}" if args.game == "quantum-ticket-to-ride" else ""))
    print(f"  messages to the other seats ({'patches' if PATCHES else 'whole states'}): {len(merged.msg_bytes)}, "
          f"bytes p50={out['m50']:.0f} p99={out['m99']:.0f} max={out['mmax']:.0f}, "
          f"on the wire p50={out['w50']:.0f} p99={out['w99']:.0f}"
          + (f"; patched states checked against a sync: {merged.checked}, differing: {merged.diverged}"
             if PATCHES else ""))
    print(f"  cpu ms/action: server={per_action['server']:.2f} postgres={per_action['postgres']:.2f} "
          f"redis={per_action['redis']:.2f} total={out['cpu']:.2f}; echo floor: server={echo_cpu:.2f} per round trip "
          f"({echoes} in {echo_window[1] - echo_window[0]:.0f} s); generator_cpu_pct="
          f"{100 * cpu_generators / live_seconds / args.generators:.0f} (per generator, {args.generators} of them) "
          f"lost={lost} doubled={doubled} raced={raced}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GAMES), default="quantum-tictactoe")
    parser.add_argument("--clients", type=int, default=300, help="simulated students")
    parser.add_argument("--seconds", type=float, default=40, help="length of the live phase (after ramp-up)")
    parser.add_argument("--workers", type=int, default=2, help="ASGI processes (manage.py serve --workers)")
    parser.add_argument("--server", choices=["daphne", "uvicorn"], default="daphne",
                        help="serve --server: the ASGI server of each worker")
    parser.add_argument("--generators", type=int, default=1, help="load-generator processes")
    parser.add_argument("--runs", type=int, default=1, help="repeat the run (fresh database each): medians")
    parser.add_argument("--no-teachers", action="store_true", help="no dashboard / projector sockets")
    parser.add_argument("--poker-seats", type=int, default=4, help="seats at a QuantumPoker table")
    parser.add_argument("--patches", action=argparse.BooleanOptionalAction, default=True,
                        help="the match sockets ask for patches (?patches=1) as the pages do; "
                             "--no-patches (or --whole-states): every state whole")
    parser.add_argument("--whole-states", dest="patches", action="store_false", help="same as --no-patches")
    parser.add_argument("--compression", action=argparse.BooleanOptionalAction, default=True,
                        help="the sockets offer permessage-deflate, as browsers do (--no-compression: plain)")
    parser.add_argument("--ramp-up", type=float, default=None,
                        help="seconds over which the sockets open (default: 5, or clients/100 if more)")
    parser.add_argument("--raw-echo", action="store_true",
                        help="the floor from a plain ASGI echo (the server alone), not the Channels echo consumer")
    parser.add_argument("--profile", action="store_true", help="py-spy the ASGI processes (bench/profiles/)")
    args = parser.parse_args()
    global RAMP_UP_SECONDS, ECHO_PATH, GAME, PATCHES, COMPRESSION
    GAME, PATCHES, COMPRESSION = args.game, args.patches, args.compression
    ECHO_PATH = "/ws/echo/raw/" if args.raw_echo else ECHO_PATH
    RAMP_UP_SECONDS = args.ramp_up if args.ramp_up is not None else max(5.0, args.clients / 100)
    env = bench_env()
    os.environ.update(env)
    runs = [one_run(args, env, run + 1) for run in range(args.runs)]
    med = {key: statistics.median(r[key] for r in runs)
           for key in ("p50", "p99", "f50", "f99", "cpu", "echo_cpu", "b50", "b99", "m50", "m99", "mmax",
                       "w50", "w99")}
    lost, doubled = sum(r["lost"] for r in runs), sum(r["doubled"] for r in runs)
    errors = sum(r["errors"] for r in runs)
    diverged = sum(r["diverged"] for r in runs)
    if args.runs > 1:
        print("runs p99_ms: " + " ".join(f"{r['p99']:.1f}" for r in runs)
              + "  cpu_ms_per_action: " + " ".join(f"{r['cpu']:.2f}" for r in runs))
    print(f"live-latency: game={args.game} clients={runs[0]['students']} workers={args.workers} server={args.server} "
          f"p50_ms={med['p50']:.1f} p99_ms={med['p99']:.1f} floor_p50_ms={med['f50']:.1f} "
          f"floor_p99_ms={med['f99']:.1f} ratio_p99={med['p99'] / med['f99']:.2f} "
          f"broadcast_p50_ms={med['b50']:.1f} broadcast_p99_ms={med['b99']:.1f} "
          f"cpu_ms_per_action={med['cpu']:.2f} floor_cpu_ms_per_echo={med['echo_cpu']:.2f} "
          f"patches={'on' if PATCHES else 'off'} msg_p50_bytes={med['m50']:.0f} msg_p99_bytes={med['m99']:.0f} "
          f"msg_max_bytes={med['mmax']:.0f} wire_p50_bytes={med['w50']:.0f} wire_p99_bytes={med['w99']:.0f} "
          f"errors={errors} runs={args.runs} lost={lost} doubled={doubled}"
          + (f" diverged={diverged}" if PATCHES else ""))
    if lost or doubled or diverged:
        sys.exit(1)


if __name__ == "__main__":
    main()

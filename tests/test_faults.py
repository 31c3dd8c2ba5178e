"""Faults survived: Redis and PostgreSQL restarted in the middle of live matches.

Each module run starts its OWN redis-server and PostgreSQL cluster on spare ports (never the
machine's shared services) and its own daphne server pointed at them; the tests stop and start
those services while students (websockets clients) play several matches. Afterwards every
acknowledged move is in the log exactly once, no move was applied twice, every player's page
reached the same move, and a move sent while the database was down got a clear "not applied"
answer. The time from the service being back to the first successful move is printed and bounded.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import psycopg
import pytest

from tests.support import backing
from tests.support.clients import Student, Teacher
from tests.support.server import ROOT, LiveServer

# (one xdist group: both tests on one worker share the module's stack, set up once)
pytestmark = [pytest.mark.server, pytest.mark.xdist_group("faults"),
              pytest.mark.skipif(not backing.available(), reason="needs PostgreSQL 15 binaries, redis-server and runuser")]

TEACHER = ("ms-faraday", "induction-1831-Coil")
RECOVERY_BOUND_S = 10.0


@dataclass
class Stack:
    pg: backing.Postgres
    redis: backing.Redis
    server: LiveServer
    env: dict = field(default_factory=dict)


@pytest.fixture(scope="module")
def faults_stack():
    pg, redis = backing.Postgres(), backing.Redis()
    server = None
    try:
        pg.init()
        redis.start()
        env = {"DATABASE_URL": pg.url(), "REDIS_URL": redis.url, "CHANNELS_PREFIX": "qc-faults",
               "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1"}
        run_env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"} | env
        subprocess.run([sys.executable, "manage.py", "shell", "-c",  # (one Django start: migrated, then the teacher)
                        "from django.core.management import call_command; "
                        "call_command('migrate', interactive=False, verbosity=0); "
                        "from django.contrib.auth.models import User; "
                        f"User.objects.create_user({TEACHER[0]!r}, password={TEACHER[1]!r})"],
                       cwd=ROOT, env=run_env, check=True, capture_output=True)
        server = LiveServer(extra_env=env)
        server.start()
        yield Stack(pg, redis, server, env)
    finally:
        if server is not None:
            if os.environ.get("FAULTS_KEEP_LOG"):
                shutil.copy(server.log_path, os.environ["FAULTS_KEEP_LOG"])
            server.stop()
        redis.cleanup()
        pg.cleanup()


@dataclass
class Table:
    match_id: int
    students: dict  # seat → Student


def open_tables(server, n_students: int = 6) -> list[Table]:
    """One class session, ``n_students`` joined and paired: n/2 started quantum tic-tac-toe matches."""
    teacher = Teacher(server)
    teacher.login(*TEACHER)
    session = teacher.open_session("quantum-tictactoe")
    joined = []
    for i in range(n_students):
        student = Student(server)
        assert student.join(session["join_code"], f"Student {i}").status_code == 302
        joined.append(student)
    assert teacher.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    dashboard = teacher.api("POST", f"/api/sessions/{session['id']}/start-all/").json()
    tables = {t["match"]: Table(t["match"], {}) for t in dashboard["tables"]}
    for student in joined:
        for match_id, table in tables.items():
            answer = student.api("GET", f"/api/matches/{match_id}/")
            if answer.status_code == 200 and answer.json().get("seat") is not None:
                table.students[answer.json()["seat"]] = student
    return list(tables.values())


def action_log(stack: Stack, match_ids) -> dict[int, list[tuple[int, object]]]:
    """The stored log of each match, read from the test's own PostgreSQL: (seq, action) in order."""
    with psycopg.connect(f"host=127.0.0.1 port={stack.pg.port} user=postgres dbname=qc") as db:
        rows = db.execute("SELECT match_id, seq, action FROM games_action WHERE match_id = ANY(%s) ORDER BY match_id, seq",
                          (list(match_ids),)).fetchall()
    logs: dict[int, list] = {m: [] for m in match_ids}
    for match_id, seq, action in rows:
        logs[match_id].append((seq, action))
    return logs


class Page:
    """A player's match page as live.js keeps it: one socket, reopened by itself when it closes
    (300 ms, doubling to 4 s), the newest state it was sent, and the messages of each connection."""

    def __init__(self, student: Student, match_id: int, seat: int):
        self.student, self.match_id, self.seat = student, match_id, seat
        self.state: dict | None = None
        self.ws = None
        self.generation = 0  # connections opened so far
        self.state_generation = 0  # the connection the newest state came on
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.stopped = False
        self.opened_at: list[float] = []
        self.closed_at: list[float] = []

    async def run(self) -> None:
        delay = 0.3
        while not self.stopped:
            try:
                self.ws = await self.student.socket(f"/ws/matches/{self.match_id}/")
                self.generation += 1
                self.opened_at.append(time.monotonic())
                delay = 0.3
                async for raw in self.ws:
                    message = json.loads(raw)
                    if message.get("type") == "state" and (self.state is None or message["seq"] >= self.state["seq"]):
                        self.state, self.state_generation = message, self.generation
                    self.inbox.put_nowait((self.generation, message))
            except asyncio.CancelledError:
                raise
            except Exception:  # refused, reset, closed: reconnect as the page does
                pass
            self.ws = None
            self.closed_at.append(time.monotonic())
            if self.stopped:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 4.0)

    @property
    def seq(self) -> int:
        return self.state["seq"] if self.state else -1

    async def send(self, message: dict) -> bool:
        try:
            await self.ws.send(json.dumps(message))
            return True
        except Exception:
            return False


@dataclass
class Move:
    match_id: int
    seq: int
    action: object
    sent_at: float
    outcome: str = "unknown"  # "ack", an error code, or "unknown" (the connection dropped first)
    answered_at: float | None = None
    seen_by_all_at: float | None = None


class Match:
    def __init__(self, table: Table):
        self.table = table
        self.pages = [Page(student, table.match_id, seat) for seat, student in sorted(table.students.items())]
        self.moves: list[Move] = []
        self.rng = random.Random(table.match_id)

    def converged(self) -> bool:
        seqs = {p.seq for p in self.pages}
        return len(seqs) == 1 and -1 not in seqs

    def over(self) -> bool:
        return any(p.state and p.state.get("outcome") for p in self.pages)

    async def play_one(self, answer_timeout: float = 8.0) -> Move | None:
        """The player to act (on a page that is up to date) sends a move and waits for the answer
        on the same connection; None when no page can act (not converged, reconnecting)."""
        top = max(p.seq for p in self.pages)
        for page in self.pages:
            state = page.state
            if page.ws is None or state is None or state["seq"] != top or page.seat not in state.get("to_act", []):
                continue
            if page.state_generation != page.generation:
                continue  # a new connection whose first state has not come: it would look like an answer
            if not state.get("legal"):
                return None
            move = Move(self.table.match_id, state["seq"], self.rng.choice(state["legal"]), time.monotonic())
            while not page.inbox.empty():
                page.inbox.get_nowait()
            generation, ws = page.generation, page.ws
            if not await page.send({"type": "act", "seq": move.seq, "action": move.action}):
                return None
            self.moves.append(move)
            deadline = time.monotonic() + answer_timeout
            while time.monotonic() < deadline:
                try:
                    gen, message = await asyncio.wait_for(page.inbox.get(), 0.2)
                except TimeoutError:
                    if page.ws is not ws:
                        break  # the connection dropped before the answer: outcome unknown
                    continue
                if gen != generation:
                    break  # the connection dropped before the answer: outcome unknown
                if message.get("type") == "state" and message["seq"] > move.seq:
                    move.outcome, move.answered_at = "ack", time.monotonic()
                    break
                if message.get("type") == "error" and message.get("seq") in (move.seq, None):
                    move.outcome, move.answered_at = message["code"], time.monotonic()
                    move.message = message.get("message", "")
                    break
            return move
        return None


async def drive(matches: list[Match], until: float, pause: float = 0.25) -> None:
    """Every match plays (one move at a time, as students do) until ``until``, noting when each
    acknowledged move has reached every page of its match."""
    async def one(match: Match):
        while time.monotonic() < until and not match.over():
            move = await match.play_one()
            if move is None:
                await asyncio.sleep(0.05)
            else:
                await asyncio.sleep(pause)  # a student thinks a little between moves
            for m in match.moves:
                if m.outcome == "ack" and m.seen_by_all_at is None and all(p.seq > m.seq for p in match.pages):
                    m.seen_by_all_at = time.monotonic()
    await asyncio.gather(*(one(m) for m in matches))


async def settle(matches: list[Match], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not all(m.converged() for m in matches):
        await asyncio.sleep(0.05)
    now = time.monotonic()
    for match in matches:
        for m in match.moves:
            if m.outcome == "ack" and m.seen_by_all_at is None and all(p.seq > m.seq for p in match.pages):
                m.seen_by_all_at = now


def check_log(stack: Stack, matches: list[Match]) -> None:
    """Every acknowledged move is in the log exactly once at its seq, nothing was applied twice,
    and every page of a match shows the log's length."""
    logs = action_log(stack, [m.table.match_id for m in matches])
    for match in matches:
        log = logs[match.table.match_id]
        assert [seq for seq, _ in log] == list(range(len(log))), log
        for move in match.moves:
            if move.outcome == "ack":
                assert move.seq < len(log) and log[move.seq][1] == move.action, (move, log)
        # nothing applied twice, nothing refused applied: each entry is a move sent at that seq
        # whose answer was an acknowledgement or never came (the connection dropped first)
        for seq, action in log:
            assert any(m.seq == seq and m.action == action and m.outcome in ("ack", "unknown")
                       for m in match.moves), (seq, action, match.moves)
        assert {p.seq for p in match.pages} == {len(log)}, ([p.seq for p in match.pages], len(log))


def outcomes(matches: list[Match]) -> str:
    counts: dict[str, int] = {}
    for match in matches:
        for move in match.moves:
            counts[move.outcome] = counts.get(move.outcome, 0) + 1
    return "moves: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items()))


def recovery_time(matches: list[Match], back_at: float) -> float:
    """From the service being back to the moment every match has had a move sent after that
    acknowledged and shown on all of its pages."""
    times = []
    for match in matches:
        seen = [m.seen_by_all_at for m in match.moves if m.sent_at >= back_at and m.seen_by_all_at is not None]
        assert seen or match.over(), f"match {match.table.match_id}: no move got through after the restart"
        if seen:
            times.append(min(seen) - back_at)
    return max(times)


def run_pages(matches: list[Match], scenario):
    """``scenario()`` with every page of ``matches`` connected (reconnecting by itself) meanwhile."""
    return start_pages(matches, scenario).result()


def start_pages(matches: list[Match], scenario) -> concurrent.futures.Future:
    """``run_pages`` in a thread of its own, the test's thread free meanwhile (for Playwright)."""
    async def main():
        tasks = [asyncio.ensure_future(p.run()) for m in matches for p in m.pages]
        try:
            return await scenario()
        finally:
            for m in matches:
                for p in m.pages:
                    p.stopped = True
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(asyncio.run, main())
    pool.shutdown(wait=False)
    return future


def match_page(chromium, server, student: Student, match_id: int):
    """A student's match page in Chromium, in that student's browser session (their cookies)."""
    from playwright.sync_api import expect

    from tests.support.browser import wait_for_boot

    context = chromium.new_context(viewport={"width": 375, "height": 800})
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in student.http.cookies])
    page = context.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    wait_for_boot(page)
    expect(page.locator("#conn")).to_have_text("live")
    return page


def three_matches_and_a_page(stack, chromium):
    """Four tables of eight students: three played by socket clients, the fourth by a real page
    whose student has the move (and the page's match id)."""
    from playwright.sync_api import expect

    tables = open_tables(stack.server, 8)
    assert len(tables) == 4
    page = match_page(chromium, stack.server, tables[3].students[0], tables[3].match_id)
    expect(page.locator("#turn.mine")).to_be_visible()
    return [Match(t) for t in tables[:3]], page, tables[3].match_id


@pytest.mark.browser
def test_redis_restarted_in_the_middle_of_live_matches(faults_stack, chromium):
    from playwright.sync_api import expect

    stack = faults_stack
    # the fourth match is played in a real page: it says so while reconnecting, and a click then
    # is refused at once ("try again"), not kept to be sent later on a board that may be old by then
    matches, page, on_page = three_matches_and_a_page(stack, chromium)
    started = time.monotonic()

    async def scenario():
        await settle(matches, 10)
        assert all(m.converged() for m in matches)
        await drive(matches, time.monotonic() + 1.0)
        before = [len(m.moves) for m in matches]
        stack.redis.kill()  # every channel-layer connection, group membership and cache entry lost
        down_at = time.monotonic()
        await drive(matches, down_at + 2.0)
        stack.redis.start()  # empty: no groups remember anyone
        back_at = time.monotonic()
        await drive(matches, back_at + 6.0)
        await settle(matches, 10)
        return before, down_at, back_at

    running = start_pages(matches, scenario)
    expect(page.locator("#conn")).to_have_text("reconnecting…", timeout=15_000)
    click_a_move(page)
    expect(page.locator("#error")).to_contain_text("reconnecting, try again")
    expect(page.locator("#conn")).to_have_text("live", timeout=20_000)  # back by itself
    before, down_at, back_at = running.result(timeout=60)
    assert action_log(stack, [on_page])[on_page] == []  # the refused click stayed refused
    click_a_move(page)  # tried again, now applied
    expect(page.locator("#turn.mine")).to_have_count(0)
    assert len(action_log(stack, [on_page])[on_page]) == 1
    assert all(n >= 2 for n in before), before  # moves were flowing when Redis went away
    for match in matches:
        # the sockets of every page closed with Redis (their group gone) and reopened afterwards
        assert all(page.generation >= 2 for page in match.pages), [p.generation for p in match.pages]
        assert all(any(t > back_at for t in page.opened_at) for page in match.pages)
        # no answer claims a committed move was not applied (Redis is not where moves are kept)
        assert not [m for m in match.moves if m.outcome not in ("ack", "unknown")], match.moves
    check_log(stack, matches)
    print(outcomes(matches))
    # how long a page looked live after Redis went away (its updates lost meanwhile)
    noticed = max(min(t for t in page.closed_at if t >= down_at) - down_at for m in matches for page in m.pages)
    print(f"sockets closed within {noticed:.2f}s of Redis going away")
    assert noticed < 5
    recovery = recovery_time(matches, back_at)
    print(f"recovery: redis={recovery:.2f}s (down {back_at - down_at:.2f}s, scenario {time.monotonic() - started:.1f}s)")
    assert recovery < RECOVERY_BOUND_S
    assert time.monotonic() - started < 60


def click_a_move(page) -> None:
    """A first quantum tic-tac-toe move on the page's board: two squares, as a student clicks."""
    playable = page.locator("g.cell.playable")
    squares = [playable.nth(i).get_attribute("data-square") for i in range(2)]
    for square in squares:
        page.click(f"g.cell[data-square='{square}']")


@pytest.mark.browser
def test_postgresql_restarted_in_the_middle_of_live_matches(faults_stack, chromium):
    from playwright.sync_api import expect

    stack = faults_stack
    # the fourth match is played in a real page: a click while the database is down is answered
    matches, page, on_page = three_matches_and_a_page(stack, chromium)
    down, clicked = threading.Event(), threading.Event()
    started = time.monotonic()
    rest: dict = {}

    async def scenario():
        await settle(matches, 10)
        await drive(matches, time.monotonic() + 1.0)
        before = [len(m.moves) for m in matches]
        stack.pg.stop()  # fast shutdown: every server connection in the pool is cut
        down_at = time.monotonic()
        await drive(matches, down_at + 2.0)
        # the REST API answers the same way (503, same code), nothing applied
        match = matches[0]
        page = next(p for p in match.pages if p.seat in (p.state or {}).get("to_act", []))
        answer = await asyncio.to_thread(page.student.api, "POST", f"/api/matches/{match.table.match_id}/actions/",
                                         {"seq": page.seq, "action": page.state["legal"][0]})
        rest.update(status=answer.status_code, body=answer.json())
        down.set()
        await asyncio.to_thread(clicked.wait, 20)
        stack.pg.start()  # the same data directory, the same port
        back_at = time.monotonic()
        await drive(matches, back_at + 6.0)
        await settle(matches, 10)
        # a retried move (same seq as one already applied: its first answer was lost) is stale
        match = next(m for m in matches if any(x.outcome == "ack" for x in m.moves))
        done = next(x for x in match.moves if x.outcome == "ack")
        page = match.pages[0]
        await page.send({"type": "act", "seq": done.seq, "action": done.action})
        retried = await receive_error(page, done.seq)
        return before, down_at, back_at, retried

    running = start_pages(matches, scenario)
    assert down.wait(30)
    try:
        click_a_move(page)
        expect(page.locator("#error")).to_contain_text("not applied")
        expect(page.locator("#conn")).to_have_text("live")  # the socket itself was fine
    finally:
        clicked.set()
    before, down_at, back_at, retried = running.result(timeout=60)
    # the same click once the database is back is applied: the page's turn passes to the other player
    click_a_move(page)
    expect(page.locator("#turn.mine")).to_have_count(0)
    assert action_log(stack, [on_page])[on_page] != []
    assert all(n >= 2 for n in before), before
    assert rest["status"] == 503 and rest["body"]["code"] == "unavailable", rest
    during = [m for match in matches for m in match.moves if down_at + 0.5 < m.sent_at < back_at]
    assert during, "no move was tried while the database was down"
    assert {m.outcome for m in during} == {"unavailable"}, [(m.seq, m.outcome) for m in during]
    assert "not applied" in during[0].message
    assert retried["code"] in ("stale", "not_your_seat", "not_playing"), retried
    for match in matches:
        # the sockets stayed open through the outage (Redis was fine): no reconnect was needed
        assert all(page.generation == 1 for page in match.pages), [p.generation for p in match.pages]
    check_log(stack, matches)
    print(outcomes(matches))
    recovery = recovery_time(matches, back_at)
    print(f"recovery: postgresql={recovery:.2f}s (down {back_at - down_at:.2f}s, scenario {time.monotonic() - started:.1f}s)")
    assert recovery < RECOVERY_BOUND_S
    assert time.monotonic() - started < 60


async def receive_error(page: Page, seq: int, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            _gen, message = await asyncio.wait_for(page.inbox.get(), 0.2)
        except TimeoutError:
            continue
        if message.get("type") == "error" and message.get("seq") == seq:
            return message
    raise AssertionError(f"no answer to the retried move {seq}")

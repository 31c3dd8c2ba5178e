"""Shared fixtures. Tests use PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set (CI
sets them), the embedded default (SQLite file, in-memory layer) otherwise."""
from __future__ import annotations

import asyncio
import os
import sys

import pytest

# Compiled modules are cached (``__pycache__``, ignored by git) even where the environment sets
# PYTHONDONTWRITEBYTECODE: without the cache every test process (pytest-xdist's workers) and
# every server, worker and ``manage.py`` the tests start compiles the project, and pytest
# rewrites the assertions of every test module, anew (collecting the suite: 4.7 -> 2.6 s of CPU
# a process). Python checks each cached file against its source, so none is ever stale. (Set
# here, before the test modules are imported and before pytest-xdist starts its workers, which
# inherit the environment.)
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False

# Playwright's sync API runs an event loop in the test thread; the test's own ORM calls are
# synchronous all the same. The server processes do not inherit this (see LiveServer.env).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from tests.support.server import LiveServer
from tests.support.worker import CeleryWorker


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """The translation catalogs compiled (as `make install` does) before any test or server
    process reads them: a plain `pytest` on a fresh checkout has no .mo files yet. (First: under
    pytest-xdist, before the workers start; each worker finds them current.)"""
    from pathlib import Path

    from core.management.commands.compile_catalogs import compile_catalog

    for po in sorted((Path(__file__).resolve().parent.parent / "locale").glob("*/LC_MESSAGES/*.po")):
        compile_catalog(po)


KEPT_BY_FLUSH = {"django_content_type", "auth_permission"}


def _flush_by_delete() -> None:
    """After a test on committed data (``transactional_db``: every test with a server) the
    database is emptied by DELETE, not by Django's one TRUNCATE of every table: on PostgreSQL a
    TRUNCATE of the fifty-odd tables, nearly all empty, took 0.6–2.6 s per test (new files for
    each table and its indexes, and a lock that waits for the test server's open transactions);
    the DELETEs take milliseconds. Foreign keys are deferred (Django makes them DEFERRABLE), so
    the order does not matter. The content types and permissions are kept: the same rows every
    time, which Django's flush deletes and its ``post_migrate`` makes again (hundreds of INSERTs
    per test). A flush that resets sequences keeps Django's own statement."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED;"] + [f"DELETE FROM {self.quote_name(table)};" for table in tables
                                                    if table not in KEPT_BY_FLUSH]

    DatabaseOperations.sql_flush = sql_flush


_flush_by_delete()


# Fixtures that start processes (a server, Chromium, a Celery worker) once per test process.
PROCESS_FIXTURES = {"chromium", "chromium_browser", "server", "live_server_process", "stack",
                    "stack_processes"}


class XdistGroups:
    """``xdist_group`` marks kept by pytest 9.2 and later under ``--dist loadgroup``: pytest-xdist
    (3.8) adds a test's group to its node id by setting ``item._nodeid``, which pytest no longer
    reads (a node id is ``item._id`` now), so every group was scheduled test by test (the
    scripted lessons' queue ran several lessons at once, a module's shared fixture was set up on
    each worker). This does the same on ``item._id``, after pytest-xdist's own hook; it does
    nothing where pytest-xdist's suffix took (older pytest, or a pytest-xdist that fixed it:
    https://github.com/pytest-dev/pytest-xdist/issues/1386, then this class can go)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if not getattr(config.option, "loadgroup", False):
            return
        for item in items:
            names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                            for m in item.iter_markers("xdist_group")})
            if names and "@" not in item.nodeid.rpartition("]")[2]:
                from _pytest.nodeid import NodeId

                item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        config.pluginmanager.register(XdistGroups(), "qc-xdist-groups")


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``make test``: ``--dist loadgroup``, each worker given the next test,
    or group of tests, when it holds two or fewer) the longest tests come first: those marked ``long`` (minutes each),
    then the files that drive a browser, then those that start servers, then the rest. The long
    ones start at once on different workers and the many quick ones fill every worker's time to
    the end. A file's own order is kept; a run without xdist keeps the files' order."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return

    def weight(item) -> int:
        if item.get_closest_marker("long"):
            return -1
        if item.get_closest_marker("browser") or "chromium" in item.fixturenames:
            return 0
        if item.get_closest_marker("server") or PROCESS_FIXTURES & set(item.fixturenames):
            return 1
        return 2

    def file_of(item) -> str:
        return item.nodeid.split("::")[0]

    rank: dict[str, int] = {}
    for item in items:
        rank[file_of(item)] = min(rank.get(file_of(item), 2), weight(item))
    items.sort(key=lambda item: rank[file_of(item)])  # (a file marked ``long`` ranks -1)


def _outside_browser_loop(item):
    """Outside browser tests Playwright's event loop is set aside (tests/support/loops.py) for
    the whole of the test: its fixtures' set-up and teardown too, the database's included. (Set
    aside by a fixture, the loop was still registered while pytest-django opened the test's
    transaction: a test run after a browser test in the same process then wrote to the database
    for good what it should have rolled back, and the next test found a "mr-bohr" already there.)"""
    from contextlib import nullcontext

    from tests.support.loops import loop_set_aside

    return nullcontext() if item.get_closest_marker("browser") else loop_set_aside()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    with _outside_browser_loop(item):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    with _outside_browser_loop(item):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    with _outside_browser_loop(item):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """``QC_CPU_REPORT=<file>``: each test's CPU, its processes' included (tests/support/cpu.py)."""
    report = os.environ.get("QC_CPU_REPORT")
    if not report:
        yield
        return
    from django.conf import settings

    from tests.support.cpu import cpu_by_kind

    database = settings.DATABASES["default"].get("NAME", "")
    before = cpu_by_kind(database)
    yield
    after = cpu_by_kind(database)
    spent = {kind: after[kind] - before.get(kind, 0.0) for kind in after}
    with open(report, "a") as out:
        out.write("\t".join([f"{sum(spent.values()):.2f}"] + [f"{kind}={spent[kind]:.2f}" for kind in spent]
                            + [item.nodeid]) + "\n")


@pytest.fixture(autouse=True)
def no_language_left_active():
    """Each test starts in the default language: a request through Django's test client runs
    LocaleMiddleware in the test's thread, and the language it activated stays active after it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Each test starts with empty throttle counts and an empty state cache (both are per process
    and survive tests; SQLite reuses a deleted match's id, and tests reuse seeds)."""
    from django.core.cache import cache

    from games import state_cache

    cache.clear()
    state_cache.clear()
    yield


# A teacher, their class and a quantum tic-tac-toe session, for service and client tests
# (a module may define its own instead).
@pytest.fixture
def teacher_user(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("mr-bohr", password="complementarity-1927")


@pytest.fixture
def classroom(teacher_user):
    from classrooms.models import Classroom

    return Classroom.objects.create(teacher=teacher_user, name="9A")


@pytest.fixture
def session(classroom):
    from classrooms import services

    return services.open_session(classroom, "quantum-tictactoe")


@pytest.fixture(scope="session")
def live_server_process(django_db_setup, django_db_blocker):
    """A real ASGI server process (daphne) serving the test database."""
    server = LiveServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(live_server_process, transactional_db):
    """The running server, with a test database that the server process can see (committed data)."""
    return live_server_process


@pytest.fixture
def teacher(transactional_db):
    from django.contrib.auth.models import User

    return User.objects.create_user("ms-curie", password="radium-1898-Polonium")


@pytest.fixture(scope="session")
def chromium_browser():
    """One Chromium for the whole run (launching it takes seconds), its contexts kept from test to
    test (tests/support/pool.py). A page's expectations wait up to 15 s by default: the suite
    runs three workers, servers and browsers on two cores, where a page can take longer than
    Playwright's 5 s to show what a quiet machine shows at once."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=15_000)

    from tests.support.browser import launch
    from tests.support.loops import loop_running
    from tests.support.pool import ContextPool

    playwright = sync_playwright().start()
    playwright_loop = asyncio._get_running_loop()
    browser = launch(playwright)
    pool = ContextPool(browser)
    yield pool
    # the last test of the process may be one that set Playwright's loop aside (its teardown
    # ends the run's fixtures too): closing needs it back (tests/support/loops.py)
    with loop_running(playwright_loop):
        pool.close()
        browser.close()
        playwright.stop()


@pytest.fixture
def chromium(chromium_browser):
    """The run's Chromium; the contexts (browsers of their own: students, teacher) a test opens
    are cleaned and kept for later tests, or closed (tests/support/pool.py). Left open as they
    were, every page of the run would keep its sockets, timers and animations going to the end,
    slowing each later test."""
    yield chromium_browser
    chromium_browser.take_back()


@pytest.fixture(scope="session")
def stack_processes(django_db_setup, django_db_blocker):
    """A server and, with Redis, a worker on a queue of their own, started once for the run."""
    worker = None
    env = {}
    if os.environ.get("REDIS_URL"):
        worker = CeleryWorker(extra_env={"SIMULATOR_CHUNK_PAUSE": "0.2"})
        worker.start()
        env["SIMULATOR_QUEUE"] = worker.queue
    server = LiveServer(extra_env=env)
    server.start()
    yield server, worker
    server.stop()
    if worker:
        worker.cleanup()


@pytest.fixture
def stack(stack_processes, transactional_db):
    """A server and, with Redis, a worker on a queue of their own (the run's, see
    ``stack_processes``), with a test database both can see (committed data)."""
    return stack_processes

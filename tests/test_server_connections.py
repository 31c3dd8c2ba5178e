"""The served process lets go of the PostgreSQL connections of finished requests: each request's
view runs in a thread of its own. A connection of its own, kept by that thread, stayed open after
the thread ended until Python's cycle collector found it; the server collects seldom
(config/asgi.py), so a connection per request was held until PostgreSQL's limit of 100 refused
everyone. Now a request's connection is closed when its response is done (core/request_connections.py)."""
from __future__ import annotations

import time
import urllib.error
import urllib.request

import pytest
from django.db import connection

pytestmark = [pytest.mark.server]


def server_connections(database: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                       [database])
        return cursor.fetchone()[0]


def test_a_quiet_server_closes_the_connections_of_finished_requests(server):
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL's connections")
    database = connection.settings_dict["NAME"]
    held = server_connections(database)  # (a pool's threads keep theirs, for a minute at most)
    for n in range(40):  # each a query (the match is looked up) in a request thread of its own
        try:
            urllib.request.urlopen(f"{server.url}/matches/{900_000 + n}/", timeout=10)
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
    deadline = time.monotonic() + 5
    while server_connections(database) > held + 8 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert server_connections(database) <= held + 8

"""Against a real server process: what an attacker-style probe of a production deployment got
through, now refused where the server can refuse it (request bodies)."""
from __future__ import annotations

import http.client
import json
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.server]

MB = 1 << 20


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def stream(megabytes: int):
    """The body, a megabyte at a time: never in the test's memory either."""
    block = b"x" * MB
    for _ in range(megabytes):
        yield block


def post_huge(server, path: str, *, chunked: bool, megabytes: int = 200,
              headers: dict | None = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    headers = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
    if not chunked:
        headers["Content-Length"] = str(megabytes * MB)
    try:
        conn.request("POST", path, body=stream(megabytes), headers=headers, encode_chunked=chunked)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and stopped reading: its answer is there to read
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), body


def test_a_200_mb_body_is_refused_as_it_arrives_and_the_worker_stays_small(live_server_process):
    """200 MB declared by Content-Length, and 200 MB streamed chunked (no length): both a 413 in
    the app's words within a second, and the worker's memory does not grow (daphne used to spool
    and queue all of it: +200 MB, kept)."""
    server = live_server_process
    pid = server.process.pid
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/accounts/login/")
    assert conn.getresponse().status == 200  # warmed up: templates, translations loaded
    before = rss_mb(pid)
    for chunked in (False, True):
        started = time.monotonic()
        status, headers, body = post_huge(server, "/accounts/login/", chunked=chunked,
                                          headers={"Accept-Language": "es"})
        assert status == 413, (chunked, body[:300])
        assert "text/html" in headers["Content-Type"]
        assert "320 kB" in body.decode() and 'lang="es"' in body.decode()
        assert time.monotonic() - started < 5
    status, headers, body = post_huge(server, "/api/sessions/", chunked=True, megabytes=50)
    assert status == 413 and json.loads(body)["code"] == "too_large"
    time.sleep(0.3)
    assert rss_mb(pid) - before < 20, (before, rss_mb(pid))
    # and the worker serves on
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/accounts/login/")
    assert conn.getresponse().status == 200


def test_a_body_within_the_limit_still_reaches_the_app(live_server_process):
    conn = http.client.HTTPConnection("127.0.0.1", live_server_process.port, timeout=10)
    body = b"username=nobody&password=" + b"p" * (200 * 1024)  # 200 kB: under the 320 kB limit
    conn.request("POST", "/accounts/login/", body=body,
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    response.read()
    assert response.status == 403  # Django read it: no CSRF cookie, the app's own refusal

"""``manage.py serve --lan --workers 2``: every worker admits the LAN address the supervisor
prints (its join link), not the supervisor alone. A real server process with two workers is
asked for pages with that address as the Host, as a phone on the classroom's Wi-Fi would."""
from __future__ import annotations

import http.client
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from core.lan import lan_address
from tests.test_serve_workers import ROOT, free_port, needs_services, served_env, worker_pids

__all__ = ["served_env"]  # (the fixture, shared with the other serve tests)


def get(port: int, host: str, path: str) -> int:
    """A GET of ``path`` on a new connection to this machine's ``port``, with ``host`` as the Host."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": host})
        return conn.getresponse().status
    finally:
        conn.close()


@needs_services[0]
@needs_services[1]
def test_every_worker_admits_the_lan_address_the_supervisor_prints(served_env):
    if lan_address() is None:
        pytest.skip("this machine has no local network address")
    env = dict(served_env)
    env.pop("LAN_ADDRESS", None)  # found by serve --lan itself, as make run does
    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "serve", "--lan", "--workers", "2", "--port", str(port),
                               "--no-demo"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        printed = ""
        deadline = time.monotonic() + 60
        while "workers on" not in printed:
            assert server.poll() is None and time.monotonic() < deadline, printed
            printed += server.stdout.readline()
        link = re.search(r"Students join at http://([^/:]+):(\d+)/join/", printed)
        assert link and int(link[2]) == port, printed
        address = link[1]
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        assert len(worker_pids(server.pid)) == 2
        # many connections, which the kernel hands to either worker: each answers the LAN link
        statuses = [get(port, f"{address}:{port}", "/join/?code=ABC234") for _ in range(24)]
        assert statuses == [200] * 24, statuses
        assert get(port, f"127.0.0.1:{port}", "/join/") == 200  # and the teacher's own computer
        assert get(port, f"evil.example:{port}", "/join/") == 400  # no other host is let in
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)

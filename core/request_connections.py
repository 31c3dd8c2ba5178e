"""An HTTP request's database connections are closed when its response is done.

Under ASGI each request's view runs in a thread of its own (asgiref's ThreadSensitiveContext),
which ends with the request: a connection kept for reuse (``CONN_MAX_AGE``) could never serve
another request, and would stay open until Python's cycle collector freed the finished thread's
objects. The served app runs that collector seldom (config/asgi.py), so a busy server held a
connection per finished request until PostgreSQL's limit refused everyone. The sockets'
consumers keep theirs: their database work runs on long-lived threads."""
from __future__ import annotations

from django.core.signals import request_finished
from django.db import connections


def close_request_connections(**kwargs) -> None:
    """``request_finished`` is sent from the request's own thread (the response's ``close``). A
    connection inside a transaction is left alone: a test's, whose client sends the signal too."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def connect() -> None:
    """Called by the served app (config/asgi.py)."""
    request_finished.connect(close_request_connections, dispatch_uid="core.request_connections")

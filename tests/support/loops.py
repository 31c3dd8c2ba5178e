"""Playwright's sync API (the session's browser) leaves its event loop registered as running in
the test thread; code a test calls directly that announces (``async_to_sync``) or runs a loop of
its own would refuse to run there."""
from __future__ import annotations

import asyncio
from contextlib import contextmanager


@contextmanager
def loop_running(loop):
    """``loop`` registered as the test thread's running loop meanwhile (None: no loop)."""
    before = asyncio._get_running_loop()
    asyncio._set_running_loop(loop)
    try:
        yield
    finally:
        asyncio._set_running_loop(before)


def loop_set_aside():
    """The test thread's running loop (if any) set aside meanwhile."""
    return loop_running(None)

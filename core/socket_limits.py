"""Caps on live sockets, shared by the match and class-session consumers.

- At most ``SOCKETS_PER_BROWSER`` open sockets per browser session (counted in the cache, so
  across server processes with Redis): a further one is accepted, told why, and closed with
  code 4429.
- A socket with no message from its page for ``SOCKET_IDLE_SECONDS`` is closed with code
  4408. Visible pages ping every minute (static/js/live.js), so only forgotten or hidden tabs
  go idle; the page reconnects by itself when it is looked at again.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext

from core.errors import AppError

CLOSE_TOO_MANY = 4429
CLOSE_IDLE = 4408
COUNT_TTL_SECONDS = 6 * 60 * 60  # a count left by a crashed process fades away


def browser_key(scope) -> str:
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    if not key:
        client = scope.get("client") or ("unknown", 0)
        key = f"address:{client[0]}"
    return "sockets:" + hashlib.sha256(key.encode()).hexdigest()[:32]


class SocketLimitsMixin:
    """For ``AsyncWebsocketConsumer``s: ``await self.open_within_limits()`` after deciding to
    accept (returns False when it closed the socket instead), ``self.socket_active()`` on each
    message, ``await self.release_socket()`` in ``disconnect``."""

    _socket_key: str | None = None
    _idle_task: asyncio.Task | None = None
    _last_message = 0.0

    async def open_within_limits(self) -> bool:
        key = browser_key(self.scope)
        count = await sync_to_async(_counted, thread_sensitive=False)(key)
        await self.accept()
        if count > settings.SOCKETS_PER_BROWSER:
            await sync_to_async(_released, thread_sensitive=False)(key)
            await self.send(text_data=json.dumps(AppError("too_many_sockets", gettext(
                "This browser has too many live pages open: close some tabs.")).as_message()))
            await self.close(code=CLOSE_TOO_MANY)
            return False
        self._socket_key = key
        self._last_message = time.monotonic()
        self._idle_task = asyncio.get_running_loop().create_task(self._close_when_idle())
        return True

    def socket_active(self) -> None:
        self._last_message = time.monotonic()

    async def release_socket(self) -> None:
        if self._idle_task is not None:
            self._idle_task.cancel()
            self._idle_task = None
        if self._socket_key is not None:
            key, self._socket_key = self._socket_key, None
            await sync_to_async(_released, thread_sensitive=False)(key)

    async def _close_when_idle(self) -> None:
        idle = settings.SOCKET_IDLE_SECONDS
        while True:
            remaining = self._last_message + idle - time.monotonic()
            if remaining <= 0:
                await self.close(code=CLOSE_IDLE)
                return
            await asyncio.sleep(min(remaining, 30))


def _counted(key: str) -> int:
    """This browser's open sockets, this one counted (one trip to a pool thread, not one per
    cache call: a socket opens for every match a student plays)."""
    cache.add(key, 0, COUNT_TTL_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired in between
        cache.set(key, 1, COUNT_TTL_SECONDS)
        return 1
    cache.touch(key, COUNT_TTL_SECONDS)
    return count


def _released(key: str) -> None:
    try:
        if cache.decr(key) < 0:
            cache.set(key, 0, COUNT_TTL_SECONDS)
    except ValueError:  # expired meanwhile
        pass

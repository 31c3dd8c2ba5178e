"""The Redis channel layer, which tells every socket of the process when Redis is lost.

channels_redis runs one receive loop per process, on behalf of all its consumers, and keeps
group memberships in Redis only. When Redis goes away, at best the consumer that happened to run
the loop gets an error (its socket closes); the loop may also ride out a short outage on its
retries. Either way, once Redis is back (restarted empty, every group forgotten) the other
sockets would stay open and hear nothing more: a page that says "live" and misses every move.

So each process watches Redis (``WATCH_SECONDS``): when Redis stops answering, or answers with
another ``run_id`` (it restarted), and when a receive fails, every consumer of the process that
waits on the layer is handed a ``layer.failed`` message. ``LayerOutageMixin`` closes its socket
with ``CLOSE_UNAVAILABLE``: each page reconnects, joins its groups again and reads the state
afresh from the database.
"""
from __future__ import annotations

import asyncio
import logging

from channels_redis.core import RedisChannelLayer

CLOSE_UNAVAILABLE = 4503  # the channel layer (Redis) failed: the page reconnects and reads the state afresh
WATCH_SECONDS = 0.5

log = logging.getLogger(__name__)


class OutageAwareRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._watchers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}

    async def receive(self, channel):
        loop = asyncio.get_running_loop()
        if loop not in self._watchers:
            self._watchers = {other: task for other, task in self._watchers.items() if not other.is_closed()}
            self._watchers[loop] = loop.create_task(self._watch())
        return await super().receive(channel)

    async def receive_single(self, channel):
        try:
            return await super().receive_single(channel)
        except Exception:
            self.tell_every_consumer()
            raise

    def tell_every_consumer(self) -> None:
        """``layer.failed`` to every consumer waiting in this process."""
        for queue in list(self.receive_buffer.values()):
            queue.put_nowait({"type": "layer.failed"})

    async def _watch(self) -> None:
        known, lost = None, False
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                run_id = (await asyncio.wait_for(self.connection(0).info("server"), 2))["run_id"]
            except Exception:
                if not lost:
                    log.warning("channel layer: Redis unreachable; closing this process's sockets")
                    self.tell_every_consumer()
                lost = True
                continue
            if known is not None and run_id != known and not lost:
                log.warning("channel layer: Redis restarted; closing this process's sockets")
                self.tell_every_consumer()
            known, lost = run_id, False


class LayerOutageMixin:
    """For consumers: closes the socket when the process lost the channel layer."""

    async def layer_failed(self, event: dict) -> None:
        await self.close(code=CLOSE_UNAVAILABLE)

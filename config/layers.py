"""The Redis channel layer, which tells every socket of the process when Redis is lost.

channels_redis runs one receive loop per process, on behalf of all its consumers: when Redis
goes away only the consumer that happened to run the loop gets the error (and its socket
closes); the others wait on, and once Redis is back (restarted empty, their group memberships
gone) they would stay open and hear nothing more: a page that says "live" and misses every move.
Here a failed receive first hands every waiting consumer of the process a ``layer.failed``
message: ``LayerOutageMixin`` closes its socket with ``CLOSE_UNAVAILABLE``, so each page
reconnects, joins its groups again and reads the state afresh from the database.
"""
from __future__ import annotations

from channels_redis.core import RedisChannelLayer

CLOSE_UNAVAILABLE = 4503  # the channel layer (Redis) failed: the page reconnects and reads the state afresh
LAYER_FAILED = {"type": "layer.failed"}


class OutageAwareRedisChannelLayer(RedisChannelLayer):
    async def receive_single(self, channel):
        try:
            return await super().receive_single(channel)
        except Exception:
            for queue in list(self.receive_buffer.values()):  # every consumer waiting in this process
                queue.put_nowait(dict(LAYER_FAILED))
            raise


class LayerOutageMixin:
    """For consumers: closes the socket when the process lost the channel layer."""

    async def layer_failed(self, event: dict) -> None:
        await self.close(code=CLOSE_UNAVAILABLE)

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

``group_send`` is channels_redis's, in two round trips to Redis instead of four (the group's
members read in one pipeline; the stale entries trimmed, the capacity checked and the message
stored by one script, sent by its hash), and a message naming its ``sender`` channel is not
delivered back to it (the match socket's own move: it drops it anyway). A member in this same
process gets the message straight into its queue, without Redis.

``receive``: one reader task per process (and event loop) takes the process's messages off Redis
one ``BZPOPMIN`` at a time and puts each into its consumer's queue; a consumer only waits on its
queue. channels_redis instead lets whichever consumer holds a lock read for all, and guards each
read against that consumer's cancellation with a backup queue: four round trips per message
(restore the backup, pop, back up, clean the backup) and two new tasks per wake-up, and nobody
reads while the lock's holder is busy (the live bench's broadcast p99 with teachers' sockets:
632 ms before the reader, 174 ms with it; medians of 3). The reader is never cancelled by a
socket that closes, so it needs no backup; a message in flight when the process dies was for that
process's sockets, which die with it. (Taking up to 100 messages at once, ``BZMPOP``, was measured
too: the burst of sockets it wakes together delayed the movers' own answers, p99 85 → 205 ms.)

It relies on channels_redis 4's internals (``_map_channel_keys_to_connection``, ``_group_key``,
``receive_buffer``, ``client_prefix``); the layer's tests in tests/test_channel_layer.py run it
against a real Redis.
"""
from __future__ import annotations

import asyncio
import logging
import time

from channels.consumer import get_handler_name
from channels_redis.core import RedisChannelLayer

CLOSE_UNAVAILABLE = 4503  # the channel layer (Redis) failed: the page reconnects and reads the state afresh
WATCH_SECONDS = 0.5
READ_RETRY_SECONDS = 0.5  # after a failed read (Redis unreachable): the consumers were told

log = logging.getLogger(__name__)

# KEYS: the channels' Redis keys; ARGV: a message per key, a capacity per key, now, expiry
SEND_TO_CHANNELS = """
local n = #KEYS
local now = tonumber(ARGV[2 * n + 1])
local expiry = tonumber(ARGV[2 * n + 2])
local over_capacity = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class OutageAwareRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._watchers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
        self._readers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
        self._send_script = None
        self._local = f"specific.{self.client_prefix}!"  # (``new_channel``'s names in this process)

    async def group_send(self, group, message):
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        async with connection.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            pipe.zrange(key, 0, -1)
            _trimmed, members = await pipe.execute()
        sender = message.get("sender")
        channels = [name for name in (m.decode("utf8") for m in members) if name != sender]
        local = [name for name in channels if name.startswith(self._local)]
        if local:  # each its own copy, as Redis would have given it
            packed = self.serialize(message)
            for name in local:
                self.receive_buffer[name].put_nowait(self.deserialize(packed))
            channels = [name for name in channels if name not in local]
        if not channels:
            return
        by_connection, messages, capacities = self._map_channel_keys_to_connection(channels, message)
        for index, keys in by_connection.items():
            script = self._send_script or self.connection(0).register_script(SEND_TO_CHANNELS)
            self._send_script = script
            over = await script(keys=keys, args=[*(messages[k] for k in keys), *(capacities[k] for k in keys),
                                                 time.time(), int(self.expiry)],
                                client=self.connection(index))
            if over:
                log.info("%s of %s channels over capacity in group %s", over, len(channels), group)

    async def receive(self, channel):
        loop = asyncio.get_running_loop()
        if loop not in self._watchers:
            self._watchers = {other: task for other, task in self._watchers.items() if not other.is_closed()}
            self._watchers[loop] = loop.create_task(self._watch())
        if "!" not in channel:  # a plain named channel (not this app's): channels_redis's way
            return await super().receive(channel)
        assert channel.startswith(self._local), "not a channel of this process"
        if loop not in self._readers:
            self._readers = {other: task for other, task in self._readers.items() if not other.is_closed()}
            self._readers[loop] = loop.create_task(self._read())
        queue = self.receive_buffer[channel]
        try:
            return await queue.get()
        finally:  # (a message for it later makes a new queue)
            if queue.empty() and self.receive_buffer.get(channel) is queue:
                del self.receive_buffer[channel]

    async def _read(self) -> None:
        """This process's messages, off Redis into their consumers' queues, for as long as the loop runs."""
        key = self.prefix + self._local
        connection = self.connection(self.consistent_hash(self._local))
        while True:
            try:
                popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)  # (oldest first)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("channel layer: reading this process's messages failed", exc_info=True)
                self.tell_every_consumer()
                await asyncio.sleep(READ_RETRY_SECONDS)
                continue
            if popped is None:
                continue
            message = self.deserialize(popped[1])
            names = message.pop("__asgi_channel__", ())  # (one name from ``send``, a list from a group)
            for name in [names] if isinstance(names, str) else names:
                self.receive_buffer[name].put_nowait(message)  # (one message shared, as channels_redis does)

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


class DirectDispatchMixin:
    """For consumers whose database work all goes through ``database_sync_to_async`` (which
    closes stale connections in its own thread, before and after): a message goes straight to
    its handler. Channels 4.2+ first runs ``close_old_connections`` through ``sync_to_async``
    on the process's one shared sync thread, for every message of every socket (each move a
    socket hears, each ping): a thread hop per message, queued behind every other socket's."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

"""The Redis cache, which answers as an empty cache while Redis is unreachable.

What the app keeps in the cache is a copy or a counter: sessions (``cached_db``: the database
holds them), standings and moments (rebuilt on a miss), throttles and socket counts. During a
Redis outage a request should therefore not fail: reads miss, writes are dropped and counters
start afresh (throttles let requests through for the seconds of the outage). Logged once a
minute at most.
"""
from __future__ import annotations

import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
OUTAGE = (RedisConnectionError, RedisTimeoutError)
LOG_EVERY_SECONDS = 60
_logged_at = [0.0]

# what each operation of the cache client answers while Redis is unreachable
_AS_IF_EMPTY = {
    "add": lambda key, value, timeout: True, "get": lambda key, default: default,
    "set": lambda *args: None, "touch": lambda *args: False, "delete": lambda key: False,
    "get_many": lambda keys: {}, "has_key": lambda key: False, "incr": lambda key, delta: delta,
    "set_many": lambda data, timeout: [], "delete_many": lambda keys: None, "clear": lambda: False,
}


def _tolerant(name: str):
    operation, fallback = getattr(RedisCacheClient, name), _AS_IF_EMPTY[name]

    def call(self, *args):
        try:
            return operation(self, *args)
        except OUTAGE:
            now = time.monotonic()
            if now - _logged_at[0] > LOG_EVERY_SECONDS:
                _logged_at[0] = now
                log.warning("cache unreachable (%s): answering as an empty cache", name, exc_info=True)
            return fallback(*args)

    return call


class OutageTolerantClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._redis_of_pool: dict[object, object] = {}

    def get_client(self, key=None, *, write=False):
        """Django's client makes a ``redis.Redis`` object for every operation (over the same
        connection pool); one per pool is kept here (a Redis object is safe to share between
        threads): a move reads and writes the cache several times."""
        pool = self._get_connection_pool(write)
        if pool not in self._redis_of_pool:
            self._redis_of_pool.setdefault(pool, self._client(connection_pool=pool))
        return self._redis_of_pool[pool]


for _name in _AS_IF_EMPTY:
    setattr(OutageTolerantClient, _name, _tolerant(_name))


# one client (and so one connection pool) per process and server, shared by every ``caches``
# object: Django makes a cache object per thread and per asyncio task, and each of Redis
# cache's objects would open connections of its own (a new one for every socket a page opens)
_CLIENTS: dict[tuple, OutageTolerantClient] = {}


class OutageTolerantRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = OutageTolerantClient

    @cached_property
    def _cache(self) -> OutageTolerantClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        client = _CLIENTS.get(key)
        if client is None:
            client = _CLIENTS.setdefault(key, self._class(self._servers, **self._options))
        return client

"""Join throttling through the cache (Redis in production): wrong codes per address and
attempts per code, each counted in a one-minute window."""
from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache

WINDOW_SECONDS = 60


def _key(kind: str, who: str) -> str:
    return f"join:{kind}:{who}:{int(time.time() // WINDOW_SECONDS)}"


def _count(key: str) -> int:
    return int(cache.get(key, 0))


def _bump(key: str) -> None:
    if not cache.add(key, 1, WINDOW_SECONDS * 2):
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, WINDOW_SECONDS * 2)


def too_many_wrong_codes(address: str) -> bool:
    return _count(_key("wrong", address)) >= settings.JOIN_WRONG_CODES_PER_MINUTE


def record_wrong_code(address: str) -> None:
    _bump(_key("wrong", address))


def too_many_attempts_on(code: str) -> bool:
    return _count(_key("code", code)) >= settings.JOIN_ATTEMPTS_PER_CODE_PER_MINUTE


def record_attempt_on(code: str) -> None:
    _bump(_key("code", code))

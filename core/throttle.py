"""Throttling through the cache (Redis in production): counts over a sliding minute (this
minute's count plus the last minute's, weighted by how much of it is still inside the minute),
so neither a burst across a minute's boundary nor a test that runs across one sees a fresh count.

Joining a class: wrong codes per browser (address + browser cookie) and per address, wrong
attempts per code: over a limit a wrong code is answered "slow down", but a correct code is never
throttled by them (``classrooms.views.join``); new participants per browser and per address (a
school behind one NAT address still joins a class of thirty in a minute). Teacher
login and sign-up: attempts per address and per username."""
from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache

WINDOW_SECONDS = 60


def _key(kind: str, who: str, window: int | None = None) -> str:
    digest = hashlib.sha256(who.encode("utf-8", "replace")).hexdigest()[:32]  # any input, fixed length
    if window is None:
        window = int(time.time() // WINDOW_SECONDS)
    return f"throttle:{kind}:{digest}:{window}"


def _sliding_count(kind: str, who: str) -> int:
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    still_inside = 1 - (now % WINDOW_SECONDS) / WINDOW_SECONDS  # of the last window, in the last minute
    counts = cache.get_many([_key(kind, who, window), _key(kind, who, window - 1)])
    # rounded up: an attempt a moment before the boundary counts whole
    return (int(counts.get(_key(kind, who, window), 0))
            + math.ceil(int(counts.get(_key(kind, who, window - 1), 0)) * still_inside))


def _bump(key: str) -> None:
    if not cache.add(key, 1, WINDOW_SECONDS * 2):
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, WINDOW_SECONDS * 2)


def over(kind: str, who: str, limit: int) -> bool:
    return _sliding_count(kind, who) >= limit


def record(kind: str, who: str) -> None:
    _bump(_key(kind, who))


def browser_of(address: str, browser_id: str) -> str:
    """One browser behind an address: the address and the browser's own cookie."""
    return f"{address}|{browser_id}"


# -- joining a class session

def too_many_wrong_codes(address: str, browser_id: str = "") -> bool:
    return (over("wrong", browser_of(address, browser_id), settings.JOIN_WRONG_CODES_PER_MINUTE)
            or over("wrong-address", address, settings.JOIN_WRONG_CODES_PER_ADDRESS_PER_MINUTE))


def record_wrong_code(address: str, browser_id: str = "") -> None:
    record("wrong", browser_of(address, browser_id))
    record("wrong-address", address)


def too_many_wrong_cards(address: str, browser_id: str = "") -> bool:
    """A card typed with a correct join code: only this browser's own wrong tries count (the
    address's would let a prankster in the school lock out everyone's cards)."""
    return over("wrong", browser_of(address, browser_id), settings.JOIN_WRONG_CODES_PER_MINUTE)


def too_many_attempts_on(code: str) -> bool:
    """Wrong attempts on this code (never the joins of a correct one)."""
    return over("code", code, settings.JOIN_ATTEMPTS_PER_CODE_PER_MINUTE)


def record_attempt_on(code: str) -> None:
    record("code", code)


def too_many_new_participants(address: str, browser_id: str = "") -> bool:
    return ((browser_id and over("new", browser_of(address, browser_id),
                                 settings.JOIN_NEW_PARTICIPANTS_PER_BROWSER_PER_MINUTE))
            or over("new-address", address, settings.JOIN_NEW_PARTICIPANTS_PER_ADDRESS_PER_MINUTE))


def record_new_participant(address: str, browser_id: str = "") -> None:
    record("new", browser_of(address, browser_id))
    record("new-address", address)


# -- teacher login (failed attempts) and sign-up (every attempt)

def too_many_logins(address: str, username: str, kind: str = "login") -> bool:
    return (over(f"{kind}-address", address, settings.LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE)
            or over(f"{kind}-user", username.strip().lower(), settings.LOGIN_ATTEMPTS_PER_USERNAME_PER_MINUTE))


def record_login(address: str, username: str, kind: str = "login") -> None:
    record(f"{kind}-address", address)
    record(f"{kind}-user", username.strip().lower())

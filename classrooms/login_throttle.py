"""Teacher login throttling that an attacker cannot turn into a lock-out.

Failed logins are counted per (username, address), per address and per username, over a sliding
minute (``core.throttle``); usernames count case-insensitively ("Mr-Bohr" is "mr-bohr").
Who is asking decides which counts apply:

* a **stranger** (an address that never logged in as this username, a browser that never did):
  every count — ``LOGIN_ATTEMPTS_PER_USERNAME_PER_ADDRESS_PER_MINUTE`` [5] for this username from
  this address, ``LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE`` [20] from this address for any
  username, and the softer ``LOGIN_ATTEMPTS_PER_USERNAME_PER_MINUTE`` [30] for this username
  from anywhere. Past one, the answer is "wait" and the password is not even checked.
* a **known address** (this username logged in from it within ``LOGIN_KNOWN_ADDRESS_DAYS``):
  neither the address's nor the username's count from elsewhere applies, so wrong passwords
  sent from anywhere else never lock the teacher out here. Past this address's own count for the
  username, a correct password still logs in (a wrong one is "wait"); only while someone at this
  very address is guessing this username's password at ten times that rate is it "wait" for
  everybody there without a check (a school's shared address is not an unlimited guessing
  oracle for the students behind it) — except for:
* a **known browser** (it logged in as this username before: a signed, HttpOnly cookie): a
  correct password always logs in.

Successful logins make the address and the browser known; nothing else does."""
from __future__ import annotations

import hashlib

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from core import throttle

KNOWN_BROWSER_COOKIE = "qc_known_login"
_SALT = "classrooms.login_throttle.known-browser"
_BROWSER_NAMES_KEPT = 5
CEILING_FACTOR = 10  # a known address's own count times this: no password check at all


def normal(username: str) -> str:
    """The username as throttles count it: stripped, case-insensitive."""
    return username.strip().casefold()[:150]


def _pair(username: str, address: str) -> str:
    return f"{normal(username)}|{address}"


def _known_key(username: str, address: str) -> str:
    digest = hashlib.sha256(_pair(username, address).encode("utf-8", "replace")).hexdigest()[:32]
    return f"login-known:{digest}"


def is_known_address(username: str, address: str) -> bool:
    return bool(cache.get(_known_key(username, address)))


def browser_names(request: HttpRequest) -> list[str]:
    raw = request.COOKIES.get(KNOWN_BROWSER_COOKIE, "")
    if not raw:
        return []
    try:
        names = signing.loads(raw, salt=_SALT, max_age=settings.LOGIN_KNOWN_ADDRESS_DAYS * 86400)
    except signing.BadSignature:
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def is_known_browser(request: HttpRequest, username: str) -> bool:
    return normal(username) in browser_names(request)


def blocked(address: str, username: str, *, known_address: bool) -> bool:
    """Whether the counts say "wait" to this requester (see the module docstring)."""
    pair = _pair(username, address)
    per_pair = settings.LOGIN_ATTEMPTS_PER_USERNAME_PER_ADDRESS_PER_MINUTE
    if known_address:
        return throttle.over("login-pair", pair, per_pair)
    return (throttle.over("login-pair", pair, per_pair)
            or throttle.over("login-address", address, settings.LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE)
            or throttle.over("login-user", normal(username), settings.LOGIN_ATTEMPTS_PER_USERNAME_PER_MINUTE))


def past_ceiling(address: str, username: str) -> bool:
    """Someone at this address is guessing this username's password ten times past its limit."""
    return throttle.over("login-pair", _pair(username, address),
                         settings.LOGIN_ATTEMPTS_PER_USERNAME_PER_ADDRESS_PER_MINUTE * CEILING_FACTOR)


def record_failure(address: str, username: str) -> None:
    throttle.record("login-pair", _pair(username, address))
    throttle.record("login-address", address)
    throttle.record("login-user", normal(username))


def remember_success(request: HttpRequest, response: HttpResponse, username: str, address: str) -> None:
    """The address and this browser are known for ``username`` from now on."""
    cache.set(_known_key(username, address), 1, settings.LOGIN_KNOWN_ADDRESS_DAYS * 86400)
    names = [normal(username), *(n for n in browser_names(request) if n != normal(username))]
    response.set_cookie(KNOWN_BROWSER_COOKIE, signing.dumps(names[:_BROWSER_NAMES_KEPT], salt=_SALT),
                        max_age=settings.LOGIN_KNOWN_ADDRESS_DAYS * 86400, httponly=True,
                        secure=not settings.DEBUG, samesite="Lax")

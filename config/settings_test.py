"""Settings for the test suite: the development values (DEBUG on, so the built-in key and plain
HTTP are allowed), set before the real settings read the environment. Server processes the
tests start inherit the same environment and read these settings too (tests/support/server.py).
Tests of the production defaults run subprocesses with their own environment."""
import os
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("DEBUG", "1")

REDIS_DATABASES = 16  # redis-server's default number of databases


def _redis_database_per_worker() -> None:
    """Under pytest-xdist (``make test`` runs several workers) each worker has a Redis database
    of its own: the URL's number plus the worker's (gw0 keeps it, gw1 the next one, ...). Tests
    clear the cache (a FLUSHDB) and read the channel layer's and Celery's queues, which must not
    be another worker's. The servers and Celery workers a test starts inherit the changed URL
    (and the mark that it was changed, so they do not add the number again)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL", "")
    if not url or not worker.startswith("gw") or os.environ.get("REDIS_URL_OF_WORKER") == worker:
        return
    parts = urlsplit(url)
    db = int(parts.path.strip("/") or 0) + int(worker[2:])
    if db >= REDIS_DATABASES:
        raise RuntimeError(f"REDIS_URL={url}: xdist worker {worker} would need Redis database {db}; "
                           "start from a lower database or run fewer workers (-n)")
    os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{db}"))
    os.environ["REDIS_URL_OF_WORKER"] = worker


_redis_database_per_worker()

from config.settings import *  # noqa: E402,F401,F403

# Passwords hashed in microseconds, not by PBKDF2's million rounds (a third of a second each:
# the suite creates hundreds of users and logs many in). The servers the tests start read these
# settings too, so their logins check fast; PBKDF2 still checks a password stored by a process
# on the production settings (and the server re-hashes it fast on login).
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]

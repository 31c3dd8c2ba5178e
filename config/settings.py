"""Settings: one module, read from the environment, with embedded defaults.

Embedded default (nothing set): SQLite, in-memory channel layer, Celery tasks run in-process.
Production: DATABASE_URL (PostgreSQL), REDIS_URL (channel layer, cache, Celery broker),
SECRET_KEY, ALLOWED_HOSTS, DEBUG=0 — see README.
"""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


# Fail closed: production unless DEBUG=1 is set (`make run` and the tests set it).
DEBUG = env_flag("DEBUG", False)
# The built-in key is for a laptop only: with DEBUG off the app refuses to start on it
# (core.checks: an error for `check --deploy`, and config.asgi will not serve).
BUILTIN_SECRET_KEY = "embedded-default-key-only-for-a-laptop-never-for-production-0123456789"
SECRET_KEY = os.environ.get("SECRET_KEY") or BUILTIN_SECRET_KEY
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# Where students reach the app (join link and QR), e.g. https://quantum.school.example; its host
# is allowed. LAN_ADDRESS: this machine's address on the local network, set by `serve --lan`.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
if PUBLIC_URL:
    from urllib.parse import urlsplit

    _public = urlsplit(PUBLIC_URL)
    ALLOWED_HOSTS.append(_public.hostname or "")
    CSRF_TRUSTED_ORIGINS.append(f"{_public.scheme}://{_public.netloc}")
LAN_ADDRESS = os.environ.get("LAN_ADDRESS", "").strip()
if LAN_ADDRESS:
    ALLOWED_HOSTS.append(LAN_ADDRESS)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "core",
    "games",
    "classrooms",
    "simulator",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "core.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "core.language.ClassSessionLanguageMiddleware",  # the teacher's language for a class session
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.pages.FriendlyErrors",  # the app's own 403/404 page, with DEBUG on too
]
CSRF_FAILURE_VIEW = "core.pages.csrf_failure"

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "classrooms.accounts.account_flags",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # persistent connections: a new PostgreSQL connection per socket message costs milliseconds
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if "postgresql" in DATABASES["default"]["ENGINE"]:
    # one test database per test run, so runs side by side do not drop each other's
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # BEGIN IMMEDIATE: a second writer waits its turn (then sees the new log) instead of failing
    # with "database is locked" when two moves arrive at once
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    # a file, not memory: the test suite's real server processes share the test database
    # (one per test run, so runs side by side do not share it)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    from redis.exceptions import ConnectionError as RedisConnectionError

    CHANNEL_LAYERS = {
        "default": {
            # (the Pub/Sub layer measured slower here: bench/live_latency.py; CHANNEL_LAYER_BACKEND
            # switches it for a try)
            "BACKEND": os.environ.get("CHANNEL_LAYER_BACKEND", "core.layers.OutageAwareRedisChannelLayer"),
            "CONFIG": {
                # redis-py 8 times socket reads out after 5 s by default: exactly channels_redis's
                # 5 s blocking pop, which then kills idle sockets at random. Reads may wait longer.
                # retry_on_error: after a Redis restart each pooled connection is dead; without it
                # its first command fails ("Connection closed by server") and drops a live socket.
                # redis-py 8 caps an asyncio pool at 100 connections and then RAISES (it does not
                # wait): 1,000 students opening sockets at once made group_add fail (bench). Raised.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30,
                           "retry_on_error": [RedisConnectionError],
                           "max_connections": int(os.environ.get("CHANNELS_REDIS_MAX_CONNECTIONS", "1000"))}],
                "prefix": os.environ.get("CHANNELS_PREFIX", "qc"),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "core.cache.OutageTolerantRedisCache",  # a Redis outage is a cache miss, not a 500
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "qc"),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis broker in production; in the embedded default tasks run in-process.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not (REDIS_URL or os.environ.get("CELERY_BROKER_URL"))
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "quantum-classroom")
SIMULATOR_QUEUE = os.environ.get("SIMULATOR_QUEUE", "")  # circuit runs' queue (default: the one above)
# Circuit-run quotas (simulator.quotas): new runs per requester per minute, runs waiting or
# running per requester and per class, runs per class per day.
RUNS_PER_REQUESTER_PER_MINUTE = env_int("RUNS_PER_REQUESTER_PER_MINUTE", 10)
RUNS_ACTIVE_PER_REQUESTER = env_int("RUNS_ACTIVE_PER_REQUESTER", 3)
RUNS_ACTIVE_PER_CLASS = env_int("RUNS_ACTIVE_PER_CLASS", 10)
RUNS_PER_CLASS_PER_DAY = env_int("RUNS_PER_CLASS_PER_DAY", 500)

# Live sockets (core.socket_limits): open sockets per browser session; a socket with no
# message from its page for this long is closed (visible pages ping every minute and reconnect).
SOCKETS_PER_BROWSER = env_int("SOCKETS_PER_BROWSER", 8)
SOCKET_IDLE_SECONDS = env_int("SOCKET_IDLE_SECONDS", 600)

# Retention: ended sessions' student data is deleted after this many days (classrooms.retention),
# daily by Celery beat (`celery -A config beat`) or `manage.py purge_expired` from cron.
RETENTION_DAYS = int(os.environ.get("RETENTION_DAYS", "365"))
# A session nobody used for this many days (no join, no table started, no move) ends by itself in
# the same daily purge; its retention counts from then.
SESSION_IDLE_DAYS = env_int("SESSION_IDLE_DAYS", 30)
CELERY_BEAT_SCHEDULE = {
    "purge-expired-data": {"task": "classrooms.purge_expired_data", "schedule": 24 * 60 * 60},
}
# an unacknowledged task (its worker died) is handed to another worker after this long
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "classrooms:teacher-home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The interface languages (see README "Languages"): chosen per browser (Accept-Language, the
# header's switcher, remembered in the language cookie) and per class session by the teacher.
LANGUAGES = [("en", "English"), ("es", "Español"), ("pl", "Polski")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# `manage.py collectstatic` writes here; production serves this copy (core/staticfiles.py).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# Production (and the tests' servers): the collected files under names with their content's hash
# (`app.3f9c0e1b2a4d.css`, cached by browsers for a year; the scripts' imports rewritten to the
# hashed names), compressed, served by ServeStatic. Development (`make run`): the files of
# static/ as they are, found on every request, nothing to collect.
STATIC_HASHED = env_flag("STATIC_HASHED", not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "core.staticfiles.HashedStaticFilesStorage" if STATIC_HASHED
                    else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"  # reads from Redis, survives a cache flush
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30  # a student's laptop stays the same participant for a month
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.authentication.CsrfSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    # JSON behind size and depth caps (core.limits); forms as before
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.LimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "core.api.CappedLimitOffsetPagination",  # ?limit= at most 200
    "PAGE_SIZE": int(os.environ.get("API_PAGE_SIZE", "50")),
}
API_MAX_PAGE_SIZE = env_int("API_MAX_PAGE_SIZE", 200)
# Request bodies beyond this are a 400 before any view reads them (JSON has its own caps).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", str(256 * 1024)))
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
# Any request body (form, JSON, the map upload's file included) over this is a 413 before it is
# read, at the server's own layer (core/bodylimit.py); the proxy's limit should be the same.
REQUEST_BODY_MAX_BYTES = env_int("REQUEST_BODY_MAX_BYTES", DATA_UPLOAD_MAX_MEMORY_SIZE + 64 * 1024)
SPECTACULAR_SETTINGS = {
    "TITLE": "Quantum Classroom API",
    "DESCRIPTION": "Classes, class sessions, matches, replays and circuit runs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Join throttling (core.throttle), per minute. "Browser" = address + the browser's cookie,
# so a school behind one NAT address still joins a class of thirty in a minute.
JOIN_WRONG_CODES_PER_MINUTE = env_int("JOIN_WRONG_CODES_PER_MINUTE", 10)  # per browser
JOIN_WRONG_CODES_PER_ADDRESS_PER_MINUTE = env_int("JOIN_WRONG_CODES_PER_ADDRESS_PER_MINUTE", 60)
JOIN_ATTEMPTS_PER_CODE_PER_MINUTE = env_int("JOIN_ATTEMPTS_PER_CODE_PER_MINUTE", 120)  # wrong ones only
JOIN_NEW_PARTICIPANTS_PER_BROWSER_PER_MINUTE = env_int("JOIN_NEW_PARTICIPANTS_PER_BROWSER_PER_MINUTE", 3)
JOIN_NEW_PARTICIPANTS_PER_ADDRESS_PER_MINUTE = env_int("JOIN_NEW_PARTICIPANTS_PER_ADDRESS_PER_MINUTE", 45)
PARTICIPANT_CAP_DEFAULT = env_int("PARTICIPANT_CAP_DEFAULT", 60)  # per class session; the teacher may change it
PARTICIPANT_CAP_MAX = env_int("PARTICIPANT_CAP_MAX", 300)
# A session filled by a script: the dashboard warns when this many joined in the last minute, and
# offers to remove everyone who joined by name in the last N minutes (these N)
JOIN_BURST_PER_MINUTE = env_int("JOIN_BURST_PER_MINUTE", 10)
REMOVE_RECENT_CHOICES = (1, 2, 5, 10)
# Pace (games/pace.py): the seconds per move a teacher may give a table's clock, and the
# "finish in" durations (seconds) of a lesson's end; tests list shorter ones
MOVE_CLOCK_CHOICES = tuple(int(x) for x in os.environ.get("MOVE_CLOCK_CHOICES", "15,30,60,120").split(",") if x)
FINISH_IN_CHOICES = tuple(int(x) for x in os.environ.get("FINISH_IN_CHOICES", "60,120,300,600").split(",") if x)
# Teacher login and sign-up attempts, per minute (classrooms.login_throttle): failed logins of a
# username from one address, from one address for any username, of a username from anywhere (the
# last two only for addresses and browsers that never logged in as that username); an address
# that logged in as a username stays known for it this many days.
LOGIN_ATTEMPTS_PER_USERNAME_PER_ADDRESS_PER_MINUTE = env_int("LOGIN_ATTEMPTS_PER_USERNAME_PER_ADDRESS_PER_MINUTE", 5)
LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE = env_int("LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE", 20)
LOGIN_ATTEMPTS_PER_USERNAME_PER_MINUTE = env_int("LOGIN_ATTEMPTS_PER_USERNAME_PER_MINUTE", 30)
LOGIN_KNOWN_ADDRESS_DAYS = env_int("LOGIN_KNOWN_ADDRESS_DAYS", 180)

# Teacher sign-up: closed (accounts made by an administrator), open, or invite (needs
# TEACHER_INVITE_CODE). Closed in production unless set; open in development.
TEACHER_SIGNUP = os.environ.get("TEACHER_SIGNUP", "open" if DEBUG else "closed").strip().lower()
if TEACHER_SIGNUP not in {"closed", "open", "invite"}:
    raise ValueError("TEACHER_SIGNUP must be closed, open or invite")
TEACHER_INVITE_CODE = os.environ.get("TEACHER_INVITE_CODE", "")

# Mail: password reset is offered only with a mail server configured (EMAIL_HOST).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
PASSWORD_RESET_ENABLED = bool(EMAIL_HOST)
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", True)
    DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")

# Addresses (or networks) of the TLS proxy in front: only from these is X-Forwarded-For believed
# (core.clientip). Empty: the connection's own address is the client's.
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]

# A bare echo socket at /ws/echo/, the floor for bench/live_latency.py; off unless asked for.
ECHO_SOCKET = env_flag("ECHO_SOCKET", False)

# Secret box for stored credentials (IBM Quantum tokens). Derived from SECRET_KEY unless given.
CREDENTIALS_KEY = os.environ.get("CREDENTIALS_KEY", "")

if not DEBUG:
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

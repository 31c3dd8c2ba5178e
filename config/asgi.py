"""ASGI entry point: HTTP (Django, static files) and WebSockets (Channels)."""
import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi = get_asgi_application()

from core.checks import refuse_insecure_start, refuse_uncollected_static  # noqa: E402

refuse_insecure_start()  # DEBUG off on the built-in SECRET_KEY: do not serve at all
refuse_uncollected_static()  # production without `manage.py collectstatic`: neither

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from core import bodylimit, request_connections, wsdeflate  # noqa: E402
from core.staticfiles import static_files  # noqa: E402

# A request body over REQUEST_BODY_MAX_BYTES is a 413 before it is read: daphne (which would
# spool and queue all of it before calling the app) refuses it while it arrives, any server at
# the ASGI layer (core/bodylimit.py).
bodylimit.install_in_daphne()
# Live messages go compressed on the wire (permessage-deflate, core/wsdeflate.py).
wsdeflate.install_in_daphne()

application = ProtocolTypeRouter(
    {
        "http": bodylimit.BodyLimit(static_files(django_asgi)),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

if settings.ECHO_SOCKET:  # benchmarks only: the server's own floor, without Channels
    from bench.echo import raw_echo

    application = raw_echo(application)

# Everything loaded so far lives as long as the process: frozen, the collector no longer walks it
# on every full collection (those walks were the live bench's 200–280 ms p99 pauses at 300
# students; frozen, 67–78 ms: bench/live_latency.py, see the README's figures).
# Then the collector runs seldom: every 100,000 new objects rather than 700, its older generations
# as seldom after that. A live move makes thousands of short-lived objects (views, patches,
# events), and the default thresholds collected several times per move (poker at 300 students:
# 21.1 -> 16.3 ms of CPU per action). Nothing of value waits on the collector: a request's
# PostgreSQL connection is closed when its response is done, not when its thread's objects are
# collected.
request_connections.connect()
gc.collect()
gc.freeze()
gc.set_threshold(100_000, 50, 100)

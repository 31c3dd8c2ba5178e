"""Static files behind the ASGI application.

Production (``STATIC_HASHED``, on unless ``DEBUG=1``): ``manage.py collectstatic`` copies every
static file to ``STATIC_ROOT`` under a name with its content's hash (``js/play.3f9c0e1b2a4d.js``),
rewrites the references between them (CSS ``url()``, the scripts' ``import … from``, ``export …
from``, ``import("…")`` and ``new URL("…", import.meta.url)``) to the hashed names, and
compresses them; ``{% static %}`` names the hashed file and ServeStatic serves it, from memory's
list of the collected files, with a year's ``Cache-Control: immutable``. The app refuses to start
without them (``core.checks``: "run manage.py collectstatic"), never a 500 for a missing manifest.

Development (``make run``): Django's handler finds the files of ``static/`` on every request, as
they are. There a path that leaves the static directories is "not found" (the app's 404 page),
never an error: ``/static/%2e%2e/config/settings.py`` reaches Django's finders as
``../config/settings.py``, which refuse it with ``SuspiciousFileOperation``; Django's handler
turned that into a bare 500 from the server. ServeStatic serves only the files it listed at start,
anything else goes on to the app (its 404 page)."""
from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.exceptions import SuspiciousOperation
from django.http import Http404
from servestatic import ServeStaticASGI
from servestatic.storage import CompressedManifestStaticFilesStorage

# A board script loads its own stylesheet beside it: ``new URL("../css/qtris.css", import.meta.url)``
NEW_URL_RELATIVE_TO_MODULE = (
    r"""(?P<matched>new\s+URL\(\s*["'](?P<url>\.{1,2}/[^"']*)["']\s*,\s*import\.meta\.url\s*\))""",
    """new URL("%(url)s", import.meta.url)""",
)


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Hashed names (a manifest), the scripts' module imports rewritten too, gzip/brotli copies."""

    support_js_module_import_aggregation = True
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("*.js", (NEW_URL_RELATIVE_TO_MODULE,)))

    def url(self, name, force=False):
        # the hashed names with DEBUG on too (Django's would not hash them then): where this
        # storage is, ServeStatic serves the collected files (the tests' servers)
        return super().url(name, force=True)


class StaticFiles(ASGIStaticFilesHandler):
    """Development: the files of the static directories as they are."""

    def serve(self, request):
        try:
            return super().serve(request)
        except SuspiciousOperation:
            raise Http404 from None  # (nothing to say: no such file here)


def nosniff(headers, path: str, url: str) -> None:
    headers["X-Content-Type-Options"] = "nosniff"


def static_files(application):
    """``application`` behind the static files: the collected, hashed ones in production."""
    if not settings.STATIC_HASHED:
        return StaticFiles(application)
    return ServeStaticASGI(application, root=settings.STATIC_ROOT, prefix=settings.STATIC_URL,
                           allow_all_origins=False, add_headers_function=nosniff)

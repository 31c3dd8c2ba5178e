"""Static files behind the ASGI application, where a path that leaves the static directories is
"not found" (the app's 404 page), never an error: ``/static/%2e%2e/config/settings.py`` reaches
Django's finders as ``../config/settings.py``, which refuse it with ``SuspiciousFileOperation``;
Django's handler turned that into a bare 500 from the server."""
from __future__ import annotations

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.exceptions import SuspiciousOperation
from django.http import Http404


class StaticFiles(ASGIStaticFilesHandler):
    def serve(self, request):
        try:
            return super().serve(request)
        except SuspiciousOperation:
            raise Http404 from None  # (nothing to say: no such file here)

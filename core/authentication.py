"""API authentication: the browser's session, with CSRF checked for students too."""
from __future__ import annotations

from drf_spectacular.authentication import SessionScheme
from rest_framework.authentication import SessionAuthentication


class CsrfSessionAuthentication(SessionAuthentication):
    """Session auth that also checks CSRF for anonymous students acting through their session
    cookie (DRF checks it only for logged-in users)."""

    def authenticate(self, request):
        result = super().authenticate(request)
        if result is None and request.method not in ("GET", "HEAD", "OPTIONS"):
            self.enforce_csrf(request)
        return result


class CsrfSessionScheme(SessionScheme):
    """Documents ``CsrfSessionAuthentication`` in the OpenAPI schema as cookie auth."""

    target_class = CsrfSessionAuthentication

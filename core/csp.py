"""Content-Security-Policy: the app's pages load only same-origin scripts and styles.

No inline scripts, no inline style attributes (charts are SVG with presentation attributes,
see ``simulator.plots``; scripts set styles through the CSSOM, which CSP allows). The
developer tools that ship their own inline code (the admin, DRF's browsable API, Swagger UI /
ReDoc under ``/api/``) get a policy that also allows their inline scripts and styles; they are
for logged-in staff and teachers, never student pages."""
from __future__ import annotations

from django.conf import settings

STRICT = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
          "connect-src 'self' {sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'")
TOOLS = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
         "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
         "form-action 'self'; frame-ancestors 'none'")
TOOL_PREFIXES = ("/admin/", "/api/")


def policy_for(request) -> str:
    if request.path.startswith(TOOL_PREFIXES):
        return TOOLS
    try:
        host = request.get_host()
    except Exception:  # a disallowed Host is refused elsewhere; the policy stays strict
        host = ""
    sockets = f"ws://{host} wss://{host}" if host else ""  # (older browsers' 'self' omits ws:)
    return STRICT.format(sockets=sockets).replace("  ", " ")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(settings, "CSP_ENABLED", True) and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy_for(request)
        return response

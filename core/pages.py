"""The app's own error pages, in words a student understands, with DEBUG on or off.

``handler400/403/404/500`` (config/urls.py) answer for Django; ``FriendlyErrors`` (a middleware)
also turns the app's own ``Http404`` / ``PermissionDenied`` and an address that matches no page
into the same friendly page when DEBUG is on, where Django would show its technical page, and
any page's blank 405 (a method the address does not take) into the app's 405 page. Pages that
choose their own error status (a wrong join code, a replay that must wait) keep theirs.

``post_only(back)`` replaces ``require_POST`` on the app's form actions: a GET of an action's
address (a reload after it, a bookmark, a link typed) goes back to the page the action belongs
to (nothing is done); any other method gets the 405 page."""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _

from core.errors import AppError
from core.session_keys import LOBBY_URL_KEY

# Django's own messages (get_object_or_404, the URL resolver) are not for students.
_TECHNICAL = re.compile(r"matches the given query|^No .* found matching|Resolver404|'tried'|^\{")


def _reason(exception: BaseException | None) -> str:
    """The app's own words for the error (``Http404("You have not joined…")``), if any."""
    first = exception.args[0] if exception is not None and exception.args else None
    if not isinstance(first, str) or _TECHNICAL.search(first):
        return ""
    return first


def _page(request: HttpRequest, status: int, exception: BaseException | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        messages = {403: _("You may not do this."), 404: _("Nothing here."), 400: _("Bad request."),
                    405: _("This address does not take that method.")}
        codes = {403: "forbidden", 404: "not_found", 405: "method_not_allowed"}
        return JsonResponse({"code": codes.get(status, "bad_request"),
                             "message": _reason(exception) or messages.get(status, "")}, status=status)
    session = getattr(request, "session", None)
    context = {"status": status, "reason": _reason(exception),
               "lobby_url": session.get(LOBBY_URL_KEY) if session is not None else None}
    response = HttpResponse(loader.render_to_string(f"errors/{status}.html", context, request), status=status)
    response.friendly_error = True
    return response


def bad_request(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return _page(request, 400, exception)


def permission_denied(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return _page(request, 403, exception)


def page_not_found(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return _page(request, 404, exception)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    response = _page(request, 403)
    if not request.path.startswith("/api/"):
        response.content = loader.render_to_string("errors/csrf.html", {"status": 403}, request).encode()
    return response


def method_not_allowed(request: HttpRequest, allowed: str = "POST") -> HttpResponse:
    """The app's 405 page (``allowed``: the methods the address takes, in the Allow header)."""
    response = _page(request, 405)
    response["Allow"] = allowed
    return response


def post_only(back: Callable[..., str] | None = None):
    """A view that acts on a form's POST (like ``require_POST``). A GET or HEAD of its address
    goes to ``back(request, **the view's arguments)``, the page the action belongs to, where
    there is one (a reload after posting, a bookmark: nothing is done); any other method, or a
    GET without ``back``, is answered with the app's 405 page."""
    def decorate(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "POST":
                return view(request, *args, **kwargs)
            if request.method in ("GET", "HEAD") and back is not None:
                return HttpResponseRedirect(back(request, *args, **kwargs))
            return method_not_allowed(request)
        return wrapped
    return decorate


def server_error(request: HttpRequest) -> HttpResponse:
    # No database, no session: whatever failed may fail again.
    return HttpResponse(loader.render_to_string("errors/500.html"), status=500)


class FriendlyErrors:
    """The friendly 403/404 page also when DEBUG is on (Django shows those only with DEBUG off)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.status_code == 404 and getattr(request, "resolver_match", None) is None
                and not getattr(response, "friendly_error", False)):
            return _page(request, 404)  # an address that matches no page (Django's technical 404)
        if (response.status_code == 405 and not getattr(response, "friendly_error", False)
                and not request.path.startswith("/api/")):  # (the API answers its own, in JSON)
            return method_not_allowed(request, response.get("Allow", ""))  # Django's is blank
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Http404):
            return _page(request, 404, exception)
        if isinstance(exception, PermissionDenied):
            return _page(request, 403, exception)
        if isinstance(exception, AppError) and exception.code == "rules_version":
            return _page(request, 410, exception)  # a match recorded under rules no longer played
        return None

"""Which language a reader gets (including the teacher's choice for a class session).

Order: the language this browser chose with the header's switcher (Django's language cookie),
then the language the teacher set on the class session this browser last joined, then the
browser's Accept-Language (Django's ``LocaleMiddleware``), then English. Pages use the
middleware; the match socket asks ``socket_language`` once when it opens.
"""
from __future__ import annotations

from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.utils import translation

CLASS_SESSION_KEY = "language_class_session"  # the class session this browser last joined


def supported(code: str | None) -> str | None:
    """``code`` if it is one of the interface languages, else None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


_session_language: list[Callable[[Any], str | None]] = []


def register_session_language(find: Callable[[Any], str | None]) -> None:
    """The app that knows class sessions registers how to find the language a browser's class
    session was given (``find(browser_session) -> code or None``; ``classrooms`` does, in its
    ``ready``): ``core`` reads no app's model."""
    if find not in _session_language:
        _session_language.append(find)


def class_session_language(browser_session) -> str | None:
    """The language the teacher set on the class session this browser last joined (or None)."""
    if browser_session is None:
        return None
    for find in _session_language:
        try:
            code = supported(find(browser_session))
        except DatabaseError:  # the database is down: the request answers for itself (503), in the default language
            return None
        if code:
            return code
    return None


class ClassSessionLanguageMiddleware:
    """After ``LocaleMiddleware``: a student who has not chosen a language with the switcher
    reads the class session's language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)):
            code = class_session_language(getattr(request, "session", None))
            if code:
                translation.activate(code)
                request.LANGUAGE_CODE = code
        return self.get_response(request)


def socket_language(scope) -> str:
    """The reader's language for a WebSocket (the same order as for pages)."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header: no cookie choice
        cookies = SimpleCookie()
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    code = supported(chosen.value if chosen else None)
    if code:
        return code
    code = class_session_language(scope.get("session"))
    if code:
        return code
    from django.utils.translation.trans_real import parse_accept_lang_header

    for accepted, _quality in parse_accept_lang_header(headers.get("accept-language", "")):
        code = supported(accepted) if accepted != "*" else None
        if code:
            return code
    return settings.LANGUAGE_CODE


class ReaderLanguageMixin:
    """For WebSocket consumers: every message is handled in the reader's language (payload
    texts, event texts, errors), found once per socket by ``socket_language``."""

    language: str | None = None
    # the consumer's ``connect`` sets ``self.language`` itself, from ``socket_language`` called in
    # its own trip to the database (a trip fewer for a socket opened for every match)
    language_found_on_connect = False

    async def dispatch(self, message):
        from channels.db import database_sync_to_async

        if self.language is None and self.language_found_on_connect and message["type"] == "websocket.connect":
            await super().dispatch(message)  # (``connect`` speaks the language it found)
            return
        if self.language is None:
            self.language = await database_sync_to_async(socket_language)(self.scope)
        with translation.override(self.language):
            await super().dispatch(message)

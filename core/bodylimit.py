"""Request bodies over ``REQUEST_BODY_MAX_BYTES`` are refused with a 413, in the app's words,
before they are read.

Two layers, because the ASGI server decides when a body is read:

* **daphne** (the default server) reads a whole request body (Twisted spools it to a temporary
  file) before the application is even called, and then queues all of it as ``http.request``
  messages at once: a 500 MB POST grew a worker by 500 MB that it kept. ``install_in_daphne``
  (called by ``config.asgi``, so by every daphne that serves this app: ``manage.py serve``,
  ``daphne config.asgi:application``, the tests' servers) gives daphne a request class that
  answers 413 as soon as the headers declare a ``Content-Length`` over the limit, or as soon as
  the bytes of a chunked body pass it, writes nothing of the body anywhere and closes the
  connection.
* **Any ASGI server** (uvicorn, which streams the body): ``BodyLimit`` answers 413 for a declared
  length over the limit without reading a byte, and otherwise reads the body itself, counting,
  before Django sees it.

The proxy in front should refuse first (nginx ``client_max_body_size``, see the README)."""
from __future__ import annotations

import io
import json
from collections.abc import Iterable

from django.conf import settings
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header


def limit() -> int:
    return settings.REQUEST_BODY_MAX_BYTES


def _language(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The reader's language from the request's headers alone: the language cookie, then
    Accept-Language, then the default (there is no session to read at this layer)."""
    from core.language import supported

    cookie_name = settings.LANGUAGE_COOKIE_NAME.encode()
    accept = b""
    for name, value in headers:
        name = name.lower()
        if name == b"cookie":
            for part in value.split(b";"):
                key, _sep, val = part.strip().partition(b"=")
                if key == cookie_name:
                    code = supported(val.decode("latin-1").strip('"'))
                    if code:
                        return code
        elif name == b"accept-language":
            accept = value
    for code, _q in parse_accept_lang_header(accept.decode("latin-1")[:200]):
        found = supported(code)
        if found:
            return found
    return settings.LANGUAGE_CODE


def refusal(path: str, headers: Iterable[tuple[bytes, bytes]]) -> tuple[bytes, bytes]:
    """(content type, body) of the 413 for a request to ``path``: JSON for the API, a page
    otherwise, in the reader's language."""
    headers = list(headers)
    with translation.override(_language(headers)):
        message = _("The request is too large: at most %(kb)s kB may be sent.") % {"kb": limit() // 1024}
        if path.startswith("/api/"):
            return b"application/json", json.dumps({"code": "too_large", "message": message}).encode()
        page = loader.render_to_string("errors/413.html", {"message": message,
                                                           "LANGUAGE_CODE": translation.get_language()})
        return b"text/html; charset=utf-8", page.encode()


def raw_response(path: str, headers: Iterable[tuple[bytes, bytes]]) -> bytes:
    content_type, body = refusal(path, headers)
    return (b"HTTP/1.1 413 Content Too Large\r\nContent-Type: " + content_type
            + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)


# --- the ASGI layer (every server) ------------------------------------------------------

class BodyLimit:
    """ASGI middleware: an HTTP request body over the limit never reaches the application."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        maximum = limit()
        declared = next((v for k, v in scope.get("headers", []) if k.lower() == b"content-length"), None)
        if declared is not None and (not declared.strip().isdigit() or int(declared) > maximum):
            return await self._refuse(scope, send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was complete: nothing to answer
            body = message.get("body", b"")
            size += len(body)
            if size > maximum:
                return await self._refuse(scope, send)
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay():
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(scope, send):
        content_type, body = refusal(scope.get("path", ""), scope.get("headers", []))
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


# --- daphne: refuse while the body arrives, before it is spooled and queued ---------------

def install_in_daphne() -> None:
    """Make daphne's HTTP request class refuse an oversized body as it arrives (idempotent)."""
    try:
        from daphne import http_protocol
    except ImportError:  # another ASGI server: BodyLimit alone
        return
    if getattr(http_protocol.WebRequest, "body_limited", False):
        return
    http_protocol.WebRequest = _limited(http_protocol.WebRequest)


def _limited(base):
    class BodyLimitedRequest(base):
        body_limited = True
        _refused = False
        _received = 0

        def gotLength(self, length):
            if length is not None and length > limit():
                self._refuse()
                return
            super().gotLength(length)

        def handleContentChunk(self, data):
            if self._refused:
                return  # (the connection is closing) nothing is kept
            self._received += len(data)
            if self._received > limit():
                self._refuse()
                return
            super().handleContentChunk(data)

        def requestReceived(self, command, path, version):
            if self._refused:
                return  # answered already; the connection closes
            super().requestReceived(command, path, version)

        def _refuse(self):
            self._refused = True
            old = getattr(self, "content", None)
            self.content = io.BytesIO()
            if old is not None and old is not self.content:
                old.close()  # a temporary file with the part received so far: gone
            # no "100 Continue" after a final answer
            self.requestHeaders.removeHeader(b"Expect")
            path = getattr(self.channel, "_path", b"") or b""
            headers = [(name, value) for name, values in self.requestHeaders.getAllRawHeaders()
                       for value in values]
            channel = self.channel
            channel.transport.write(raw_response(path.split(b"?", 1)[0].decode("latin-1"), headers))
            # reading stops; what the client still sends is never read (the kernel resets it)
            channel.loseConnection()

    return BodyLimitedRequest

"""The API's JSON parser behind the caps of ``core.limits``: a body too large or nested too
deeply is a 400 with a message, checked before parsing (never a RecursionError → 500)."""
from __future__ import annotations

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core import limits


class LimitedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read(limits.MAX_JSON_BYTES + 1) if stream is not None else b""
        try:
            return limits.loads(raw.decode(encoding), what="The request body")
        except limits.JSONTooBig as exc:
            raise ParseError(str(exc)) from None
        except ValueError as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from None

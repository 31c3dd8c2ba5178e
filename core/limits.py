"""Caps on untrusted JSON: size and nesting are checked *before* parsing, so a deeply nested
or huge body, form field or socket message is a clear refusal (never a RecursionError or a
worker busy for seconds), and game options are capped whatever the entry point."""
from __future__ import annotations

import json
import math
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

MAX_JSON_BYTES = 64 * 1024  # a request body or form field holding JSON
MAX_JSON_DEPTH = 16  # nesting of arrays/objects
MAX_OPTIONS_BYTES = 16 * 1024  # a game's options (a starting position is a few hundred bytes)
MAX_OPTIONS_LIST = 200  # entries of any list in the options (a QTris deck has at most 68 cards)


class JSONTooBig(ValueError):
    """Refused before parsing; the message says why in words."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text, strings skipped; no parsing, no recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def check_json_text(text: str | bytes, *, max_bytes: int = MAX_JSON_BYTES,
                    max_depth: int = MAX_JSON_DEPTH, what: str = "The JSON") -> None:
    size = len(text)
    if size > max_bytes:
        raise JSONTooBig(_("%(what)s is too large (%(size)d bytes; at most %(max)d).")
                         % {"what": what, "size": size, "max": max_bytes})
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if nesting_depth(text) > max_depth:
        raise JSONTooBig(_("%(what)s is nested too deeply (at most %(max)d levels).") % {"what": what, "max": max_depth})


class NotFinite(ValueError):
    """JSON with NaN, Infinity or a number too large for a float: not JSON (RFC 8259), refused."""


def _not_finite(what: str):
    return NotFinite(_("%(what)s holds a number that is not finite (NaN or Infinity): send plain "
                       "numbers.") % {"what": what})


def loads(text: str | bytes, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH,
          what: str = "The JSON") -> Any:
    """``json.loads`` behind the caps, and strict: ``NaN``, ``Infinity`` and numbers that
    overflow a float (``1e999``) are refused, never stored nor handed to an engine. Raises
    ``ValueError`` (``JSONTooBig`` for the caps, ``NotFinite``) with a message fit to show."""
    check_json_text(text, max_bytes=max_bytes, max_depth=max_depth, what=what)

    def constant(name: str):
        raise _not_finite(what)

    def finite(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            raise _not_finite(what)
        return value

    try:
        return json.loads(text, parse_constant=constant, parse_float=finite)
    except RecursionError as exc:  # belt and braces: the depth cap should already stop this
        raise JSONTooBig(_("%(what)s is nested too deeply.") % {"what": what}) from exc


def options_problem(options: Any) -> str | None:
    """Why these game options are too big to even hand to an engine, or None."""
    if options is None:
        return None
    try:
        text = json.dumps(options)
    except (TypeError, ValueError, RecursionError):
        return _("The options must be plain JSON (objects, lists, strings, numbers).")
    stack = [("options", options)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}", v) for k, v in value.items())
        elif isinstance(value, list):
            if len(value) > MAX_OPTIONS_LIST:
                return _("%(path)s has %(n)d entries; at most %(max)d are allowed.") % {
                    "path": path, "n": len(value), "max": MAX_OPTIONS_LIST}
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
    if len(text) > MAX_OPTIONS_BYTES:
        return _("The options are too large (%(size)d bytes; at most %(max)d).") % {
            "size": len(text), "max": MAX_OPTIONS_BYTES}
    if nesting_depth(text) > MAX_JSON_DEPTH:
        return _("The options are nested too deeply (at most %(max)d levels).") % {"max": MAX_JSON_DEPTH}
    return None


# what Python's JSON parser says, in words a reader of any language gets (its own are English)
JSON_PARSER_WORDS = {
    "Expecting value": gettext_noop("a value was expected"),
    "Expecting property name enclosed in double quotes": gettext_noop(
        "a name in double quotes was expected"),
    "Expecting ',' delimiter": gettext_noop("a comma was expected"),
    "Expecting ':' delimiter": gettext_noop("a colon was expected"),
    "Extra data": gettext_noop("there is more after the end"),
    "Unterminated string starting at": gettext_noop("a text is not closed"),
    "Invalid control character at": gettext_noop("a text holds a control character"),
    "Invalid \\escape": gettext_noop("a text holds an invalid escape"),
    "Invalid \\uXXXX escape": gettext_noop("a text holds an invalid escape"),
    "Illegal trailing comma before end of object": gettext_noop("a comma before the end of an object"),
    "Illegal trailing comma before end of array": gettext_noop("a comma before the end of a list"),
}


def json_problem(exc: ValueError) -> str:
    """Why a text is not JSON, in the reader's language: "line 2, column 5: a comma was
    expected" (a refusal of ``loads`` as it is: it is already in the reader's words)."""
    msg = getattr(exc, "msg", None)
    if msg is None:
        return str(exc)
    words = _(JSON_PARSER_WORDS[msg]) if msg in JSON_PARSER_WORDS else msg
    if getattr(exc, "lineno", None):
        return _("line %(line)s, column %(column)s: %(problem)s") % {
            "line": exc.lineno, "column": exc.colno, "problem": words}
    return words

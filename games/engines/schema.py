"""The shapes of actions and options, declared once and checked once (pure Python, no Django).

An engine declares what its actions and options look like; ``Engine`` (``contract.py``) checks
every action and every set of options against them before a line of the engine's own rules
runs, so an engine checks by hand only what depends on the game (is that card in your hand, is
that route free)::

    ACTIONS = Actions(
        move=Obj(squares=ListOf(Int(1, 9), 2, 2)),     # {"squares": [a, b]}
        collapse=Obj(collapse=Int(1, 9)),              # {"collapse": s}
    )
    OPTIONS = Obj(optional={"hands": Int(1, 100), "physics_mode": Bool()})

An action's *type* is the first of its declared types whose first field (its tag: ``squares``,
``collapse``) the action holds. A value that does not fit is refused with ``IllegalAction``:
``code`` is the caller's (``bad_action`` for actions, ``bad_option`` for options), the message
a msgid of ``SCHEMA_TEXTS`` with its params (``field``: where, as ``target.seat`` or
``squares[1]``), so it reads in every language. Whole numbers are real ``int`` (never a bool,
never a float: a NaN or an infinity is refused like any other wrong type); ``Anything`` takes any
JSON value but a non-finite number (the engine checks it further by hand).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .base import IllegalAction, gettext_noop, is_int

# every refusal of a shape, English msgid with %(params)s (translated in locale/*/django.po)
SCHEMA_TEXTS = {
    "action_not_object": gettext_noop("An action must be a JSON object with one of the keys %(keys)s."),
    "unknown_action": gettext_noop("Unknown action: an action has one of the keys %(keys)s."),
    "options_not_object": gettext_noop("Options must be a JSON object."),
    "unknown_options": gettext_noop("Options this game does not know: %(options)s. Its options: %(known)s."),
    "missing": gettext_noop('"%(field)s" is missing.'),
    "unknown_field": gettext_noop('Unknown field "%(field)s".'),
    "object": gettext_noop('"%(field)s" must be a JSON object.'),
    "int": gettext_noop('"%(field)s" must be a whole number.'),
    "int_at_least": gettext_noop('"%(field)s" must be a whole number of at least %(lo)s.'),
    "int_range": gettext_noop('"%(field)s" must be a whole number from %(lo)s to %(hi)s.'),
    "bool": gettext_noop('"%(field)s" must be true or false.'),
    "true": gettext_noop('"%(field)s" must be true.'),
    "text": gettext_noop('"%(field)s" must be a text.'),
    "one_of": gettext_noop('"%(field)s" must be one of %(choices)s.'),
    "list": gettext_noop('"%(field)s" must be a list.'),
    "list_length": gettext_noop('"%(field)s" must be a list of length %(n)s.'),
    "list_range": gettext_noop('"%(field)s" must be a list of length %(lo)s to %(hi)s.'),
    "list_at_most": gettext_noop('"%(field)s" must be a list of at most %(hi)s items.'),
    "list_at_least": gettext_noop('"%(field)s" must be a list of at least %(lo)s items.'),
    "not_finite": gettext_noop('"%(field)s" holds a number that is not finite (NaN or infinity).'),
}


def _refuse(code: str, key: str, **params: Any) -> IllegalAction:
    return IllegalAction(code, SCHEMA_TEXTS[key], params)


def _keys(names) -> str:
    return ", ".join(f'"{n}"' for n in names)


class Shape:
    """A JSON value's shape. ``check(value, field, code)`` raises ``IllegalAction(code, ...)``
    when ``value`` (found at ``field``) does not fit."""

    def check(self, value: Any, field: str, code: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class Int(Shape):
    """A whole number (an ``int``, never a bool), from ``lo`` to ``hi`` when given."""

    def __init__(self, lo: int | None = None, hi: int | None = None):
        self.lo, self.hi = lo, hi

    def check(self, value: Any, field: str, code: str) -> None:
        low = self.lo is None or (is_int(value) and value >= self.lo)
        high = self.hi is None or (is_int(value) and value <= self.hi)
        if is_int(value) and low and high:
            return
        if self.lo is not None and self.hi is not None:
            raise _refuse(code, "int_range", field=field, lo=self.lo, hi=self.hi)
        if self.lo is not None:
            raise _refuse(code, "int_at_least", field=field, lo=self.lo)
        raise _refuse(code, "int", field=field)


class Bool(Shape):
    """``true`` or ``false``."""

    def check(self, value: Any, field: str, code: str) -> None:
        if not isinstance(value, bool):
            raise _refuse(code, "bool", field=field)


class TrueOnly(Shape):
    """``true`` and nothing else (``{"roll": true}``, ``{"declare": true}``)."""

    def check(self, value: Any, field: str, code: str) -> None:
        if value is not True:
            raise _refuse(code, "true", field=field)


class Text(Shape):
    """Any string (the engine says which ones it knows)."""

    def check(self, value: Any, field: str, code: str) -> None:
        if not isinstance(value, str):
            raise _refuse(code, "text", field=field)


class OneOf(Shape):
    """One of ``choices`` (strings or whole numbers; ``1`` is not ``true``)."""

    def __init__(self, *choices: str | int):
        self.choices = choices

    def check(self, value: Any, field: str, code: str) -> None:
        if not any(type(value) is type(c) and value == c for c in self.choices):
            raise _refuse(code, "one_of", field=field, choices=", ".join(map(str, self.choices)))


class Anything(Shape):
    """Any JSON value without a NaN or an infinity in it (the engine checks it by hand)."""

    def check(self, value: Any, field: str, code: str) -> None:
        if not _finite(value):
            raise _refuse(code, "not_finite", field=field)


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Mapping):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_finite(v) for v in value)
    return True


class Maybe(Shape):
    """``null`` or ``shape`` (an option given as null counts as not given)."""

    def __init__(self, shape: Shape):
        self.shape = shape

    def check(self, value: Any, field: str, code: str) -> None:
        if value is not None:
            self.shape.check(value, field, code)


class ListOf(Shape):
    """A list (a tuple from Python) of ``item``, of length ``lo`` to ``hi`` when given."""

    def __init__(self, item: Shape, lo: int = 0, hi: int | None = None):
        self.item, self.lo, self.hi = item, lo, hi

    def check(self, value: Any, field: str, code: str) -> None:
        if not isinstance(value, list | tuple):
            raise _refuse(code, "list", field=field)
        if len(value) < self.lo or (self.hi is not None and len(value) > self.hi):
            if self.lo == self.hi:
                raise _refuse(code, "list_length", field=field, n=self.lo)
            if self.hi is None:
                raise _refuse(code, "list_at_least", field=field, lo=self.lo)
            if self.lo == 0:
                raise _refuse(code, "list_at_most", field=field, hi=self.hi)
            raise _refuse(code, "list_range", field=field, lo=self.lo, hi=self.hi)
        for i, item in enumerate(value):
            self.item.check(item, f"{field}[{i}]", code)


class MapOf(Shape):
    """A JSON object whose keys are ``keys`` and values ``values`` (``{planet: component}``)."""

    def __init__(self, keys: Shape, values: Shape):
        self.keys, self.values = keys, values

    def check(self, value: Any, field: str, code: str) -> None:
        if not isinstance(value, dict):
            raise _refuse(code, "object", field=field)
        for k, v in value.items():
            self.keys.check(k, field, code)
            self.values.check(v, f"{field}.{k}", code)


class Obj(Shape):
    """A JSON object with exactly the ``required`` fields and any of the ``optional`` ones."""

    def __init__(self, optional: Mapping[str, Shape] | None = None, **required: Shape):
        self.required = dict(required)
        self.optional = dict(optional or {})

    @property
    def fields(self) -> list[str]:
        return [*self.required, *self.optional]

    def check(self, value: Any, field: str, code: str) -> None:
        if not isinstance(value, dict):
            raise _refuse(code, "object", field=field)
        self.check_fields(value, code, f"{field}." if field else "")

    def check_fields(self, value: dict, code: str, prefix: str = "") -> None:
        for key in value:
            if key not in self.required and key not in self.optional:
                raise _refuse(code, "unknown_field", field=f"{prefix}{key}")
        for key, shape in self.required.items():
            if key not in value:
                raise _refuse(code, "missing", field=f"{prefix}{key}")
            shape.check(value[key], f"{prefix}{key}", code)
        for key, shape in self.optional.items():
            if key in value:
                shape.check(value[key], f"{prefix}{key}", code)


class Actions:
    """An engine's action vocabulary: ``type -> Obj`` whose first required field is the type's
    tag (``Actions(move=Obj(squares=...), collapse=Obj(collapse=...))``)."""

    code = "bad_action"

    def __init__(self, **types: Obj):
        self.types = types
        self.tags = {next(iter(obj.required)): name for name, obj in types.items()}

    def type_of(self, action: Any) -> str | None:
        """The type of ``action`` (None when it is not an object or holds no tag)."""
        if not isinstance(action, dict):
            return None
        return next((name for tag, name in self.tags.items() if tag in action), None)

    def check(self, action: Any) -> str:
        """The type of a well-formed ``action``; ``IllegalAction("bad_action", ...)`` otherwise."""
        if not isinstance(action, dict):
            raise _refuse(self.code, "action_not_object", keys=_keys(self.tags))
        kind = self.type_of(action)
        if kind is None:
            raise _refuse(self.code, "unknown_action", keys=_keys(self.tags))
        self.types[kind].check_fields(action, self.code)
        return kind


class Options:
    """An engine's options: each optional, each of its shape (``Options(hands=Int(1, 100))``)."""

    code = "bad_option"

    def __init__(self, **fields: Shape):
        self.fields = fields

    def check(self, options: Any) -> dict:
        """A copy of well-formed ``options`` (None is no option); ``IllegalAction("bad_option",
        ...)`` otherwise."""
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise _refuse(self.code, "options_not_object")
        unknown = [k for k in options if k not in self.fields]
        if unknown:
            raise _refuse(self.code, "unknown_options", options=", ".join(sorted(map(str, unknown))),
                          known=", ".join(self.fields) or "—")
        for key, value in options.items():
            self.fields[key].check(value, key, self.code)
        return dict(options)


__all__ = ["SCHEMA_TEXTS", "Actions", "Anything", "Bool", "Int", "ListOf", "MapOf", "Maybe", "Obj",
           "OneOf", "Options", "Shape", "Text", "TrueOnly"]

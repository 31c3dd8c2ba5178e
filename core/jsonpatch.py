"""What changed between two JSON documents, as a short list of operations a browser applies to
its copy (``static/js/patch.js``: the same three operations, the same paths).

An operation is ``["s", path, value]`` (set: the value at ``path`` becomes ``value``, a new key of
an object too), ``["d", path]`` (delete the key at ``path`` of an object), ``["a", path, items]``
(append ``items`` to the array at ``path``), ``["t", path, k]`` (take the first ``k`` items off
the array at ``path``) or ``["c", path, source, k]`` (the value at ``path`` becomes a copy of the
last ``k`` items of the array at ``source``, as the operations before left it: a move's events,
sent once where a view keeps its last events and again beside it, are sent once). A path is a list of object keys (strings) and array indices (numbers);
``[]`` is the whole document. An array that grew from its old items gets an append; a window that
slid on (the last events kept: old ones dropped at the front, new ones added at the back) a take
and an append; arrays of the same length are otherwise compared item by item; any other array is
set whole.

Both documents are taken as JSON decodes them (strings for keys, lists for arrays): diff what the
browser holds, the text it was sent decoded again, never the objects that text was made from.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import orjson


def diff(old: Any, new: Any) -> list[list]:
    """The operations that turn ``old`` into ``new`` (none when they are equal)."""
    ops: list[list] = []
    _diff(old, new, [], ops)
    return _shared(ops, new)


def _shared(ops: list[list], new: Any) -> list[list]:
    """A list of objects (events) the patch sends twice is sent once: a list set whole, or a list
    of the document's top level changed item by item (a move's events beside the view, where the
    last move had as many), that is the same as the end of a list another operation sets or
    appends is copied from there (``"c"``, after the operations, so that it reads the list as
    they leave it)."""
    sources = [(op[1], op[2]) for op in ops
               if op[0] in "as" and op[1] and isinstance(op[2], list) and op[2] and isinstance(op[2][-1], dict)]
    if not sources:
        return ops
    copied: dict[str, list] = {}  # a top-level key -> its copy operation

    def source_of(items: list, path: list) -> list | None:
        n = len(items)
        return next((where for where, sent in sources if where[:len(path)] != path and where[0] not in copied
                     and len(sent) >= n and same(sent[-n:], items)), None)

    if isinstance(new, dict):
        tried: set[Any] = set()
        for op in ops:
            key = op[1][0] if len(op[1]) > 1 else None
            if key in tried:
                continue
            tried.add(key)
            if (isinstance(key, str) and isinstance(new.get(key), list) and new[key]
                    and all(c[2][0] != key for c in copied.values())
                    and (where := source_of(new[key], [key])) is not None):
                copied[key] = ["c", [key], where, len(new[key])]
    read = [c[2] for c in copied.values()]  # the sources copies read: sent as they are
    kept, copies = [], list(copied.values())
    for op in ops:
        if op[1] and op[1][0] in copied:
            continue
        if (op[0] == "s" and op[1] and isinstance(op[2], list) and op[2] and op[1] not in read
                and (where := source_of(op[2], op[1]))):
            copies.append(["c", op[1], where, len(op[2])])
            read.append(where)
            sources.remove((op[1], op[2]))  # (not a source for another copy: it is one)
            continue
        kept.append(op)
    return kept + copies


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: Python's ``==`` also takes ``True`` for ``1`` (not the same to a browser);
    ``1`` and ``1.0`` are the same number. Objects and arrays are compared by ``==`` and by their
    JSON texts first (in C: most of a view is the same from one move to the next), item by item
    only where those disagree (``==`` holds but the texts differ: ``True`` and ``1``, ``1`` and
    ``1.0``, keys in another order)."""
    if type(a) is not type(b):
        numbers = (int, float)
        return (isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool)
                and not isinstance(b, bool) and a == b)
    if isinstance(a, dict | list):
        if a is b:
            return True
        if a != b:  # (``same`` implies ``==``)
            return False
        try:
            if orjson.dumps(a) == orjson.dumps(b):
                return True
        except TypeError:  # (not JSON: compared item by item)
            pass
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


SCALARS = frozenset({str, int, float, bool, type(None)})
ABSENT = object()  # (an object's key that the old document lacks)


def _diff_items(items: Iterator[tuple[Any, Any, Any]], path: list, ops: list[list]) -> None:
    """``_diff`` of each ``(key, old, new)`` item of an object or array under ``path``; two
    scalars of one type (most of a view) are compared here, without a call."""
    for key, before, after in items:
        kind = type(after)
        if kind is type(before) and kind in SCALARS:
            if before != after:
                ops.append(["s", [*path, key], after])
        else:
            _diff(before, after, [*path, key], ops)


def _diff(old: Any, new: Any, path: list, ops: list[list]) -> None:
    # equal values give no operation; objects and arrays of one length are walked item by item
    # (set whole instead where their items' operations would be the longer text: a move's event
    # in the place of the last move's differs in nearly every field); anything else that
    # differs is set
    if same(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        inner: list[list] = []
        _diff_items(((key, old.get(key, ABSENT), value) for key, value in new.items()), path, inner)
        inner.extend(["d", [*path, key]] for key in old if key not in new)
        ops.extend(_shorter(inner, path, new))
        return
    if isinstance(old, list) and isinstance(new, list):
        if old and new and not same(old[0], new[0]) and (slid := _slid(old, new)):
            ops.extend([["t", path, slid]] +
                       ([["a", path, new[len(old) - slid:]]] if len(new) > len(old) - slid else []))
            return
        if len(old) == len(new):
            inner = []
            _diff_items(zip(range(len(new)), old, new, strict=True), path, inner)
            ops.extend(_shorter(inner, path, new))
            return
        if len(new) > len(old) and same(new[:len(old)], old):
            ops.append(["a", path, new[len(old):]])
            return
    ops.append(["s", path, new])


def _shorter(inner: list[list], path: list, new: Any) -> list[list]:
    """``inner`` (the operations on the items of ``new``), or one set of ``new`` whole where that
    is the shorter text (never for the whole document: the socket sends a whole state then)."""
    if len(inner) < 2 or not path:
        return inner
    try:
        if len(orjson.dumps(inner)) <= len(orjson.dumps(new)) + len(orjson.dumps(path)) + 8:
            return inner
    except TypeError:  # (not JSON: left as it is)
        return inner
    return [["s", path, new]]


SLID_AT_MOST = 16  # items a window may lose at its front in one patch (a move's events: a few)


def _slid(old: list, new: list) -> int:
    """How many items (at most ``SLID_AT_MOST``) a list of objects lost at its front if ``new``
    is the rest of it followed by new items (at least one item kept), else 0. Only lists of
    objects (events) are tried: a long list of numbers (odds) whose first item changed is not
    searched for a slide item by item."""
    if not isinstance(new[0], dict):
        return 0
    for k in range(1, min(len(old), SLID_AT_MOST + 1)):
        kept = len(old) - k
        if kept <= len(new) and same(old[k], new[0]) and same(old[k:], new[:kept]):
            return k
    return 0


def _at(doc: Any, path: list) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def apply(doc: Any, ops: list[list]) -> Any:
    """``doc`` after ``ops`` (changed in place where it can be; the result is returned): what a
    browser does with a patch, for the tests and for any Python client."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "c":
            op = ["s", path, copy.deepcopy(_at(doc, op[2])[-op[3]:])]
            kind = "s"
        if not path:
            if kind == "s":
                doc = op[2]
            elif kind == "a":
                doc.extend(op[2])
            elif kind == "t":
                del doc[:op[2]]
            continue
        parent = _at(doc, path[:-1])
        last = path[-1]
        if kind == "s":
            parent[last] = op[2]
        elif kind == "d":
            del parent[last]
        elif kind == "a":
            parent[last].extend(op[2])
        elif kind == "t":
            del parent[last][:op[2]]
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return doc


class StateStream:
    """The states one socket sends, in order: the first whole, each later one as a patch of the
    one before (``{"type": "patch", "n": k, "seq": s, "ops": [...]}``) when the browser asked for
    patches and the patch is the shorter text. Every state and patch carries ``n``, its number on
    this socket, so that a browser that missed one asks for the whole state again (``restart``)."""

    def __init__(self, patches: bool, encode: Callable[[dict], str]):
        self.patches = patches
        self.encode = encode
        self.sent: Any = None  # the last state as the browser holds it (decoded from what was sent)
        self.n = 0

    def restart(self) -> None:
        """The next state goes whole (the browser asked for it: a reload of its view)."""
        self.sent = None

    def text(self, state: dict) -> str:
        if not self.patches:
            return self.encode(state)
        self.n += 1
        whole = self.encode({**state, "n": self.n})
        previous, self.sent = self.sent, orjson.loads(whole)
        if previous is None or "history" in self.sent:
            return whole
        patch = self.encode({"type": "patch", "n": self.n, "seq": self.sent.get("seq"),
                             "ops": diff(previous, self.sent)})
        return patch if len(patch) < len(whole) else whole

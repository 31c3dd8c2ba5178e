"""Small per-process memos of pure results (a state's analysis, an event's rendered text, a
match's session): kept up to a bound, then dropped all at once; a miss only costs the work."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


def remembered(store: dict, key: Hashable, compute: Callable[[], T], kept: int) -> T:
    """``store[key]``, computed by ``compute`` on a miss and kept (unless None); the store is
    emptied when it holds ``kept`` entries. Callers must not change what it returns."""
    found = store.get(key)
    if found is None:
        found = compute()
        if found is not None:
            if len(store) >= kept:
                store.clear()
            store[key] = found
    return found

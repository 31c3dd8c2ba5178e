"""A small in-process cache of the latest engine state of each match, keyed by its log length.

States are rebuilt from the stored log on a miss, so a stale or empty cache is never wrong,
only slower (each process of a multi-worker deployment has its own).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from games.engines import State

_MAX_MATCHES = 4000
_lock = threading.Lock()
_states: OrderedDict[int, tuple[int, State]] = OrderedDict()


def get(match_id: int, seq: int) -> State | None:
    with _lock:
        entry = _states.get(match_id)
        if entry is None or entry[0] != seq:
            return None
        _states.move_to_end(match_id)
        return entry[1]


def put(match_id: int, seq: int, state: State) -> None:
    with _lock:
        current = _states.get(match_id)
        if current is not None and current[0] > seq:
            return
        _states[match_id] = (seq, state)
        _states.move_to_end(match_id)
        while len(_states) > _MAX_MATCHES:
            _states.popitem(last=False)


def forget(match_id: int) -> None:
    with _lock:
        _states.pop(match_id, None)

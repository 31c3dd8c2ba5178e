"""A small in-process cache of the latest engine state of each match, keyed by its log length.

The key holds the match's random seed too, so a reused id (a deleted match) never hits.

States are rebuilt from the stored log on a miss, so a stale or empty cache is never wrong,
only slower (each process of a multi-worker deployment has its own).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from games.engines import State

_MAX_MATCHES = 4000
_lock = threading.Lock()
_states: OrderedDict[tuple[int, int], tuple[int, State]] = OrderedDict()


def get(match_id: int, seed: int, seq: int) -> State | None:
    with _lock:
        entry = _states.get((match_id, seed))
        if entry is None or entry[0] != seq:
            return None
        _states.move_to_end((match_id, seed))
        return entry[1]


def put(match_id: int, seed: int, seq: int, state: State) -> None:
    with _lock:
        current = _states.get((match_id, seed))
        if current is not None and current[0] > seq:
            return
        _states[(match_id, seed)] = (seq, state)
        _states.move_to_end((match_id, seed))
        while len(_states) > _MAX_MATCHES:
            _states.popitem(last=False)



def clear() -> None:
    with _lock:
        _states.clear()

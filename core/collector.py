"""How a long-running process of the app runs Python's cycle collector: seldom by allocation,
and on a clock.

A move builds a view per socket (thousands of objects, nearly all freed by their reference
counts); at Python's default threshold (a collection every 700 new objects) the collector's walks
were a quarter of the live server's CPU (QTris at 300 students on 2 workers: 17.5 → 12.4 ms per
action; 12.6 with the collector off altogether). So the young generation is collected after
100,000 new objects. But a quiet process would then hardly ever collect, and some garbage must go
soon: a finished request's thread leaves its PostgreSQL connection in a reference cycle (a test
server held one per request until PostgreSQL's 100 were used up). So the young generations are
also collected every second, by a thread of their own.
"""
from __future__ import annotations

import gc
import threading
import time

YOUNG_OBJECTS = 100_000
YOUNG_EVERY_S = 1.0


def collect_seldom() -> None:
    """Set this process's collector so (once; idempotent)."""
    gc.set_threshold(YOUNG_OBJECTS, 50, 100)
    if not any(t.name == "collect-young-cycles" for t in threading.enumerate()):
        threading.Thread(target=_collect_young_cycles, name="collect-young-cycles", daemon=True).start()


def _collect_young_cycles() -> None:
    while True:
        time.sleep(YOUNG_EVERY_S)
        gc.collect(1)

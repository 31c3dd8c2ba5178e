"""After a commit, tell every browser watching a match that it changed.

The group message carries a snapshot of the match (state included) through the channel layer,
inside the server; each consumer builds its own seat's view from it, so no secret reaches a
browser that may not see it, and no consumer needs the database to answer.

The database is the truth and a broadcast only a hint: when the channel layer (Redis) is down,
``send_to_group`` logs and gives up, so the change already committed is still answered as done;
every page loses its socket with Redis and reads the state afresh when it reconnects.
"""
from __future__ import annotations

import asyncio
import logging
import os

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from games.snapshot import Snapshot


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def match_changed_message(match_id: int, snapshot: Snapshot | None, events: list[dict],
                          sender: str | None = None) -> dict:
    """``sender``: the consumer that already answered its own browser; ``snapshot`` None makes
    every consumer read the match from the database (e.g. after a setting changed)."""
    return {"type": "match.changed", "match": match_id, "events": events, "sender": sender,
            "snapshot": snapshot.as_message() if snapshot else None}


log = logging.getLogger(__name__)


def send_to_group(group: str, message: dict, *, wait: bool = True) -> bool:
    """From synchronous code (views, services, tasks): False when the layer could not take it.

    ``wait=False``, for news whose order does not matter (each message carries what it tells):
    in a thread of an ASGI process (a consumer's or a view's trip to the database) the message
    is handed to the process's event loop and the thread goes on at once, instead of waiting
    for the loop to get round to it and for Redis (a move's answer waited on the dashboard's
    news); a failure is logged there. Elsewhere it is sent as with ``wait=True``."""
    layer = get_channel_layer()
    if layer is None:
        return False
    loop = None if wait else _event_loop_of_this_process()
    if loop is not None:
        asyncio.run_coroutine_threadsafe(_send_or_log(layer, group, message), loop)
        return True
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # Redis unreachable: the pages re-read the database on reconnecting
        log.warning("broadcast to %s failed", group, exc_info=True)
        return False
    return True


async def _send_or_log(layer, group: str, message: dict) -> None:
    try:
        await layer.group_send(group, message)
    except Exception:
        log.warning("broadcast to %s failed", group, exc_info=True)


def _event_loop_of_this_process() -> asyncio.AbstractEventLoop | None:
    """The running event loop that called this thread through ``sync_to_async`` (where asgiref's
    own ``async_to_sync`` would send the coroutine), or None."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop if loop.is_running() else None
    return None  # (in a loop's own thread: not synchronous code)


def announce_match_changed(match_id: int, snapshot: Snapshot | None = None, events: list[dict] | None = None) -> None:
    """From synchronous code (views, services, tasks)."""
    send_to_group(match_group(match_id), match_changed_message(match_id, snapshot, events or []))


def announce_seat_lost(match_id: int, participant_id: int) -> None:
    """A student's seat was handed to a bot: their open match sockets are closed."""
    send_to_group(match_group(match_id), {"type": "match.seat_lost", "participant": participant_id})

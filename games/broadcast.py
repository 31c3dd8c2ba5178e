"""After a commit, tell every browser watching a match that it changed.

The group message carries a snapshot of the match (state included) through the channel layer,
inside the server; each consumer builds its own seat's view from it, so no secret reaches a
browser that may not see it, and no consumer needs the database to answer.

The database is the truth and a broadcast only a hint: when the channel layer (Redis) is down,
``send_to_group`` logs and gives up, so the change already committed is still answered as done;
every page loses its socket with Redis and reads the state afresh when it reconnects.
"""
from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
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


def send_to_group(group: str, message: dict) -> bool:
    """From synchronous code (views, services, tasks): False when the layer could not take it."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # Redis unreachable: the pages re-read the database on reconnecting
        log.warning("broadcast to %s failed", group, exc_info=True)
        return False
    return True


def announce_match_changed(match_id: int, snapshot: Snapshot | None = None, events: list[dict] | None = None) -> None:
    """From synchronous code (views, services, tasks)."""
    send_to_group(match_group(match_id), match_changed_message(match_id, snapshot, events or []))


def announce_seat_lost(match_id: int, participant_id: int) -> None:
    """A student's seat was handed to a bot: their open match sockets are closed."""
    send_to_group(match_group(match_id), {"type": "match.seat_lost", "participant": participant_id})

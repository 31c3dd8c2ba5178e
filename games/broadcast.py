"""After a commit, tell every browser watching a match that it changed.

The group message carries a snapshot of the match (state included) through the channel layer,
inside the server; each consumer builds its own seat's view from it, so no secret reaches a
browser that may not see it, and no consumer needs the database to answer.
"""
from __future__ import annotations

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


def announce_match_changed(match_id: int, snapshot: Snapshot | None = None, events: list[dict] | None = None) -> None:
    """From synchronous code (views, services, tasks)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(match_group(match_id), match_changed_message(match_id, snapshot, events or []))


def announce_seat_lost(match_id: int, participant_id: int) -> None:
    """A student's seat was handed to a bot: their open match sockets are closed."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(match_group(match_id), {"type": "match.seat_lost",
                                                                "participant": participant_id})

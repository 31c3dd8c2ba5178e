"""After a commit, tell every browser watching a match that it changed.

The message carries no view: each consumer builds the view of its own seat, so nothing
secret ever travels to a browser that may not see it.
"""
from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def match_changed_message(match_id: int, seq: int, events: list[dict]) -> dict:
    return {"type": "match.changed", "match": match_id, "seq": seq, "events": events}


def announce_match_changed(match_id: int, seq: int, events: list[dict] | None = None) -> None:
    """From synchronous code (views, services, tasks)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(match_group(match_id), match_changed_message(match_id, seq, events or []))

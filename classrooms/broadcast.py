"""Tell the teacher's dashboard and the students' lobbies that a class session changed."""
from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def session_group(session_id: int) -> str:
    return f"session.{session_id}"


def announce_session_changed(session_id: int, *, teacher_only: bool = False) -> None:
    """``teacher_only``: only the dashboard shows what changed (a move at a table)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(session_group(session_id),
                                        {"type": "session.changed", "teacher_only": teacher_only})

"""Tell the teacher's dashboard and the students' lobbies that a class session changed."""
from __future__ import annotations

from games.broadcast import send_to_group
from games.snapshot import Snapshot


def session_group(session_id: int) -> str:
    return f"session.{session_id}"


def announce_session_changed(session_id: int, *, teacher_only: bool = False, snapshot: Snapshot | None = None) -> None:
    """``teacher_only``: only the dashboard shows what changed (a move at a table). ``snapshot``:
    the table's match after the change (server-side only: no socket sends it on)."""
    send_to_group(session_group(session_id), {"type": "session.changed", "teacher_only": teacher_only,
                                              "snapshot": snapshot.as_message() if snapshot else None},
                  wait=False)  # (in any order: a rebuild reads the session afresh, a patch keeps the newest move)

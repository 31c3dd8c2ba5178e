"""Tell the teacher's dashboard and the students' lobbies that a class session changed."""
from __future__ import annotations

from games.broadcast import send_to_group
from games.snapshot import Snapshot


def session_group(session_id: int, *, teachers: bool = False) -> str:
    """Every socket of the session (dashboard, projector, students' lobbies), or with ``teachers``
    the teacher's only: the news of a move goes there, so that the lobbies are not woken to drop it."""
    return f"session.{session_id}.teachers" if teachers else f"session.{session_id}"


def announce_session_changed(session_id: int, *, teacher_only: bool = False, snapshot: Snapshot | None = None) -> None:
    """``teacher_only``: only the dashboard shows what changed (a move at a table). ``snapshot``:
    the table's match after the change (server-side only: no socket sends it on)."""
    send_to_group(session_group(session_id, teachers=teacher_only), {"type": "session.changed", "teacher_only": teacher_only,
                                              "snapshot": snapshot.as_message() if snapshot else None},
                  wait=False)  # (in any order: a rebuild reads the session afresh, a patch keeps the newest move)

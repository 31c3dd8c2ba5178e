"""The dashboard follows the matches of its tables: a move, a start, an end."""
from __future__ import annotations

from django.dispatch import receiver

from classrooms import understanding
from classrooms.broadcast import announce_session_changed
from classrooms.models import Table
from core.memo import remembered
from games.signals import match_changed

# (match id, seed) → its table's session id: a table's match never changes, so a process asks once
# per match, not once per move. Only found tables are kept (a match gets its table in the
# transaction that makes it), under the match's random seed too: an id used again (a test
# database flushed) is another match.
_SESSION_OF_MATCH: dict[tuple[int, int], int] = {}
_REMEMBERED = 20_000


@receiver(match_changed)
def table_changed(sender, match_id: int, status_changed: bool = False, snapshot=None, applied=None,
                  **kwargs) -> None:
    """Runs after the commit of the change. A move concerns only the teacher's dashboard; a match
    that ended concerns its students' lobbies too. The match's ``snapshot`` (if any) goes along,
    so the teacher's sockets in another process need not rebuild its state from the log."""
    session_id = session_of_match(match_id, snapshot.seed if snapshot is not None else None)
    if session_id is not None and snapshot is not None:
        # the move's concept evidence is judged here, in the process that made it, once: the
        # teacher's sockets in any process read it from the shared cache
        understanding.judge_move(snapshot, applied)
    if session_id is not None:
        announce_session_changed(session_id, teacher_only=not status_changed, snapshot=snapshot)


def session_of_match(match_id: int, seed: int | None = None) -> int | None:
    """The session whose table plays this match (None: not a class session's match); remembered
    when the match's ``seed`` is given."""
    def lookup() -> int | None:
        # (order_by(): not the tables' default order, whose join to the session costs a query)
        return Table.objects.filter(match_id=match_id).order_by().values_list("session_id", flat=True).first()

    if seed is None:
        return lookup()
    return remembered(_SESSION_OF_MATCH, (match_id, seed), lookup, _REMEMBERED)

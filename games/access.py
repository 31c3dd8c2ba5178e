"""Who may see and act in a match.

A browser is identified by its Django session: a teacher's login, and the participant ids the
classrooms app stores under ``PARTICIPANT_IDS_KEY`` when a student joins. A participant sees
only the views of the seats they hold and acts only for those; the match's teacher watches the
public (spectator) view. Everyone else is refused.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.session_keys import LOBBY_URL_KEY  # noqa: F401  (where a student goes back to after a game)
from games.models import Match

PARTICIPANT_IDS_KEY = "participant_ids"


@dataclass(frozen=True)
class MatchAccess:
    match_id: int
    seats: tuple[int, ...]  # seats this browser holds (empty for a spectating teacher)
    is_teacher: bool
    participant_ids: tuple[int, ...] = ()

    @property
    def view_seat(self) -> int | None:
        """The seat whose view this browser receives; None is the public view."""
        return self.seats[0] if self.seats else None

    def acting_seat(self, requested: object = None) -> object:
        """The seat an action is for: the one asked for, else this browser's own. Whether this
        browser may act for it is checked in one place, ``games.services.submit_action``
        (with ``participant_ids``), inside the action's transaction."""
        return self.view_seat if requested is None else requested


def participant_ids(session) -> list[int]:
    raw = session.get(PARTICIPANT_IDS_KEY, []) if session is not None else []
    return [int(p) for p in raw if isinstance(p, int) or (isinstance(p, str) and p.isdigit())]


def match_access(match_id: int, user, session, match: Match | None = None) -> MatchAccess | None:
    """``match`` (with its seats prefetched) saves reading it again."""
    match = match or Match.objects.filter(pk=match_id).prefetch_related("seats").first()
    if match is None:
        return None
    ids = participant_ids(session)
    seats = tuple(s.index for s in match.seats.all() if s.participant_id in ids) if ids else ()
    is_teacher = bool(user is not None and user.is_authenticated and match.teacher_id == user.pk)
    if not seats and not is_teacher:
        return None
    return MatchAccess(match_id, seats, is_teacher, tuple(ids))

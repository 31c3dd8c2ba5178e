"""Who may see statistics of a match and ask for runs: its teacher always; its players when
the class allows it (``QuantumPolicy.students_may_run``), for their own match only."""
from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ObjectDoesNotExist

from classrooms.models import Classroom
from games.access import match_access
from games.engines import abilities_of, get_game
from games.models import Match
from simulator.models import QuantumPolicy
from simulator.scoring import has_circuit


@dataclass(frozen=True)
class StatsAccess:
    match: Match
    is_teacher: bool
    participant_id: int | None
    max_shots: int | None  # None: no limit beyond the global one

    @property
    def public_circuit(self) -> bool:
        """Whether this reader sees the players' circuits (``Abilities.private_circuit``): the
        statistics pages, runs and their results of a player never hold another seat's secret."""
        return not self.is_teacher and abilities_of(get_game(self.match.game)).private_circuit

    def may_cancel(self, run, user) -> bool:
        """The teacher, or whoever asked for the run (a player cancels only their own)."""
        if self.is_teacher:
            return True
        if self.participant_id is not None and run.requested_by_participant == self.participant_id:
            return True
        return bool(user is not None and user.is_authenticated and run.requested_by_id == user.pk)

    def may_see(self, run) -> bool:
        """A player sees only the runs of the players' circuits."""
        return run.public_circuit or not self.public_circuit


def classroom_of(match: Match) -> Classroom | None:
    try:
        return match.table.session.classroom
    except ObjectDoesNotExist:
        return None


def policy_of(classroom: Classroom | None) -> QuantumPolicy:
    if classroom is None:
        return QuantumPolicy(students_may_run=False)
    return QuantumPolicy.objects.filter(classroom=classroom).first() or QuantumPolicy(
        classroom=classroom)


def stats_access(match_id: int, user, session) -> StatsAccess | None:
    access = match_access(match_id, user, session)
    if access is None:
        return None
    match = Match.objects.select_related("table__session__classroom").get(pk=match_id)
    if access.is_teacher:
        return StatsAccess(match, True, None, None)
    policy = policy_of(classroom_of(match))
    if not policy.students_may_run:
        return None
    if (match.status != Match.Status.FINISHED
            and not abilities_of(get_game(match.game)).statistics_mid_game(match.show_odds)):
        return None  # mid-game statistics would reveal hidden cards or odds the class hides
    seat_holders = set(match.seats.filter(participant_id__in=access.participant_ids)
                       .values_list("participant_id", flat=True))
    pid = next(iter(sorted(seat_holders)), None)
    return StatsAccess(match, False, pid, policy.student_max_shots)


def statistics_pages_open(match: Match, user, session) -> bool:
    """Whether this browser may open the match's statistics and circuit pages and they apply:
    the game has a circuit and ``stats_access`` admits the reader (the teacher; a player when
    the class allows it). Links to those pages are shown only then: no dead ends."""
    return has_circuit(match.game, match.options) and stats_access(match.pk, user, session) is not None

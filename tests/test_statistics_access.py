"""Who may open a match's statistics before it is over follows the engine's declared policy
(``Abilities.live_odds`` and ``circuit``), not the game's name: QTris's odds are public while the
teacher shows them; QuantumPoker's statistics would tell the hidden cards."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games.access import PARTICIPANT_IDS_KEY
from games.engines import get_game
from games.models import Match
from games.services import SeatHolder, create_match
from simulator.access import stats_access
from simulator.models import QuantumPolicy
from simulator.scoring import has_circuit
from tests.test_simulator_fixtures import class_table, seat_people

pytestmark = pytest.mark.django_db


def unfinished(teacher, game: str, **options) -> tuple[Match, dict]:
    match = create_match(game, [SeatHolder("A", bot="random"), SeatHolder("B", bot="random")],
                         teacher=teacher, options=options, variant=get_game(game).variants[0])
    class_table(teacher, match)
    QuantumPolicy.objects.create(classroom=match.table.session.classroom, students_may_run=True)
    ids = seat_people(match)
    return match, {PARTICIPANT_IDS_KEY: ids[:1]}


def test_players_see_mid_game_statistics_only_where_the_game_declares_live_odds(teacher_user):
    qtris, student = unfinished(teacher_user, "qtris")
    assert get_game("qtris").abilities.live_odds
    assert stats_access(qtris.pk, AnonymousUser(), student) is not None
    Match.objects.filter(pk=qtris.pk).update(show_odds=False)     # the teacher hides the odds
    assert stats_access(qtris.pk, AnonymousUser(), student) is None

    poker, student = unfinished(teacher_user, "quantum-poker", physics_mode=True)
    assert has_circuit(poker.game, poker.options) and not get_game(poker.game).abilities.live_odds
    assert stats_access(poker.pk, AnonymousUser(), student) is None
    assert stats_access(poker.pk, teacher_user, {}) is not None    # the teacher always
    Match.objects.filter(pk=poker.pk).update(status=Match.Status.FINISHED)
    assert stats_access(poker.pk, AnonymousUser(), student) is not None


def test_a_game_has_statistics_pages_where_its_engine_declares_a_circuit():
    assert has_circuit("qtris", {})
    assert has_circuit("quantum-poker", {"physics_mode": True})
    assert not has_circuit("quantum-poker", {"physics_mode": False})
    assert not has_circuit("quantum-tictactoe", {})
    assert not has_circuit("chess", {})

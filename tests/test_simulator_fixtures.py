"""Shared set-up for the simulator tests (plain helpers and fixtures, no tests here)."""
from __future__ import annotations

import itertools

import pytest

_codes = itertools.count(1)


@pytest.fixture
def eager(settings):
    """Tasks run in-process (as in the embedded default), even when REDIS_URL is set."""
    from config.celery import app

    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    yield
    app.conf.task_always_eager = old


def finished_qtris(teacher, seed: int = 5, variant: str = "basic"):
    """A QTris match played to the end by two random bots."""
    from games.models import Match
    from games.services import SeatHolder, create_match, start_match

    match = create_match("qtris", [SeatHolder("Ada", bot="random"), SeatHolder("Bo", bot="random")],
                         seed=seed, teacher=teacher, variant=variant)
    start_match(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def seat_people(match, names=("Ada", "Bo")):
    """Turn the bots' seats into students of the match's session (participants)."""
    from classrooms.models import Participant

    session = match.table.session
    ids = []
    for seat, name in zip(match.seats.order_by("index"), names, strict=False):
        p = Participant.objects.create(session=session, display_name=name)
        seat.participant_id = p.pk
        seat.bot = ""
        seat.name = name
        seat.save()
        ids.append(p.pk)
    return ids


def class_table(teacher, match, number: int = 1, session=None):
    """Put ``match`` at a table of a class session of ``teacher`` (created if needed)."""
    from classrooms.models import Classroom, ClassSession, Table

    if session is None:
        classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
        session = ClassSession.objects.create(classroom=classroom, game=match.game,
                                              join_code=f"Q{next(_codes):05d}")
    Table.objects.create(session=session, number=number, match=match)
    match.refresh_from_db()
    return session


def teacher_access(match):
    from simulator.access import StatsAccess

    return StatsAccess(match, True, None, None)

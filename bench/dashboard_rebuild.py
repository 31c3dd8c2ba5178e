#!/usr/bin/env python
"""What one rebuild of the teacher's dashboard and of the projector costs (CPU and queries), for
a class of 30 students at 15 quantum tic-tac-toe tables a few moves in, after four rounds played
to the end (75 tables), with the state cache warm (this process saw the moves) and cold (the
tables' sockets live in another server process), and reading again only the 15 tables in play
(``selectors.tables_after``: what a socket does after moves and ends at tables it knows).
Each session socket rebuilds at most once per ``classrooms.consumers.COALESCE_SECONDS``.

Needs DATABASE_URL (PostgreSQL; a database ``qc_dashboard_rebuild`` is made afresh beside it).

    .venv/bin/python bench/dashboard_rebuild.py
"""
from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ACTION_PATH_DB", "qc_dashboard_rebuild")

from bench.action_path import prepare  # noqa: E402

STUDENTS, MOVES_PER_TABLE, ROUNDS, EARLIER_ROUNDS = 30, 4, 50, 4


def main() -> None:
    prepare()
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from classrooms import services
    from classrooms.consumers import COALESCE_SECONDS, _payload, _screen_payload, _teacher_payload
    from classrooms.models import Classroom, ClassSession
    from games import state_cache
    from games.models import Match

    teacher = User.objects.create_user("bench-teacher", password="x" * 16)
    session = services.open_session(Classroom.objects.create(teacher=teacher, name="9A"), "quantum-tictactoe")
    for i in range(STUDENTS):
        services.join(session, f"Student {i}", SessionStore())
    rng = random.Random(17)
    for played in range(EARLIER_ROUNDS + 1):
        services.auto_pair(session)
        services.start_all(session)
        play(Match.objects.filter(table__session=session, status=Match.Status.PLAYING), rng,
             None if played < EARLIER_ROUNDS else MOVES_PER_TABLE)
    session = ClassSession.objects.get(pk=session.pk)
    kept = session.seated_tables()
    in_play = {t.match_id for t in kept if t.match.status == Match.Status.PLAYING}
    print(f"dashboard-rebuild: tables={len(kept)} in_play={len(in_play)}")

    def measure(name, build, cold=False):
        def run():
            if cold:
                state_cache.clear()
            return build()
        run()
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            run()
        start = time.process_time()
        for _ in range(ROUNDS):
            run()
        cpu = (time.process_time() - start) * 1000 / ROUNDS
        print(f"dashboard-rebuild: {name} cpu_ms={cpu:.1f} queries={len(captured)} "
              f"cpu_ms_per_s_uncoalesced_15_tables={cpu * 7.5:.0f} coalesced={cpu / COALESCE_SECONDS:.0f}")

    measure("dashboard", lambda: _payload(session.pk, True, None))
    measure("dashboard_cold_cache", lambda: _payload(session.pk, True, None), cold=True)
    measure("dashboard_reading_the_tables_in_play", lambda: _teacher_payload(session.pk, kept, in_play))
    measure("screen", lambda: _screen_payload(session.pk))
    measure("screen_reading_the_tables_in_play", lambda: _screen_payload(session.pk, kept, in_play))


def play(matches, rng: random.Random, moves: int | None) -> None:
    """Random legal moves at each of ``matches``: ``moves`` of them, or to the end (None)."""
    from games import services as match_services
    from games.models import Match
    from games.selectors import match_payload

    for match in matches:
        left = moves
        while left is None or left > 0:
            match = Match.objects.get(pk=match.pk)
            to_act = match_payload(match, 0)["to_act"]
            legal = match_payload(match, to_act[0])["legal"] if to_act else []
            if not legal:
                break
            match_services.submit_action(match.pk, to_act[0], match.seq, rng.choice(legal))
            left = None if left is None else left - 1


if __name__ == "__main__":
    main()

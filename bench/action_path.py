#!/usr/bin/env python
"""The server's work for one action, in process (no sockets): the service (``submit_action``,
on PostgreSQL), every seat's view (``seat_payload``) encoded as the match
socket sends them (as a patch of the seat's state before, ``core.jsonpatch.StateStream``, as
the pages ask; ``--whole-states``: whole), and the group message through the channel layer's
msgpack, timed apart.

Needs DATABASE_URL (PostgreSQL; a database ``qc_action_path`` is made afresh beside it).

    .venv/bin/python bench/action_path.py --actions 2000 [--game qtris] [--seats 4] [--profile]

Last line: ``action-path: actions=N queries_per_action=… cpu_ms_per_action=… (service=… views=… layer=…)``
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB = os.environ.get("ACTION_PATH_DB", "qc_action_path")


def prepare() -> None:
    import psycopg

    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        sys.exit("action_path needs PostgreSQL: set DATABASE_URL=postgres://…")
    url = urlunsplit(urlsplit(base)._replace(path="/" + DB))
    admin = urlunsplit(urlsplit(base)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB}")
    os.environ.update({"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0",
                       "SECRET_KEY": "bench-" + "k" * 60, "REDIS_URL": ""})
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--game", default="quantum-tictactoe")
    parser.add_argument("--seats", type=int, default=0, help="players per match (default: the game's least)")
    parser.add_argument("--profile", action="store_true", help="print the top functions (cProfile)")
    parser.add_argument("--whole-states", action="store_true", help="every view whole, no patches")
    args = parser.parse_args()
    prepare()
    import django

    django.setup()
    import msgpack
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from core.jsonpatch import StateStream
    from games import services
    from games.broadcast import match_changed_message
    from games.consumers import encode
    from games.engines import get_game
    from games.models import Match
    from games.selectors import current_state, seat_payload
    from games.snapshot import Snapshot

    rng = random.Random(17)
    game = get_game(args.game)
    seats = args.seats or game.min_players

    def new_match() -> int:
        holders = [services.SeatHolder(f"P{i}", participant_id=i + 1) for i in range(seats)]
        match = services.create_match(args.game, holders, variant=game.variants[0])
        services.start_match(match.pk)
        return match.pk

    def decision(match_id: int, snap) -> tuple[int, dict] | None:
        """The first seat to act and a random legal action of theirs (None: the game is over)."""
        state = snap.state if snap is not None else current_state(Match.objects.get(pk=match_id))
        if game.outcome(state) is not None or not game.to_act(state):
            return None
        seat = game.to_act(state)[0]
        return seat, rng.choice(game.legal_actions(state, seat))

    live = {new_match(): (0, None) for _ in range(args.matches)}
    streams: dict[tuple[int, int], StateStream] = {}  # (match, seat) → what that seat's socket sent
    timing = {"service": 0.0, "views": 0.0, "layer": 0.0}
    done = queries = 0
    profiler = cProfile.Profile() if args.profile else None
    while done < args.actions:
        match_id = rng.choice(list(live))
        seq, snap = live[match_id]
        chosen = decision(match_id, snap)
        if chosen is None:
            del live[match_id]
            live[new_match()] = (0, None)
            continue
        seat, action = chosen
        if profiler:
            profiler.enable()
        reset_queries()  # (the log is bounded: a full one would miscount)
        t0 = time.process_time()
        with CaptureQueriesContext(connection) as captured:
            applied = services.submit_action(match_id, seat, seq, action, participant_ids=(seat + 1,))
        t1 = time.process_time()
        for view in range(seats):  # the actor's answer, the others' broadcast
            stream = streams.setdefault((match_id, view), StateStream(not args.whole_states, encode))
            stream.text(seat_payload(applied.snapshot, view, events=applied.events))
        t2 = time.process_time()
        packed = msgpack.packb(match_changed_message(match_id, applied.snapshot, applied.events, sender="x"),
                               use_bin_type=True)
        Snapshot.from_message(msgpack.unpackb(packed, raw=False)["snapshot"])
        t3 = time.process_time()
        if profiler:
            profiler.disable()
        timing["service"] += t1 - t0
        timing["views"] += t2 - t1
        timing["layer"] += t3 - t2
        queries += len(captured)
        if os.environ.get("SHOW_QUERIES") and done == 5:
            print("\n".join(q["sql"][:160] for q in captured.captured_queries))
        done += 1
        live[match_id] = (applied.seq, applied.snapshot)
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
    per = {k: v * 1000 / done for k, v in timing.items()}
    print(f"action-path: game={args.game} seats={seats} actions={done} queries_per_action={queries / done:.2f} "
          f"cpu_ms_per_action={sum(per.values()):.2f} (service={per['service']:.2f} views={per['views']:.2f} "
          f"layer={per['layer']:.2f}) message_bytes={len(packed)}")


if __name__ == "__main__":
    main()

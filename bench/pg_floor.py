#!/usr/bin/env python
"""PostgreSQL's floor for one move: the CPU PostgreSQL spends on a move's transaction when
nothing else is sent (no Django, no sockets), to compare with the live bench's PostgreSQL CPU
per action. The transaction has a move's shape: lock the match row, insert the action, update
the match, commit (``synchronous_commit`` as the server has it), in a scratch database
``$PG_FLOOR_DB`` (default ``qc_pg_floor``) beside DATABASE_URL's. Run on a quiet machine.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/pg_floor.py --moves 3000

Each way of binding is run ``--runs`` times, alternating: values quoted into the text by the
client (Django's default, ``ClientCursor``) and server-side prepared statements. Last line:
``pg-floor: moves=N client_ms=… prepared_ms=…`` (medians of PostgreSQL CPU per move).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_latency import CLK, cpu_ticks, service_pids  # noqa: E402

DB = os.environ.get("PG_FLOOR_DB", "qc_pg_floor")
MATCHES = 200


def postgres_seconds() -> float:
    return sum(cpu_ticks(pid) for pid in service_pids()["postgres"]) / CLK


def one_way(url: str, moves: int, prepared: bool) -> tuple[float, float]:
    """(PostgreSQL CPU ms, wall ms) per move."""
    import psycopg

    with psycopg.connect(url) as conn:
        cursor = conn.cursor() if prepared else psycopg.ClientCursor(conn)
        seq = {m: conn.execute("SELECT seq FROM fm WHERE id = %s", (m,)).fetchone()[0] for m in range(1, MATCHES + 1)}
        conn.commit()
        cpu0, wall0 = postgres_seconds(), time.perf_counter()
        for i in range(moves):
            match = 1 + i % MATCHES
            with conn.transaction():
                cursor.execute("SELECT id, seq, state FROM fm WHERE id = %s FOR UPDATE", (match,), prepare=prepared or None)
                cursor.fetchone()
                cursor.execute("INSERT INTO fa (match_id, seq, action) VALUES (%s, %s, %s)",
                               (match, seq[match], '{"squares": [1, 2]}'), prepare=prepared or None)
                seq[match] += 1
                cursor.execute("UPDATE fm SET seq = %s, state = %s WHERE id = %s",
                               (seq[match], '{"board": [1, 2, 3, 4, 5, 6, 7, 8, 9]}', match), prepare=prepared or None)
        return (1000 * (postgres_seconds() - cpu0) / moves, 1000 * (time.perf_counter() - wall0) / moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import psycopg

    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        sys.exit("pg_floor needs PostgreSQL: set DATABASE_URL=postgres://…")
    url = urlunsplit(urlsplit(base)._replace(path="/" + DB))
    with psycopg.connect(urlunsplit(urlsplit(base)._replace(path="/postgres")), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {DB}")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE fm (id serial PRIMARY KEY, seq int NOT NULL, state jsonb NOT NULL)")
        conn.execute("CREATE TABLE fa (id bigserial PRIMARY KEY, match_id int NOT NULL REFERENCES fm, seq int NOT NULL,"
                     " action jsonb NOT NULL, UNIQUE (match_id, seq))")
        conn.execute(f"INSERT INTO fm (seq, state) SELECT 0, '{{}}' FROM generate_series(1, {MATCHES})")
    results: dict[str, list[tuple[float, float]]] = {"client": [], "prepared": []}
    for run in range(args.runs):
        for way in results:
            results[way].append(one_way(url, args.moves, way == "prepared"))
            cpu, wall = results[way][-1]
            print(f"run {run + 1} {way}: postgres_cpu_ms_per_move={cpu:.3f} wall_ms_per_move={wall:.3f}")
    med = {way: statistics.median(cpu for cpu, _ in r) for way, r in results.items()}
    print(f"pg-floor: moves={args.moves} runs={args.runs} client_ms={med['client']:.3f} prepared_ms={med['prepared']:.3f}")


if __name__ == "__main__":
    main()

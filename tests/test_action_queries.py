"""The database work of one move stays small. A ceiling on the statements that
``submit_action`` runs (the transaction's BEGIN/COMMIT aside): the match locked with its seats in
one query, the action inserted, the match updated, and, after the commit, the dashboard's table
looked up (once per match and process). A change that adds a query per move fails here.

The three statements are plain SQL (``games.rows``): what they read and write must be exactly
what the ORM reads and writes, on SQLite and on PostgreSQL."""
from __future__ import annotations

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classrooms import services as classes
from classrooms.models import Participant
from classrooms.receivers import session_of_match
from games import rows, services, state_cache
from games.models import Action, Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)

CEILING = 4


def statements(captured) -> list[str]:
    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT")
    return [q["sql"] for q in captured.captured_queries if not q["sql"].upper().startswith(skip)]


def test_a_move_costs_at_most_the_ceiling_of_queries_and_is_committed():
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(1,))
    with CaptureQueriesContext(connection) as captured:
        applied = services.submit_action(match.pk, 1, 1, {"squares": [3, 4]}, participant_ids=(2,))
    sql = statements(captured)
    assert len(sql) <= CEILING, "\n".join(sql)
    lookup = [s for s in sql if "classrooms_table" in s]  # the dashboard's: one table, no join
    assert len(lookup) == 1 and "JOIN" not in lookup[0].upper(), lookup
    assert applied.seq == 2 and Match.objects.get(pk=match.pk).seq == 2
    assert [s["name"] for s in applied.snapshot.seats] == ["Ada", "Bo"]


def test_a_move_for_another_students_seat_is_still_refused_with_the_locked_seats():
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    with pytest.raises(services.AppError) as refused:
        services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(2,))
    assert refused.value.code == "not_your_seat" and Match.objects.get(pk=match.pk).seq == 0
    with pytest.raises(Match.DoesNotExist):
        services.submit_action(10**9, 0, 0, {"squares": [1, 2]})


def test_the_group_message_holds_the_snapshot_without_copying_its_state_and_survives_the_layer():
    import msgpack

    from games.broadcast import match_changed_message
    from games.snapshot import Snapshot

    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    applied = services.submit_action(match.pk, 0, 0, {"squares": [1, 2]}, participant_ids=(1,))
    message = match_changed_message(match.pk, applied.snapshot, applied.events)
    # the state as its JSON text, made once (no deep copy; packed by the layer as bytes)
    assert message["snapshot"]["state"] == orjson.dumps(applied.snapshot.state)
    carried = msgpack.unpackb(msgpack.packb(message, use_bin_type=True), raw=False)  # as channels_redis does
    state_cache.clear()  # (another process: it has not seen this state)
    again = Snapshot.from_message(carried["snapshot"])
    assert again.seq == 1 and again.seats == applied.snapshot.seats and again.seed == match.seed
    assert again.state == applied.snapshot.state
    # the next socket of the process to hear of the change is given the state decoded once
    assert Snapshot.from_message(dict(carried["snapshot"])).state is again.state


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_a_class_tables_move_looks_its_session_up_once_per_match(session):
    ada, bo = (Participant.objects.create(session=session, display_name=n) for n in ("Ada", "Bo"))
    table = classes.seat_table(session, [ada, bo], in_order=True)
    classes.start_all(session)
    services.submit_action(table.match_id, 0, 0, {"squares": [1, 2]}, participant_ids=(ada.pk,))
    with CaptureQueriesContext(connection) as captured:
        applied = services.submit_action(table.match_id, 1, 1, {"squares": [3, 4]}, participant_ids=(bo.pk,))
    sql = statements(captured)
    assert len(sql) == 3 and not [s for s in sql if "classrooms_table" in s], "\n".join(sql)
    assert applied.seq == 2 and session_of_match(table.match_id, applied.snapshot.seed) == session.pk


def test_the_plain_sql_reads_and_writes_the_rows_the_orm_does():
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", bot="random")]
    match = services.create_match("quantum-tictactoe", holders)
    services.start_match(match.pk)
    Match.objects.filter(pk=match.pk).update(options={"odds": [0.5, True, None]})  # JSON of every kind
    match.refresh_from_db()
    locked, seats = rows.lock_match_with_seats(match.pk)
    assert fields_of(locked) == fields_of(Match.objects.get(pk=match.pk))
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in Seat.objects.filter(match=match).order_by("index")]
    assert all(s.match is locked for s in seats) and not locked._state.adding
    assert locked.started_at.tzinfo is not None and locked.paused is False and locked.options == match.options

    events = [{"code": "placed", "params": {"squares": [1, 2]}, "text": "é ✓"}]
    rows.append_action(locked, seat=0, action={"squares": [1, 2]}, events=events, by_bot=False, timed_out=True)
    written = Action.objects.get(match=match, seq=locked.seq)
    assert (written.seat, written.action, written.events, written.by_bot, written.timed_out) == (
        0, {"squares": [1, 2]}, events, False, True)
    assert written.created_at.tzinfo is not None

    locked.seq, locked.outcome, locked.paused, locked.clock_left_ms = 1, {"winners": [0]}, True, 1500
    rows.save_match(locked, services.MOVE_FIELDS)
    assert fields_of(Match.objects.get(pk=match.pk)) == fields_of(locked)
    with pytest.raises(Match.DoesNotExist):
        rows.lock_match_with_seats(10**9)


def test_a_socket_reads_its_match_with_the_seats_in_one_query():
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders)
    with CaptureQueriesContext(connection) as captured:
        read = rows.match_with_seats(match.pk)
        seats = [fields_of(s) for s in read.seats.all()]
    assert len(captured) == 1 and "FOR UPDATE" not in captured[0]["sql"].upper()
    assert fields_of(read) == fields_of(Match.objects.get(pk=match.pk))
    assert seats == [fields_of(s) for s in Seat.objects.filter(match=match).order_by("index")]
    assert rows.match_with_seats(10**9) is None

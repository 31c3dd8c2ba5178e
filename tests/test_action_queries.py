"""Issue 17: the database work of one move stays small. A ceiling on the statements that
``submit_action`` runs (the transaction's BEGIN/COMMIT aside): the match locked with its seats in
one query, the action inserted, the match updated, and, after the commit, the dashboard's table
looked up. A change that adds a query per move fails here."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Match

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
    assert message["snapshot"]["state"] is applied.snapshot.state  # no deep copy per move
    carried = msgpack.unpackb(msgpack.packb(message, use_bin_type=True), raw=False)  # as channels_redis does
    again = Snapshot.from_message(carried["snapshot"])
    assert again.seq == 1 and again.seats == applied.snapshot.seats and again.seed == match.seed
    assert msgpack.packb(again.state) == msgpack.packb(applied.snapshot.state)

"""A move's three statements as plain SQL: lock the match with its seats, append an action, save
the match's changed fields; and the match with its seats read for a socket that opens.

They are the statements the ORM would send, but the ORM builds and compiles a query afresh on
every call, which was a third of a move's CPU in the live benchmark; here each statement's text
is built once per table layout and connection vendor. Values still go through the fields'
own conversions (JSON, booleans, times), so a row read or written here is the row the ORM
reads or writes. No model signals are sent (the app has no receivers for these models' saves).
"""
from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models import Model
from django.utils import timezone

from games.models import Action, Match, Seat


def lock_match_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """The match and its seats (in seat order), their rows locked until the transaction ends.
    Raises ``Match.DoesNotExist`` when there is no such match (a match always has seats)."""
    return _match_with_seats(match_id, lock=True)


def match_with_seats(match_id: int) -> Match | None:
    """The match (None if there is none) with its seats, read in one query, as
    ``Match.objects.prefetch_related("seats")`` gives it: ``match.seats.all()`` asks nothing more."""
    try:
        match, seats = _match_with_seats(match_id, lock=False)
    except Match.DoesNotExist:
        return None
    prefetched = match.seats.all()  # (what Django's prefetch_related stores, filled by hand)
    prefetched._result_cache, prefetched._prefetch_done = seats, True
    match._prefetched_objects_cache = {"seats": prefetched}
    return match


def _match_with_seats(match_id: int, *, lock: bool) -> tuple[Match, list[Seat]]:
    sql, match_fields, seat_fields = _read_statement(connection.vendor, lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id])
        rows = cursor.fetchall()
    if not rows:
        raise Match.DoesNotExist(f"match {match_id}")
    width = len(match_fields)
    match = _instance(Match, match_fields, rows[0][:width])
    seats = [_instance(Seat, seat_fields, row[width:]) for row in rows]
    for seat in seats:
        seat.match = match
    return match, seats


def append_action(match: Match, **values) -> None:
    """Insert one action of ``match`` at ``match.seq`` (the unique (match, seq) refuses a second
    writer: ``IntegrityError``). ``values``: the other fields of ``Action`` (seat, action, events,
    by_bot, timed_out; the defaults of the model otherwise)."""
    sql, fields = _insert_statement(connection.vendor)
    row = {"match": match.pk, "seq": match.seq, "created_at": timezone.now(), **values}
    params = []
    for f in fields:
        value = row[f.name] if f.name in row else f.get_default()
        params.append(f.get_db_prep_save(value, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def save_match(match: Match, field_names: tuple[str, ...]) -> None:
    """``match.save(update_fields=field_names)`` without compiling a query."""
    sql, fields = _update_statement(connection.vendor, tuple(field_names))
    params = [f.get_db_prep_save(getattr(match, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, match.pk])


# --- the statements, built once ------------------------------------------------------------------

def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _read_statement(vendor: str, lock: bool) -> tuple[str, list, list]:
    match_table, seat_table = _q(Match._meta.db_table), _q(Seat._meta.db_table)
    match_fields, seat_fields = Match._meta.concrete_fields, Seat._meta.concrete_fields
    columns = [f"{match_table}.{_q(f.column)}" for f in match_fields] + \
              [f"{seat_table}.{_q(f.column)}" for f in seat_fields]
    sql = (f"SELECT {', '.join(columns)} FROM {seat_table} INNER JOIN {match_table} "
           f"ON ({seat_table}.{_q(Seat._meta.get_field('match').column)} = {match_table}.{_q(Match._meta.pk.column)}) "
           f"WHERE {seat_table}.{_q(Seat._meta.get_field('match').column)} = %s "
           f"ORDER BY {seat_table}.{_q(Seat._meta.get_field('index').column)}")
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
        if connection.features.has_select_for_update_of:
            sql += f" OF {seat_table}, {match_table}"
    return sql, [_reader(f) for f in match_fields], [_reader(f) for f in seat_fields]


@cache
def _insert_statement(vendor: str) -> tuple[str, list]:
    fields = [f for f in Action._meta.concrete_fields if not f.primary_key]
    sql = (f"INSERT INTO {_q(Action._meta.db_table)} ({', '.join(_q(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))})")
    return sql, fields


@cache
def _update_statement(vendor: str, field_names: tuple[str, ...]) -> tuple[str, list]:
    fields = [Match._meta.get_field(name) for name in field_names]
    sets = ", ".join(f"{_q(f.column)} = %s" for f in fields)
    return f"UPDATE {_q(Match._meta.db_table)} SET {sets} WHERE {_q(Match._meta.pk.column)} = %s", fields


def _reader(field) -> tuple[str, object, list]:
    """(attname, column expression, converters) of one field: what the ORM applies to a value
    read from the database (JSON decoded, SQLite's integers made booleans, times made aware)."""
    col = field.get_col(field.model._meta.db_table)
    return field.attname, col, connection.ops.get_db_converters(col) + field.get_db_converters(connection)


def _instance(model: type[Model], readers: list, values) -> Model:
    converted = []
    for (_name, col, converters), value in zip(readers, values, strict=True):
        for convert in converters:
            value = convert(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, [name for name, _c, _v in readers], converted)

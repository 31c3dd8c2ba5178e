"""Pairing the next round of a session run as rounds: pure functions over the students' records.

``pair_round(players, table_size, round_number, cooperative=...)`` -> ``Pairing(method, tables)``;
each table lists participant ids in seat order (seat 0 first); a table shorter than
``table_size`` is a **bye**: bots fill its empty seats.

Methods:

* ``round-robin`` — two-seat competitive games with at most ``ROUND_ROBIN_MAX`` (8) students: the
  circle method over the students in join order (an odd number adds a bye, so each student gets
  one over the cycle); everyone meets everyone once in n−1 rounds (n even) or n rounds (n odd).
  If the group changed (a late joiner, a removal) the circle is laid out again over the new group
  and, of its rounds, the one with the fewest rematches (then the fewest repeated byes) is played.
* ``swiss`` — larger groups, and tables of 3–5 (QuantumPoker, Ticket-to-Ride): students ordered
  by the standings (points, tie-breaks); the bye (the ``n mod table_size`` students left over) goes
  to the lowest-placed students with the fewest byes; two-seat tables pair top-down, each with
  the nearest student in the order not met yet (backtracking: no rematch when one can be avoided);
  larger tables are filled from the top of the order, each time with the student (among the
  next few) who met the table's students least often.
* ``teams`` — co-operative games (Entanglion): teams are kept: two students who shared a table
  last round play together again; students without a partner (late joiners, a partner removed)
  are teamed in join order, and a student left over plays with a bot partner (a bye, given to
  the one with the fewest byes).

Seat order: in every two-seat pairing the student who sat first fewer times sits first (X in
tic-tac-toe), so first seats alternate; ties go to the higher-placed student.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ROUND_ROBIN_MAX = 8
SEARCH_BUDGET = 20_000  # backtracking steps before the Swiss pairing accepts a rematch


@dataclass(frozen=True)
class Player:
    id: int
    place: int = 0  # in the standings, 0-based (lower is better)
    byes: int = 0
    first_seats: int = 0
    opponents: frozenset[int] = frozenset()
    partner: int | None = None  # co-op: last round's teammate


@dataclass
class Pairing:
    method: str
    tables: list[list[int]] = field(default_factory=list)


def method_for(count: int, table_size: int, *, cooperative: bool = False) -> str:
    if cooperative:
        return "teams"
    if table_size == 2 and count <= ROUND_ROBIN_MAX:
        return "round-robin"
    return "swiss"


def pair_round(players: list[Player], table_size: int, round_number: int, *,
               cooperative: bool = False) -> Pairing:
    if not players:
        return Pairing(method_for(0, table_size, cooperative=cooperative))
    method = method_for(len(players), table_size, cooperative=cooperative)
    if method == "teams":
        tables = _teams(players, table_size)
    elif method == "round-robin":
        tables = _round_robin(players, round_number)
    elif table_size == 2:
        tables = _swiss_pairs(players)
    else:
        tables = _swiss_groups(players, table_size)
    return Pairing(method, tables)


def _seat_order(a: Player, b: Player) -> list[int]:
    first, second = (a, b) if (a.first_seats, a.place, a.id) <= (b.first_seats, b.place, b.id) else (b, a)
    return [first.id, second.id]


def circle_rounds(ids: list[int | None]) -> list[list[tuple[int | None, int | None]]]:
    """The circle method: n (even, a None for the bye) entries -> n−1 rounds of n/2 pairs."""
    ids = list(ids)
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rounds = []
    rest = ids[1:]
    for r in range(n - 1):
        line = [ids[0]] + rest[r:] + rest[:r]
        rounds.append([(line[i], line[n - 1 - i]) for i in range(n // 2)])
    return rounds


def _round_robin(players: list[Player], round_number: int) -> list[list[int]]:
    by_id = {p.id: p for p in players}
    schedule = circle_rounds(sorted(by_id))
    count = len(schedule)

    def cost(k: int) -> tuple[int, int, int]:
        pairs = schedule[k]
        rematches = sum(1 for a, b in pairs if a is not None and b is not None and b in by_id[a].opponents)
        rebye = sum(by_id[x].byes for a, b in pairs for x in (a, b) if x is not None and (a is None or b is None))
        return rematches, rebye, (k - (round_number - 1)) % count

    best = min(range(count), key=cost)
    tables = []
    for a, b in schedule[best]:
        if a is None or b is None:
            tables.append([a if b is None else b])
        else:
            tables.append(_seat_order(by_id[a], by_id[b]))
    return sorted(tables, key=lambda t: min(by_id[i].place for i in t))


def _bye_takers(ordered: list[Player], count: int) -> list[Player]:
    """``count`` students to sit with bots: the fewest byes first, the lowest-placed first."""
    if count <= 0:
        return []
    bottom_up = list(reversed(ordered))
    return sorted(bottom_up, key=lambda p: p.byes)[:count]


def _swiss_pairs(players: list[Player]) -> list[list[int]]:
    ordered = sorted(players, key=lambda p: (p.place, p.id))
    byes = _bye_takers(ordered, len(ordered) % 2)
    rest = [p for p in ordered if p not in byes]
    pairs = _pair_without_rematch(rest)
    if pairs is None:  # every perfect pairing repeats a game: pair top-down, nearest first
        pairs = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    tables = [_seat_order(a, b) for a, b in pairs]
    return tables + [[p.id] for p in byes]


def _pair_without_rematch(rest: list[Player]) -> list[tuple[Player, Player]] | None:
    steps = 0

    def search(left: list[Player]) -> list[tuple[Player, Player]] | None:
        nonlocal steps
        if not left:
            return []
        top, others = left[0], left[1:]
        for i, partner in enumerate(others):
            steps += 1
            if steps > SEARCH_BUDGET:
                return None
            if partner.id in top.opponents:
                continue
            found = search(others[:i] + others[i + 1:])
            if found is not None:
                return [(top, partner), *found]
        return None

    return search(rest)


def _swiss_groups(players: list[Player], size: int) -> list[list[int]]:
    ordered = sorted(players, key=lambda p: (p.place, p.id))
    byes = _bye_takers(ordered, len(ordered) % size)
    rest = [p for p in ordered if p not in byes]
    tables = []
    while rest:
        group = [rest.pop(0)]
        while len(group) < size:
            window = rest[:size * 2]
            pick = min(window, key=lambda p: (sum(1 for g in group if g.id in p.opponents), rest.index(p)))
            rest.remove(pick)
            group.append(pick)
        tables.append(_rotate_first(group))
    if byes:
        tables.append(_rotate_first(sorted(byes, key=lambda p: (p.place, p.id))))
    return tables


def _rotate_first(group: list[Player]) -> list[int]:
    """The student of the group who sat first least often sits first; the others in order."""
    first = min(group, key=lambda p: (p.first_seats, p.place, p.id))
    return [first.id] + [p.id for p in group if p is not first]


def _teams(players: list[Player], size: int) -> list[list[int]]:
    by_id = {p.id: p for p in players}
    kept, single = [], []
    for p in sorted(players, key=lambda p: p.id):
        mate = by_id.get(p.partner) if p.partner is not None else None
        if mate is not None and mate.partner == p.id:
            if p.id < mate.id:
                kept.append([p, mate])
        else:
            single.append(p)
    byes = []
    if len(single) % size:
        byes = sorted(single, key=lambda p: (p.byes, -p.id))[:len(single) % size]
        single = [p for p in single if p not in byes]
    groups = kept + [single[i:i + size] for i in range(0, len(single), size)]
    tables = [_rotate_first(g) for g in groups]
    if byes:
        tables.append(_rotate_first(byes))
    return tables

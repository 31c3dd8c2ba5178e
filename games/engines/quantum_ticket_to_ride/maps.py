"""Maps as data: load and validate a map dict (the format is documented in the package
docstring). ``validate_map`` names every problem at once in one ``MapError``."""
from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

from ..base import gettext_noop as _
from ..base import is_int
from . import register, search

MAPS_DIR = Path(__file__).parent / "maps"
LEVELS = ("basic", "intermediate", "advanced")
#: size caps, so that an upload cannot blow up a table
MAX_CITIES = 60
MAX_ROUTES = 150
MAX_MISSIONS = 200
# search steps the solvability check of a whole map may take (the default map needs about 250;
# one mission may take up to search.BUDGET): a map cannot keep a worker busy for seconds
VALIDATION_STEPS = 30_000
MAX_NAME = 40
MAX_TEXT = 500
MAX_LENGTH = 6
WIDTH, HEIGHT = 1000, 700
_KEYS = {"cities": {"name", "x", "y"}, "routes": {"a", "b", "gate", "length"},
         "missions": {"id", "start", "target", "initial_state", "target_state", "qubits", "level"}}
_TOP = {"name", "description", "cities", "routes", "missions"}


#: a problem as a msgid and its params (a param may itself be a ``Problem``: "Mission M1")
Problem = tuple[str, dict[str, Any]]


def render_problem(problem: Problem, translate=lambda text: text) -> str:
    """A problem's text, each msgid passed through ``translate`` (English by default; the app
    passes gettext)."""
    msgid, params = problem
    return translate(msgid) % {k: render_problem(v, translate) if isinstance(v, tuple) else v
                               for k, v in params.items()}


class MapError(ValueError):
    """A map that cannot be played; ``problems`` lists every reason in English words and
    ``messages`` the same reasons as ``Problem``s (msgid and params, for the reader's
    language)."""

    def __init__(self, messages: list[Problem]):
        self.messages = list(messages)
        self.problems = [render_problem(m) for m in self.messages]
        super().__init__("This map cannot be used: " + "; ".join(self.problems))


def _add(problems: list[Problem], msgid: str, **params: Any) -> None:
    problems.append((msgid, params))


def _is_number(x: Any) -> bool:
    return (is_int(x) or isinstance(x, float)) and math.isfinite(x)


def _name_ok(x: Any) -> bool:
    return isinstance(x, str) and x.strip() == x and 1 <= len(x) <= MAX_NAME


def _rows(data: dict, key: str, cap: int, problems: list[Problem]) -> list[dict]:
    rows = data.get(key)
    if not isinstance(rows, list) or not rows:
        _add(problems, _('"%(key)s" must be a non-empty list.'), key=key)
        return []
    if len(rows) > cap:
        _add(problems, _('"%(key)s" has %(count)s entries; at most %(cap)s are allowed.'),
             key=key, count=len(rows), cap=cap)
        return []
    good = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != _KEYS[key]:
            _add(problems, _("%(key)s[%(i)s] must be an object with exactly the keys %(keys)s."),
                 key=key, i=i, keys=", ".join(sorted(_KEYS[key])))
            continue
        good.append(row)
    return good


def validate_map(data: Any) -> dict:
    """A validated copy of ``data`` (raises ``MapError`` naming every problem)."""
    if not isinstance(data, dict):
        raise MapError([(_("A map must be a JSON object with cities, routes and missions."), {})])
    problems: list[Problem] = []
    extra = set(data) - _TOP
    if extra:
        _add(problems, _("Unknown top-level keys: %(keys)s."),
             keys=", ".join(sorted(map(str, extra))))
    for key in ("name", "description"):
        if key in data and (not isinstance(data[key], str) or len(data[key]) > MAX_TEXT):
            _add(problems, _('"%(key)s" must be a text of at most %(max)s characters.'), key=key,
                 max=MAX_TEXT)
    top = len(problems)
    cities = _rows(data, "cities", MAX_CITIES, problems)
    routes = _rows(data, "routes", MAX_ROUTES, problems)
    missions = _rows(data, "missions", MAX_MISSIONS, problems)
    names: set[str] = set()
    for i, c in enumerate(cities):
        if not _name_ok(c["name"]):
            _add(problems, _("cities[%(i)s]: the name must be a text of 1 to %(max)s characters "
                             "without surrounding spaces."), i=i, max=MAX_NAME)
            continue
        if c["name"] in names:
            _add(problems, _("City %(city)s is listed twice."), city=repr(c["name"]))
        names.add(c["name"])
        if not (_is_number(c["x"]) and 0 <= c["x"] <= WIDTH
                and _is_number(c["y"]) and 0 <= c["y"] <= HEIGHT):
            _add(problems, _("City %(city)s: x must be a number from 0 to %(width)s and y from 0 "
                             "to %(height)s."), city=repr(c["name"]), width=WIDTH, height=HEIGHT)
    pairs: set[frozenset] = set()
    links: dict[str, set[str]] = {n: set() for n in names}
    for i, r in enumerate(routes):
        where = f"routes[{i}] ({r['a']}–{r['b']})" if all(
            isinstance(r[k], str) for k in ("a", "b")) else f"routes[{i}]"   # JSON, not words
        ok = True
        for end in ("a", "b"):
            if not isinstance(r[end], str) or r[end] not in names:
                _add(problems, _("%(where)s: %(end)s is not a city of the map."), where=where,
                     end=repr(end))
                ok = False
        if ok and r["a"] == r["b"]:
            _add(problems, _("%(where)s: a route joins two different cities."), where=where)
            ok = False
        if r["gate"] not in register.GATE_NAMES:
            _add(problems, _("%(where)s: unknown gate %(gate)s (known: %(known)s)."), where=where,
                 gate=repr(r["gate"]), known=", ".join(register.GATE_NAMES))
        if not is_int(r["length"]) or not 1 <= r["length"] <= MAX_LENGTH:
            _add(problems, _("%(where)s: the length must be a whole number from 1 to %(max)s."),
                 where=where, max=MAX_LENGTH)
        if ok:
            pair = frozenset((r["a"], r["b"]))
            if pair in pairs:
                _add(problems, _("%(where)s: two routes join the same cities."), where=where)
            pairs.add(pair)
            links[r["a"]].add(r["b"])
            links[r["b"]].add(r["a"])
    board_ok = len(problems) == top and bool(cities) and bool(routes)
    if names and board_ok:
        first = next(iter(sorted(names)))
        reached, todo = {first}, [first]
        while todo:
            for other in links[todo.pop()]:
                if other not in reached:
                    reached.add(other)
                    todo.append(other)
        if reached != names:
            cut = sorted(names - reached)
            _add(problems, _("The map is not connected: no route leads from %(first)s to "
                             "%(cities)s."), first=first,
                 cities=", ".join(cut[:10]) + (" …" if len(cut) > 10 else ""))
    ids: set[str] = set()
    playable: list[dict] = []
    for i, m in enumerate(missions):
        before = len(problems)
        _check_mission(i, m, names, ids, problems)
        if len(problems) == before:
            playable.append(m)
    clean = {"name": data.get("name", ""), "description": data.get("description", ""),
             "cities": [dict(c) for c in cities], "routes": [dict(r) for r in routes],
             "missions": [dict(m) for m in missions]}
    if board_ok:        # the search needs sound cities and routes; it checks sound missions
        meter = [VALIDATION_STEPS]  # the whole check's work is bounded, whatever the map
        for m in playable:
            found = search.plan(clean, m, meter=meter)
            if meter[0] <= 0:
                _add(problems, _("The map takes too much searching to check (at mission %(id)s): "
                                 "give it fewer routes or missions, or missions with shorter "
                                 "paths."), id=m["id"])
                break
            if found is None:
                _add(problems, _("Mission %(id)s (%(start)s %(initial)s → %(target)s %(goal)s) "
                                 "cannot be completed on the empty board."), id=m["id"],
                     start=m["start"], initial=register.label(m["initial_state"]),
                     target=m["target"], goal=register.label(m["target_state"]))
    if problems:
        raise MapError(problems)
    return clean


def _check_mission(i: int, m: dict, names: set[str], ids: set[str], problems: list[Problem]) -> None:
    mid = m["id"] if _name_ok(m["id"]) else None
    where: Problem | str = (_("Mission %(id)s"), {"id": mid}) if mid else f"missions[{i}]"
    if mid is None:
        _add(problems, _("missions[%(i)s]: the id must be a text of 1 to %(max)s characters."),
             i=i, max=MAX_NAME)
    elif mid in ids:
        _add(problems, _("Mission id %(id)s is used twice."), id=repr(mid))
    ids.add(mid or "")
    for end in ("start", "target"):
        if not isinstance(m[end], str) or m[end] not in names:
            _add(problems, _("%(where)s: start %(city)s is not a city of the map.") if end == "start"
                 else _("%(where)s: target %(city)s is not a city of the map."), where=where,
                 city=repr(m[end]))
    if isinstance(m["start"], str) and m["start"] == m["target"]:
        _add(problems, _("%(where)s: the start and the target must be different cities."),
             where=where)
    if m["qubits"] not in (1, 2) or not is_int(m["qubits"]):
        _add(problems, _("%(where)s: qubits must be 1 or 2."), where=where)
        return
    states = register.STATES_1 if m["qubits"] == 1 else register.STATES_2
    known = True
    if not isinstance(m["initial_state"], str) or m["initial_state"] not in register.STATES_1:
        _add(problems, _("%(where)s: unknown initial state %(state)s (known: %(known)s)."),
             where=where, state=repr(m["initial_state"]), known=", ".join(register.STATES_1))
        known = False
    if not isinstance(m["target_state"], str) or m["target_state"] not in states:
        msgid = (_("%(where)s: unknown target state %(state)s for one qubit (known: %(known)s).") if m["qubits"] == 1
                 else _("%(where)s: unknown target state %(state)s for two qubits (known: %(known)s)."))
        _add(problems, msgid, where=where, state=repr(m["target_state"]), known=", ".join(states))
        known = False
    if not isinstance(m["level"], str) or m["level"] not in LEVELS:
        _add(problems, _("%(where)s: the level must be one of %(levels)s."), where=where,
             levels=", ".join(LEVELS))
    elif known and not _level_fits(m):
        _add(problems, _("%(where)s: a basic mission is one qubit from |0⟩/|1⟩ to |0⟩/|1⟩, an "
                         "intermediate one a one-qubit mission with |+⟩ or |−⟩, an advanced one "
                         "a two-qubit mission."), where=where)


def _level_fits(m: dict) -> bool:
    one_basis = {m["initial_state"], m["target_state"]} <= {"0", "1"}
    if m["level"] == "basic":
        return m["qubits"] == 1 and one_basis
    if m["level"] == "intermediate":
        return m["qubits"] == 1 and not one_basis
    return m["qubits"] == 2


@functools.cache
def _default_text() -> str:
    return (MAPS_DIR / "europe.json").read_text(encoding="utf-8")


@functools.cache
def _default() -> str:
    return json.dumps(validate_map(json.loads(_default_text())))


def default_map() -> dict:
    """The shipped Europe map, validated (a fresh copy each call)."""
    return json.loads(_default())


def load_map(text: str) -> dict:
    """A map from JSON text (an upload), validated."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MapError([(_("The file is not valid JSON: %(error)s"), {"error": str(exc)})]) from exc
    return validate_map(data)

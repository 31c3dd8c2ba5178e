"""Maps as data: load and validate a map dict (the format is documented in the package
docstring). ``validate_map`` names every problem at once in one ``MapError``."""
from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

from ..base import is_int
from . import register, search

MAPS_DIR = Path(__file__).parent / "maps"
LEVELS = ("basic", "intermediate", "advanced")
#: size caps, so that an upload cannot blow up a table
MAX_CITIES = 60
MAX_ROUTES = 150
MAX_MISSIONS = 200
MAX_NAME = 40
MAX_TEXT = 500
MAX_LENGTH = 6
WIDTH, HEIGHT = 1000, 700
_KEYS = {"cities": {"name", "x", "y"}, "routes": {"a", "b", "gate", "length"},
         "missions": {"id", "start", "target", "initial_state", "target_state", "qubits", "level"}}
_TOP = {"name", "description", "cities", "routes", "missions"}


class MapError(ValueError):
    """A map that cannot be played; ``problems`` lists every reason in words."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("This map cannot be used: " + "; ".join(self.problems))


def _is_number(x: Any) -> bool:
    return (is_int(x) or isinstance(x, float)) and math.isfinite(x)


def _name_ok(x: Any) -> bool:
    return isinstance(x, str) and x.strip() == x and 1 <= len(x) <= MAX_NAME


def _rows(data: dict, key: str, cap: int, problems: list[str]) -> list[dict]:
    rows = data.get(key)
    if not isinstance(rows, list) or not rows:
        problems.append(f'"{key}" must be a non-empty list.')
        return []
    if len(rows) > cap:
        problems.append(f'"{key}" has {len(rows)} entries; at most {cap} are allowed.')
        return []
    good = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != _KEYS[key]:
            problems.append(f'{key}[{i}] must be an object with exactly the keys '
                            f'{", ".join(sorted(_KEYS[key]))}.')
            continue
        good.append(row)
    return good


def validate_map(data: Any) -> dict:
    """A validated copy of ``data`` (raises ``MapError`` naming every problem)."""
    if not isinstance(data, dict):
        raise MapError(["A map must be a JSON object with cities, routes and missions."])
    problems: list[str] = []
    extra = set(data) - _TOP
    if extra:
        problems.append(f"Unknown top-level keys: {', '.join(sorted(map(str, extra)))}.")
    for key in ("name", "description"):
        if key in data and (not isinstance(data[key], str) or len(data[key]) > MAX_TEXT):
            problems.append(f'"{key}" must be a text of at most {MAX_TEXT} characters.')
    top = len(problems)
    cities = _rows(data, "cities", MAX_CITIES, problems)
    routes = _rows(data, "routes", MAX_ROUTES, problems)
    missions = _rows(data, "missions", MAX_MISSIONS, problems)
    names: set[str] = set()
    for i, c in enumerate(cities):
        if not _name_ok(c["name"]):
            problems.append(f"cities[{i}]: the name must be a text of 1 to {MAX_NAME} "
                            "characters without surrounding spaces.")
            continue
        if c["name"] in names:
            problems.append(f"City {c['name']!r} is listed twice.")
        names.add(c["name"])
        if not (_is_number(c["x"]) and 0 <= c["x"] <= WIDTH
                and _is_number(c["y"]) and 0 <= c["y"] <= HEIGHT):
            problems.append(f"City {c['name']!r}: x must be a number from 0 to {WIDTH} and y "
                            f"from 0 to {HEIGHT}.")
    pairs: set[frozenset] = set()
    links: dict[str, set[str]] = {n: set() for n in names}
    for i, r in enumerate(routes):
        where = f"routes[{i}] ({r['a']}–{r['b']})" if all(
            isinstance(r[k], str) for k in ("a", "b")) else f"routes[{i}]"
        ok = True
        for end in ("a", "b"):
            if not isinstance(r[end], str) or r[end] not in names:
                problems.append(f"{where}: {end!r} is not a city of the map.")
                ok = False
        if ok and r["a"] == r["b"]:
            problems.append(f"{where}: a route joins two different cities.")
            ok = False
        if r["gate"] not in register.GATE_NAMES:
            problems.append(f"{where}: unknown gate {r['gate']!r} (known: "
                            f"{', '.join(register.GATE_NAMES)}).")
        if not is_int(r["length"]) or not 1 <= r["length"] <= MAX_LENGTH:
            problems.append(f"{where}: the length must be a whole number from 1 to "
                            f"{MAX_LENGTH}.")
        if ok:
            pair = frozenset((r["a"], r["b"]))
            if pair in pairs:
                problems.append(f"{where}: two routes join the same cities.")
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
            problems.append("The map is not connected: no route leads from "
                            f"{first} to {', '.join(cut[:10])}{' …' if len(cut) > 10 else ''}.")
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
        for m in playable:
            if search.plan(clean, m) is None:
                problems.append(f"Mission {m['id']} ({m['start']} "
                                f"{register.label(m['initial_state'])} → {m['target']} "
                                f"{register.label(m['target_state'])}) cannot be completed on "
                                "the empty board.")
    if problems:
        raise MapError(problems)
    return clean


def _check_mission(i: int, m: dict, names: set[str], ids: set[str], problems: list[str]) -> None:
    mid = m["id"] if _name_ok(m["id"]) else None
    where = f"Mission {mid}" if mid else f"missions[{i}]"
    if mid is None:
        problems.append(f"missions[{i}]: the id must be a text of 1 to {MAX_NAME} characters.")
    elif mid in ids:
        problems.append(f"Mission id {mid!r} is used twice.")
    ids.add(mid or "")
    for end in ("start", "target"):
        if not isinstance(m[end], str) or m[end] not in names:
            problems.append(f"{where}: {end} {m[end]!r} is not a city of the map.")
    if isinstance(m["start"], str) and m["start"] == m["target"]:
        problems.append(f"{where}: the start and the target must be different cities.")
    if m["qubits"] not in (1, 2) or not is_int(m["qubits"]):
        problems.append(f"{where}: qubits must be 1 or 2.")
        return
    states = register.STATES_1 if m["qubits"] == 1 else register.STATES_2
    known = True
    if not isinstance(m["initial_state"], str) or m["initial_state"] not in register.STATES_1:
        problems.append(f"{where}: unknown initial state {m['initial_state']!r} (known: "
                        f"{', '.join(register.STATES_1)}).")
        known = False
    if not isinstance(m["target_state"], str) or m["target_state"] not in states:
        problems.append(f"{where}: unknown target state {m['target_state']!r} for "
                        f"{m['qubits']} qubit(s) (known: {', '.join(states)}).")
        known = False
    if not isinstance(m["level"], str) or m["level"] not in LEVELS:
        problems.append(f"{where}: the level must be one of {', '.join(LEVELS)}.")
    elif known and not _level_fits(m):
        problems.append(f"{where}: a basic mission is one qubit from |0⟩/|1⟩ to |0⟩/|1⟩, "
                        "an intermediate one a one-qubit mission with |+⟩ or |−⟩, an "
                        "advanced one a two-qubit mission.")


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
        raise MapError([f"The file is not valid JSON: {exc}"]) from exc
    return validate_map(data)

"""Quantum Ticket-to-Ride maps: the default Europe map's shape, every default mission solvable
by the bot's own search, and uploads that are broken in every way get every problem named."""
from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from games.engines import IllegalAction
from games.engines.quantum_ticket_to_ride import (
    MapError,
    default_map,
    load_map,
    plan,
    trace,
    validate_map,
)
from games.engines.quantum_ticket_to_ride.maps import MAPS_DIR
from tests.engines.ttr_support import table, tiny_map


def test_the_default_map_is_the_documented_json_file_and_has_the_settled_size():
    raw = json.loads((MAPS_DIR / "europe.json").read_text(encoding="utf-8"))
    m = default_map()
    assert m["cities"] == raw["cities"] and m["routes"] == raw["routes"]
    assert 20 <= len(m["cities"]) <= 30
    assert 40 <= len(m["routes"]) <= 60
    assert {r["length"] for r in m["routes"]} <= {1, 2, 3, 4}
    assert set(Counter(r["gate"] for r in m["routes"])) == {"I", "X", "Y", "Z", "H", "CNOT"}
    assert len(m["missions"]) >= 30
    levels = Counter(mi["level"] for mi in m["missions"])
    assert set(levels) == {"basic", "intermediate", "advanced"} and min(levels.values()) >= 5
    for c in m["cities"]:
        assert 0 <= c["x"] <= 1000 and 0 <= c["y"] <= 700
    names = {c["name"]: c for c in m["cities"]}
    assert names["Lisbon"]["x"] < names["Paris"]["x"] < names["Berlin"]["x"] < names["Kyiv"]["x"]
    assert names["Stockholm"]["y"] < names["Berlin"]["y"] < names["Rome"]["y"] < names["Athens"]["y"]


def test_every_default_mission_is_solvable_on_the_empty_board_by_the_bots_search():
    m = default_map()
    for mission in m["missions"]:
        found = plan(m, mission)
        assert found is not None, mission["id"]
        assert found.cities[0] == mission["start"] and found.cities[-1] == mission["target"]
        assert len(set(found.cities)) == len(found.cities)          # a simple path
        assert found.cost == sum(m["routes"][r]["length"] for r in found.routes)
        checked = trace(m, mission, list(found.cities))            # re-run independently
        assert checked["match"] and checked["fidelity"] == pytest.approx(1.0)


def test_the_search_finds_the_cheapest_path_and_knows_when_there_is_none():
    m = tiny_map()
    t1 = m["missions"][0]                   # Berlin |0⟩ → Rome |1⟩: only the direct X³ route
    found = plan(m, t1)
    assert found.cities == ("Berlin", "Rome") and found.cost == 3
    blocked = plan(m, t1, cost=lambda r: None if r == 3 else m["routes"][r]["length"])
    assert blocked is None                  # X·H·Z·Z = |−⟩: the other way never matches
    t3 = m["missions"][2]                   # Berlin |0⟩ → Vienna |−⟩: X then H
    assert plan(m, t3).cities == ("Berlin", "Munich", "Vienna")


def test_a_valid_upload_is_accepted_and_played_on():
    s = table(options={"map": tiny_map()})
    assert [c["name"] for c in s["map"]["cities"]] == ["Berlin", "Munich", "Vienna", "Rome"]
    assert len(s["owners"]) == 4
    assert load_map(json.dumps(tiny_map()))["missions"] == tiny_map()["missions"]


def broken(**changes) -> dict:
    m = copy.deepcopy(tiny_map())
    for path, value in changes.items():
        part, index, key = (path.split("__") + [None, None])[:3]
        if index is None:
            m[part] = value
        elif key is None:
            m[part][int(index)] = value
        else:
            m[part][int(index)][key] = value
    return m


CASES = {
    "duplicate city": (broken(cities__1__name="Berlin"), "listed twice"),
    "city off the board": (broken(cities__0__x=1200), "x must be a number"),
    "unknown gate": (broken(routes__0__gate="T"), "unknown gate 'T'"),
    "zero length": (broken(routes__1__length=0), "length must be a whole number"),
    "text length": (broken(routes__1__length="2"), "length must be a whole number"),
    "boolean length": (broken(routes__1__length=True), "length must be a whole number"),
    "route to nowhere": (broken(routes__2__b="Paris"), "'b' is not a city"),
    "loop route": (broken(routes__2__b="Vienna"), "two different cities"),
    "second route same cities": (broken(routes__2__a="Berlin", routes__2__b="Munich"),
                                 "two routes join the same cities"),
    "extra key": (broken(routes__0={"a": "Berlin", "b": "Munich", "gate": "X", "length": 1,
                                    "colour": "red"}), "exactly the keys"),
    "disconnected": (broken(cities=[*tiny_map()["cities"], {"name": "Oslo", "x": 1, "y": 1}]),
                     "not connected"),
    "mission to nowhere": (broken(missions__0__target="Paris"), "target 'Paris' is not a city"),
    "unknown state": (broken(missions__0__target_state="2"), "unknown target state '2'"),
    "two-qubit state on one qubit": (broken(missions__0__target_state="Phi+"),
                                     "unknown target state 'Phi+'"),
    "bad qubits": (broken(missions__0__qubits=3), "qubits must be 1 or 2"),
    "wrong level": (broken(missions__0__level="advanced"), "an advanced one a two-qubit"),
    "duplicate id": (broken(missions__1__id="T1"), "used twice"),
    "unsolvable": (broken(missions__0__target_state="0"), "cannot be completed on the empty"),
    "no missions": (broken(missions=[]), '"missions" must be a non-empty list'),
    "unknown top key": (broken(extra=1), "Unknown top-level keys: extra"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_broken_upload_is_refused_with_its_problem_named(name):
    data, words = CASES[name]
    with pytest.raises(MapError) as err:
        validate_map(data)
    assert any(words in p for p in err.value.problems), err.value.problems
    with pytest.raises(IllegalAction) as refused:
        table(options={"map": data})
    assert refused.value.code == "bad_map" and words in refused.value.message


def test_every_problem_of_an_upload_is_named_in_one_error():
    data = broken(cities__1__name="Berlin", routes__0__gate="T", routes__1__length=0,
                  missions__0__target_state="Q")
    with pytest.raises(MapError) as err:
        validate_map(data)
    text = str(err.value)
    for words in ("listed twice", "unknown gate 'T'", "length must be", "target state 'Q'"):
        assert words in text
    # a sound board: a broken mission and an unsolvable one are both named
    data = broken(missions__0__target_state="Q", missions__1__target_state="1")
    with pytest.raises(MapError) as err:
        validate_map(data)
    assert len(err.value.problems) == 2
    assert "target state 'Q'" in err.value.problems[0]
    assert "Mission T2" in err.value.problems[1] and "cannot be completed" in err.value.problems[1]


def test_uploads_that_are_not_maps_or_too_big_are_refused_cleanly():
    for data in (None, [], "map", 3, {"cities": {}, "routes": [], "missions": []}):
        with pytest.raises(MapError):
            validate_map(data)
    with pytest.raises(MapError) as err:
        load_map("{not json")
    assert "not valid JSON" in str(err.value)
    huge = tiny_map()
    huge["cities"] = [{"name": f"C{i}", "x": 1, "y": 1} for i in range(61)]
    with pytest.raises(MapError) as err:
        validate_map(huge)
    assert "at most 60" in str(err.value)
    long_name = broken(cities__0__name="B" * 41)
    with pytest.raises(MapError) as err:
        validate_map(long_name)
    assert "1 to 40 characters" in str(err.value)
    weird = broken(missions__0__initial_state=["0"], routes__0__gate={"X": 1})
    with pytest.raises(MapError):
        validate_map(weird)


JUNK = [None, True, 0, -1, 2**70, 1.5, float("nan"), "", "X", " Berlin", [], {}, ["0"], {"a": 1}]


def test_any_field_replaced_by_junk_gives_a_map_error_or_a_valid_map_never_a_crash():
    import random

    rng = random.Random(0)
    base = tiny_map()
    for _ in range(400):
        data = copy.deepcopy(base)
        part = rng.choice(["cities", "routes", "missions"])
        row = rng.choice(data[part])
        row[rng.choice(sorted(row))] = rng.choice(JUNK)
        try:
            validate_map(data)
        except MapError as err:
            assert err.problems and all(isinstance(p, str) and p for p in err.problems)


def test_the_search_stops_at_its_budget_so_an_upload_cannot_make_it_run_for_ever():
    m = default_map()
    far = next(mi for mi in m["missions"] if mi["id"] == "A12")
    assert plan(m, far) is not None
    assert plan(m, far, budget=2) is None

"""``core.jsonpatch``: a patch turns the state before into the state after, exactly, for any two
JSON documents (random ones, and the states of real games), and is short when little changed."""
from __future__ import annotations

import json
import random

import orjson
import pytest

from core.jsonpatch import StateStream, apply, diff, same


def random_json(rng: random.Random, depth: int = 0):
    kinds = ["int", "float", "str", "bool", "null"] + (["list", "dict"] * 2 if depth < 4 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randint(-3, 3)
    if kind == "float":
        return rng.choice([0.5, -1.25, 1.0])
    if kind == "str":
        return rng.choice(["", "a", "b", "ket |0⟩", "1"])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice("abcdef01"): random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def mutate(rng: random.Random, doc):
    """A document like ``doc``, with a few changes (values, keys, items appended or dropped)."""
    if isinstance(doc, dict):
        out = {k: (mutate(rng, v) if rng.random() < 0.5 else v) for k, v in doc.items() if rng.random() < 0.9}
        if rng.random() < 0.3:
            out[rng.choice("abcdefgh")] = random_json(rng, 2)
        return out
    if isinstance(doc, list):
        out = [mutate(rng, v) if rng.random() < 0.4 else v for v in doc]
        if rng.random() < 0.3:
            out.extend(random_json(rng, 3) for _ in range(rng.randint(1, 2)))
        elif out and rng.random() < 0.2:
            out.pop(rng.randrange(len(out)))
        if out and rng.random() < 0.2:  # a window that slides on: items off the front, new ones after
            del out[:rng.randint(1, len(out))]
            out.extend(random_json(rng, 3) for _ in range(rng.randint(0, 2)))
        return out
    return random_json(rng, 3) if rng.random() < 0.5 else doc


def as_browser(doc) -> str:
    """The document as a browser holds it, written out (one kind of number: 1.0 is 1)."""
    def norm(x):
        if isinstance(x, dict):
            return {k: norm(v) for k, v in x.items()}
        if isinstance(x, list):
            return [norm(v) for v in x]
        return int(x) if isinstance(x, float) and x.is_integer() else x
    return json.dumps(norm(doc), sort_keys=True)


@pytest.mark.parametrize("seed", range(300))
def test_a_patch_turns_any_document_into_the_next_exactly(seed):
    rng = random.Random(seed)
    old = random_json(rng)
    new = mutate(rng, old) if rng.random() < 0.8 else random_json(rng)
    if rng.random() < 0.3:  # the same new list in two places (a move's events in the view and beside it)
        items = [random_json(rng, 3) for _ in range(rng.randint(1, 3))]
        old, new = {"view": {"events": [1]}, "events": old}, {"view": {"events": [1, *items]}, "events": items}
    ops = json.loads(json.dumps(diff(old, new)))  # as the browser receives them
    assert as_browser(apply(json.loads(json.dumps(old)), ops)) == as_browser(new)
    if same(old, new):
        assert ops == []


def test_true_and_one_are_not_the_same_value():
    assert apply({"a": 1}, diff({"a": 1}, {"a": True})) == {"a": True}
    assert diff([1.0], [1]) == []  # one number to a browser
    assert apply([0, False], diff([0, False], [False, 0])) == [False, 0]


def test_a_grown_list_is_an_append_and_a_deleted_key_a_delete():
    assert diff({"log": [1, 2]}, {"log": [1, 2, 3]}) == [["a", ["log"], [3]]]
    assert diff({"a": 1, "b": 2}, {"a": 1}) == [["d", ["b"]]]
    assert diff([1, 2, 3], [4]) == [["s", [], [4]]]


def test_a_window_of_the_last_events_that_slid_on_is_a_take_and_an_append():
    old = {"events": [{"n": i, "text": "x" * 50} for i in range(40)]}
    new = {"events": old["events"][3:] + [{"n": 40 + i, "text": "y"} for i in range(3)]}
    ops = diff(old, new)
    assert ops == [["t", ["events"], 3], ["a", ["events"], new["events"][-3:]]]
    assert apply(json.loads(json.dumps(old)), ops) == new
    assert diff([{"n": 1}, {"n": 2}, {"n": 3}], [{"n": 2}, {"n": 3}]) == [["t", [], 1]]
    # a list of numbers (odds) whose first item changed is compared item by item, not searched
    assert diff([0.5, 0.0, 0.0, 0.5], [0.0, 0.0, 0.5, 0.5]) == [["s", [0], 0.0], ["s", [2], 0.5]]


def test_a_list_sent_by_another_operation_of_the_patch_is_copied_from_there_not_sent_twice():
    move = [{"code": "play", "text": "a long explanation " * 20}]
    old = {"view": {"events": [{"code": "turn"}]}, "events": [{"code": "turn"}]}
    new = {"view": {"events": [{"code": "turn"}, *move]}, "events": move}
    ops = diff(old, new)
    assert ops == [["a", ["view", "events"], move], ["c", ["events"], ["view", "events"], 1]]
    after = apply(json.loads(json.dumps(old)), json.loads(json.dumps(ops)))
    assert after == new
    after["view"]["events"][-1]["text"] = "changed later"  # a copy, not the same list
    assert after["events"] == move


def test_an_item_that_changed_in_nearly_every_field_is_set_whole_and_the_moves_events_copied():
    def event(seat, card, text):
        return {"seat": seat, "card": card, "params": {"player": {"number": seat + 1}, "gate": card}, "text": text}

    old = {"view": {"events": [event(0, "X", "Player 1 applied X."), event(1, "H", "Player 2 to play.")]},
           "events": [event(0, "X", "Player 1 applied X."), event(1, "H", "Player 2 to play.")]}
    new = {"view": {"events": [event(1, "Z", "Player 2 applied Z."), event(2, "Y", "Player 3 to play.")]},
           "events": [event(1, "Z", "Player 2 applied Z."), event(2, "Y", "Player 3 to play.")]}
    ops = diff(old, new)
    assert [op[0] for op in ops] == ["s", "c"] and ops[0][2] == new["events"]  # sent once, whole, then copied
    assert apply(json.loads(json.dumps(old)), ops) == new
    # a field or two of a large item: those fields alone
    big = {"board": {"cells": list(range(40)), "turn": 0, "to_act": [0]}}
    assert diff(big, {"board": {**big["board"], "turn": 1, "to_act": [1]}}) == [
        ["s", ["board", "turn"], 1], ["s", ["board", "to_act", 0], 1]]


def test_a_stream_sends_the_first_state_whole_then_patches_numbered_in_order():
    stream = StateStream(True, lambda d: orjson.dumps(d).decode())
    first = {"type": "state", "seq": 0, "view": {"board": [0] * 50, "turn": 0}, "events": []}
    second = {"type": "state", "seq": 1, "view": {"board": [0] * 49 + [1], "turn": 1}, "events": [{"code": "x"}]}
    a, b = json.loads(stream.text(first)), json.loads(stream.text(second))
    assert a == {**first, "n": 1}
    assert b["type"] == "patch" and b["n"] == 2 and b["seq"] == 1
    assert apply(a, b["ops"]) == {**second, "n": 2}
    stream.restart()  # the page asked for its whole view
    assert json.loads(stream.text(second))["type"] == "state"
    # a client that did not ask for patches gets every state whole, as before
    plain = StateStream(False, lambda d: orjson.dumps(d).decode())
    assert json.loads(plain.text(first)) == first and json.loads(plain.text(second)) == second


def test_two_equal_new_lists_are_sent_once_and_copied_once():
    old, new = {"a": [0], "b": [0]}, {"a": [{"n": 1}, {"n": 2}], "b": [{"n": 1}, {"n": 2}]}
    ops = diff(old, new)
    assert [op[0] for op in ops] == ["s", "c"]
    assert apply(json.loads(json.dumps(old)), ops) == new


@pytest.mark.parametrize("seed", range(200))
def test_copies_never_read_a_list_before_it_is_sent(seed):
    """Equal new lists in several places, one of them at the top level changed item by item (as
    a move's events beside the view's): whichever is sent, every copy reads it once it is there."""
    rng = random.Random(seed)
    items = [random_json(rng, 3) for _ in range(rng.randint(1, 3))]
    places = rng.sample(["a", "b", "c", "d"], rng.randint(2, 4))
    old = {"events": [random_json(rng, 3) for _ in items], "view": {p: [0] for p in places}}
    new = {"events": list(items), "view": {p: list(items) for p in places}}
    if rng.random() < 0.5:
        new["view"][rng.choice(places)] = [*[random_json(rng, 3) for _ in range(2)], *items]
    ops = json.loads(json.dumps(diff(old, new)))
    assert as_browser(apply(json.loads(json.dumps(old)), ops)) == as_browser(new)

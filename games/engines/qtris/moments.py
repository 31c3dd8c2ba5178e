"""QTris's teaching moments (see games/engines/base.py): what one applied action teaches.

* ``gate_sequence``: the cards played on one square since it was last a sure colour act, all
  together, as a single Pauli gate (or as nothing): H → Z → H took white to black, it acts as
  X; H → H left it white, it acts as I (the cards in the order played, with arrows). Checked here: the product of the cards' matrices is that
  gate up to a phase, and it takes the starting colour to the colour reached.
* ``bell_pair``: a CX whose control was a kitten made an entangled pair (correlated or
  anti-correlated colours).
* ``against_odds``: a measurement whose outcome had at most a 30 % chance.

Only public events are read (a QTris board is public; Eve's hidden discards are not events).
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import quantum

from ..base import Event, Moment, moment, public
from .texts import EVENT_TEXTS

AGAINST_ODDS = 0.3  # an outcome with at most this chance is "against the odds"

#: the simple tiles of the explanation (``tile_W`` ...) as kets, for the check of a sequence
TILE_KETS = {
    "tile_W": np.array([1, 0], dtype=complex),
    "tile_B": np.array([0, 1], dtype=complex),
    "tile_R": np.array([1, 1], dtype=complex) / np.sqrt(2),
    "tile_L": np.array([1, -1], dtype=complex) / np.sqrt(2),
    "tile_UP": np.array([1, 1j], dtype=complex) / np.sqrt(2),
    "tile_DOWN": np.array([1, -1j], dtype=complex) / np.sqrt(2),
}
SURE = {"tile_W": "white", "tile_B": "black"}
ONE_QUBIT_CARDS = ("I", "X", "Y", "Z", "H", "S")
PAULIS = (("I", quantum.I), ("X", quantum.X), ("Y", quantum.Y), ("Z", quantum.Z))
PAIRS = {"tile_phi+": "moment_correlated", "tile_phi-": "moment_correlated",
         "tile_psi+": "moment_anticorrelated", "tile_psi-": "moment_anticorrelated"}


def teaching_moments(events: list[Event], history: list[list[Event]]) -> list[Moment]:
    events = public(events)
    moments: list[Moment] = []
    earlier = [e for step in history for e in public(step)]
    for i, e in enumerate(events):
        if e.get("type") == "play":
            before = earlier + events[:i]
            found = _sequence(e, before)
            if found:
                moments.append(found)
            pair = _bell_pair(e)
            if pair:
                moments.append(pair)
        elif e.get("type") == "measure":
            odd = _against_odds(e)
            if odd:
                moments.append(odd)
    return moments


def _single_change(e: Event) -> dict | None:
    """The one square a one-square, undecorated card changed, with simple tiles, or None."""
    explain = e.get("explain") or {}
    if e.get("card") not in ONE_QUBIT_CARDS or explain.get("frame") or len(e.get("squares") or []) != 1:
        return None
    changes = explain.get("changes") or []
    if len(changes) != 1:
        return None
    ch = changes[0]
    codes = ((ch.get("before_message") or {}).get("code"), (ch.get("after_message") or {}).get("code"))
    if not all(c in TILE_KETS for c in codes):
        return None
    return {"square": ch["square"], "before": codes[0], "after": codes[1], "card": e["card"]}


def _touches(e: Event, square: int) -> bool:
    return e.get("type") == "new_set" or square in (e.get("squares") or []) or e.get("square") == square


def _sequence(e: Event, earlier: Iterable[Event]) -> Moment | None:
    last = _single_change(e)
    if last is None or last["after"] not in SURE:
        return None
    square = last["square"]
    chain = [last]
    if last["before"] not in SURE:
        for prev in reversed(list(earlier)):
            if not _touches(prev, square):
                continue
            step = _single_change(prev) if prev.get("type") == "play" else None
            if step is None or step["square"] != square or step["after"] != chain[0]["before"]:
                return None  # a CX, a measurement, a decoration, a new set: no simple story
            chain.insert(0, step)
            if step["before"] in SURE:
                break
        else:
            return None  # the history passed did not reach a sure colour
    cards = [c["card"] for c in chain if c["card"] != "I"]
    if len(cards) < 2 or "H" not in cards:
        return None
    product = np.eye(2, dtype=complex)
    for card in cards:
        product = quantum.GATES[card] @ product
    as_gate = next((name for name, m in PAULIS if _same_up_to_phase(product, m)), None)
    if as_gate is None:
        return None
    start, end = chain[0]["before"], last["after"]
    if not quantum.same_up_to_phase(product @ TILE_KETS[start], TILE_KETS[end]):
        return None  # the board and the cards disagree: say nothing rather than something false
    # the cards in the order they were played, with arrows (as every game writes a sequence)
    code = "moment_sequence_back" if start == end else "moment_sequence"
    return moment(EVENT_TEXTS, code, {
        "square": square, "cards": " → ".join(cards), "gate": as_gate,
        "before": {"code": SURE[start], "params": {}}, "after": {"code": SURE[end], "params": {}},
    }) | {"kind": "gate_sequence", "square": square, "cards": cards, "acts_as": as_gate,
          "from": SURE[start], "to": SURE[end]}


def _same_up_to_phase(a: np.ndarray, b: np.ndarray) -> bool:
    overlap = np.trace(b.conj().T @ a) / 2
    return abs(abs(overlap) - 1) < 1e-9


def _bell_pair(e: Event) -> Moment | None:
    explain = e.get("explain") or {}
    if e.get("card") != "CX" or explain.get("frame"):
        return None
    changes = explain.get("changes") or []
    if len(changes) != 2:
        return None
    before = [(c.get("before_message") or {}).get("code") for c in changes]
    after = [c.get("after_message") or {} for c in changes]
    if any(a.get("code") != "with_square" for a in after) or not all(b in TILE_KETS for b in before):
        return None
    name = (after[0].get("params") or {}).get("name", {}).get("code")
    if name not in PAIRS:
        return None
    control, target = e["squares"]
    tile_of = {c.get("square"): code for c, code in zip(changes, before, strict=True)}
    if set(tile_of) != {control, target}:
        return None
    return moment(EVENT_TEXTS, "moment_bell_pair", {
        "control": control, "target": target, "how": {"code": PAIRS[name], "params": {}},
    }) | {"kind": "bell_pair", "squares": [control, target], "pair": name.removeprefix("tile_"),
          "tiles": [tile_of[control], tile_of[target]]}


def _against_odds(e: Event) -> Moment | None:
    probabilities, result = e.get("probabilities"), e.get("result")
    if not isinstance(probabilities, list) or not isinstance(result, list) or not result:
        return None
    index = 0
    for colour in result:
        index = index * 2 + (colour == "black")
    if index >= len(probabilities):
        return None
    p = float(probabilities[index])
    if not 0 < p <= AGAINST_ODDS:
        return None
    squares = e.get("squares") or []
    where = ({"code": "square", "params": {"square": squares[0]}} if len(squares) == 1 else
             {"code": "squares", "params": {"a": squares[0], "b": squares[1]}})
    return moment(EVENT_TEXTS, "moment_against_odds", {
        "where": where, "colours": [{"code": c, "params": {}} for c in result], "percent": round(100 * p),
    }) | {"kind": "against_odds", "squares": squares, "result": result, "p": p}

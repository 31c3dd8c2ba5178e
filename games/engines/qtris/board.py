"""The QTris board: independent components, each a (possibly mixed) state of tiles.

Board format (``state["board"]``, JSON-able)
-------------------------------------------
A list of components, sorted by first square, covering squares 1..9 exactly once::

    {"squares": [5], "members": [{"tile": "U:W", "weight": "1/2"}, {"tile": "R", "weight": "1/2"}]}
    {"squares": [3, 7], "members": [{"tile": "H:phi+", "weight": "1"}]}
    {"squares": [3, 7], "members": [{"tile": ["W", "W"], "weight": "1/2"},
                                     {"tile": ["B", "B"], "weight": "1/2"}]}

A component is the mixture of its members (tile descriptors from ``tiles``) with exact
weights (``weights`` strings, summing to 1). One member = a pure tile. Two-square components
hold a pair (lower square = qubit 1) or a correlated mixture of two single tiles. Different
components are independent (the board state is their tensor product).
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

import quantum
from games.engines.base import event, gettext_noop, is_int, message, render_refusal

from . import tiles as T
from .texts import EVENT_TEXTS, colour
from .weights import ONE, ZERO, Weight, from_probability, parse

Board = list[dict[str, Any]]
Component = dict[str, Any]


class BoardError(ValueError):
    """An invalid board given in the options: a msgid (``gettext_noop``) and its params, said
    in the reader's language by the platform (``IllegalAction`` / ``games.errors.from_illegal``)."""

    def __init__(self, msgid: str, params: dict | None = None):
        self.msgid, self.params = msgid, params
        super().__init__(render_refusal(msgid, params))


# ---------------------------------------------------------------- construction

def single(square: int, members: list[tuple[Any, Weight]]) -> Component:
    return {"squares": [square], "members": [{"tile": t, "weight": str(w)} for t, w in members]}


def members_of(comp: Component) -> list[tuple[Any, Weight]]:
    return [(m["tile"], parse(m["weight"])) for m in comp["members"]]


def make_component(squares: list[int], members: list[tuple[Any, Weight]]) -> list[Component]:
    """Merge equal members, drop zero weights and split an uncorrelated two-square mixture of
    single tiles into two one-square components."""
    merged: dict[str, tuple[Any, Weight]] = {}
    for tile, w in members:
        if w.is_zero():
            continue
        key = repr(tile)
        merged[key] = (tile, merged[key][1] + w) if key in merged else (tile, w)
    items = list(merged.values())
    if len(squares) == 2 and all(isinstance(t, list) for t, _ in items):
        left: dict[str, Weight] = {}
        right: dict[str, Weight] = {}
        for (a, b), w in items:
            left[a] = left.get(a, Weight(Fraction(0))) + w
            right[b] = right.get(b, Weight(Fraction(0))) + w
        joint = {(a, b): w for (a, b), w in items}
        independent = len(joint) == len(left) * len(right) and all(
            joint.get((a, b)) == left[a] * right[b] for a in left for b in right)
        if independent:
            return [single(squares[0], list(left.items())), single(squares[1], list(right.items()))]
    return [{"squares": list(squares), "members": [{"tile": t, "weight": str(w)} for t, w in items]}]


def sort_board(board: Board) -> Board:
    return sorted(board, key=lambda c: c["squares"][0])


def component_index(board: Board, square: int) -> int:
    for i, comp in enumerate(board):
        if square in comp["squares"]:
            return i
    raise KeyError(square)


# ---------------------------------------------------------------- options & random boards

def parse_board(spec: Any, pairs: Any, tiles: T.TileSet, variant: str) -> Board:
    """Build a board from the ``board`` / ``pairs`` options (see the package docstring)."""
    if not isinstance(spec, list) or len(spec) != 9:
        raise BoardError(gettext_noop("board must be a list of 9 entries, one per square 1–9"))
    pairs = pairs if pairs is not None else []
    if not isinstance(pairs, list):
        raise BoardError(gettext_noop("pairs must be a list"))
    board: Board = []
    covered: dict[int, int] = {}
    for i, p in enumerate(pairs):
        if not isinstance(p, dict):
            raise BoardError(gettext_noop("pair %(pair)s must be an object with squares and state"), {"pair": i + 1})
        sq = p.get("squares")
        if (not isinstance(sq, list) or len(sq) != 2
                or not all(is_int(s) and 1 <= s <= 9 for s in sq)
                or sq[0] == sq[1]):
            raise BoardError(gettext_noop("pair %(pair)s: squares must be two different squares 1–9"), {"pair": i + 1})
        a, b = sorted(sq)
        for s in (a, b):
            if s in covered:
                raise BoardError(gettext_noop("square %(square)s is in two pairs"), {"square": s})
            covered[s] = i
            if spec[s - 1] is not None:
                raise BoardError(gettext_noop("square %(square)s is covered by a pair: its board entry must be null"),
                                 {"square": s})
        st = p.get("state")
        if st not in T.BELL:
            raise BoardError(gettext_noop("pair %(pair)s: state must be one of %(states)s"),
                             {"pair": i + 1, "states": ", ".join(T.BELL)})
        deco = p.get("decoration")
        if deco not in (None, "H", "U", "U1", "U2"):
            raise BoardError(gettext_noop("pair %(pair)s: decoration must be null, 'H' or 'U'"), {"pair": i + 1})
        if deco == "U":
            deco = "U1" if sq[0] == a else "U2"
        desc = f"{deco}:{st}" if deco else st
        if desc not in tiles.pairs:
            raise BoardError(gettext_noop("pair %(pair)s: a %(decoration)s-decorated pair is not a tile of this variant"),
                             {"pair": i + 1, "decoration": deco})
        board.append({"squares": [a, b], "members": [{"tile": desc, "weight": "1"}]})
    for s in range(1, 10):
        entry = spec[s - 1]
        if s in covered:
            continue
        if entry is None:
            raise BoardError(gettext_noop("square %(square)s is empty (null) but no pair covers it"), {"square": s})
        codes = entry if isinstance(entry, list) else [entry]
        if not codes:
            raise BoardError(gettext_noop("square %(square)s: an empty list is not a tile"), {"square": s})
        try:
            parsed = [T.parse_single(c, tiles, variant) for c in codes]
        except T.TileError as exc:
            raise BoardError(gettext_noop("square %(square)s: %(problem)s"),
                             {"square": s, "problem": (exc.msgid, exc.params)}) from None
        if not starts_with_s_tiles(variant) and any(
                T.base_code(c) in T.SINGLE_S for c in parsed):
            raise BoardError(gettext_noop("square %(square)s: the kittens up and down are not among this variant's "
                                          "starting tiles (they need the S expansion)"), {"square": s})
        w = Weight(Fraction(1, len(parsed)))
        board.extend(make_component([s], [(c, w) for c in parsed]))
    return sort_board(board)


def starts_with_s_tiles(variant: str) -> bool:
    """Whether a starting board may hold UP/DOWN tiles: only with the S expansion."""
    return variant == "s-expansion"


def random_board(rng: random.Random, variant: str) -> Board:
    """Preparation: every square gets a tile drawn at random from the variant's starting set.
    Advanced variants may also place up to two pairs (possibly decorated) and U decorations.
    Eve's board uses the advanced set: UP/DOWN only with the S expansion (in Eve they arise
    from her up/down measurement, and are legal from then on)."""
    tiles = T.tile_set(variant)
    codes = list(T.SINGLE_BASE) + (list(T.SINGLE_S) if starts_with_s_tiles(variant) else [])
    board: Board = []
    free = list(range(1, 10))
    if variant != "basic":
        for _ in range(rng.choice([0, 1, 1, 2])):
            a, b = sorted(rng.sample(free, 2))
            free.remove(a)
            free.remove(b)
            deco = rng.choice([None, None, "H", "U1", "U2"])
            bell = rng.choice(T.BELL)
            desc = f"{deco}:{bell}" if deco else bell
            assert desc in tiles
            board.append({"squares": [a, b], "members": [{"tile": desc, "weight": "1"}]})
    for s in free:
        code = rng.choice(codes)
        if variant != "basic" and rng.random() < 0.25:
            code = f"U:{code}"
        board.append(single(s, [(code, ONE)]))
    return sort_board(board)


# ---------------------------------------------------------------- probabilities

def component_distribution(comp: Component) -> np.ndarray:
    """Outcome probabilities of a component in the colour basis (index: lower square = high bit),
    read-only. Computed once per process for each mixture of tiles and weights: a board's
    analysis asks for every component's several times, and most of a board is the same from one
    move to the next (and from one game to another)."""
    return _distribution(tuple((T.frozen(m["tile"]), m["weight"]) for m in comp["members"]))


@lru_cache(maxsize=50_000)
def _distribution(members: tuple[tuple[str | tuple[str, ...], str], ...]) -> np.ndarray:
    dist = np.asarray(quantum.mixture_probabilities(
        [(float(parse(weight)), T.state(T.thawed(tile))) for tile, weight in members]))
    dist.setflags(write=False)
    return dist


def joint_distribution(board: Board) -> np.ndarray:
    """The exact probability of each of the 512 final boards.

    Index ``o`` of the result: bit ``k-1`` of ``o`` is 1 when square ``k`` is black
    (the qiskit convention: classical bit k-1 = square k).
    """
    letters = "abcdefghi"
    operands, subs = [], []
    for comp in board:
        dist = component_distribution(comp).real
        operands.append(dist.reshape((2,) * len(comp["squares"])))
        subs.append("".join(letters[s - 1] for s in comp["squares"]))
    out = letters[::-1]  # axis order b9 ... b1 -> flat index = sum b_k 2^(k-1)
    arr = np.einsum(",".join(subs) + "->" + out, *operands)
    return arr.reshape(512)


def p_white(board: Board) -> list[float]:
    out = [0.0] * 9
    for comp in board:
        dist = component_distribution(comp).real
        if len(comp["squares"]) == 1:
            out[comp["squares"][0] - 1] = float(dist[0])
        else:
            a, b = comp["squares"]
            out[a - 1] = float(dist[0] + dist[1])
            out[b - 1] = float(dist[0] + dist[2])
    return out


# ---------------------------------------------------------------- measurement

LABELS = {"color": ("W", "B"), "left-right": ("R", "L"), "up-down": ("UP", "DOWN")}


def measure_component(comp: Component, squares: list[int], basis: str, tiles: T.TileSet
                      ) -> list[tuple[tuple[int, ...], Weight, list[tuple[Any, Weight]]]]:
    """Measure ``squares`` of ``comp`` in ``basis``.

    Returns, per outcome, ``(bits, exact probability, post-measurement members with exact
    weights conditional on the outcome)``. Each member is collapsed on its own; the measured
    qubits become the basis tiles, an unmeasured partner becomes the tile of its residual state.
    """
    n = len(comp["squares"])
    qubits = [comp["squares"].index(s) for s in squares]
    outcomes: dict[tuple[int, ...], list[tuple[Any, Weight]]] = {}
    totals: dict[tuple[int, ...], Weight] = {}
    for tile, w in members_of(comp):
        for bits, p, post in quantum.measure(T.state(tile), qubits, n, basis):
            pw = from_probability(p)
            new: str | list[str | list[str] | None]
            if n == 1:
                new = LABELS[basis][bits[0]]
            else:
                labels: list[str | list[str] | None] = [None, None]
                for q, b in zip(qubits, bits, strict=True):
                    labels[q] = LABELS[basis][b]
                if len(qubits) == 1:
                    other = 1 - qubits[0]
                    factors = quantum.split_product(post)
                    assert factors is not None
                    resid = factors[other] / np.linalg.norm(factors[other])
                    exp = frozenset({"U@0"}) if T.is_u_decorated(tile, other) else frozenset()
                    rt = T.recognise(resid, tiles, exp)
                    if rt is None:
                        raise ValueError("the unmeasured square would not hold a tile")
                    labels[other] = rt
                new = labels
            if new not in tiles:
                raise ValueError("the measurement would leave a state that is not a tile")
            outcomes.setdefault(bits, []).append((new, w * pw))
            totals[bits] = totals.get(bits, Weight(Fraction(0))) + w * pw
    result = []
    for bits in sorted(outcomes):
        total = totals[bits]
        result.append((bits, total, [(t, x / total) for t, x in outcomes[bits]]))
    return result


def noise_squares(board: Board, square: int) -> list[int]:
    """The squares a noise roll on ``square`` measures: the square itself, or the whole pair
    when it holds a pair (a pair is measured as a whole: ``phi±`` -> {WW, BB})."""
    comp = board[component_index(board, square)]
    if any(isinstance(t, str) and T.n_qubits(t) == 2 for t, _ in members_of(comp)):
        return list(comp["squares"])
    return [square]


def measure_unseen(board: Board, square: int, tiles: T.TileSet) -> Board:
    """Noise: measure ``square`` (its whole pair, see ``noise_squares``) in the colour basis
    without looking: the component becomes the mixture of the outcomes with Born weights."""
    i = component_index(board, square)
    comp = board[i]
    members: list[tuple[Any, Weight]] = []
    squares = noise_squares(board, square)
    for _bits, p, post in measure_component(comp, squares, "color", tiles):
        members += [(t, p * w) for t, w in post]
    return sort_board(board[:i] + board[i + 1:] + make_component(comp["squares"], members))


def measure_seen(board: Board, squares: list[int], basis: str, tiles: T.TileSet, u: float
                 ) -> tuple[Board, tuple[int, ...], float]:
    """Eve: measure ``squares`` (one square, or both squares of one component) in ``basis``
    with the uniform draw ``u``; returns the collapsed board, the outcome bits and its probability."""
    i = component_index(board, squares[0])
    comp = board[i]
    results = measure_component(comp, squares, basis, tiles)
    bits, p, post = results[quantum.sample([float(r[1]) for r in results], u)]
    new = sort_board(board[:i] + board[i + 1:] + make_component(comp["squares"], post))
    return new, bits, float(p)


def seen_roll(board: Board, squares: list[int], basis: str, tiles: T.TileSet, bits: tuple,
              u: float) -> int | None:
    """The d100 shown for Eve's measurement of ``squares`` on ``board`` (before it) that gave
    ``bits``: a roll the book's table maps to that outcome (``u`` uniform), None if the
    outcome was certain."""
    comp = board[component_index(board, squares[0])]
    results = measure_component(comp, squares, basis, tiles)
    if len(results) == 1:
        return None  # certain
    # every outcome of the basis, in order (those that cannot happen with weight 0)
    exact = dict((r[0], r[1]) for r in results)
    outcomes = [tuple((k >> (len(squares) - 1 - j)) & 1 for j in range(len(squares)))
                for k in range(2 ** len(squares))]
    span = d100_table([exact.get(o, ZERO) for o in outcomes])[outcomes.index(tuple(bits))]
    if span is None:
        return None
    return span[0] + int(u * (span[1] - span[0] + 1))


def _exact(p: Weight | Fraction | float) -> Weight:
    if isinstance(p, Weight):
        return p
    return Weight(Fraction(p))


def _sign(x: Weight) -> int:
    """The sign of ``a + b·√3``, exactly."""
    a, b = x.a, x.b
    if (a >= 0 and b >= 0) or (a <= 0 and b <= 0):
        return (a > 0 or b > 0) - (a < 0 or b < 0)
    # opposite signs: compare a² with 3b²
    bigger_a = a * a > 3 * b * b
    return (1 if a > 0 else -1) if bigger_a else (1 if b > 0 else -1)


def _round_percent(x: Weight) -> int:
    """``100·x`` rounded to a whole number exactly, halves to even (the book's tables: 12.5 →
    12, 37.5 → 38, 62.5 → 62, 87.5 → 88). A number with a √3 part is never a half."""
    hundred = x * Weight(Fraction(100))
    if hundred.b == 0:
        return round(hundred.a)  # Fraction rounds halves to even
    n = math.floor(float(hundred) + 0.5)
    while _sign(hundred + Weight(Fraction(1, 2)) - Weight(Fraction(n))) < 0:
        n -= 1
    while _sign(hundred + Weight(Fraction(1, 2)) - Weight(Fraction(n + 1))) >= 0:
        n += 1
    return n


def d100_table(dist: Sequence[Weight | Fraction | float]) -> list[tuple[int, int] | None]:
    """The book's d100 table for outcome probabilities ``dist`` (in the order WW, WB, BW, BB
    for a pair; W, B for a square): outcome ``k`` is rolled on ``lo..hi``, the cumulative
    probabilities rounded to whole percent, halves to even (the book's 1–12 / 13–50 / 51–88 /
    89–100 for ⅛, ⅜, ⅜, ⅛; 1–38 / 39–50 / 51–62 / 63–100 for ⅜, ⅛, ⅛, ⅜; 1–93 / 94–100 for
    U·R). Computed exactly: give the exact ``Weight`` probabilities (a float such as 0.375 is
    taken as the binary fraction it is, so 0.37499999999999994 would give 37). An outcome
    whose range rounds away gets None."""
    table: list[tuple[int, int] | None] = []
    acc = ZERO
    prev = 0
    for p in dist:
        acc = acc + _exact(p)
        edge = min(100, _round_percent(acc))
        table.append((prev + 1, edge) if edge > prev else None)
        prev = max(prev, edge)
    return table


def exact_distribution(comp: Component) -> list[Weight]:
    """The exact colour-basis outcome probabilities of a component (index: lower square =
    high bit), each member's Born probabilities times its weight."""
    n = len(comp["squares"])
    out = [ZERO] * (2 ** n)
    for tile, w in members_of(comp):
        for k, p in enumerate(np.abs(T.state(tile)) ** 2):
            if p > 1e-12:
                out[k] = out[k] + w * from_probability(float(p))
    return out


def final_measurement(board: Board, rng: random.Random) -> tuple[list[int], list[dict]]:
    """Measure every square in the colour basis, squares 1..9 in order, a two-square component
    jointly at its first square. Returns the 9 bits (0 white, 1 black) and one event per
    component.

    The outcome is drawn with the exact Born probabilities; the d100 shown is then a roll that
    the book's table (``d100_table``) maps to that outcome, drawn uniformly in its range. A
    component whose colours are certain shows no roll (``d100`` None)."""
    bits = [0] * 9
    events = []
    for comp in sort_board(board):
        dist = [float(p) for p in component_distribution(comp).real]
        pick = quantum.sample(dist, rng.random())
        certain = max(dist) > 1 - 1e-9
        rng_roll = rng.random()
        d100 = None
        if not certain:
            span = d100_table(exact_distribution(comp))[pick]
            if span is not None:
                lo, hi = span
                d100 = lo + int(rng_roll * (hi - lo + 1))
        sq = comp["squares"]
        if len(sq) == 1:
            bits[sq[0] - 1] = pick
            colours = ["white" if pick == 0 else "black"]
        else:
            bits[sq[0] - 1], bits[sq[1] - 1] = pick >> 1, pick & 1
            colours = ["white" if b == 0 else "black" for b in (pick >> 1, pick & 1)]
        where = (message("square", square=sq[0]) if len(sq) == 1
                 else message("squares", a=sq[0], b=sq[1]))
        code = "measure_roll" if d100 else "measure_certain" if certain else "measure_off_table"
        events.append(event(EVENT_TEXTS, "measure", code,
                            {"where": where, "d100": d100, "colours": [colour(c) for c in colours]},
                            squares=list(sq), d100=d100, result=colours, probabilities=dist))
    return bits, events


def display_squares(board: Board) -> list[dict[str, Any]]:
    """Per square (1..9) display data: members with tile code, decoration, weights
    (exact string and float), pair links (partner square, correlated, sign)."""
    out: list[dict[str, Any]] = [{} for _ in range(9)]
    for ci, comp in enumerate(board):
        dist = component_distribution(comp).real
        sq = comp["squares"]
        for q, s in enumerate(sq):
            partner = sq[1 - q] if len(sq) == 2 else None
            if len(sq) == 1:
                pw = float(dist[0])
            else:
                pw = float(dist[0] + dist[1]) if q == 0 else float(dist[0] + dist[2])
            members = []
            for tile, w in members_of(comp):
                m: dict[str, Any] = {"weight": str(w), "p": float(w)}
                if isinstance(tile, list):
                    code = tile[q]
                    m.update({"kind": "tile", "code": T.base_code(code),
                              "decoration": "U" if code.startswith("U:") else None,
                              "partner_code": tile[1 - q]})
                elif len(sq) == 1:
                    m.update({"kind": "tile", "code": T.base_code(tile),
                              "decoration": "U" if tile.startswith("U:") else None})
                else:
                    bell = T.base_code(tile)
                    deco = T.pair_decoration(tile)
                    on_me = (deco == "H" and q == 0) or deco == f"U{q + 1}"
                    m.update({"kind": "pair", "code": bell,
                              "correlated": bell.startswith("phi"),
                              "sign": bell[-1], "qubit": q + 1,
                              "decoration": ("H" if deco == "H" else "U") if deco else None,
                              "decorated_here": on_me})
                members.append(m)
            out[s - 1] = {"square": s, "component": ci, "partner": partner,
                          "members": members, "p_white": pw}
    return out

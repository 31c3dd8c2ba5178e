"""Scoring of measured boards, and the exact score distribution.

Outcome convention (shared with the statistics pipeline): a final board is an integer
``o`` in 0..511 whose bit ``k-1`` is 1 when square ``k`` came up black. This is exactly
qiskit's classical bit ``k-1`` (``circuit()`` measures qubit k-1 into clbit k-1). Qiskit prints
counts keys with bit 0 *rightmost*, so ``outcome_of_bitstring("...")`` reverses for you.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

#: the 8 lines of the grid (squares 1..9)
LINES: tuple[tuple[int, int, int], ...] = (
    (1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))


def bits_of(outcome: int) -> list[int]:
    """The 9 colours (0 white, 1 black) of squares 1..9 of outcome ``o``."""
    return [(outcome >> (k - 1)) & 1 for k in range(1, 10)]


def outcome_of_bitstring(key: str) -> int:
    """A qiskit counts key -> outcome. Spaces separate registers; the 9 final-measurement bits
    are the rightmost register (extra mid-circuit registers, if any, are to their left)."""
    compact = key.replace(" ", "")
    return int(compact[-9:], 2)


def score_of_outcome(bits: Iterable[int] | int) -> dict[str, int]:
    """Qtris per colour of a measured board: ``{"white": lines all white, "black": lines all black}``.
    Accepts 9 bits (square 1 first) or an outcome integer."""
    b = bits_of(bits) if isinstance(bits, (int, np.integer)) else list(bits)
    if len(b) != 9:
        raise ValueError("a board has 9 squares")
    white = sum(1 for line in LINES if all(b[s - 1] == 0 for s in line))
    black = sum(1 for line in LINES if all(b[s - 1] == 1 for s in line))
    return {"white": white, "black": black}


_WHITE = np.array([score_of_outcome(o)["white"] for o in range(512)])
_BLACK = np.array([score_of_outcome(o)["black"] for o in range(512)])


def line_tables() -> tuple[np.ndarray, np.ndarray]:
    """Arrays (512,) of white and black qtris per outcome."""
    return _WHITE, _BLACK


def eve_points(qtris: int) -> tuple[int, int]:
    """Eve variant, one set: (Alice-and-Bob points, Eve points) for their ``qtris`` in their colour.
    Alice and Bob get qtris − 1 (never below 0); Eve gets 1 when they made fewer than 2."""
    return max(0, qtris - 1), (1 if qtris < 2 else 0)

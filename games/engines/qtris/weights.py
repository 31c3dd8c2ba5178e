"""Exact mixture weights: numbers ``a + b*sqrt(3)`` with rational ``a, b``.

Born probabilities of QTris tiles are all of this form (e.g. U·R gives white with
(2+√3)/4), and the field Q(√3) is closed under + − × ÷, so mixture weights stay exact
through noise measurements and Eve's Bayesian collapse.

String form (stored in the state): ``"3/4"``, ``"(2+√3)/4"``, ``"(1-√3)/2"``, ``"√3/2"``.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

import quantum


@dataclass(frozen=True)
class Weight:
    """The exact number ``a + b·√3``."""

    a: Fraction
    b: Fraction = Fraction(0)

    def __add__(self, other: Weight) -> Weight:
        return Weight(self.a + other.a, self.b + other.b)

    def __sub__(self, other: Weight) -> Weight:
        return Weight(self.a - other.a, self.b - other.b)

    def __mul__(self, other: Weight) -> Weight:
        return Weight(self.a * other.a + 3 * self.b * other.b, self.a * other.b + self.b * other.a)

    def __truediv__(self, other: Weight) -> Weight:
        norm = other.a * other.a - 3 * other.b * other.b
        if norm == 0:
            raise ZeroDivisionError("division by zero weight")
        inv = Weight(other.a / norm, -other.b / norm)
        return self * inv

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * quantum.SQRT3

    def is_zero(self) -> bool:
        return self.a == 0 and self.b == 0

    def __str__(self) -> str:
        if self.b == 0:
            return str(self.a)
        den = math.lcm(self.a.denominator, self.b.denominator)
        n1, n2 = int(self.a * den), int(self.b * den)
        root = "√3" if abs(n2) == 1 else f"{abs(n2)}√3"
        if n1 == 0:
            num = ("-" if n2 < 0 else "") + root
            return num if den == 1 else f"{num}/{den}"
        num = f"{n1}{'-' if n2 < 0 else '+'}{root}"
        return f"({num})" if den == 1 else f"({num})/{den}"


ZERO = Weight(Fraction(0))
ONE = Weight(Fraction(1))

def parse(text: str) -> Weight:
    """Inverse of ``str(Weight)``; also accepts plain fractions like ``"1/3"``."""
    if "√3" not in text:
        return Weight(Fraction(text))
    den = 1
    body = text
    if "/" in text:
        body, d = text.rsplit("/", 1)
        den = int(d)
    body = body.strip("()")
    m = re.fullmatch(r"(?:(-?\d+)(?=[+-]))?([+-]?)(\d*)√3", body)
    if not m:
        raise ValueError(f"not a weight: {text!r}")
    a_txt, sign, coef = m.groups()
    a = Fraction(int(a_txt) if a_txt else 0, den)
    b = Fraction(int(coef) if coef else 1, den)
    if sign == "-":
        b = -b
    return Weight(a, b)


def from_probability(p: float) -> Weight:
    """Recover the exact value of a Born probability of a tile (small denominators)."""
    for den in (1, 2, 4, 8, 16, 32, 64):
        for k in range(0, 2 * den + 1):
            for bn in ((k, -k) if k else (0,)):
                a = (p - bn / den * quantum.SQRT3) * den
                if abs(a - round(a)) < 1e-9:
                    return Weight(Fraction(round(a), den), Fraction(bn, den))
    raise ValueError(f"probability {p!r} is not a tile probability")

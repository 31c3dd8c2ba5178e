"""Quantum states and gate matrices as text for people.

* ``number(x)`` / ``entry(z)``: a real / complex number named exactly where it is one of
  0, ±1, ±1/2, ±1/√2, ±√3/2 (the numbers of the games' gates and tiles), else 3 digits;
  an imaginary part is written ``i``, ``i/√2``, ``i√3/2``; ``matrix(m)``: a gate matrix with
  such entries (``[["1/√2", "1/√2"], ["1/√2", "−1/√2"]]``).
* ``text(psi)``: an exact ket of a statevector, e.g. ``|0⟩``, ``(|0⟩−i|1⟩)/√2``,
  ``(|00⟩+|11⟩)/√2``, ``1/2|0⟩+√3/2|1⟩`` (global phase fixed: first amplitude real positive).
* ``numeric(psi)``: a decimal ket, e.g. ``0.5|0⟩ + 0.866|1⟩`` or ``0.707|00⟩ − 0.707|11⟩``.
* ``qubit(a, b)``: one qubit with its global phase kept and the named states ``|+⟩ |−⟩ |+i⟩
  |−i⟩``, e.g. ``−i|1⟩``, ``|−⟩``, ``0.6|0⟩ + 0.8|1⟩``.

A coefficient of size 1 is written as its sign (``i|10⟩``, ``−|00⟩``, never ``1i|10⟩`` or
``−1|00⟩``); minus signs are ``−`` (U+2212) everywhere.

Basis labels follow the package convention: qubit 0 is the leftmost digit.
"""
from __future__ import annotations

import numpy as np

from .gates import SQRT2, SQRT3

_ZERO = 1e-9
#: the real numbers given exact names, largest first when they factor out of a ket
_NAMED = [(0.0, "0"), (1.0, "1"), (0.5, "1/2"), (1 / SQRT2, "1/√2"), (SQRT3 / 2, "√3/2")]
#: common magnitudes a ket's amplitudes may share: written as a divisor after the bracket
_DIVISORS = [(1.0, ""), (1 / SQRT2, "/√2"), (0.5, "/2")]


def number(x: float) -> str:
    """``x`` named exactly (``1/√2``, ``−√3/2``...) or with 3 significant digits."""
    for v, name in _NAMED:
        if abs(abs(x) - v) < _ZERO:
            return name if x >= 0 or name == "0" else "−" + name
    return f"{x:.3g}".replace("-", "−")


def _times_i(name: str) -> str:
    """``name`` (a non-negative named number) times i: ``i``, ``i/√2``, ``i√3/2``, ``0.3i``
    (never ``1/√2i``, which reads as 1/(√2·i))."""
    if name == "1":
        return "i"
    if name.startswith("1/"):
        return "i" + name[1:]
    if name.startswith("√"):
        return "i" + name
    return name + "i"


def entry(z: complex) -> str:
    """A complex number with exactly named parts: ``i``, ``−i``, ``i/√2``, ``1/2+i√3/2``."""
    re_, im = float(z.real), float(z.imag)
    if abs(im) < _ZERO:
        return number(re_)
    imag = _times_i(number(abs(im)))
    if abs(re_) < _ZERO:
        return imag if im >= 0 else "−" + imag
    return f"{number(re_)}{'+' if im >= 0 else '−'}{imag}"


def matrix(m: np.ndarray) -> list[list[str]]:
    """A gate matrix with exact-looking entries (``1/√2``, ``−i``, ``√3/2``)."""
    return [[entry(z) for z in row] for row in m]


def _labels(psi: np.ndarray) -> list[str]:
    n = int(np.log2(psi.shape[0]))
    return [format(i, f"0{n}b") for i in range(psi.shape[0])]


def _phase_fixed(psi: np.ndarray) -> np.ndarray:
    nz = next(i for i, a in enumerate(psi) if abs(a) > _ZERO)
    return psi * abs(psi[nz]) / psi[nz]


def text(psi: np.ndarray) -> str:
    """An exact ket of ``psi`` (see module docstring): amplitudes of one common named size
    are factored out (``(|0⟩+i|1⟩)/√2``), others are named term by term."""
    psi = _phase_fixed(np.asarray(psi, dtype=complex))
    terms = [(label, amp) for label, amp in zip(_labels(psi), psi, strict=True) if abs(amp) > _ZERO]
    if len({round(abs(amp), 9) for _, amp in terms}) == 1:
        common = abs(terms[0][1])
        for size, divisor in _DIVISORS:
            if abs(common - size) < _ZERO:
                body = ""
                for k, (label, amp) in enumerate(terms):
                    unit = entry(amp / size)  # 1, −1, i or −i
                    sign, rest = ("−", unit[1:]) if unit.startswith("−") else ("+", unit)
                    body += ("" if k == 0 and sign == "+" else sign) \
                        + f"{'' if rest == '1' else rest}|{label}⟩"
                if not divisor:
                    return body
                return f"({body}){divisor}" if len(terms) > 1 else f"{body}{divisor}"
    out = ""
    for k, (label, amp) in enumerate(terms):
        coef = entry(amp)
        if "+" in coef[1:] or "−" in coef[1:]:
            coef = f"({coef})"
        sign, coef = ("−", coef[1:]) if coef.startswith("−") else ("+", coef)
        out += ("" if k == 0 and sign == "+" else sign) + f"{coef}|{label}⟩"
    return out


def numeric(psi: np.ndarray) -> str:
    """A decimal ket, e.g. ``0.5|0⟩ + 0.866|1⟩`` (global phase fixed: first amplitude real
    positive; 3 decimals)."""
    psi = _phase_fixed(np.asarray(psi, dtype=complex))
    return _join([(_decimal(amp), f"|{label}⟩")
                  for label, amp in zip(_labels(psi), psi, strict=True) if abs(amp) >= _ZERO])


def _decimal(c: complex) -> str:
    """A coefficient in decimals (3 places): ``0.707``, ``−0.5i``, ``(0.5+0.5i)``; a coefficient
    of size 1 is written as a sign: ``""`` (1), ``−``, ``i``, ``−i`` (never ``1i`` or ``−1``)."""
    re_, im = round(c.real, 3) + 0.0, round(c.imag, 3) + 0.0
    if abs(im) < _ZERO:
        out = f"{re_:g}"
    elif abs(re_) < _ZERO:
        out = f"{im:g}i"
    else:
        out = f"({re_:g}{im:+g}i)"
    out = out.replace("-", "−")
    return {"1": "", "−1": "−", "1i": "i", "−1i": "−i"}.get(out, out)


def _join(terms: list[tuple[str, str]]) -> str:
    """``coefficient ket`` terms joined by `` + `` / `` − `` (a leading minus sign moves out)."""
    out = ""
    for k, (coef, ket) in enumerate(terms):
        negative = coef.startswith("−")
        body = (coef[1:] if negative and k else coef) + ket
        out += body if k == 0 else (" − " if negative else " + ") + body
    return out


_NAMED_QUBITS = {1: "|+⟩", -1: "|−⟩", 1j: "|+i⟩", -1j: "|−i⟩"}


def qubit(a: complex, b: complex) -> str:
    """One qubit ``a|0⟩ + b|1⟩`` with its global phase kept: ``|0⟩``, ``−i|1⟩``, ``−|1⟩``,
    ``|+⟩``, ``i|−⟩``, ``0.6|0⟩ − 0.8|1⟩`` (a basis state within P = 1e-9)."""
    p1 = abs(b) ** 2 / (abs(a) ** 2 + abs(b) ** 2)
    p1 = 0.0 if p1 < _ZERO else 1.0 if p1 > 1 - _ZERO else p1
    if p1 == 0.0:
        return f"{_decimal(a / abs(a))}|0⟩"
    if p1 == 1.0:
        return f"{_decimal(b / abs(b))}|1⟩"
    if abs(abs(a) - abs(b)) < 1e-6:
        ratio = b / a
        for r, name in _NAMED_QUBITS.items():
            if abs(ratio - r) < 1e-6:
                return f"{_decimal(a / abs(a))}{name}"
    return _join([(_decimal(a), "|0⟩"), (_decimal(b), "|1⟩")])

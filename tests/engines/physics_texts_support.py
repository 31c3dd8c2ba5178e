"""Helpers of tests/engines/test_texts_match_physics.py, written without ``quantum/`` or any
engine module: the gates and states of the games as plain numpy, a reader of the kets the
games write, and a checker of every equation a text states (``G|a⟩ = c|b⟩``, ``H·Z·H = X``)."""
from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

R2 = np.sqrt(2.0)
R3 = np.sqrt(3.0)

GATES = {
    "I": np.eye(2, dtype=complex),
    "X": np.array([[0, 1], [1, 0]], dtype=complex),
    "Y": np.array([[0, -1j], [1j, 0]], dtype=complex),
    "Z": np.array([[1, 0], [0, -1]], dtype=complex),
    "H": np.array([[1, 1], [1, -1]], dtype=complex) / R2,
    "S": np.array([[1, 0], [0, 1j]], dtype=complex),
}
GATES["U"] = (GATES["Z"] + R3 * GATES["X"]) / 2
#: CNOT, the first (leftmost) qubit the control
CNOT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], dtype=complex)

#: one-qubit states by the names the texts use
KET = {
    "0": np.array([1, 0], dtype=complex), "1": np.array([0, 1], dtype=complex),
    "+": np.array([1, 1], dtype=complex) / R2, "−": np.array([1, -1], dtype=complex) / R2,
    "+i": np.array([1, 1j], dtype=complex) / R2, "−i": np.array([1, -1j], dtype=complex) / R2,
}
BELL = {
    "phi+": np.array([1, 0, 0, 1], dtype=complex) / R2, "phi-": np.array([1, 0, 0, -1], dtype=complex) / R2,
    "psi+": np.array([0, 1, 1, 0], dtype=complex) / R2, "psi-": np.array([0, 1, -1, 0], dtype=complex) / R2,
}


def on(gate: np.ndarray, qubit: int, n: int) -> np.ndarray:
    """A one-qubit gate on ``qubit`` of ``n`` (qubit 0 leftmost)."""
    out = np.array([[1.0 + 0j]])
    for q in range(n):
        out = np.kron(out, gate if q == qubit else np.eye(2))
    return out


def cnot(control: int, target: int, n: int) -> np.ndarray:
    """CNOT on ``n`` qubits (qubit 0 leftmost)."""
    dim = 2 ** n
    out = np.zeros((dim, dim), dtype=complex)
    for i in range(dim):
        bits = [(i >> (n - 1 - q)) & 1 for q in range(n)]
        if bits[control]:
            bits[target] ^= 1
        out[int("".join(map(str, bits)), 2), i] = 1
    return out


def same_up_to_phase(a: np.ndarray, b: np.ndarray, tol: float = 1e-9) -> bool:
    a, b = np.asarray(a, dtype=complex), np.asarray(b, dtype=complex)
    return abs(abs(np.vdot(a, b)) - np.linalg.norm(a) * np.linalg.norm(b)) < tol


def density(psi: np.ndarray) -> np.ndarray:
    return np.outer(psi, np.conj(psi))


def product(names: Iterable[str]) -> np.ndarray:
    """The operator product of gates as written: ``["H", "Z", "H"]`` is H·Z·H."""
    out = np.eye(2, dtype=complex)
    for g in names:
        out = out @ GATES[g]
    return out


# --------------------------------------------------------------------------- reading kets

_NUMBER = {"": 1.0, "1/√2": 1 / R2, "√3/2": R3 / 2, "1/2": 0.5}


def _magnitude(text: str) -> complex:
    """``1/√2``, ``√3/2``, ``0.707``, ``i``, ``i/√2``, ``i√3/2``, ``0.5i``, ``(0.5+0.5i)``."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1].replace("−", "-")
        m = re.fullmatch(r"(-?[\d.]+)([+-])([\d.]*)i", inner)
        assert m, text
        im = float(m[3] or 1) * (1 if m[2] == "+" else -1)
        return complex(float(m[1]), im)
    unit = 1.0
    if text.startswith("i"):
        unit, text = 1j, text[1:]
        text = "1" + text if text.startswith("/") else text
    elif text.endswith("i"):
        unit, text = 1j, text[:-1]
    if text in ("", "1"):
        return unit
    if text in _NUMBER:
        return unit * _NUMBER[text]
    return unit * float(text)


_TERM = re.compile(r"\s*([+−]?)\s*(\([^()]*\)|[0-9.√/i]*)\|([^⟩]+)⟩")


def read_ket(text: str) -> np.ndarray:
    """The statevector of a ket as the games write it: ``|0⟩``, ``−i|1⟩``, ``i|−⟩``,
    ``(|00⟩+i|10⟩)/√2``, ``1/2|0⟩+√3/2|1⟩``, ``0.707|00⟩ − 0.707i|11⟩``, ``i/√2|00⟩ − i/√2|10⟩``.
    Labels: 0, 1, +, −, +i, −i, or two-qubit 00…11 (first digit leftmost)."""
    text = text.strip()
    factor = 1.0
    m = re.fullmatch(r"\((.*)\)/(√2|2)", text) or re.fullmatch(r"(.*⟩)/(√2|2)", text)
    if m:
        text, factor = m[1], 1 / R2 if m[2] == "√2" else 0.5
    terms = []
    pos = 0
    while pos < len(text):
        t = _TERM.match(text, pos)
        assert t and t.end() > pos, f"cannot read the ket {text!r} at {pos}"
        sign = -1 if t[1] == "−" else 1
        coef = sign * _magnitude(t[2])
        terms.append((coef * factor, t[3]))
        pos = t.end()
    size = 2 if terms[0][1] in KET else 2 ** len(terms[0][1])
    psi = np.zeros(size, dtype=complex)
    for coef, label in terms:
        if label in KET and size == 2:
            psi = psi + coef * KET[label]
        else:
            assert re.fullmatch(r"[01]+", label), label
            psi[int(label, 2)] += coef
    return psi


# --------------------------------------------------------------------------- equations

_STATE = r"(0|1|\+i|−i|\+|−)"
#: ``X|+⟩ = |+⟩``, ``Y|1⟩ = −i|0⟩``, ``X|−⟩ = −|−⟩``, ``H·Z|0⟩ = ...``
STATE_EQUATION = re.compile(r"(?<![\w|·])([XYZHSU](?:·[XYZHSUI])*)\|" + _STATE + r"⟩ = (−?i?)\|" + _STATE + "⟩")
#: ``H·Z·H = X``, ``H·Y·H = −Y``, ``H·H = I``, ``U·U = I``
GATE_EQUATION = re.compile(r"(?<![\w|·])([XYZHSUI](?:·[XYZHSUI])+) = (−?)([XYZHSUI])(?![\w|⟩·])")
_COEF = {"": 1, "−": -1, "i": 1j, "−i": -1j}


def equations(text: str) -> list[tuple[str, bool]]:
    """Every equation ``text`` states, each with whether it is true (exactly, phases included)."""
    out = []
    for m in STATE_EQUATION.finditer(text):
        lhs = product(m[1].split("·")) @ KET[m[2]]
        rhs = _COEF[m[3]] * KET[m[4]]
        out.append((m[0], bool(np.allclose(lhs, rhs))))
    for m in GATE_EQUATION.finditer(text):
        lhs = product(m[1].split("·"))
        rhs = (-1 if m[2] else 1) * GATES[m[3]]
        out.append((m[0], bool(np.allclose(lhs, rhs))))
    return out


def false_equations(text: str) -> list[str]:
    return [eq for eq, ok in equations(text) if not ok]

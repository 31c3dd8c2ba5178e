"""The mission register: two qubits carried along a path (rules: "Cards and missions").

q0 is the mission qubit, q1 starts in |0⟩. I, X, Y, Z and H act on q0; CNOT has q0 as control
and q1 as target. A route of length N applies its gate N times. A one-qubit mission compares the
reduced state of q0 with its target, a two-qubit mission the whole register; a match is fidelity
1 within 1e-9 (global phase ignored). Pure numpy through ``quantum``.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import quantum
from quantum import CX, KET0, KET1, SQRT2, TOL

GATE_NAMES = ("I", "X", "Y", "Z", "H", "CNOT")
_ONE_QUBIT = {"I": quantum.I, "X": quantum.X, "Y": quantum.Y, "Z": quantum.Z, "H": quantum.H}

_PLUS = (KET0 + KET1) / SQRT2
_MINUS = (KET0 - KET1) / SQRT2

#: one-qubit states a mission may start in or aim for (q0)
STATES_1: dict[str, np.ndarray] = {"0": KET0, "1": KET1, "+": _PLUS, "-": _MINUS}
#: two-qubit target states (q0 leftmost): basis states, q0 in |±⟩ beside q1, the Bell states
STATES_2: dict[str, np.ndarray] = {
    "00": quantum.kron(KET0, KET0), "01": quantum.kron(KET0, KET1),
    "10": quantum.kron(KET1, KET0), "11": quantum.kron(KET1, KET1),
    "+0": quantum.kron(_PLUS, KET0), "-0": quantum.kron(_MINUS, KET0),
    "+1": quantum.kron(_PLUS, KET1), "-1": quantum.kron(_MINUS, KET1),
    "Phi+": (quantum.kron(KET0, KET0) + quantum.kron(KET1, KET1)) / SQRT2,
    "Phi-": (quantum.kron(KET0, KET0) - quantum.kron(KET1, KET1)) / SQRT2,
    "Psi+": (quantum.kron(KET0, KET1) + quantum.kron(KET1, KET0)) / SQRT2,
    "Psi-": (quantum.kron(KET0, KET1) - quantum.kron(KET1, KET0)) / SQRT2,
}
LABELS = {"0": "|0⟩", "1": "|1⟩", "+": "|+⟩", "-": "|−⟩",
          **{k: f"|{k.replace('-', '−')}⟩" for k in STATES_2 if not k.startswith(("P",))},
          "Phi+": "|Φ+⟩", "Phi-": "|Φ−⟩", "Psi+": "|Ψ+⟩", "Psi-": "|Ψ−⟩"}


def label(name: str) -> str:
    """``"+"`` -> ``|+⟩``, ``"Phi+"`` -> ``|Φ+⟩``."""
    return LABELS.get(name, name)


_INITIAL = {name: quantum.kron(vec, KET0) for name, vec in STATES_1.items()}


def initial_register(initial: str) -> np.ndarray:
    """q0 in the mission's initial state, q1 in |0⟩."""
    return _INITIAL[initial].copy()


#: each gate as the 4x4 matrix acting on the register (``quantum.embed``)
_ON_REGISTER = {**{g: quantum.embed(m, [0], 2) for g, m in _ONE_QUBIT.items()},
                "CNOT": quantum.embed(CX, [0, 1], 2)}


def apply_gate(psi: np.ndarray, gate: str) -> np.ndarray:
    """One application of a route's gate to the register."""
    return _ON_REGISTER[gate] @ psi


def expand(routes: Iterable[tuple[str, int]]) -> list[str]:
    """The gates applied along routes ``[(gate, length), ...]``: each gate ``length`` times."""
    return [gate for gate, length in routes for _ in range(length)]


def run_gates(initial: str, gates: Iterable[str]) -> np.ndarray:
    psi = initial_register(initial)
    for gate in gates:
        psi = apply_gate(psi, gate)
    return psi


def fidelity(psi: np.ndarray, target: str, qubits: int) -> float:
    """⟨t|ρ|t⟩: ρ the reduced state of q0 (one-qubit mission) or the whole register (two)."""
    if qubits == 1:
        rho = quantum.reduced_density(psi, [0], 2)
        t = STATES_1[target]
        value = float(np.real(np.vdot(t, rho @ t)))
    else:
        value = float(abs(np.vdot(STATES_2[target], psi)) ** 2)
    return min(1.0, max(0.0, value))


def is_match(value: float) -> bool:
    return abs(1.0 - value) < TOL


def rounded(value: float) -> float:
    """A fidelity for events and views: 10 decimals, exact 0/1 kept."""
    out = round(value, 10)
    return 0.0 if out == 0 else out


# --------------------------------------------------------------------------- kets as text

def q0_text(psi: np.ndarray) -> str | None:
    """The state of q0 alone as a ket (``|+⟩``), or None when q0 is entangled with q1."""
    split = quantum.split_product(np.asarray(psi, dtype=complex))
    if split is None:
        return None
    a, _ = split
    a = a / np.linalg.norm(a)
    for name, vec in STATES_1.items():
        if quantum.same_up_to_phase(a, vec):
            return label(name)
    return quantum.kets.text(a)


def amplitudes(psi: np.ndarray) -> list[list[float]]:
    """JSON-able amplitudes [[re, im], ...] (12 decimals)."""
    return [[_clean(c.real), _clean(c.imag)] for c in np.asarray(psi, dtype=complex)]


def _clean(x: float) -> float:
    x = round(float(x), 12)
    return 0.0 if x == 0 else x

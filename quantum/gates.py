"""Gate matrices and measurement bases (pure numpy).

Gates are 2x2 (one qubit) or 4x4 (two qubits, first listed qubit = leftmost factor) unitary
matrices. See ``quantum`` for the qubit-order convention.
"""
from __future__ import annotations

import math

import numpy as np

SQRT2 = math.sqrt(2.0)
SQRT3 = math.sqrt(3.0)
TOL = 1e-9

I = np.eye(2, dtype=complex)  # noqa: E741 (the gate is called I)
X = np.array([[0, 1], [1, 0]], dtype=complex)
Y = np.array([[0, -1j], [1j, 0]], dtype=complex)
Z = np.array([[1, 0], [0, -1]], dtype=complex)
H = np.array([[1, 1], [1, -1]], dtype=complex) / SQRT2
S = np.array([[1, 0], [0, 1j]], dtype=complex)
SDG = S.conj().T
#: U = (Z + sqrt(3) X)/2 = RY(2pi/3) Z : a real reflection (U @ U = I).
U = (Z + SQRT3 * X) / 2
#: CNOT with qubit 0 (leftmost) as control.
CX = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], dtype=complex)

SWAP = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], dtype=complex)

GATES: dict[str, np.ndarray] = {"I": I, "X": X, "Y": Y, "Z": Z, "H": H, "S": S, "SDG": SDG,
                                "U": U, "CX": CX}

#: Measurement bases: the unitary V whose columns are the basis states (|v0>, |v1>).
BASES: dict[str, np.ndarray] = {"color": I, "left-right": H, "up-down": S @ H}

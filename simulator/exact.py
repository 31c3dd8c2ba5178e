"""Exact quantum states on a few qubits (pure numpy, no game names).

Conventions
-----------
* A statevector on ``n`` qubits is a complex numpy array of length ``2**n``.
  Qubit 0 is the *leftmost* tensor factor (big-endian): basis index
  ``i = b0*2**(n-1) + ... + b_{n-1}``. (Qiskit is little-endian; convert at the edge.)
* A mixture is a list of ``(weight, statevector)`` pairs with weights summing to 1.
  ``density`` / ``mixture_density`` turn them into density matrices.
* Gates are 2x2 (one qubit) or 4x4 (two qubits, first listed qubit = leftmost factor)
  unitary matrices; ``embed`` places a gate on chosen qubits of an ``n``-qubit register.
* Equality of states is *up to global phase* (``same_up_to_phase``).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

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

KET0 = np.array([1, 0], dtype=complex)
KET1 = np.array([0, 1], dtype=complex)


def kron(*factors: np.ndarray) -> np.ndarray:
    """Tensor product, first factor leftmost."""
    out = np.array([1.0 + 0j])
    for f in factors:
        out = np.kron(out, f)
    return out


def embed(gate: np.ndarray, qubits: Sequence[int], n: int) -> np.ndarray:
    """The ``2**n`` square matrix acting as ``gate`` on ``qubits`` (in that order)."""
    k = len(qubits)
    if gate.shape != (2 ** k, 2 ** k):
        raise ValueError("gate size does not match the number of qubits")
    if k == 1:
        return kron(*[gate if q == qubits[0] else I for q in range(n)]).reshape(2 ** n, 2 ** n) \
            if n > 1 else gate
    if n == 2 and list(qubits) == [0, 1]:
        return gate
    if n == 2 and list(qubits) == [1, 0]:
        return SWAP @ gate @ SWAP
    dim = 2 ** n
    full = np.zeros((dim, dim), dtype=complex)
    for col in range(dim):
        bits = [(col >> (n - 1 - q)) & 1 for q in range(n)]
        sub_in = 0
        for q in qubits:
            sub_in = sub_in * 2 + bits[q]
        for sub_out in range(2 ** k):
            amp = gate[sub_out, sub_in]
            if amp == 0:
                continue
            out_bits = list(bits)
            for j, q in enumerate(qubits):
                out_bits[q] = (sub_out >> (k - 1 - j)) & 1
            row = 0
            for q in range(n):
                row = row * 2 + out_bits[q]
            full[row, col] += amp
    return full


def apply(psi: np.ndarray, gate: np.ndarray, qubits: Sequence[int], n: int) -> np.ndarray:
    """Apply ``gate`` on ``qubits`` of the ``n``-qubit statevector ``psi``."""
    return embed(gate, qubits, n) @ psi


def probabilities(psi: np.ndarray) -> np.ndarray:
    """Born probabilities of the computational basis outcomes."""
    p = np.abs(psi) ** 2
    return p / p.sum()


def same_up_to_phase(a: np.ndarray, b: np.ndarray, tol: float = TOL) -> bool:
    """True if the normalised states ``a`` and ``b`` differ only by a global phase."""
    if a.shape != b.shape:
        return False
    return abs(abs(np.vdot(a, b)) - 1.0) < tol


def split_product(psi: np.ndarray, tol: float = TOL) -> tuple[np.ndarray, np.ndarray] | None:
    """Factor a two-qubit state into ``(a, b)`` with ``psi = a (x) b`` (up to phase), or None
    if it is entangled."""
    m = psi.reshape(2, 2)
    u, s, vh = np.linalg.svd(m)
    if s[1] > tol ** 0.5 * 1e-2:
        return None
    return u[:, 0] * s[0], vh[0, :]


def measure(psi: np.ndarray, qubits: Sequence[int], n: int, basis: str = "color"
            ) -> list[tuple[tuple[int, ...], float, np.ndarray]]:
    """Projective measurement of ``qubits`` in ``basis`` (same basis on each qubit).

    Returns ``[(outcome bits, probability, post-measurement state), ...]`` for every outcome
    with non-zero probability; outcome bit 0 means the first basis state (|0>, |+>, |+i>).
    The post-measurement state is normalised and expressed in the original frame.
    """
    v = BASES[basis]
    rotated = psi
    for q in qubits:
        rotated = apply(rotated, v.conj().T, [q], n)
    results = []
    for outcome in range(2 ** len(qubits)):
        bits = tuple((outcome >> (len(qubits) - 1 - j)) & 1 for j in range(len(qubits)))
        mask = np.array([all(((i >> (n - 1 - q)) & 1) == b for q, b in zip(qubits, bits, strict=True))
                         for i in range(2 ** n)])
        projected = np.where(mask, rotated, 0)
        p = float(np.vdot(projected, projected).real)
        if p < TOL:
            continue
        post = projected / math.sqrt(p)
        for q in qubits:
            post = apply(post, v, [q], n)
        results.append((bits, p, post))
    return results


def density(psi: np.ndarray) -> np.ndarray:
    """|psi><psi|."""
    return np.outer(psi, psi.conj())


def mixture_density(members: Sequence[tuple[float, np.ndarray]]) -> np.ndarray:
    """Density matrix of a mixture ``[(weight, statevector), ...]``."""
    return sum(w * density(psi) for w, psi in members)


def dm_probabilities(rho: np.ndarray) -> np.ndarray:
    """Born probabilities of the computational basis outcomes of a density matrix."""
    p = np.real(np.diag(rho)).clip(min=0)
    return p / p.sum()


def mixture_probabilities(members: Sequence[tuple[float, np.ndarray]]) -> np.ndarray:
    """Outcome probabilities of a mixture: the weighted average of its members'."""
    return sum(w * np.abs(psi) ** 2 for w, psi in members)


def partial_measure_mixture(members: Sequence[tuple[float, np.ndarray]], qubits: Sequence[int],
                            n: int, basis: str = "color") -> list[tuple[float, np.ndarray]]:
    """Measure ``qubits`` of every member without looking: the new mixture of post-measurement
    states weighted by ``weight * Born probability``."""
    out = []
    for w, psi in members:
        for _bits, p, post in measure(psi, qubits, n, basis):
            out.append((w * p, post))
    return out

"""Statevectors: tensor products, gates on chosen qubits, Born probabilities, equality up to
global phase."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .gates import SWAP, TOL, I

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


def reduced_density(psi: np.ndarray, keep: Sequence[int], n: int) -> np.ndarray:
    """The density matrix of ``keep`` (in that order) after tracing out the other qubits of the
    ``n``-qubit statevector ``psi`` (the partial trace)."""
    keep = list(keep)
    if len(set(keep)) != len(keep) or not all(0 <= q < n for q in keep):
        raise ValueError("keep must list distinct qubits of the register")
    rest = [q for q in range(n) if q not in keep]
    tensor = np.asarray(psi, dtype=complex).reshape((2,) * n).transpose(keep + rest)
    m = tensor.reshape(2 ** len(keep), 2 ** len(rest))
    return m @ m.conj().T


def split_product(psi: np.ndarray, tol: float = TOL) -> tuple[np.ndarray, np.ndarray] | None:
    """Factor a two-qubit state into ``(a, b)`` with ``psi = a (x) b`` (up to phase), or None
    if it is entangled."""
    m = psi.reshape(2, 2)
    u, s, vh = np.linalg.svd(m)
    if s[1] > tol ** 0.5 * 1e-2:
        return None
    return u[:, 0] * s[0], vh[0, :]

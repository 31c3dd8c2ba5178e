"""Projective measurement with the Born rule."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .gates import BASES, TOL
from .states import apply


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


def sample(probabilities: Sequence[float], u: float) -> int:
    """Born-rule draw: the index of the outcome whose cumulative probability first exceeds the
    uniform number ``u`` in [0, 1) (outcomes in the order given); the last outcome when
    rounding leaves ``u`` beyond the total. Callers draw ``u`` from their own seeded PRNG."""
    acc = 0.0
    for k, p in enumerate(probabilities):
        acc += float(p)
        if u < acc:
            return k
    return len(probabilities) - 1

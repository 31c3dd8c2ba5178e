"""Mixtures: lists of ``(weight, statevector)`` pairs and their density matrices."""
from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from .measure import measure


def density(psi: np.ndarray) -> np.ndarray:
    """|psi><psi|."""
    return np.outer(psi, psi.conj())


def mixture_density(members: Sequence[tuple[float, np.ndarray]]) -> np.ndarray:
    """Density matrix of a mixture ``[(weight, statevector), ...]``."""
    return cast(np.ndarray, sum(w * density(psi) for w, psi in members))  # 0 if empty


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

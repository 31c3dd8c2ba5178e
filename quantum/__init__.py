"""Pure quantum math for the games and the simulator: numpy only, no Django, no game names.

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
* ``measure`` gives every outcome with its Born probability; ``sample(probabilities, u)``
  draws one with a uniform number ``u`` from the caller's seeded PRNG.
* ``quantum.kets``: states and gate matrices as text (``text``, ``numeric``, ``qubit``,
  ``matrix``), amplitudes named exactly where they are 0, ±1, ±1/2, ±1/√2, ±√3/2.
"""
from . import kets
from .gates import BASES, CX, GATES, SDG, SQRT2, SQRT3, SWAP, TOL, H, I, S, U, X, Y, Z  # noqa: E741
from .measure import measure, sample
from .mixtures import (
                       density,
                       dm_probabilities,
                       mixture_density,
                       mixture_probabilities,
                       partial_measure_mixture,
)
from .states import (
    KET0,
    KET1,
    apply,
    embed,
    kron,
    probabilities,
    reduced_density,
    same_up_to_phase,
    split_product,
)

__all__ = ["BASES", "CX", "GATES", "H", "I", "KET0", "KET1", "S", "SDG", "SQRT2", "SQRT3", "SWAP",
           "TOL", "U", "X", "Y", "Z", "apply", "density", "dm_probabilities", "embed", "kron",
           "kets", "measure", "mixture_density", "mixture_probabilities", "partial_measure_mixture",
           "probabilities", "reduced_density", "same_up_to_phase", "sample", "split_product"]

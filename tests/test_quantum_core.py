"""The pure quantum core (``quantum/``) checked against independent calculations: Qiskit's
gate library, ``Statevector`` and ``Operator``, and projectors written out with numpy.

Convention bridge: ``quantum`` is big-endian (qubit 0 = leftmost factor), Qiskit little-endian,
so ``quantum`` qubit ``q`` of ``n`` is Qiskit qubit ``n - 1 - q`` and the amplitude arrays are
the same; a gate's first listed qubit is the most significant, so its Qiskit ``qargs`` are the
reversed list.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from qiskit.circuit.library import (
    CXGate,
    HGate,
    IGate,
    RYGate,
    SdgGate,
    SGate,
    SwapGate,
    XGate,
    YGate,
    ZGate,
)
from qiskit.quantum_info import (
    DensityMatrix,
    Operator,
    Statevector,
    random_statevector,
    random_unitary,
)

import quantum
from quantum import kets

R2 = 1 / math.sqrt(2)


def _qiskit_qargs(qubits: list[int], n: int) -> list[int]:
    return [n - 1 - q for q in reversed(qubits)]


# --------------------------------------------------------------------------- gates

@pytest.mark.parametrize("name, qiskit_gate", [
    ("I", IGate()), ("X", XGate()), ("Y", YGate()), ("Z", ZGate()), ("H", HGate()),
    ("S", SGate()), ("SDG", SdgGate())])
def test_one_qubit_gates_are_qiskits(name, qiskit_gate):
    assert np.allclose(quantum.GATES[name], Operator(qiskit_gate).data)


def test_two_qubit_gates_are_qiskits_with_the_first_qubit_leftmost():
    assert np.allclose(quantum.CX, Operator(CXGate()).reverse_qargs().data)
    assert np.allclose(quantum.SWAP, Operator(SwapGate()).data)


def test_u_is_ry_two_thirds_pi_after_z_and_a_reflection():
    ry_z = Operator(RYGate(2 * math.pi / 3)).data @ Operator(ZGate()).data
    assert np.allclose(quantum.U, ry_z)
    assert np.allclose(quantum.U @ quantum.U, np.eye(2))
    assert quantum.SQRT2 ** 2 == pytest.approx(2) and quantum.SQRT3 ** 2 == pytest.approx(3)


# --------------------------------------------------------------------------- embed / apply

@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 4), seed=st.integers(0, 10_000), two=st.booleans())
def test_apply_matches_statevector_evolve(n, seed, two):
    rng = random.Random(seed)
    k = 2 if two and n >= 2 else 1
    qubits = rng.sample(range(n), k)
    gate = random_unitary(2 ** k, seed=seed).data
    psi = random_statevector(2 ** n, seed=seed + 1).data
    expected = Statevector(psi).evolve(Operator(gate), qargs=_qiskit_qargs(qubits, n)).data
    assert np.allclose(quantum.apply(psi, gate, qubits, n), expected)
    assert np.allclose(quantum.embed(gate, qubits, n) @ psi, expected)


def test_embed_refuses_a_gate_of_the_wrong_size():
    with pytest.raises(ValueError):
        quantum.embed(quantum.CX, [0], 2)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_kron_probabilities_and_phase(seed):
    a = random_statevector(2, seed=seed).data
    b = random_statevector(4, seed=seed + 1).data
    ab = quantum.kron(a, b)
    assert np.allclose(ab, Statevector(a).tensor(Statevector(b)).data)  # a on the high qubits
    assert np.allclose(quantum.probabilities(ab), Statevector(ab).probabilities())
    assert quantum.same_up_to_phase(ab, np.exp(1j * seed) * ab)
    plus, minus = np.array([R2, R2]), np.array([R2, -R2])
    assert not quantum.same_up_to_phase(quantum.kron(plus, b), quantum.kron(minus, b))


def test_split_product_factors_products_and_refuses_entangled_pairs():
    a, b = random_statevector(2, seed=3).data, random_statevector(2, seed=4).data
    fa, fb = quantum.split_product(quantum.kron(a, b))
    assert quantum.same_up_to_phase(np.kron(fa, fb), quantum.kron(a, b))
    assert quantum.split_product(np.array([1, 0, 0, 1]) / math.sqrt(2)) is None


# --------------------------------------------------------------------------- measurement

_BASIS_VECTORS = {  # written out, not taken from quantum.BASES
    "color": (np.array([1, 0]), np.array([0, 1])),
    "left-right": (np.array([1, 1]) * R2, np.array([1, -1]) * R2),
    "up-down": (np.array([1, 1j]) * R2, np.array([1, -1j]) * R2),
}


def _projector(bits: tuple[int, ...], qubits: list[int], n: int, basis: str) -> np.ndarray:
    factors = [np.eye(2)] * n
    for q, b in zip(qubits, bits, strict=True):
        v = _BASIS_VECTORS[basis][b]
        factors[q] = np.outer(v, v.conj())
    out = np.array([[1.0]])
    for f in factors:
        out = np.kron(out, f)
    return out


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 3), seed=st.integers(0, 10_000),
       basis=st.sampled_from(["color", "left-right", "up-down"]), two=st.booleans())
def test_measure_matches_projectors(n, seed, basis, two):
    rng = random.Random(seed)
    qubits = rng.sample(range(n), 2 if two and n >= 2 else 1)
    psi = random_statevector(2 ** n, seed=seed).data
    results = quantum.measure(psi, qubits, n, basis)
    assert sum(p for _, p, _ in results) == pytest.approx(1)
    for bits, p, post in results:
        projected = _projector(bits, qubits, n, basis) @ psi
        assert p == pytest.approx(float(np.vdot(projected, projected).real))
        assert np.allclose(post, projected / np.linalg.norm(projected))
    if basis == "color":
        marginal = Statevector(psi).probabilities(qargs=_qiskit_qargs(qubits, n))
        for bits, p, _ in results:
            index = int("".join(map(str, bits)), 2)
            assert p == pytest.approx(marginal[index])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_unseen_measurement_is_the_dephased_density_matrix(seed):
    a, b = random_statevector(4, seed=seed).data, random_statevector(4, seed=seed + 1).data
    members = [(0.3, a), (0.7, b)]
    rho = quantum.mixture_density(members)
    assert np.allclose(rho, 0.3 * DensityMatrix(a).data + 0.7 * DensityMatrix(b).data)
    after = quantum.mixture_density(quantum.partial_measure_mixture(members, [1], 2))
    expected = sum(_projector((k,), [1], 2, "color") @ rho @ _projector((k,), [1], 2, "color")
                   for k in (0, 1))
    assert np.allclose(after, expected)
    assert np.allclose(quantum.dm_probabilities(rho), quantum.mixture_probabilities(members))


def test_sample_draws_each_outcome_with_its_born_probability():
    probs = quantum.probabilities(np.array([0.5, 0.5j, -0.5, math.sqrt(0.25)]) * 1)
    grid = np.linspace(0, 1, 10_000, endpoint=False)
    draws = np.bincount([quantum.sample(probs, u) for u in grid], minlength=4) / len(grid)
    assert np.allclose(draws, probs, atol=1e-3)
    skewed = [0.1, 0.0, 0.9]
    assert quantum.sample(skewed, 0.0) == 0
    assert quantum.sample(skewed, 0.0999) == 0
    assert quantum.sample(skewed, 0.1001) == 2  # a zero-probability outcome is never drawn
    assert quantum.sample([0.5, 0.5 - 1e-12], 1 - 1e-13) == 1  # rounding: the last outcome


def test_sample_at_zero_never_picks_a_zero_probability_outcome():
    # u = 0 is a possible draw of random(): the first outcome has no probability, so it is not it
    assert quantum.sample([0.0, 1.0], 0.0) == 1
    assert quantum.sample([0.0, 0.0, 1.0], 0.0) == 2
    assert quantum.sample([0.0, 0.25, 0.75], 0.25) == 2  # u on a boundary: the next outcome


# --------------------------------------------------------------------------- kets as text

@pytest.mark.parametrize("psi, text", [
    ([1, 0], "|0⟩"),
    ([0, 1j], "|1⟩"),
    ([R2, R2], "(|0⟩+|1⟩)/√2"),
    ([R2, -R2], "(|0⟩−|1⟩)/√2"),
    ([R2, 1j * R2], "(|0⟩+i|1⟩)/√2"),
    ([-1j * R2, -R2], "(|0⟩−i|1⟩)/√2"),  # the global phase is fixed: first amplitude > 0
    ([R2, 0, 0, R2], "(|00⟩+|11⟩)/√2"),
    ([0, R2, -R2, 0], "(|01⟩−|10⟩)/√2"),
    ([0.5, 0.5, 0.5, -0.5], "(|00⟩+|01⟩+|10⟩−|11⟩)/2"),
    ([0.5, math.sqrt(3) / 2], "1/2|0⟩+√3/2|1⟩"),
    ([math.sqrt(3) / 2, -0.5], "√3/2|0⟩−1/2|1⟩"),
    ([0.6, 0.8j], "0.6|0⟩+0.8i|1⟩"),
    ([0.6, -0.8], "0.6|0⟩−0.8|1⟩"),      # a minus sign, never "+-"
])
def test_exact_kets(psi, text):
    assert kets.text(np.array(psi, dtype=complex)) == text


def test_exact_kets_of_gates_applied_to_basis_states():
    plus = quantum.H @ quantum.KET0
    assert kets.text(quantum.S @ plus) == "(|0⟩+i|1⟩)/√2"
    assert kets.text(quantum.Y @ quantum.KET0) == "|1⟩"  # i|1⟩, up to global phase
    bell = quantum.apply(quantum.kron(plus, quantum.KET0), quantum.CX, [0, 1], 2)
    assert kets.text(bell) == "(|00⟩+|11⟩)/√2"
    assert kets.text(quantum.U @ quantum.KET0) == "1/2|0⟩+√3/2|1⟩"
    assert kets.text(quantum.U @ quantum.KET1) == "√3/2|0⟩−1/2|1⟩"


def test_numeric_kets():
    assert kets.numeric(quantum.U @ quantum.KET0) == "0.5|0⟩ + 0.866|1⟩"
    assert kets.numeric(np.array([0, R2, -R2, 0])) == "0.707|01⟩ − 0.707|10⟩"
    assert kets.numeric(-1j * np.array([R2, 1j * R2])) == "0.707|0⟩ + 0.707i|1⟩"
    # a coefficient of size 1 is its sign alone: never "1|10⟩", "1i|10⟩" or "−1|00⟩"
    assert kets.numeric(np.array([0, 0, 1j, 0])) == "|10⟩"
    assert kets.numeric(np.array([0.6, 0, 0, -0.8j])) == "0.6|00⟩ − 0.8i|11⟩"
    assert kets.numeric(np.array([0.6, -0.48 - 0.64j])) == "0.6|0⟩ + (−0.48−0.64i)|1⟩"


@pytest.mark.parametrize("gates, text", [
    ("", "|0⟩"), ("X", "|1⟩"), ("Y", "i|1⟩"), ("XY", "−i|0⟩"), ("XZ", "−|1⟩"),
    ("H", "|+⟩"), ("XH", "|−⟩"), ("HS", "|+i⟩"), ("HSZ", "|−i⟩"), ("HY", "−i|−⟩"),
    ("XHX", "−|−⟩"), ("HZY", "i|+⟩"),
])
def test_one_qubit_kets_keep_the_global_phase(gates, text):
    psi = quantum.KET0
    for g in gates:
        psi = quantum.GATES[g] @ psi
    assert kets.qubit(*psi) == text


def test_one_qubit_ket_with_unequal_amplitudes():
    assert kets.qubit(0.6, -0.8) == "0.6|0⟩ − 0.8|1⟩"
    assert kets.qubit(-0.6, 0.8) == "−0.6|0⟩ + 0.8|1⟩"
    assert kets.qubit(0.6, 0.8j) == "0.6|0⟩ + 0.8i|1⟩"


def test_matrices_are_named_exactly():
    assert kets.matrix(quantum.H) == [["1/√2", "1/√2"], ["1/√2", "−1/√2"]]
    assert kets.matrix(quantum.Y) == [["0", "−i"], ["i", "0"]]
    assert kets.matrix(quantum.U) == [["1/2", "√3/2"], ["√3/2", "−1/2"]]
    # i written first, so that i/√2 never reads as 1/(√2·i)
    assert kets.matrix(quantum.H @ quantum.S) == [["1/√2", "i/√2"], ["1/√2", "−i/√2"]]
    assert kets.entry(0.5 - math.sqrt(3) / 2 * 1j) == "1/2−i√3/2"
    assert kets.number(0.3) == "0.3"
    assert kets.number(-0.3) == "−0.3"


def test_named_numbers_are_the_values_they_name():
    values = {"0": 0, "1": 1, "1/2": 0.5, "1/√2": R2, "√3/2": math.sqrt(3) / 2}
    for name, value in values.items():
        assert kets.number(value) == name
        assert kets.number(-value) == ("0" if value == 0 else "−" + name)


def test_qtris_tile_kets_come_from_the_states():
    from games.engines.qtris import tiles

    assert tiles.KETS == {
        "W": "|0⟩", "B": "|1⟩", "R": "(|0⟩+|1⟩)/√2", "L": "(|0⟩−|1⟩)/√2",
        "UP": "(|0⟩+i|1⟩)/√2", "DOWN": "(|0⟩−i|1⟩)/√2",
        "phi+": "(|00⟩+|11⟩)/√2", "phi-": "(|00⟩−|11⟩)/√2",
        "psi+": "(|01⟩+|10⟩)/√2", "psi-": "(|01⟩−|10⟩)/√2"}

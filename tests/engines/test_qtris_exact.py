"""The generic exact quantum core (quantum/) used by QTris."""
from __future__ import annotations

import numpy as np
import pytest

import quantum


def test_gates_are_unitary_and_u_is_a_reflection():
    for name, g in quantum.GATES.items():
        assert np.allclose(g.conj().T @ g, np.eye(g.shape[0])), name
    assert np.allclose(quantum.U @ quantum.U, np.eye(2))


def test_embed_and_cnot_order():
    psi = quantum.kron(quantum.KET1, quantum.KET0)  # |10>
    assert np.allclose(quantum.apply(psi, quantum.CX, [0, 1], 2), quantum.kron(quantum.KET1, quantum.KET1))
    assert np.allclose(quantum.apply(psi, quantum.CX, [1, 0], 2), psi)
    three = quantum.kron(quantum.KET0, quantum.KET1, quantum.KET0)
    out = quantum.apply(three, quantum.CX, [1, 2], 3)
    assert np.allclose(out, quantum.kron(quantum.KET0, quantum.KET1, quantum.KET1))
    assert np.allclose(quantum.embed(quantum.X, [2], 3) @ three, quantum.kron(quantum.KET0, quantum.KET1,
                                                                          quantum.KET1))


def test_born_probabilities_and_partial_measurement():
    bell = np.array([1, 0, 0, 1]) / np.sqrt(2)
    assert quantum.probabilities(bell) == pytest.approx([.5, 0, 0, .5])
    res = quantum.measure(bell, [0], 2)
    assert [r[0] for r in res] == [(0,), (1,)]
    assert all(r[1] == pytest.approx(.5) for r in res)
    assert np.allclose(res[1][2], [0, 0, 0, 1])
    plus = quantum.H @ quantum.KET0
    res = quantum.measure(plus, [0], 1, "left-right")
    assert len(res) == 1 and res[0][1] == pytest.approx(1)


def test_mixtures_and_density_matrices():
    mix = [(.5, quantum.KET0), (.5, quantum.H @ quantum.KET0)]
    rho = quantum.mixture_density(mix)
    assert np.trace(rho).real == pytest.approx(1)
    assert quantum.dm_probabilities(rho) == pytest.approx([.75, .25])
    assert quantum.mixture_probabilities(mix) == pytest.approx([.75, .25])
    out = quantum.partial_measure_mixture(mix, [0], 1)
    assert sum(w for w, _ in out) == pytest.approx(1)


def test_phase_and_product_helpers():
    a = quantum.H @ quantum.KET0
    assert quantum.same_up_to_phase(a, 1j * a)
    assert not quantum.same_up_to_phase(a, quantum.KET0)
    f = quantum.split_product(quantum.kron(a, quantum.KET1))
    assert f is not None
    assert quantum.split_product(np.array([1, 0, 0, 1]) / np.sqrt(2)) is None

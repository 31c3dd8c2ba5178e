"""The generic exact quantum core (quantum/) used by QTris."""
from __future__ import annotations

import numpy as np
import pytest

import quantum as exact


def test_gates_are_unitary_and_u_is_a_reflection():
    for name, g in exact.GATES.items():
        assert np.allclose(g.conj().T @ g, np.eye(g.shape[0])), name
    assert np.allclose(exact.U @ exact.U, np.eye(2))


def test_embed_and_cnot_order():
    psi = exact.kron(exact.KET1, exact.KET0)  # |10>
    assert np.allclose(exact.apply(psi, exact.CX, [0, 1], 2), exact.kron(exact.KET1, exact.KET1))
    assert np.allclose(exact.apply(psi, exact.CX, [1, 0], 2), psi)
    three = exact.kron(exact.KET0, exact.KET1, exact.KET0)
    out = exact.apply(three, exact.CX, [1, 2], 3)
    assert np.allclose(out, exact.kron(exact.KET0, exact.KET1, exact.KET1))
    assert np.allclose(exact.embed(exact.X, [2], 3) @ three, exact.kron(exact.KET0, exact.KET1,
                                                                          exact.KET1))


def test_born_probabilities_and_partial_measurement():
    bell = np.array([1, 0, 0, 1]) / np.sqrt(2)
    assert exact.probabilities(bell) == pytest.approx([.5, 0, 0, .5])
    res = exact.measure(bell, [0], 2)
    assert [r[0] for r in res] == [(0,), (1,)]
    assert all(r[1] == pytest.approx(.5) for r in res)
    assert np.allclose(res[1][2], [0, 0, 0, 1])
    plus = exact.H @ exact.KET0
    res = exact.measure(plus, [0], 1, "left-right")
    assert len(res) == 1 and res[0][1] == pytest.approx(1)


def test_mixtures_and_density_matrices():
    mix = [(.5, exact.KET0), (.5, exact.H @ exact.KET0)]
    rho = exact.mixture_density(mix)
    assert np.trace(rho).real == pytest.approx(1)
    assert exact.dm_probabilities(rho) == pytest.approx([.75, .25])
    assert exact.mixture_probabilities(mix) == pytest.approx([.75, .25])
    out = exact.partial_measure_mixture(mix, [0], 1)
    assert sum(w for w, _ in out) == pytest.approx(1)


def test_phase_and_product_helpers():
    a = exact.H @ exact.KET0
    assert exact.same_up_to_phase(a, 1j * a)
    assert not exact.same_up_to_phase(a, exact.KET0)
    f = exact.split_product(exact.kron(a, exact.KET1))
    assert f is not None
    assert exact.split_product(np.array([1, 0, 0, 1]) / np.sqrt(2)) is None

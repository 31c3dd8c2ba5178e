"""Quantum Ticket-to-Ride physics checked independently: the register against Qiskit's
Statevector (and its partial trace), ``quantum.reduced_density`` against numpy, and circuits of
runs on Aer against the exact fidelity."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import quantum
from games.engines.quantum_ticket_to_ride import register
from games.engines.quantum_ticket_to_ride.circuit import success_keys, unmeasured
from tests.engines.ttr_support import GAME, mission, position, route, table

GATES = list(register.GATE_NAMES)


def big_endian(sv) -> np.ndarray:
    """Qiskit's statevector (qubit 0 rightmost) in the quantum package's order (q0 leftmost)."""
    return sv.reverse_qargs().data


@given(st.lists(st.sampled_from(GATES), max_size=12), st.sampled_from(list(register.STATES_1)))
@settings(max_examples=150, deadline=None)
def test_a_run_gives_the_state_and_fidelities_qiskit_gives(gates, initial):
    from qiskit.quantum_info import DensityMatrix, Statevector, partial_trace, state_fidelity

    psi = register.run_gates(initial, gates)
    sv = Statevector(unmeasured(initial, gates))
    assert quantum.same_up_to_phase(psi, big_endian(sv))
    q0 = partial_trace(sv, [1])                         # qiskit: trace out qubit 1 (= q1)
    for name, vec in register.STATES_1.items():
        expected = state_fidelity(q0, Statevector(vec))
        assert register.fidelity(psi, name, 1) == pytest.approx(expected, abs=1e-9)
    for name, vec in register.STATES_2.items():
        expected = state_fidelity(DensityMatrix(sv), Statevector(vec).reverse_qargs())
        assert register.fidelity(psi, name, 2) == pytest.approx(expected, abs=1e-9)


@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
@settings(max_examples=60, deadline=None)
def test_reduced_density_is_the_partial_trace(seed, n):
    rng = np.random.default_rng(seed)
    psi = rng.normal(size=2**n) + 1j * rng.normal(size=2**n)
    psi /= np.linalg.norm(psi)
    rho = np.outer(psi, psi.conj()).reshape((2,) * (2 * n))
    for q in range(n):
        # numpy: trace every other qubit out of the full density matrix, one at a time
        keep = rho
        for k, other in enumerate(sorted(set(range(n)) - {q}, reverse=True)):
            m = n - k
            keep = np.trace(keep, axis1=other, axis2=other + m)
        assert np.allclose(quantum.reduced_density(psi, [q], n), keep.reshape(2, 2))
    assert np.allclose(quantum.reduced_density(psi, list(range(n)), n),
                       np.outer(psi, psi.conj()))
    with pytest.raises(ValueError):
        quantum.reduced_density(psi, [0, 0], n)


def test_the_measurement_basis_finds_every_target_state_with_certainty():
    """Prepare each target state itself, apply what a run's circuit does after its barrier
    (the basis change), and the success key comes out with probability 1."""
    from qiskit import QuantumCircuit
    from qiskit.quantum_info import Statevector

    from games.engines.quantum_ticket_to_ride.circuit import run_circuit

    for name, vec in {**register.STATES_1, **register.STATES_2}.items():
        qubits = 1 if name in register.STATES_1 else 2
        qc = run_circuit({"seat": 0, "cities": ["A", "B"], "gates": [], "fidelity": 1.0,
                          "mission": {"id": "m", "initial_state": "0", "target_state": name,
                                      "qubits": qubits}})
        target = vec if qubits == 2 else quantum.kron(vec, quantum.KET0)
        circuit = QuantumCircuit(2)
        circuit.initialize(Statevector(target).reverse_qargs().data, [0, 1])
        names = [inst.operation.name for inst in qc.data]
        for inst in qc.data[names.index("barrier") + 1:]:
            if inst.operation.name != "measure":
                circuit.append(inst.operation, [qc.find_bit(q).index for q in inst.qubits])
        probs = Statevector(circuit).probabilities_dict(qargs=list(range(qubits)))
        assert probs.get(success_keys(name, qubits)[0], 0) == pytest.approx(1.0), name


def aer_success(state: dict, shots: int = 4000) -> float:
    from qiskit import transpile
    from qiskit_aer import AerSimulator

    qc = GAME.circuit(state)
    sim = AerSimulator()
    counts = sim.run(transpile(qc, sim), shots=shots, seed_simulator=11).result().get_counts()
    good = sum(n for key, n in counts.items() if key.replace(" ", "") in qc.metadata["success"])
    return good / shots


def after_run(mid: str, pairs: list[str], path: list[str]) -> dict:
    s = table(variant="mixed", seed=21)
    seat = s["turn"]
    owners = {route(s, *p.split("-")): seat for p in pairs}
    s = position(s, step="run", owners=owners, missions={seat: mission(s, mid)})
    after, _ = GAME.apply(s, seat, {"run": path})
    return after


def test_before_the_first_run_the_circuit_is_the_first_players_prepared_qubit():
    s = table(variant="intermediate", seed=4)
    qc = GAME.circuit(s)
    first = s["missions"][s["order"][0]]
    assert qc.metadata["ran"] is False and qc.metadata["mission"] == first
    assert qc.metadata["cities"] == [first["start"]]
    assert [i.operation.name for i in qc.data if i.operation.name not in ("barrier", "measure",
                                                                            "h", "x")] == []


def test_aer_runs_of_a_completed_mission_always_find_the_target():
    done = after_run("B01", ["Berlin-Munich", "Munich-Vienna", "Vienna-Rome"],
                     ["Berlin", "Munich", "Vienna", "Rome"])
    assert done["finished"] and done["runs"][-1]["fidelity"] == 1.0
    qc = GAME.circuit(done)
    assert qc.num_qubits == 2 and qc.metadata["success"] == ["1"]
    assert aer_success(done) == 1.0


def test_aer_success_rate_agrees_with_the_exact_fidelity_of_a_failed_run():
    failed = after_run("B01", ["Berlin-Munich", "Munich-Vienna", "Vienna-Budapest",
                               "Budapest-Belgrade", "Rome-Belgrade"],
                       ["Berlin", "Munich", "Vienna", "Budapest", "Belgrade", "Rome"])
    exact = failed["runs"][-1]["fidelity"]
    assert exact == pytest.approx(0.5)
    assert aer_success(failed) == pytest.approx(exact, abs=0.04)     # ±5 standard deviations


def test_aer_on_a_two_qubit_bell_mission_agrees_with_the_exact_fidelity():
    from games.engines.quantum_ticket_to_ride import plan

    s = table(variant="advanced", seed=3)
    seat = s["turn"]
    target = mission(s, "A01")                         # Amsterdam |0⟩ → Munich |Φ+⟩
    found = plan(s["map"], target)
    s = position(s, step="run", owners=dict.fromkeys(found.routes, seat),
                 missions={seat: target})
    done, _ = GAME.apply(s, seat, {"run": list(found.cities)})
    assert done["finished"] and GAME.circuit(done).num_clbits == 2
    assert aer_success(done) == pytest.approx(1.0)


def test_the_simulators_scorer_turns_counts_into_the_success_rate():
    from simulator.scoring import has_circuit, score_table, scorer_for

    failed = after_run("B01", ["Berlin-Munich", "Munich-Vienna", "Vienna-Budapest",
                               "Budapest-Belgrade", "Rome-Belgrade"],
                       ["Berlin", "Munich", "Vienna", "Budapest", "Belgrade", "Rome"])
    qc = GAME.circuit(failed)
    scorer = scorer_for("quantum-ticket-to-ride", failed, qc)
    assert scorer.sides == ["success", "failure"]
    assert scorer.score("1") == (1, 0) and scorer.score("0") == (0, 1)
    assert scorer.actual() == (0, 1)
    table_ = score_table(scorer, {"0": 480, "1": 520})
    assert table_["expected"] == [pytest.approx(0.52), pytest.approx(0.48)]
    assert has_circuit("quantum-ticket-to-ride", {})


@given(st.lists(st.sampled_from(GATES), max_size=10), st.sampled_from(list(register.STATES_1)),
       st.sampled_from([(t, 1) for t in register.STATES_1] + [(t, 2) for t in register.STATES_2]))
@settings(max_examples=120, deadline=None)
def test_a_runs_circuit_succeeds_with_probability_equal_to_the_exact_fidelity(gates, initial,
                                                                              target):
    from qiskit.quantum_info import Statevector

    from games.engines.quantum_ticket_to_ride.circuit import run_circuit

    name, qubits = target
    psi = register.run_gates(initial, gates)
    exact = register.fidelity(psi, name, qubits)
    qc = run_circuit({"seat": 1, "cities": ["A", "B"], "gates": gates, "fidelity": exact,
                      "mission": {"id": "m", "initial_state": initial, "target_state": name,
                                  "qubits": qubits}})
    probs = Statevector(qc.remove_final_measurements(inplace=False)).probabilities_dict(
        qargs=list(range(qubits)))
    assert sum(probs.get(k, 0) for k in qc.metadata["success"]) == pytest.approx(exact, abs=1e-9)

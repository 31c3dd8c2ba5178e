"""Back ends agree with the exact Born distribution within statistical bounds; the noisy
back end records what transpiling for a device did; scores follow the rules."""
from __future__ import annotations

import math
import random

import pytest
from qiskit import QuantumCircuit

from games.engines.qtris.statistics import QTrisScorer
from simulator import backends
from simulator.scoring import score_outcome, score_table


def bell() -> QuantumCircuit:
    qc = QuantumCircuit(2, 2)
    qc.h(0)
    qc.cx(0, 1)
    qc.x(1)  # |01> + |10>: distinguishes bit order
    qc.measure([0, 1], [0, 1])
    return qc


def within_bounds(counts: dict[str, int], probs: dict[str, float], shots: int, z: float = 5.0) -> None:
    for key in set(counts) | set(probs):
        p = probs.get(key, 0.0)
        c = counts.get(key, 0)
        sigma = math.sqrt(shots * p * (1 - p))
        assert abs(c - shots * p) <= z * sigma + 3, (key, c, shots * p)


def qtris_final_state(seed: int, variant: str = "basic") -> dict:
    from games.engines import get_game

    game = get_game("qtris")
    state = game.setup(players=2, variant=variant, seed=seed, options={})
    rng = random.Random(seed)
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def test_exact_bell_from_statevector_uses_qiskit_bit_order():
    result = backends.exact_probabilities(bell())
    assert result.probabilities == pytest.approx({"01": 0.5, "10": 0.5})


def test_aer_agrees_with_exact_on_a_bell_pair():
    result = backends.run_aer(bell(), 4000, seed=11)
    assert sum(result.counts.values()) == 4000
    within_bounds(result.counts, {"01": 0.5, "10": 0.5}, 4000)
    again = backends.run_aer(bell(), 4000, seed=11)
    assert again.counts == result.counts  # seeded


@pytest.mark.parametrize("seed,variant", [(3, "advanced"), (8, "basic")])
def test_aer_agrees_with_the_qtris_engine_on_a_played_game(seed, variant):
    from games.engines import get_game

    state = qtris_final_state(seed, variant)
    circuit = get_game("qtris").circuit(state)
    exact = QTrisScorer(state).exact()
    assert sum(exact.values()) == pytest.approx(1.0)
    shots = 6000
    result = backends.run_aer(circuit, shots, seed=seed)
    within_bounds(result.counts, exact, shots)
    # the score distributions agree too
    scorer = QTrisScorer(state)
    shot_table = score_table(scorer, result.counts)
    exact_table = score_table(scorer, exact)
    for i in range(2):
        assert abs(shot_table["expected"][i] - exact_table["expected"][i]) < 0.1


def test_engine_exact_matches_the_statevector_when_there_is_no_mid_circuit_measurement():
    from games.engines import get_game

    for seed in range(20):
        state = qtris_final_state(seed)
        circuit = get_game("qtris").circuit(state)
        if backends.has_mid_circuit_measurement(circuit):
            continue
        engine = QTrisScorer(state).exact()
        from_circuit = backends.exact_probabilities(circuit).probabilities
        assert set(engine) == set(from_circuit)
        for key, p in engine.items():
            assert from_circuit[key] == pytest.approx(p, abs=1e-9)
        return
    pytest.fail("no game without mid-circuit measurements among 20 seeds")


def test_exact_refuses_circuits_with_mid_circuit_measurement_without_the_engine():
    qc = QuantumCircuit(1, 2)
    qc.h(0)
    qc.measure(0, 1)
    qc.h(0)
    qc.measure(0, 0)
    with pytest.raises(backends.BackendError, match="measures in the middle"):
        backends.exact_probabilities(qc)


def test_noisy_run_records_transpiled_two_qubit_gates_and_depth():
    qc = QuantumCircuit(3, 3)
    qc.h(0)
    qc.cx(0, 1)
    qc.cx(1, 2)
    qc.measure(range(3), range(3))
    result = backends.run_noisy(qc, 2000, seed=5, device="fake_manila")
    assert result.transpiled_two_qubit_gates >= 2
    assert result.transpiled_depth >= 4
    assert sum(result.counts.values()) == 2000
    # noise: mostly GHZ outcomes, but not only
    ghz = result.counts.get("000", 0) + result.counts.get("111", 0)
    assert 0.7 * 2000 < ghz < 2000


def test_compact_noise_gives_the_same_counts_as_the_full_device_model():
    from qiskit import transpile
    from qiskit_aer import AerSimulator

    from simulator import devices

    backend = devices.fake_backend("fake_manila")
    qc = transpile(bell(), backend=backend, seed_transpiler=1)
    full = AerSimulator.from_backend(backend).run(qc, shots=3000, seed_simulator=9).result().get_counts()
    compact, simulator = devices.noisy_compact("fake_manila", qc)
    small = simulator.run(compact, shots=3000, seed_simulator=9).result().get_counts()
    assert full == small


def test_unknown_device_and_too_small_device_are_clear_errors():
    qc = QuantumCircuit(9, 9)
    qc.measure(range(9), range(9))
    with pytest.raises(backends.BackendError, match="unknown device"):
        backends.run_noisy(qc, 10, 1, "fake_nowhere")
    with pytest.raises(backends.BackendError, match="needs 9 qubits"):
        backends.run_noisy(qc, 10, 1, "fake_manila")


def test_qtris_scores_count_lines_with_little_endian_keys():
    state = {"lines": None}
    # squares 1,2,3 black (bits 0..2 = rightmost characters), the rest white
    assert score_outcome("qtris", "000000111", state) == {"white": 2, "black": 1}
    assert score_outcome("qtris", "000000000", state) == {"white": 8, "black": 0}
    assert score_outcome("qtris", "111111111", state) == {"white": 0, "black": 8}
    # the diagonal 1-5-9 black
    assert score_outcome("qtris", "100010001", state) == {"white": 0, "black": 1}


def test_poker_physics_circuit_scores_bets_of_cards_measuring_one():
    from games.engines import get_game

    game = get_game("quantum-poker")
    state = game.setup(players=2, variant="classic", seed=4, options={"physics_mode": True})
    circuit = game.circuit(state)
    exact = backends.exact_probabilities(circuit)
    assert sum(exact.probabilities.values()) == pytest.approx(1.0)
    from simulator.scoring import scorer_for

    scorer = scorer_for("quantum-poker", state, circuit)
    table = score_table(scorer, exact.probabilities)
    expected = game.analysis(state)["expected_exact"]
    assert table["expected"] == pytest.approx([e for e in expected if e is not None], abs=1e-6)

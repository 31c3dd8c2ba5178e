"""The path picker's preview is computed in the browser (static/games/ttr-circuit.js): over 300
random paths (gates I X Y Z H CNOT, lengths 1-4, every initial and target state of the rules)
its amplitudes, q0's Bloch vector and the fidelity equal the engine's register (numpy, through
``quantum``) and, independently, Qiskit's Statevector."""
from __future__ import annotations

import random

import numpy as np
import pytest
from qiskit.quantum_info import DensityMatrix, Statevector, partial_trace

from games.engines.quantum_ticket_to_ride import register
from games.engines.quantum_ticket_to_ride.circuit import unmeasured

pytestmark = [pytest.mark.browser, pytest.mark.server]
CASES = 300


def random_cases(seed: int = 13) -> list[dict]:
    rng = random.Random(seed)
    cases = []
    for _ in range(CASES):
        qubits = rng.choice([1, 2])
        target = rng.choice(sorted(register.STATES_1 if qubits == 1 else register.STATES_2))
        routes = [{"gate": rng.choice(register.GATE_NAMES), "length": rng.randint(1, 4)}
                  for _ in range(rng.randint(0, 6))]
        cases.append({"initial": rng.choice(sorted(register.STATES_1)), "target": target,
                      "qubits": qubits, "routes": routes})
    return cases


JS = """async (cases) => {
  const m = await import('/static/games/ttr-circuit.js');
  return cases.map((c) => {
    let psi = m.register(c.initial);
    for (const r of c.routes) psi = m.applyRoute(psi, r.gate, r.length);
    const target = m.register(c.target);
    return { amplitudes: psi, bloch: m.bloch(psi), fidelity: m.fidelity(psi, target, c.qubits) };
  });
}"""


def test_the_browser_preview_equals_the_engine_and_qiskit(chromium, server):
    page = chromium.new_page()
    page.goto(server.url + "/")
    cases = random_cases()
    results = page.evaluate(JS, cases)
    assert len(results) == CASES
    for case, got in zip(cases, results, strict=True):
        gates = register.expand((r["gate"], r["length"]) for r in case["routes"])
        psi = register.run_gates(case["initial"], gates)
        js_psi = np.array([complex(re, im) for re, im in got["amplitudes"]])
        assert np.allclose(js_psi, psi, atol=1e-12), case
        assert got["fidelity"] == pytest.approx(register.fidelity(psi, case["target"], case["qubits"]), abs=1e-12)
        # Qiskit, independently: its statevector is little-endian (q0 the rightmost bit)
        sv = Statevector(unmeasured(case["initial"], gates))
        ordered = np.array([sv.data[int(f"{k:02b}"[::-1], 2)] for k in range(4)])
        assert abs(abs(np.vdot(ordered, js_psi)) - 1) < 1e-9, case
        rho = partial_trace(DensityMatrix(sv), [1]).data
        bloch = [np.real(np.trace(rho @ p)) for p in (register.quantum.X, register.quantum.Y, register.quantum.Z)]
        assert [got["bloch"][k] for k in "xyz"] == pytest.approx(bloch, abs=1e-9), case
    # and the states of the rules by name, as the engine names them
    named = page.evaluate("""async (names) => { const m = await import('/static/games/ttr-circuit.js');
      return names.map((n) => m.register(n)); }""", sorted(register.STATES_1) + sorted(register.STATES_2))
    for name, amps in zip(sorted(register.STATES_1) + sorted(register.STATES_2), named, strict=True):
        expected = register.initial_register(name) if name in register.STATES_1 else register.STATES_2[name]
        assert np.allclose([complex(a, b) for a, b in amps], expected, atol=1e-12), name

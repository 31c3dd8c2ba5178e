"""The circuit of a run, for Aer, noisy fake devices or IBM hardware (qiskit imported lazily).

Qubit 0 is q0 (the mission qubit), qubit 1 is q1. The mission's initial state is prepared on
q0, the path's gates follow (I as an identity gate, CNOT as cx(0, 1)), then the register is
measured in the target's basis: a one-qubit mission measures q0 alone (after H for |±⟩), a
two-qubit mission both qubits after the basis change that takes the target to a basis state
(H on q0 for |±b⟩, cx then H for the Bell states). ``metadata["success"]`` lists the outcome
keys (qiskit order: the rightmost character is classical bit 0 = q0) that mean "the target was
found"; their probability is the fidelity, so the success rate of many shots estimates it.
"""
from __future__ import annotations

#: per two-qubit target: (basis change, expected q0, expected q1)
_TWO = {"00": ("", 0, 0), "01": ("", 0, 1), "10": ("", 1, 0), "11": ("", 1, 1),
        "+0": ("h", 0, 0), "-0": ("h", 1, 0), "+1": ("h", 0, 1), "-1": ("h", 1, 1),
        "Phi+": ("bell", 0, 0), "Phi-": ("bell", 1, 0), "Psi+": ("bell", 0, 1),
        "Psi-": ("bell", 1, 1)}
_PREP = {"0": (), "1": ("x",), "+": ("h",), "-": ("x", "h")}


def success_keys(target_state: str, qubits: int) -> list[str]:
    """The measured keys that count as success for a target."""
    if qubits == 1:
        return ["0" if target_state in ("0", "+") else "1"]
    _, b0, b1 = _TWO[target_state]
    return [f"{b1}{b0}"]


def unmeasured(initial_state: str, gates: list[str]):
    """The prepared register and the path's gates, without measurement."""
    from qiskit import QuantumCircuit

    qc = QuantumCircuit(2)
    for g in _PREP[initial_state]:
        getattr(qc, g)(0)
    for gate in gates:
        if gate == "CNOT":
            qc.cx(0, 1)
        elif gate == "I":
            qc.id(0)
        else:
            getattr(qc, gate.lower())(0)
    return qc


def run_circuit(run: dict):
    """The measured circuit of one run (a ``Run`` of the state)."""
    from qiskit import ClassicalRegister, QuantumCircuit, QuantumRegister

    mission = run["mission"]
    qubits, target = mission["qubits"], mission["target_state"]
    qc = QuantumCircuit(QuantumRegister(2, "q"), ClassicalRegister(qubits, "meas"),
                        name=f"ticket-to-ride-{mission['id']}")
    qc.compose(unmeasured(mission["initial_state"], run["gates"]), inplace=True)
    qc.barrier()
    if qubits == 1:
        if target in ("+", "-"):
            qc.h(0)
        qc.measure(0, 0)
    else:
        change = _TWO[target][0]
        if change == "h":
            qc.h(0)
        elif change == "bell":
            qc.cx(0, 1)
            qc.h(0)
        qc.measure([0, 1], [0, 1])
    qc.metadata = {"game": "quantum-ticket-to-ride", "seat": run["seat"],
                   "mission": dict(mission), "cities": list(run["cities"]),
                   "success": success_keys(target, qubits), "fidelity": run["fidelity"],
                   "ran": run.get("ran", True)}
    return qc

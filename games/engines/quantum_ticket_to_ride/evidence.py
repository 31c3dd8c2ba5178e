"""Quantum Ticket-to-Ride's concept evidence (see "Concept evidence" in games/engines/base.py):
what a run shows of its runner's understanding. A run is judged from the runner's own mission
(secret to everyone else) and the register along the path, which the runner could work out (the
run preview shows it) — so a run that misses always had a matching run or a pass beside it.

* ``phase_miss`` (phase, misconception): a run that misses with the target's chances of 0 and 1
  but another sign: a relative phase picked up on the way.
* ``entangled_miss`` (entanglement, misconception): a one-qubit mission's run that misses because
  a CNOT entangled the mission qubit with q1.
* ``superposition_miss`` (superposition, misconception): a run that misses by mixing up a basis
  state and an equal superposition (fidelity ½).
* ``interference`` (interference, shows): a matching run that passes through a superposition and
  comes back to a sure basis state.
* ``phase_used`` (phase, shows): a matching run in which a Z or Y changed the sign inside a
  superposition.
* ``superposed_goal`` (superposition, shows): a matching run to a one-qubit |+⟩ or |−⟩ goal.
* ``bell_goal`` (entanglement, shows): a matching run to a Bell state.
"""
from __future__ import annotations

import numpy as np

import quantum

from ..base import Action, Evidence, State, evidence, gettext_noop
from . import register

EVIDENCE_TEXTS = {
    "phase_miss": gettext_noop(
        "The run %(gates)s reached %(reached)s, not %(goal)s: the chances of 0 and 1 are the "
        "same, only the sign between them differs — a relative phase the path picked up, which "
        "a later H would turn into a different value."),
    "entangled_miss": gettext_noop(
        "The run %(gates)s missed %(goal)s because a CNOT acted while the mission qubit was in "
        "superposition: it became entangled with the second qubit, so on its own it is no "
        "longer %(goal)s or any pure state."),
    "superposition_miss": gettext_noop(
        "The run %(gates)s reached %(reached)s, not %(goal)s: a superposition is not a value "
        "between 0 and 1, and a basis state is not a superposition; the two only agree half of "
        "the time (fidelity ½)."),
    "interference": gettext_noop(
        "The run %(gates)s took the mission qubit into a superposition and back to a sure "
        "%(goal)s: the paths through 0 and 1 interfered."),
    "phase_used": gettext_noop(
        "The run %(gates)s used %(gate)s inside a superposition: the sign it gave decided where "
        "the path ended, %(goal)s."),
    "superposed_goal": gettext_noop(
        "The run %(gates)s reached the superposition %(goal)s exactly: the chances of 0 and 1 "
        "and the sign between them."),
    "bell_goal": gettext_noop(
        "The run %(gates)s reached the entangled state %(goal)s: the mission qubit was in "
        "superposition when the CNOT linked it to the second qubit."),
}

TOL = 1e-9
BASIS_1 = ("0", "1")
SUPERPOSED_1 = ("+", "-")


def _probabilities(psi: np.ndarray, qubits: int) -> np.ndarray:
    if qubits == 1:
        return np.real(np.diag(quantum.reduced_density(psi, [0], 2)))
    return np.abs(psi) ** 2


def _q0_pure(psi: np.ndarray) -> np.ndarray | None:
    factors = quantum.split_product(psi)
    return None if factors is None else factors[0] / np.linalg.norm(factors[0])


def _in_basis(q0: np.ndarray | None) -> bool:
    return q0 is not None and min(abs(q0[0]), abs(q0[1])) < TOL


def concept_evidence(before: State, seat: int, action: Action, after: State) -> list[Evidence]:
    if "run" not in action or len(after.get("runs") or []) != len(before.get("runs") or []) + 1:
        return []
    run = after["runs"][-1]
    if run.get("seat") != seat:
        return []
    mission = before["missions"][seat]
    qubits, goal_name = mission["qubits"], mission["target_state"]
    gates = list(run["gates"])
    psi = register.run_gates(mission["initial_state"], gates)
    goal = register.label(goal_name)
    target = (register.STATES_1 if qubits == 1 else register.STATES_2)[goal_name]
    target_register = quantum.kron(target, quantum.KET0) if qubits == 1 else target
    shown = " → ".join(gates) or "I"
    found: list[Evidence] = []
    if not run["match"]:
        q0 = _q0_pure(psi)
        reached_probabilities = _probabilities(psi, qubits)
        same_chances = np.allclose(reached_probabilities, _probabilities(target_register, qubits), atol=1e-9)
        if qubits == 1 and q0 is None:
            found.append(evidence(EVIDENCE_TEXTS, "entanglement", "misconception", "entangled_miss",
                                  {"gates": shown, "goal": goal}))
        elif same_chances and (qubits == 2 or q0 is not None):
            found.append(evidence(EVIDENCE_TEXTS, "phase", "misconception", "phase_miss",
                                  {"gates": shown, "reached": run["ket"] if qubits == 2 else run["q0"],
                                   "goal": goal}))
        elif (qubits == 1 and q0 is not None and abs(run["fidelity"] - 0.5) < TOL
              and (goal_name in BASIS_1) != _in_basis(q0)):
            found.append(evidence(EVIDENCE_TEXTS, "superposition", "misconception", "superposition_miss",
                                  {"gates": shown, "reached": run["q0"], "goal": goal}))
        return found
    # a matching run: follow the register gate by gate
    state = register.initial_register(mission["initial_state"])
    superposed_on_way, phase_gate = False, None
    for gate in gates:
        inside = not _in_basis(_q0_pure(state))
        superposed_on_way |= inside
        if gate in ("Z", "Y") and inside and phase_gate is None and _q0_pure(state) is not None:
            phase_gate = gate
        state = register.apply_gate(state, gate)
    ends_in_basis = np.max(np.abs(target_register) ** 2) > 1 - TOL
    if phase_gate is not None:
        found.append(evidence(EVIDENCE_TEXTS, "phase", "shows", "phase_used",
                              {"gates": shown, "gate": phase_gate, "goal": goal}))
    if superposed_on_way and ends_in_basis:
        found.append(evidence(EVIDENCE_TEXTS, "interference", "shows", "interference",
                              {"gates": shown, "goal": goal}))
    if qubits == 1 and goal_name in SUPERPOSED_1:
        found.append(evidence(EVIDENCE_TEXTS, "superposition", "shows", "superposed_goal",
                              {"gates": shown, "goal": goal}))
    if goal_name.startswith(("Phi", "Psi")):
        found.append(evidence(EVIDENCE_TEXTS, "entanglement", "shows", "bell_goal",
                              {"gates": shown, "goal": goal}))
    return found

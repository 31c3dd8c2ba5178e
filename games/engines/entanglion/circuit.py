"""The ships' Qiskit circuit since the last non-unitary jump (qiskit imported here only).

q0 = Mercurial, q1 = Rubicon. The circuit prepares the planets' state at the last jump (setup,
detection landing, Heisenberg, the Superious phase kick-back the board ignores) from |00⟩ with
the shortest card sequence of the game itself, then applies every card played since as its real
gate (CNOT: the player's ship is the target), then measures both qubits (clbit k = qubit k).
"""
from __future__ import annotations

from .analysis import shortest
from .navigation import gate_of
from .planets import CENTARIOUS, PLANETS, SHIPS, inside


def preparation(ships: dict) -> list[list]:
    """Gates taking |00⟩ (both ships on ZERO) to ``ships``."""
    zero = {"mercurial": "ZERO", "rubicon": "ZERO"}
    if inside(ships):
        path = shortest(zero, None, {ships["mercurial"]})
        assert path is not None     # every Entanglion planet is a few cards from |00>
        return [gate_of(step["seat"], step["card"]) for step in path]
    gates = []
    for seat, ship in enumerate(SHIPS):
        planet = ships[ship]
        if planet in ("ONE", "MINUS"):
            gates.append(["x", seat])
        if PLANETS[planet] != CENTARIOUS:
            gates.append(["h", seat])
    return gates


def ships_circuit(state: dict):
    from qiskit import QuantumCircuit

    record = state["circuit"]
    qc = QuantumCircuit(2, 2, name="entanglion-ships")
    prep = preparation(record["start"])
    for gate in prep + [["barrier"]] + record["gates"]:
        name, qubits = gate[0], gate[1:]
        if name == "barrier":
            qc.barrier()
        else:
            getattr(qc, name)(*qubits)
    qc.barrier()
    qc.measure([0, 1], [0, 1])
    qc.metadata = {"qubits": {"0": "mercurial", "1": "rubicon"}, "start": dict(record["start"]),
                   "preparation": prep, "gates": [list(g) for g in record["gates"]],
                   "ships": dict(state["ships"])}
    return qc

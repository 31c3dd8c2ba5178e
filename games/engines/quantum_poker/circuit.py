"""The qiskit circuit of one hand's qubit cards (physics mode)."""
from __future__ import annotations


def hand_circuit(hand: dict):
    """The qiskit circuit of one hand's qubit cards (see ``QuantumPoker.circuit``)."""
    from qiskit import QuantumCircuit

    bits: list[dict] = []
    for s, in_hand in enumerate(hand["in_hand"]):
        if in_hand:
            for slot, q in enumerate(hand["qubits"][s]):
                bits.append({"bit": len(bits), "seat": s, "qubit": slot, "card": q["id"]})
    qc = QuantumCircuit(len(bits), len(bits), name=f"quantum-poker-hand-{hand['number']}")
    for b in bits:
        q = hand["qubits"][b["seat"]][b["qubit"]]
        k = b["bit"]
        if q["initial"] == 1:
            qc.x(k)
        for g in q["gates"]:
            {"X": qc.x, "Y": qc.y, "Z": qc.z, "H": qc.h}[g](k)
    qc.barrier()
    qc.measure(range(len(bits)), range(len(bits)))
    qc.metadata = {"hand": hand["number"], "bits": bits}
    return qc

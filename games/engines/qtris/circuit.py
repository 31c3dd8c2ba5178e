"""The match as a Qiskit circuit (qiskit is imported only here).

``build_circuit(ops)`` turns the circuit log kept in ``state["circuit_ops"]`` into a
``QuantumCircuit`` on 9 qubits (qubit k-1 = square k) that prepares the current position from
|0…0⟩ and then measures qubit k-1 into classical bit k-1 of register ``c``.

Circuit log operations (JSON):

* ``{"op": "prep", "components": [...], "reset": bool}``: prepare board components from |0⟩
  (after resetting their qubits when ``reset``). A pure component is prepared with gates
  (B: X, R: H, L: X → H, UP: H → S, DOWN: H → S†, in the order they act; U decoration: the U gate as a ``UnitaryGate``
  named "U", pairs: H + CX (+ X/Z for the sign/orientation), then H/U decoration).
  A *mixture* needs a classical random choice: stick-breaking on the component's first
  qubit — RY so that P(1) = weight_i / remaining, measure into a fresh bit of register
  ``mix``, reset — then the member is prepared inside nested ``if_test`` blocks. So circuits
  with mixtures (or noise) need a simulator with mid-circuit measurement (Aer), not Statevector.
* ``{"op": "gate", "gate": "X", "squares": [5], "frame": bool}``: a card; ``frame`` means the
  frame rule, applied as U, X, U. ``CX`` has squares [control, target].
* ``{"op": "measure", "squares": [s], "basis": "color"}``: a mid-circuit measurement (noise,
  or Eve's in the chosen basis) into a fresh bit of register ``mid``. Eve's seen outcome is
  then fixed by a ``prep`` with ``reset`` of the collapsed component(s).

The final measurement bits are the rightmost register in qiskit's counts keys; use
``scoring.outcome_of_bitstring`` to read them.
"""
from __future__ import annotations

import math
from typing import Any

import quantum

from . import tiles as T
from .weights import parse


def _u_gate():
    from qiskit.circuit.library import UnitaryGate

    return UnitaryGate(quantum.U, label="U")


def _prep_single(qc, q, desc: str) -> None:
    code = T.base_code(desc)
    if code == "B":
        qc.x(q)
    elif code == "R":
        qc.h(q)
    elif code == "L":
        qc.x(q)
        qc.h(q)
    elif code == "UP":
        qc.h(q)
        qc.s(q)
    elif code == "DOWN":
        qc.h(q)
        qc.sdg(q)
    if desc.startswith("U:"):
        qc.append(_u_gate(), [q])


def _prep_member(qc, qubits: list[int], desc: Any) -> None:
    if isinstance(desc, list):
        _prep_single(qc, qubits[0], desc[0])
        _prep_single(qc, qubits[1], desc[1])
        return
    if len(qubits) == 1:
        _prep_single(qc, qubits[0], desc)
        return
    a, b = qubits
    code = T.base_code(desc)
    qc.h(a)
    qc.cx(a, b)
    if code.startswith("psi"):
        qc.x(b)
    if code.endswith("-"):
        qc.z(a)
    deco = T.pair_decoration(desc)
    if deco == "H":
        qc.h(a)
    elif deco == "U1":
        qc.append(_u_gate(), [a])
    elif deco == "U2":
        qc.append(_u_gate(), [b])


def build_circuit(ops: list[dict[str, Any]], measure: bool = True):
    """Build the QuantumCircuit of a circuit log (see module docstring)."""
    from qiskit import ClassicalRegister, QuantumCircuit, QuantumRegister

    n_mix = 0
    n_mid = 0
    for op in ops:
        if op["op"] == "prep":
            for comp in op["components"]:
                n_mix += max(0, len(comp["members"]) - 1)
        elif op["op"] == "measure":
            n_mid += len(op["squares"])
    q = QuantumRegister(9, "q")
    c = ClassicalRegister(9, "c")
    regs = [q, c]
    mix = ClassicalRegister(n_mix, "mix") if n_mix else None
    mid = ClassicalRegister(n_mid, "mid") if n_mid else None
    regs += [r for r in (mix, mid) if r is not None]
    qc = QuantumCircuit(*regs, name="qtris")
    mix_i = 0
    mid_i = 0
    for op in ops:
        if op["op"] == "prep":
            for comp in op["components"]:
                qubits = [q[s - 1] for s in comp["squares"]]
                if op.get("reset"):
                    for qb in qubits:
                        qc.reset(qb)
                members = [(m["tile"], float(parse(m["weight"]))) for m in comp["members"]]
                if len(members) == 1:
                    _prep_member(qc, qubits, members[0][0])
                    continue
                bits = []
                remaining = 1.0
                for _tile, w in members[:-1]:
                    assert mix is not None      # n_mix counted these members
                    p1 = min(1.0, max(0.0, w / remaining)) if remaining > 1e-12 else 0.0
                    qc.ry(2 * math.asin(math.sqrt(p1)), qubits[0])
                    qc.measure(qubits[0], mix[mix_i])
                    qc.reset(qubits[0])
                    bits.append(mix[mix_i])
                    mix_i += 1
                    remaining -= w
                _prep_choice(qc, qubits, members, bits, 0)
        elif op["op"] == "gate":
            qubits = [q[s - 1] for s in op["squares"]]
            g = op["gate"]
            if g == "CX":
                qc.cx(qubits[0], qubits[1])
                continue
            if op.get("frame"):
                qc.append(_u_gate(), qubits)
            if g == "U":
                qc.append(_u_gate(), qubits)
            else:
                getattr(qc, g.lower())(qubits[0])
            if op.get("frame"):
                qc.append(_u_gate(), qubits)
        elif op["op"] == "measure":
            basis = op.get("basis", "color")
            for s in op["squares"]:
                assert mid is not None          # n_mid counted these squares
                qb = q[s - 1]
                if basis == "left-right":
                    qc.h(qb)
                elif basis == "up-down":
                    qc.sdg(qb)
                    qc.h(qb)
                qc.measure(qb, mid[mid_i])
                mid_i += 1
                if basis == "left-right":
                    qc.h(qb)
                elif basis == "up-down":
                    qc.h(qb)
                    qc.s(qb)
    if measure:
        qc.measure(q, c)
    return qc


def _prep_choice(qc, qubits, members, bits, i) -> None:
    """Member ``i`` if bit i is 1, else recurse; the last member when all bits are 0."""
    if i == len(members) - 1:
        _prep_member(qc, qubits, members[i][0])
        return
    with qc.if_test((bits[i], 1)) as else_:
        _prep_member(qc, qubits, members[i][0])
    with else_:
        _prep_choice(qc, qubits, members, bits, i + 1)


def to_qasm3(qc) -> str:
    """OpenQASM 3 text of a circuit."""
    from qiskit import qasm3

    return qasm3.dumps(qc)

"""Back ends that turn a measured circuit into outcome statistics.

* ``exact``: the Born-rule distribution, no shots (the engine's own, or the statevector of
  the circuit when it has no mid-circuit measurement);
* ``aer``: Qiskit Aer, ideal, seeded;
* ``aer-noisy``: Aer with the noise model of an IBM device (a fake backend), after
  transpiling the circuit for that device;
* ``ibm``: real hardware through qiskit-ibm-runtime — see ``simulator.ibm`` (submitted,
  then polled; never simulated here).

Outcome keys are the bits of the circuit's final-measurement register (its first classical
register), qiskit order: rightmost character = classical bit 0.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator import devices

CONTROL_FLOW = {"if_else", "while_loop", "for_loop", "switch_case", "box"}
MAX_CHUNKS = 10
MIN_CHUNK = 500


class BackendError(Exception):
    """A run that cannot succeed as asked; ``str(exc)`` is a message for a teacher."""


class TransientBackendError(BackendError):
    """A failure worth retrying (network, service busy)."""


class RunCancelled(Exception):
    """The run was cancelled while it was running."""


@dataclass
class Execution:
    counts: dict[str, int] | None = None
    probabilities: dict[str, float] | None = None
    seconds: float = 0.0
    transpiled_depth: int | None = None
    transpiled_two_qubit_gates: int | None = None


#: called with the shots done so far; returns False when the run should stop (cancelled)
Progress = Callable[[int], bool]


def final_bits(circuit: Any) -> int:
    if not circuit.cregs:
        raise BackendError("The circuit measures nothing.")
    return circuit.cregs[0].size


def final_key(key: str, n_bits: int) -> str:
    """The final-register bits of a counts key (other registers are to its left)."""
    return key.replace(" ", "")[-n_bits:]


def normalise_counts(counts: dict[str, int], circuit: Any) -> dict[str, int]:
    n = final_bits(circuit)
    out: dict[str, int] = {}
    for key, c in counts.items():
        k = final_key(key, n)
        out[k] = out.get(k, 0) + int(c)
    return out


def two_qubit_gates(circuit: Any) -> int:
    """Two-qubit gates of a circuit, looking inside control-flow blocks."""
    total = 0
    for inst in circuit.data:
        op = inst.operation
        if getattr(op, "blocks", None):
            total += sum(two_qubit_gates(b) for b in op.blocks)
        elif op.num_qubits == 2 and op.name not in ("barrier", "measure"):
            total += 1
    return total


# ------------------------------------------------------------------ exact

def has_mid_circuit_measurement(circuit: Any) -> bool:
    stripped = circuit.remove_final_measurements(inplace=False)
    return any(inst.operation.name in CONTROL_FLOW | {"measure", "reset"} for inst in stripped.data)


def exact_probabilities(circuit: Any, engine_exact: dict[str, float] | None = None
                        ) -> Execution:
    """Born probabilities of the final register: the engine's own when it has them, else the
    statevector of the circuit without its final measurements."""
    started = time.perf_counter()
    if engine_exact is not None:
        probs = {k: float(p) for k, p in engine_exact.items() if p > 1e-15}
        return Execution(probabilities=probs, seconds=time.perf_counter() - started)
    if has_mid_circuit_measurement(circuit):
        raise BackendError("This circuit measures in the middle; its exact distribution comes "
                           "from the game's own analysis, which is not available here.")
    from qiskit.quantum_info import Statevector

    n = final_bits(circuit)
    creg = circuit.cregs[0]
    qubit_of_clbit: dict[int, int] = {}
    for inst in circuit.data:
        if inst.operation.name == "measure":
            clbit = inst.clbits[0]
            if clbit in creg:
                qubit_of_clbit[creg.index(clbit)] = circuit.find_bit(inst.qubits[0]).index
    if sorted(qubit_of_clbit) != list(range(n)):
        raise BackendError("Not every bit of the final register is measured.")
    state = Statevector(circuit.remove_final_measurements(inplace=False))
    raw = state.probabilities_dict(qargs=[qubit_of_clbit[i] for i in range(n)])
    probs = {k: float(p) for k, p in raw.items() if p > 1e-15}
    return Execution(probabilities=probs, seconds=time.perf_counter() - started)


# ------------------------------------------------------------------ Aer

def chunks(shots: int) -> list[int]:
    """Split ``shots`` into at most MAX_CHUNKS pieces (progress and cancellation points)."""
    n = max(1, min(MAX_CHUNKS, shots // MIN_CHUNK))
    base, extra = divmod(shots, n)
    return [base + (1 if i < extra else 0) for i in range(n)]


def _sample(simulator: Any, circuit: Any, shots: int, seed: int, progress: Progress | None,
            pause: float = 0.0) -> tuple[dict[str, int], float]:
    counts: dict[str, int] = {}
    seconds = 0.0
    done = 0
    for i, n in enumerate(chunks(shots)):
        t0 = time.perf_counter()
        result = simulator.run(circuit, shots=n, seed_simulator=(seed + i) % 2**63).result()
        seconds += time.perf_counter() - t0
        for key, c in result.get_counts().items():
            counts[key] = counts.get(key, 0) + int(c)
        done += n
        if progress is not None and not progress(done):
            raise RunCancelled()
        if pause:
            time.sleep(pause)
    return counts, seconds


def run_aer(circuit: Any, shots: int, seed: int, progress: Progress | None = None,
            pause: float = 0.0) -> Execution:
    """Ideal Aer simulation, seeded (chunk ``i`` uses seed + i)."""
    from qiskit import transpile
    from qiskit_aer import AerSimulator

    simulator = AerSimulator()
    compiled = transpile(circuit, simulator, seed_transpiler=seed % 2**31)
    counts, seconds = _sample(simulator, compiled, shots, seed, progress, pause)
    return Execution(counts=normalise_counts(counts, circuit), seconds=seconds)


def transpile_for(circuit: Any, backend: Any, seed: int) -> Any:
    from qiskit import transpile

    if circuit.num_qubits > backend.num_qubits:
        raise BackendError(f"The circuit needs {circuit.num_qubits} qubits; {backend.name} has "
                           f"{backend.num_qubits}.")
    try:
        return transpile(circuit, backend=backend, seed_transpiler=seed % 2**31,
                         optimization_level=1)
    except Exception as exc:  # a transpiler failure is the circuit's, not the worker's
        raise BackendError(f"The circuit could not be compiled for {backend.name}: {exc}") from exc


def run_noisy(circuit: Any, shots: int, seed: int, device: str,
              progress: Progress | None = None, pause: float = 0.0) -> Execution:
    """Aer with ``device``'s noise; records the transpiled depth and two-qubit gate count."""
    try:
        backend = devices.fake_backend(device)
    except devices.UnknownDevice as exc:
        raise BackendError(str(exc)) from exc
    compiled = transpile_for(circuit, backend, seed)
    circuit_on_device, simulator = devices.noisy_compact(device, compiled)
    counts, seconds = _sample(simulator, circuit_on_device, shots, seed, progress, pause)
    return Execution(counts=normalise_counts(counts, circuit), seconds=seconds,
                     transpiled_depth=compiled.depth(),
                     transpiled_two_qubit_gates=two_qubit_gates(compiled))

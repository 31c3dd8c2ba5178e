"""IBM devices whose noise Aer can imitate: fake backends shipped with qiskit-ibm-runtime
(calibration snapshots of real machines: coupling map, native gates, error rates)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.translation import gettext

#: device name -> (fake backend class in qiskit_ibm_runtime.fake_provider, machine, processor,
#: qubits, native two-qubit gate, only for small circuits); device_choices words it for the reader
FAKE_DEVICES: dict[str, tuple[str, str, str, int, str, bool]] = {
    "fake_brisbane": ("FakeBrisbane", "IBM Brisbane", "Eagle", 127, "ECR", False),
    "fake_sherbrooke": ("FakeSherbrooke", "IBM Sherbrooke", "Eagle", 127, "ECR", False),
    "fake_kyiv": ("FakeKyiv", "IBM Kyiv", "Eagle", 127, "CZ", False),
    "fake_torino": ("FakeTorino", "IBM Torino", "Heron", 133, "CZ", False),
    "fake_fez": ("FakeFez", "IBM Fez", "Heron r2", 156, "CZ", False),
    "fake_manila": ("FakeManilaV2", "IBM Manila", "Falcon", 5, "", True),
}
DEFAULT_DEVICE = "fake_brisbane"


class UnknownDevice(ValueError):
    pass


def describe(name: str) -> str:
    """A device as the reader sees it: "IBM Brisbane (Eagle, 127 qubits, ECR gates)"."""
    _cls, machine, processor, qubits, gate, small = FAKE_DEVICES[name]
    values = {"machine": machine, "processor": processor, "qubits": qubits, "gate": gate}
    if small:
        return gettext("%(machine)s (%(processor)s, %(qubits)s qubits) — small circuits only") % values
    return gettext("%(machine)s (%(processor)s, %(qubits)s qubits, %(gate)s gates)") % values


def device_choices() -> list[dict[str, str]]:
    return [{"name": name, "description": describe(name)} for name in FAKE_DEVICES]


@lru_cache(maxsize=8)
def fake_backend(name: str) -> Any:
    """The fake backend called ``name`` (one instance per process)."""
    if name not in FAKE_DEVICES:
        raise UnknownDevice(f"unknown device {name!r}; choose one of {', '.join(FAKE_DEVICES)}")
    from qiskit_ibm_runtime import fake_provider

    return getattr(fake_provider, FAKE_DEVICES[name][0])()


@lru_cache(maxsize=8)
def noise_model(name: str) -> Any:
    """The noise model of device ``name`` (seconds to build for 127 qubits: cached)."""
    from qiskit_aer.noise import NoiseModel

    return NoiseModel.from_backend(fake_backend(name))


@lru_cache(maxsize=64)
def _noisy_simulator(name: str, physical: tuple[int, ...]) -> Any:
    from qiskit_aer import AerSimulator
    from qiskit_aer.noise import NoiseModel

    full = noise_model(name)
    index = {p: i for i, p in enumerate(physical)}
    small = NoiseModel(basis_gates=full.basis_gates)
    for gate, table in full._local_quantum_errors.items():
        for qubits, error in table.items():
            if all(q in index for q in qubits):
                small.add_quantum_error(error, gate, [index[q] for q in qubits])
    for gate, error in full._default_quantum_errors.items():
        small.add_all_qubit_quantum_error(error, gate)
    for qubits, error in full._local_readout_errors.items():
        if all(q in index for q in qubits):
            small.add_readout_error(error, [index[q] for q in qubits])
    if full._default_readout_error is not None:
        small.add_all_qubit_readout_error(full._default_readout_error)
    return AerSimulator(noise_model=small)


def noisy_compact(name: str, transpiled: Any) -> tuple[Any, Any]:
    """The transpiled circuit on its active physical qubits only, and an Aer simulator with
    the noise of exactly those qubits of device ``name``.

    Same physics as ``AerSimulator.from_backend`` (identical counts for a seed), without
    handing Aer the noise of 100+ idle qubits on every call (≈2 s each)."""
    from qiskit import QuantumCircuit, QuantumRegister

    physical = tuple(sorted({transpiled.find_bit(q).index for inst in transpiled.data
                             for q in inst.qubits}))
    index = {p: i for i, p in enumerate(physical)}
    register = QuantumRegister(len(physical), "q")
    compact = QuantumCircuit(register, *transpiled.cregs, name=transpiled.name)
    for inst in transpiled.data:
        compact.append(inst.operation,
                       [register[index[transpiled.find_bit(q).index]] for q in inst.qubits],
                       list(inst.clbits))
    return compact, _noisy_simulator(name, physical)

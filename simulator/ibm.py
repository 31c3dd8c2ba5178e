"""IBM Quantum hardware through qiskit-ibm-runtime.

A hardware run is *submitted* (the job id is stored) and then *polled* by short tasks; no
task waits for the queue. The sampler is the client-side ``executor_sampler.Sampler`` (the
server-side ``SamplerV2`` is deprecated since qiskit-ibm-runtime 0.50).

The service comes from a factory so that the very same code runs against a fake backend:
``LocalService`` serves qiskit-ibm-runtime's fake devices in local testing mode and keeps
its jobs so that they can be polled by id.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator import devices
from simulator.backends import BackendError, TransientBackendError, transpile_for, two_qubit_gates


@dataclass(frozen=True)
class Account:
    token: str
    channel: str = "ibm_quantum_platform"
    instance: str = ""


ServiceFactory = Callable[[Account], Any]


def runtime_service(account: Account) -> Any:
    from qiskit_ibm_runtime import QiskitRuntimeService

    return QiskitRuntimeService(channel=account.channel, token=account.token,
                                instance=account.instance or None)


_LOCAL_JOBS: dict[str, Any] = {}


class LocalService:
    """A stand-in for ``QiskitRuntimeService``: fake devices, jobs run locally (Aer with the
    device's noise) and remembered for polling."""

    def __init__(self, account: Account | None = None, backends: dict[str, Any] | None = None):
        self.account = account
        self.backends = backends or {}
        self.jobs = _LOCAL_JOBS  # shared by every instance, like the jobs of a real account

    def backend(self, name: str) -> Any:
        if name in self.backends:
            return self.backends[name]
        try:
            return devices.fake_backend(name)
        except devices.UnknownDevice as exc:
            raise BackendError(f"IBM Quantum has no device called {name!r}.") from exc

    def remember_job(self, job: Any) -> None:
        self.jobs[job.job_id()] = job

    def job(self, job_id: str) -> Any:
        if job_id not in self.jobs:
            raise BackendError(f"The job {job_id} is not known to this service.")
        return self.jobs[job_id]


_factory: ServiceFactory = runtime_service


def set_service_factory(factory: ServiceFactory | None) -> ServiceFactory:
    """Use ``factory`` to build services (None: the real QiskitRuntimeService); returns the
    previous factory."""
    global _factory
    previous = _factory
    _factory = factory or runtime_service
    return previous


# ------------------------------------------------------------------ errors

def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while exc is not None and exc not in seen:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def classify(exc: BaseException) -> BackendError:
    """A clear, stored message for a failure talking to IBM Quantum."""
    if isinstance(exc, BackendError):
        return exc
    import requests

    chain = _chain(exc)
    if any(isinstance(e, (requests.ConnectionError, requests.Timeout, ConnectionError, TimeoutError))
           for e in chain):
        return TransientBackendError(
            "IBM Quantum could not be reached (network error). Check the server's internet "
            f"connection; the run is retried. Details: {exc}")
    from qiskit_ibm_runtime.exceptions import IBMAccountError, IBMNotAuthorizedError

    if any(isinstance(e, (IBMAccountError, IBMNotAuthorizedError)) for e in chain):
        return BackendError(
            "IBM Quantum refused the class's API token. Save a new token on the class's "
            f"quantum settings page. Details: {exc}")
    return BackendError(f"IBM Quantum reported an error: {type(exc).__name__}: {exc}")


def connect(account: Account) -> Any:
    try:
        return _factory(account)
    except Exception as exc:  # every failure becomes a message a teacher can act on
        raise classify(exc) from exc


# ------------------------------------------------------------------ submit / poll

@dataclass
class Submitted:
    job_id: str
    transpiled_depth: int
    transpiled_two_qubit_gates: int


@dataclass
class JobState:
    status: str  # pending | done | failed | cancelled
    counts: dict[str, int] | None = None
    error: str = ""
    seconds: float | None = None


def submit(service: Any, device: str, circuit: Any, shots: int, seed: int) -> Submitted:
    """Transpile for ``device`` and submit a sampler job; returns its id."""
    from qiskit_ibm_runtime.executor_sampler import Sampler

    try:
        backend = service.backend(device)
    except Exception as exc:
        raise classify(exc) from exc
    isa = transpile_for(circuit, backend, seed)
    try:
        sampler = Sampler(mode=backend)
        sampler.options.simulator.seed_simulator = seed % 2**31  # local testing mode only
        job = sampler.run([isa], shots=shots)
    except Exception as exc:
        raise classify(exc) from exc
    remember = getattr(service, "remember_job", None)
    if remember is not None:
        remember(job)
    return Submitted(job.job_id(), isa.depth(), two_qubit_gates(isa))


def _status_name(job: Any) -> str:
    status = job.status()
    return str(getattr(status, "name", status)).upper()


def poll(service: Any, job_id: str, register: str) -> JobState:
    """The job's state; when done, the counts of the classical register ``register``."""
    try:
        job = service.job(job_id)
        name = _status_name(job)
        if name in ("DONE", "COMPLETED"):
            result = job.result()
            data = result[0].data
            bits = getattr(data, register, None)
            if bits is None:
                bits = data[register]
            counts = {k: int(v) for k, v in bits.get_counts().items()}
            seconds = None
            usage = getattr(job, "usage", None)
            if callable(usage):
                try:
                    seconds = float(usage())
                except Exception:
                    seconds = None
            return JobState("done", counts=counts, seconds=seconds)
        if name in ("ERROR", "FAILED"):
            message = getattr(job, "error_message", lambda: "")() or "the job failed"
            return JobState("failed", error=f"IBM Quantum job {job_id} failed: {message}")
        if name in ("CANCELLED",):
            return JobState("cancelled", error=f"IBM Quantum job {job_id} was cancelled.")
        return JobState("pending")
    except BackendError:
        raise
    except Exception as exc:
        raise classify(exc) from exc


def cancel(service: Any, job_id: str) -> None:
    try:
        service.job(job_id).cancel()
    except Exception:  # best effort: the job may already be finished
        pass

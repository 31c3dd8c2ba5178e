"""One qubit card as a real qubit: amplitudes, the gates X, Y, Z, H, P(1) and kets (physics mode
and the simplified game's teaching notes)."""
from __future__ import annotations

import numpy as np

import quantum

from ..base import (
    message,
)

EPS = 1e-9


# --------------------------------------------------------------------------- single qubits

def _amps_to_c(amps: list) -> tuple[complex, complex]:
    return complex(*amps[0]), complex(*amps[1])


def _clean(x: float) -> float:
    x = round(x, 12)
    return 0.0 if x == 0 else x


def _c_to_amps(a: complex, b: complex) -> list:
    return [[_clean(a.real), _clean(a.imag)], [_clean(b.real), _clean(b.imag)]]


def _basis_amps(value: int) -> list:
    return [[1.0, 0.0], [0.0, 0.0]] if value == 0 else [[0.0, 0.0], [1.0, 0.0]]


def _gate(amps: list, gate: str) -> list:
    """The real one-qubit gate (``quantum.GATES``: X, Y, Z, H) on a card's amplitudes."""
    a, b = quantum.GATES[gate] @ np.array(_amps_to_c(amps))
    return _c_to_amps(complex(a), complex(b))


def _p1(amps: list) -> float:
    a, b = _amps_to_c(amps)
    n = abs(a) ** 2 + abs(b) ** 2
    p = abs(b) ** 2 / n
    if p < EPS:
        return 0.0
    if p > 1 - EPS:
        return 1.0
    return p


def _basis_value(amps: list) -> int | None:
    p = _p1(amps)
    if p == 0.0:
        return 0
    if p == 1.0:
        return 1
    return None


def _run_gates(initial: int, gates: list[str]) -> list:
    amps = _basis_amps(initial)
    for g in gates:
        amps = _gate(amps, g)
    return amps


def ket(amps: list) -> str:
    """A readable ket for one qubit card, e.g. ``|0⟩``, ``−i|1⟩``, ``|+⟩``, ``0.6|0⟩ + 0.8|1⟩``."""
    return quantum.kets.qubit(*_amps_to_c(amps))


_NAMED_STATES = {"|0⟩": (1, 0), "|1⟩": (0, 1), "|+⟩": (1, 1), "|−⟩": (1, -1)}


def named_state(amps: list) -> str | None:
    """The card's state up to its global phase, ``|0⟩ |1⟩ |+⟩ |−⟩`` (the only states X, Y, Z
    and H reach from a dealt card), else None."""
    psi = np.array(_amps_to_c(amps))
    for name, vec in _NAMED_STATES.items():
        if quantum.same_up_to_phase(psi, np.array(vec, dtype=complex) / np.linalg.norm(vec), 1e-9):
            return name
    return None



def _value_before_superposition(q: dict) -> tuple[int, list[str]]:
    """Physics mode: the basis value the card had before its last H, and the gates since."""
    amps = _basis_amps(q["initial"])
    since: list[str]
    before, since = q["initial"], []
    for g in q["gates"]:
        v = _basis_value(amps)
        if v is not None:
            before, since = v, []
        since.append(g)
        amps = _gate(amps, g)
    return before, since[1:]     # drop the first H itself


def _between_hs(between: list[str]) -> tuple[bool, dict]:
    """What the gates between two H do once the second H is applied: (flips?, explanation)."""
    flips = sum(g in ("Z", "Y") for g in between) % 2 == 1
    if not between:
        return False, message("hh_identity")
    # the cards in the order played, with arrows ("·" would read as an operator product)
    gates = " → ".join(between)
    if flips:
        zs = [g for g in between if g in ("Z", "Y")]
        if zs in (["Z"], ["Y"]):  # one Z or Y (an X beside it changes only a global sign)
            law = "H·Z·H = X" if zs == ["Z"] else "H·Y·H = −Y"
            return True, message("hh_flips", law=law, what=message("a_gate", gate=zs[0]))
        return True, message("hh_flips_many", gates=gates)
    return False, message("hh_cancel", gates=gates)

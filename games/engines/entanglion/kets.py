"""The ships' state as text and numbers (a small formatter; ``quantum`` has no ket text yet).

``describe(ships)`` -> ``{"ket", "amplitudes", "basis", "entangled", "ships": {...}}`` with the
kets written as on the fact sheet: ``(|00⟩+|01⟩+|10⟩−|11⟩)/2`` (Mercurial's qubit first).
"""
from __future__ import annotations

import math

from .planets import KETS, SYMBOLS, inside, joint_state

BASIS = ("00", "01", "10", "11")


def _clean(x: float) -> float:
    x = round(x, 12)
    return 0.0 if x == 0 else x


def ket_text(amplitudes: tuple[float, ...] | list[float]) -> str:
    """Sheet-style text of a real state whose non-zero amplitudes share one magnitude (every
    state of the game). The global sign is chosen so the first term is positive."""
    n = len(amplitudes)
    width = int(math.log2(n))
    terms = [(i, a) for i, a in enumerate(amplitudes) if abs(a) > 1e-9]
    if not terms:
        raise ValueError("the zero vector is no state")
    sign = 1 if terms[0][1] > 0 else -1
    parts = []
    for k, (i, a) in enumerate(terms):
        label = f"|{format(i, f'0{width}b')}⟩"
        plus = a * sign > 0
        parts.append(("" if k == 0 else "+" if plus else "−") + label)
    if len(terms) == 1:
        return parts[0]
    norm = {2: "√2", 4: "2", 3: "√3"}.get(len(terms), f"√{len(terms)}")
    return f"({''.join(parts)})/{norm}"


def describe(ships: dict[str, str]) -> dict:
    """The ships' joint state for a view: ket text, 4 real amplitudes, per-ship kets outside."""
    amps = [_clean(a) for a in joint_state(ships)]
    together = inside(ships)
    return {
        "ket": ket_text(amps),
        "amplitudes": amps,
        "basis": list(BASIS),
        "entangled": together,
        "symbol": SYMBOLS[ships["mercurial"]] if together
        else SYMBOLS[ships["mercurial"]] + SYMBOLS[ships["rubicon"]],
        "ships": {"mercurial": None if together else KETS[ships["mercurial"]],
                  "rubicon": None if together else KETS[ships["rubicon"]]},
    }

"""The ships' state for a view: ket text (``quantum.kets.text``) and amplitudes.

``describe(ships)`` -> ``{"ket", "amplitudes", "basis", "entangled", "symbol", "ships": {...}}``
with the kets written as on the fact sheet: ``(|00⟩+|01⟩+|10⟩−|11⟩)/2`` (Mercurial's qubit
first; global sign chosen so the first term is positive).
"""
from __future__ import annotations

import quantum

from .planets import KETS, SYMBOLS, inside, joint_state

BASIS = ("00", "01", "10", "11")


def _clean(x: float) -> float:
    x = round(float(x), 12)
    return 0.0 if x == 0 else x


def describe(ships: dict[str, str]) -> dict:
    """The ships' joint state for a view: ket text, 4 real amplitudes, per-ship kets outside."""
    psi = joint_state(ships)
    together = inside(ships)
    return {
        "ket": quantum.kets.text(psi),
        "amplitudes": [_clean(a.real) for a in psi],
        "basis": list(BASIS),
        "entangled": together,
        "symbol": SYMBOLS[ships["mercurial"]] if together
        else SYMBOLS[ships["mercurial"]] + SYMBOLS[ships["rubicon"]],
        "ships": {"mercurial": None if together else KETS[ships["mercurial"]],
                  "rubicon": None if together else KETS[ships["rubicon"]]},
    }

"""The QTris tile set: tile descriptors, their quantum states, and recognising a state as a tile.

Tile descriptors (JSON-able, stored in the state)
-------------------------------------------------
* single tile on one square: a string ``"W" "B" "R" "L" "UP" "DOWN"``, prefixed ``"U:"`` when
  U-decorated (``"U:W"`` is the state U|0>).
* pair on two squares (lower square = qubit 1): ``"phi+" "phi-" "psi+" "psi-"`` with an
  optional decoration prefix: ``"H:phi+"`` = (H⊗I)|phi+>, ``"U1:phi+"`` = (U⊗I)|phi+>,
  ``"U2:phi+"`` = (I⊗U)|phi+> (U decoration on the pair's first / second square).
* two single tiles on the two squares of a correlated mixture component: a list
  ``["W", "U:B"]`` (a product state, appears after a pair is measured, e.g. {WW, BB}).

Decorations are described as a frozenset of ``"U@0"``, ``"U@1"`` (U decoration on qubit 0/1
of the descriptor) and ``"H"`` (H-decorated pair). Tiles equal up to global phase are the same
physical state; when several descriptors fit a state, the one with the expected decorations
(from the decoration rules of the card played) wins, then the least decorated.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import cast

import numpy as np

import quantum
from games.engines.base import gettext_noop, render_refusal

SINGLE_BASE = ("W", "B", "R", "L")
SINGLE_S = ("UP", "DOWN")
BELL = ("phi+", "phi-", "psi+", "psi-")
PAIR_DECORATIONS = ("H", "U1", "U2")

_SINGLE_STATES = {
    "W": quantum.KET0,
    "B": quantum.KET1,
    "R": np.array([1, 1], dtype=complex) / quantum.SQRT2,
    "L": np.array([1, -1], dtype=complex) / quantum.SQRT2,
    "UP": np.array([1, 1j], dtype=complex) / quantum.SQRT2,
    "DOWN": np.array([1, -1j], dtype=complex) / quantum.SQRT2,
}
_BELL_STATES = {
    "phi+": np.array([1, 0, 0, 1], dtype=complex) / quantum.SQRT2,
    "phi-": np.array([1, 0, 0, -1], dtype=complex) / quantum.SQRT2,
    "psi+": np.array([0, 1, 1, 0], dtype=complex) / quantum.SQRT2,
    "psi-": np.array([0, 1, -1, 0], dtype=complex) / quantum.SQRT2,
}

TILE_NAMES = {
    "W": "white circle", "B": "black circle", "R": "kitten turned right",
    "L": "kitten turned left", "UP": "kitten up", "DOWN": "kitten down",
    "phi+": "correlated pair (+)", "phi-": "correlated pair (−)",
    "psi+": "anti-correlated pair (+)", "psi-": "anti-correlated pair (−)",
}
#: the exact ket of every tile code, e.g. ``"(|00⟩+|11⟩)/√2"`` for phi+
KETS = {code: quantum.kets.text(psi) for code, psi in {**_SINGLE_STATES, **_BELL_STATES}.items()}


@dataclass(frozen=True)
class TileSet:
    """The tiles allowed in a variant."""

    singles: tuple[str, ...]
    pairs: tuple[str, ...]

    def __contains__(self, desc: object) -> bool:
        if isinstance(desc, str):
            return desc in self.singles or desc in self.pairs
        if isinstance(desc, list) and len(desc) == 2:
            return all(isinstance(d, str) and d in self.singles for d in desc)
        return False


@cache
def tile_set(variant: str) -> TileSet:
    """basic: W B R L and undecorated pairs; advanced/noise: + U-decorated tiles, H/U-decorated
    pairs; s-expansion and eve: + UP DOWN (eve needs them for the up/down measurement)."""
    codes = list(SINGLE_BASE)
    if variant in ("s-expansion", "eve"):
        codes += list(SINGLE_S)
    singles = list(codes)
    pairs = list(BELL)
    if variant != "basic":
        singles += [f"U:{c}" for c in codes]
        pairs += [f"{d}:{b}" for d in PAIR_DECORATIONS for b in BELL]
    return TileSet(tuple(singles), tuple(pairs))


def n_qubits(desc: str | list[str]) -> int:
    if isinstance(desc, list):
        return 2
    return 2 if desc.split(":")[-1] in BELL else 1


def base_code(desc: str) -> str:
    """``"U:W"`` -> ``"W"``, ``"H:phi+"`` -> ``"phi+"``."""
    return desc.split(":")[-1]


def pair_decoration(desc: str) -> str | None:
    """``"H"``, ``"U1"``, ``"U2"`` or None for a pair descriptor."""
    return desc.split(":")[0] if ":" in desc else None


def frozen(desc: str | list[str]) -> str | tuple[str, ...]:
    """A descriptor as a key of a per-process cache (a product of two singles, a list, as a tuple)."""
    return desc if isinstance(desc, str) else tuple(desc)


def thawed(key: str | tuple[str, ...]) -> str | list[str]:
    """The descriptor a ``frozen`` key stands for."""
    return key if isinstance(key, str) else list(key)


def state(desc: str | list[str]) -> np.ndarray:
    """The statevector of a tile descriptor (1 or 2 qubits, lower square leftmost)."""
    if isinstance(desc, list):
        return np.kron(_state(desc[0]), _state(desc[1]))
    return _state(desc)


@cache
def _state(desc: str) -> np.ndarray:
    code = base_code(desc)
    deco = desc.split(":")[0] if ":" in desc else None
    if code in _SINGLE_STATES:
        psi = _SINGLE_STATES[code]
        return quantum.U @ psi if deco == "U" else psi
    psi = _BELL_STATES[code]
    if deco == "H":
        return quantum.kron(quantum.H, quantum.I) @ psi
    if deco == "U1":
        return quantum.kron(quantum.U, quantum.I) @ psi
    if deco == "U2":
        return quantum.kron(quantum.I, quantum.U) @ psi
    return psi


def decorations(desc: str | list[str]) -> frozenset[str]:
    """The decorations of a descriptor, per qubit (see module docstring)."""
    if isinstance(desc, list):
        return frozenset(f"U@{i}" for i, d in enumerate(desc) if d.startswith("U:"))
    deco = desc.split(":")[0] if ":" in desc else None
    if deco is None:
        return frozenset()
    return frozenset({"U": {"U@0"}, "U1": {"U@0"}, "U2": {"U@1"}, "H": {"H"}}[deco])


def is_u_decorated(desc: str | list[str], qubit: int) -> bool:
    return f"U@{qubit}" in decorations(desc)


def is_decorated(desc: str | list[str]) -> bool:
    return bool(decorations(desc))


@cache
def _stack(descs: tuple[str, ...]) -> np.ndarray:
    return np.array([_state(d) for d in descs])


def _matches(psi: np.ndarray, descs: tuple[str, ...]) -> list[str]:
    overlaps = np.abs(_stack(descs).conj() @ psi)
    return [descs[i] for i in np.nonzero(np.abs(overlaps - 1.0) < quantum.TOL)[0]]


def recognise(psi: np.ndarray, tiles: TileSet, expected: frozenset[str] = frozenset()
              ) -> str | list[str] | None:
    """The tile descriptor whose state equals ``psi`` up to global phase, or None.

    ``expected`` are the decorations the card's decoration rule predicts; among several
    physically equal tiles the one carrying them is chosen, else the least decorated.
    """
    if psi.shape[0] == 2:
        matches = _matches(psi, tiles.singles)
    else:
        factors = quantum.split_product(psi)
        if factors is not None:
            a, b = (f / np.linalg.norm(f) for f in factors)
            ea = frozenset({"U@0"}) if "U@0" in expected else frozenset()
            eb = frozenset({"U@0"}) if "U@1" in expected else frozenset()
            ta, tb = recognise(a, tiles, ea), recognise(b, tiles, eb)
            if ta is None or tb is None:
                return None
            return [cast(str, ta), cast(str, tb)]   # one-qubit factors: single tiles
        matches = _matches(psi, tiles.pairs)
    if not matches:
        return None
    for d in matches:
        if decorations(d) == expected:
            return d
    return min(matches, key=lambda d: len(decorations(d)))


class TileError(ValueError):
    """A tile code the variant has not: a msgid and its params (said in the reader's language)."""

    def __init__(self, msgid: str, params: dict):
        self.msgid, self.params = msgid, params
        super().__init__(render_refusal(msgid, params))


def parse_single(code: object, tiles: TileSet, variant: str) -> str:
    """Validate an option tile code (``"W"``, ``"U:W"``...)."""
    if not isinstance(code, str) or code not in tiles.singles:
        raise TileError(gettext_noop("%(code)s is not a tile of this variant (allowed: %(allowed)s)"),
                        {"code": repr(code), "allowed": ", ".join(tiles.singles)})
    return code


def symbolic_ket(desc: str | list[str]) -> str:
    """A symbolic ket, e.g. ``U|0⟩`` or ``(H⊗I)(|00⟩+|11⟩)/√2`` or ``|0⟩⊗U|1⟩``."""
    if isinstance(desc, list):
        return "⊗".join(symbolic_ket(d) for d in desc)
    code = base_code(desc)
    deco = desc.split(":")[0] if ":" in desc else None
    prefix = {None: "", "U": "U", "H": "(H⊗I)", "U1": "(U⊗I)", "U2": "(I⊗U)"}[deco]
    return prefix + KETS[code]


def tile_name_message(desc: str | list[str]) -> dict:
    """``tile_name`` as a translatable message (see texts.EXPLAIN_TEXTS)."""
    if isinstance(desc, list):
        names = [tile_name_message(d) for d in desc]
        if len(names) == 2:
            return {"code": "tiles_and", "params": {"a": names[0], "b": names[1]}}
        return names[0] if len(names) == 1 else {"code": "tiles_and", "params": {"a": names[0], "b": tile_name_message(desc[1:])}}
    code = base_code(desc)
    deco = desc.split(":")[0] if ":" in desc else None
    name = {"code": f"tile_{code}", "params": {}}
    if deco in ("U", "H"):
        return {"code": f"{deco.lower()}_decorated", "params": {"name": name}}
    if deco in ("U1", "U2"):
        return {"code": "u_first" if deco == "U1" else "u_second", "params": {"name": name}}
    return name


def tile_name(desc: str | list[str]) -> str:
    if isinstance(desc, list):
        return " and ".join(tile_name(d) for d in desc)
    code = base_code(desc)
    deco = desc.split(":")[0] if ":" in desc else None
    name = TILE_NAMES[code]
    if deco == "U":
        return f"U-decorated {name}"
    if deco == "H":
        return f"H-decorated {name}"
    if deco in ("U1", "U2"):
        return f"{name}, U-decorated on its {'first' if deco == 'U1' else 'second'} square"
    return name

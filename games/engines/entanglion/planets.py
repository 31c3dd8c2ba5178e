"""The galaxy: the 12 planets, their quantum states, the paths of the board (fact sheet §2–§3).

Everything here is data or a pure function of data: no dice, no cards in hand.

* ``PLANETS``: name -> galaxy; ``STATE``: name -> the state vector built with ``quantum`` (one
  qubit for Centarious/Superious planets, two qubits, Mercurial leftmost, for Entanglion
  planets); ``KETS``: name -> its ket text (``quantum.kets.text``, as written on the sheet).
* ``PATHS``: the undirected edge list of §3.2 (rows 1–16), with the cards and the ships that
  may use each path. ``GRID``: the grey CNOT entry grid (row G). ``INSIDE``: the full lookup
  table of §3.4. ``RING``: the clockwise ring of §3.5. ``LAYOUT``: drawing positions.
* ``move(ships, ship, card)``: where a card played by ``ship`` takes the two ships (§3.3/§3.4).
"""
from __future__ import annotations

import numpy as np

import quantum
from quantum import KET0, KET1, SQRT2, kron

SHIPS = ("mercurial", "rubicon")          # seat 0, seat 1
SHIP_COLOURS = {"mercurial": "blue", "rubicon": "red"}
BOTH = ("mercurial", "rubicon")

CENTARIOUS = "Centarious"
SUPERIOUS = "Superious"
ENTANGLION = "Entanglion"

PLANETS: dict[str, str] = {
    "ZERO": CENTARIOUS, "ONE": CENTARIOUS,
    "PLUS": SUPERIOUS, "MINUS": SUPERIOUS,
    "PHI PLUS": ENTANGLION, "PHI MINUS": ENTANGLION,
    "PSI PLUS": ENTANGLION, "PSI MINUS": ENTANGLION,
    "OMEGA ZERO": ENTANGLION, "OMEGA ONE": ENTANGLION,
    "OMEGA TWO": ENTANGLION, "OMEGA THREE": ENTANGLION,
}
GALAXY_COLOURS = {CENTARIOUS: "purple", SUPERIOUS: "green", ENTANGLION: "yellow"}
ENTANGLION_PLANETS = tuple(p for p, g in PLANETS.items() if g == ENTANGLION)
BELL = ("PHI PLUS", "PHI MINUS", "PSI PLUS", "PSI MINUS")
OMEGAS = ("OMEGA ZERO", "OMEGA ONE", "OMEGA TWO", "OMEGA THREE")

SYMBOLS: dict[str, str] = {
    "ZERO": "|0⟩", "ONE": "|1⟩", "PLUS": "|+⟩", "MINUS": "|−⟩",
    "PHI PLUS": "|Φ+⟩", "PHI MINUS": "|Φ−⟩", "PSI PLUS": "|Ψ+⟩", "PSI MINUS": "|Ψ−⟩",
    "OMEGA ZERO": "|ω0⟩", "OMEGA ONE": "|ω1⟩", "OMEGA TWO": "|ω2⟩", "OMEGA THREE": "|ω3⟩",
}
_PLUS, _MINUS = (KET0 + KET1) / SQRT2, (KET0 - KET1) / SQRT2
_00, _01, _10, _11 = kron(KET0, KET0), kron(KET0, KET1), kron(KET1, KET0), kron(KET1, KET1)
#: State vectors (all real): [a0, a1] or [a00, a01, a10, a11], Mercurial's qubit first.
STATE: dict[str, np.ndarray] = {
    "ZERO": KET0, "ONE": KET1, "PLUS": _PLUS, "MINUS": _MINUS,
    "PHI PLUS": (_00 + _11) / SQRT2, "PHI MINUS": (_00 - _11) / SQRT2,
    "PSI PLUS": (_01 + _10) / SQRT2, "PSI MINUS": (_01 - _10) / SQRT2,
    "OMEGA ZERO": (_00 - _01 + _10 + _11) / 2, "OMEGA ONE": (_00 - _01 - _10 - _11) / 2,
    "OMEGA TWO": (_00 + _01 + _10 - _11) / 2, "OMEGA THREE": (_00 + _01 - _10 + _11) / 2,
}
#: Ket texts as on the sheet, e.g. ``(|00⟩+|11⟩)/√2`` (qubit order: Mercurial first).
KETS: dict[str, str] = {name: quantum.kets.text(psi) for name, psi in STATE.items()}

#: §3.2 rows 1–16: (A, B, cards, ships that may use it). CNOT on row 1 needs the other ship on
#: ONE (``CONDITIONS``).
PATHS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("ZERO", "ONE", ("X", "CNOT"), BOTH),
    ("ZERO", "PLUS", ("H",), BOTH),
    ("ONE", "MINUS", ("H",), BOTH),
    ("PHI PLUS", "PSI PLUS", ("X",), BOTH),
    ("PHI MINUS", "PSI MINUS", ("X",), BOTH),
    ("PHI PLUS", "OMEGA TWO", ("H",), BOTH),
    ("PSI MINUS", "OMEGA ONE", ("H",), BOTH),
    ("PSI PLUS", "OMEGA ZERO", ("H",), ("rubicon",)),
    ("PSI PLUS", "OMEGA THREE", ("H",), ("mercurial",)),
    ("PHI MINUS", "OMEGA ZERO", ("H",), ("mercurial",)),
    ("PHI MINUS", "OMEGA THREE", ("H",), ("rubicon",)),
    ("OMEGA ZERO", "OMEGA ONE", ("X",), ("rubicon",)),
    ("OMEGA ONE", "OMEGA THREE", ("X",), ("mercurial",)),
    ("OMEGA ZERO", "OMEGA TWO", ("X", "CNOT"), ("mercurial",)),
    ("OMEGA TWO", "OMEGA THREE", ("X", "CNOT"), ("rubicon",)),
    ("OMEGA ZERO", "OMEGA THREE", ("SWAP",), BOTH),
)
CONDITIONS = {("ZERO", "ONE", "CNOT"): "only if the other ship is on ONE"}

#: §3.2 row G / §3.3: (Centarious planet of the CNOT player, Superious planet of the other) ->
#: the Bell planet both ships go to. Exit by CNOT is the reverse (errata 3).
GRID: dict[tuple[str, str], str] = {
    ("ZERO", "PLUS"): "PHI PLUS", ("ZERO", "MINUS"): "PHI MINUS",
    ("ONE", "PLUS"): "PSI PLUS", ("ONE", "MINUS"): "PSI MINUS",
}
EXIT: dict[str, tuple[str, str]] = {bell: pair for pair, bell in GRID.items()}

_M, _B = "mercurial", "rubicon"
_EXIT = "exit"
#: §3.4 inside Entanglion: (planet, card, ship) -> destination (None = no movement, "exit" =
#: leave by CNOT along the grey lines).
INSIDE: dict[tuple[str, str, str], str | None] = {}
_ROWS = {
    #               X by M        X by R         H by M         H by R         CNOT M        CNOT R        SWAP
    "PHI PLUS":    ("PSI PLUS", "PSI PLUS", "OMEGA TWO", "OMEGA TWO", _EXIT, _EXIT, None),
    "PHI MINUS":   ("PSI MINUS", "PSI MINUS", "OMEGA ZERO", "OMEGA THREE", _EXIT, _EXIT, None),
    "PSI PLUS":    ("PHI PLUS", "PHI PLUS", "OMEGA THREE", "OMEGA ZERO", _EXIT, _EXIT, None),
    "PSI MINUS":   ("PHI MINUS", "PHI MINUS", "OMEGA ONE", "OMEGA ONE", _EXIT, _EXIT, None),
    "OMEGA ZERO":  ("OMEGA TWO", "OMEGA ONE", "PHI MINUS", "PSI PLUS", "OMEGA TWO", None,
                    "OMEGA THREE"),
    "OMEGA ONE":   ("OMEGA THREE", "OMEGA ZERO", "PSI MINUS", "PSI MINUS", None, None, None),
    "OMEGA TWO":   ("OMEGA ZERO", "OMEGA THREE", "PHI PLUS", "PHI PLUS", "OMEGA ZERO",
                    "OMEGA THREE", None),
    "OMEGA THREE": ("OMEGA ONE", "OMEGA TWO", "PSI PLUS", "PHI MINUS", None, "OMEGA TWO",
                    "OMEGA ZERO"),
}
for _planet, _row in _ROWS.items():
    for (_card, _ship), _dest in zip((("X", _M), ("X", _B), ("H", _M), ("H", _B), ("CNOT", _M),
                                      ("CNOT", _B)), _row[:6], strict=True):
        INSIDE[(_planet, _card, _ship)] = _dest
    INSIDE[(_planet, "SWAP", _M)] = INSIDE[(_planet, "SWAP", _B)] = _row[6]

#: §3.5 clockwise from the top left; index 0 is OMEGA ZERO.
RING = ("OMEGA ZERO", "OMEGA ONE", "PSI MINUS", "PHI MINUS", "OMEGA THREE", "OMEGA TWO",
        "PHI PLUS", "PSI PLUS")

#: §3.5 drawing positions: fractions of width and height, y downward.
LAYOUT: dict[str, tuple[float, float]] = {
    "OMEGA ZERO": (0.45, 0.15), "OMEGA ONE": (0.62, 0.15), "PSI PLUS": (0.35, 0.30),
    "PSI MINUS": (0.71, 0.30), "PHI PLUS": (0.35, 0.49), "PHI MINUS": (0.71, 0.49),
    "OMEGA TWO": (0.45, 0.63), "OMEGA THREE": (0.62, 0.63), "ONE": (0.14, 0.29),
    "ZERO": (0.19, 0.49), "PLUS": (0.35, 0.71), "MINUS": (0.71, 0.78),
}

ENGINE_KINDS = ("H", "CNOT", "X", "SWAP")


def other(ship: str) -> str:
    return _B if ship == _M else _M


def inside(ships: dict[str, str]) -> bool:
    """Both ships in Entanglion (then they always share one planet)."""
    return PLANETS[ships[_M]] == ENTANGLION


def move(ships: dict[str, str], ship: str, card: str) -> dict[str, str]:
    """Where engine ``card`` played by ``ship`` takes the two ships: a new ``{"mercurial",
    "rubicon"}`` dict. A card with no path for that ship returns the same positions."""
    me, them = ships[ship], ships[other(ship)]
    out = dict(ships)
    if inside(ships):
        dest = INSIDE[(me, card, ship)]
        if dest is None:
            return out
        if dest == _EXIT:
            centarious, superious = EXIT[me]
            out[ship], out[other(ship)] = centarious, superious
            return out
        return {_M: dest, _B: dest}
    galaxy = PLANETS[me]
    if card == "X":
        if galaxy == CENTARIOUS:
            out[ship] = "ONE" if me == "ZERO" else "ZERO"
    elif card == "H":
        out[ship] = {"ZERO": "PLUS", "PLUS": "ZERO", "ONE": "MINUS", "MINUS": "ONE"}[me]
    elif card == "SWAP":
        out[ship], out[other(ship)] = them, me
    elif card == "CNOT" and galaxy == CENTARIOUS:
        if PLANETS[them] == CENTARIOUS:
            if them == "ONE":
                out[ship] = "ONE" if me == "ZERO" else "ZERO"
        else:
            dest = GRID[(me, them)]
            out = {_M: dest, _B: dest}
    return out


def joint_state(ships: dict[str, str]) -> np.ndarray:
    """The two ships' state vector (|00⟩, |01⟩, |10⟩, |11⟩; Mercurial first)."""
    if inside(ships):
        return STATE[ships[_M]]
    return kron(STATE[ships[_M]], STATE[ships[_B]])


def ring_count(count: int, allowed: tuple[str, ...] = RING) -> str:
    """Count ``count`` planets clockwise from OMEGA ZERO (not counted at the start), over the
    planets of ``allowed`` only (in ring order), wrapping round: 1 = OMEGA ONE, 8 = OMEGA ZERO
    on the full ring (errata 1)."""
    order = [p for p in RING[1:] + RING[:1] if p in allowed]
    return order[(count - 1) % len(order)]

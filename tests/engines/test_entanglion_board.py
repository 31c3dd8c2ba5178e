"""Entanglion's galaxy (sheet §2–§3): planets and kets, the paths with their colour
restrictions, outside moves and the CNOT entry table, the inside table and the exit by CNOT,
the clockwise ring — and every move checked against the real gate (numpy via ``quantum``)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import quantum as Q
from games.engines.entanglion import planets as P
from games.engines.entanglion.kets import describe

R2 = np.sqrt(2)
K0, K1 = Q.KET0, Q.KET1
KP, KM = (K0 + K1) / R2, (K0 - K1) / R2
ONE_QUBIT = {"ZERO": K0, "ONE": K1, "PLUS": KP, "MINUS": KM}
OUTSIDE = list(ONE_QUBIT)


def vec(*amps) -> np.ndarray:
    return np.array(amps, dtype=complex)


# the sheet's §2 states, written independently of the engine (Mercurial = left factor)
PHI_P = (Q.kron(K0, K0) + Q.kron(K1, K1)) / R2
PHI_M = (Q.kron(K0, K0) - Q.kron(K1, K1)) / R2
PSI_P = (Q.kron(K0, K1) + Q.kron(K1, K0)) / R2
PSI_M = (Q.kron(K0, K1) - Q.kron(K1, K0)) / R2
SHEET = {
    "PHI PLUS": PHI_P, "PHI MINUS": PHI_M, "PSI PLUS": PSI_P, "PSI MINUS": PSI_M,
    "OMEGA ZERO": vec(1, -1, 1, 1) / 2, "OMEGA ONE": vec(1, -1, -1, -1) / 2,
    "OMEGA TWO": vec(1, 1, 1, -1) / 2, "OMEGA THREE": vec(1, 1, -1, 1) / 2,
}
# the sheet's §2 ket texts, copied from the fact sheet
SHEET_KETS = {
    "ZERO": "|0⟩", "ONE": "|1⟩", "PLUS": "(|0⟩+|1⟩)/√2", "MINUS": "(|0⟩−|1⟩)/√2",
    "PHI PLUS": "(|00⟩+|11⟩)/√2", "PHI MINUS": "(|00⟩−|11⟩)/√2",
    "PSI PLUS": "(|01⟩+|10⟩)/√2", "PSI MINUS": "(|01⟩−|10⟩)/√2",
    "OMEGA ZERO": "(|00⟩−|01⟩+|10⟩+|11⟩)/2", "OMEGA ONE": "(|00⟩−|01⟩−|10⟩−|11⟩)/2",
    "OMEGA TWO": "(|00⟩+|01⟩+|10⟩−|11⟩)/2", "OMEGA THREE": "(|00⟩+|01⟩−|10⟩+|11⟩)/2",
}


def joint(ships: dict) -> np.ndarray:
    if P.PLANETS[ships["mercurial"]] == P.ENTANGLION:
        return SHEET[ships["mercurial"]]
    return Q.kron(ONE_QUBIT[ships["mercurial"]], ONE_QUBIT[ships["rubicon"]])


def gate(psi: np.ndarray, seat: int, card: str) -> np.ndarray:
    """The real gate of a card played by ``seat`` (q0 Mercurial): CNOT targets the player's
    own ship with the other ship as control (§3.6)."""
    if card == "X":
        return Q.apply(psi, Q.X, [seat], 2)
    if card == "H":
        return Q.apply(psi, Q.H, [seat], 2)
    if card == "CNOT":
        return Q.apply(psi, Q.CX, [1 - seat, seat], 2)
    return Q.apply(psi, Q.SWAP, [0, 1], 2)


def positions() -> list[dict]:
    out = [{"mercurial": m, "rubicon": r} for m in OUTSIDE for r in OUTSIDE]
    return out + [{"mercurial": p, "rubicon": p} for p in P.ENTANGLION_PLANETS]


def ships(m: str, r: str | None = None) -> dict:
    return {"mercurial": m, "rubicon": m if r is None else r}


# ------------------------------------------------------------------------------ §2 planets

def test_twelve_planets_in_three_galaxies():
    galaxies = {g: [p for p, x in P.PLANETS.items() if x == g] for g in set(P.PLANETS.values())}
    assert galaxies[P.CENTARIOUS] == ["ZERO", "ONE"]
    assert galaxies[P.SUPERIOUS] == ["PLUS", "MINUS"]
    assert len(galaxies[P.ENTANGLION]) == 8 and len(P.PLANETS) == 12


@pytest.mark.parametrize("planet", list(SHEET))
def test_entanglion_planet_kets_are_the_sheets_states_with_mercurial_first(planet):
    assert Q.same_up_to_phase(vec(*P.STATE[planet]), SHEET[planet])
    # maximally entangled: Schmidt rank 2
    assert Q.split_product(SHEET[planet]) is None


@pytest.mark.parametrize("planet", list(SHEET_KETS))
def test_every_planet_ket_text_is_the_sheets(planet):
    assert P.KETS[planet] == SHEET_KETS[planet]
    assert Q.same_up_to_phase(P.STATE[planet], {**ONE_QUBIT, **SHEET}[planet])


def test_handy_descriptions_of_the_omegas_hold():
    assert Q.same_up_to_phase(Q.apply(PHI_P, Q.H, [0], 2), SHEET["OMEGA TWO"])
    assert Q.same_up_to_phase(Q.apply(PSI_M, Q.H, [1], 2), SHEET["OMEGA ONE"])
    assert Q.same_up_to_phase(Q.apply(PHI_M, Q.H, [0], 2), SHEET["OMEGA ZERO"])
    assert Q.same_up_to_phase(Q.apply(PSI_P, Q.H, [1], 2), SHEET["OMEGA ZERO"])
    assert Q.same_up_to_phase(Q.apply(PHI_M, Q.H, [1], 2), SHEET["OMEGA THREE"])


def test_view_state_names_omega_two_by_its_ket_and_amplitudes():
    d = describe(ships("OMEGA TWO"))
    assert d["ket"] == "(|00⟩+|01⟩+|10⟩−|11⟩)/2"
    assert d["amplitudes"] == [0.5, 0.5, 0.5, -0.5]
    outside = describe(ships("ZERO", "PLUS"))
    assert outside["ket"] == "(|00⟩+|01⟩)/√2" and outside["ships"]["rubicon"] == "(|0⟩+|1⟩)/√2"
    assert describe(ships("ONE", "ZERO"))["ket"] == "|10⟩"     # Mercurial is the left bit


# ------------------------------------------------------------------------------ §3.2 paths

def test_edge_list_has_the_sixteen_rows_of_the_sheet():
    assert len(P.PATHS) == 16
    assert ("OMEGA ZERO", "OMEGA THREE", ("SWAP",), P.BOTH) in P.PATHS


@pytest.mark.parametrize("a,b,cards,users", [row for row in P.PATHS
                                             if P.PLANETS[row[0]] == P.ENTANGLION])
def test_each_entanglion_path_works_both_ways_for_its_ships_only(a, b, cards, users):
    for card in cards:
        for ship in P.SHIPS:
            for frm, to in ((a, b), (b, a)):
                dest = P.move(ships(frm), ship, card)["mercurial"]
                if ship in users:
                    assert dest == to, (frm, card, ship)
                else:
                    assert dest != to, f"{ship} may not use the {frm}–{to} path with {card}"


def test_inside_table_moves_are_exactly_the_paths_of_the_edge_list():
    """No move of §3.4 inside the ring that §3.2 does not draw, for the right ship and card."""
    drawn = {(a, b, c, s) for a, b, cards, users in P.PATHS for c in cards for s in users}
    drawn |= {(b, a, c, s) for a, b, c, s in drawn}
    for (planet, card, ship), dest in P.INSIDE.items():
        if dest not in (None, "exit"):
            assert (planet, dest, card, ship) in drawn, (planet, card, ship, dest)


def test_a_card_with_no_path_for_that_ship_does_nothing():
    assert P.move(ships("OMEGA ZERO"), "rubicon", "CNOT") == ships("OMEGA ZERO")
    assert P.move(ships("OMEGA ONE"), "mercurial", "CNOT") == ships("OMEGA ONE")
    assert P.move(ships("PHI PLUS"), "rubicon", "SWAP") == ships("PHI PLUS")
    assert P.move(ships("PLUS", "ZERO"), "mercurial", "X") == ships("PLUS", "ZERO")


# ------------------------------------------------------------------------------ §3.3 outside

@pytest.mark.parametrize("ship", P.SHIPS)
def test_outside_x_flips_centarious_only_and_h_joins_zero_plus_and_one_minus(ship):
    other = P.other(ship)
    for planet, x_dest, h_dest in (("ZERO", "ONE", "PLUS"), ("ONE", "ZERO", "MINUS"),
                                   ("PLUS", "PLUS", "ZERO"), ("MINUS", "MINUS", "ONE")):
        here = {ship: planet, other: "ZERO"}
        assert P.move(here, ship, "X") == {ship: x_dest, other: "ZERO"}
        assert P.move(here, ship, "H") == {ship: h_dest, other: "ZERO"}
    # there is no X path between PLUS and MINUS
    assert P.move({ship: "PLUS", other: "ONE"}, ship, "X")[ship] == "PLUS"


def test_outside_swap_exchanges_positions_and_does_nothing_on_the_same_planet():
    assert P.move(ships("ONE", "PLUS"), "rubicon", "SWAP") == ships("PLUS", "ONE")
    assert P.move(ships("ZERO", "ZERO"), "mercurial", "SWAP") == ships("ZERO")


def test_cnot_in_centarious_flips_only_if_the_other_ship_is_on_one():
    assert P.move(ships("ZERO", "ONE"), "mercurial", "CNOT") == ships("ONE", "ONE")
    assert P.move(ships("ONE", "ONE"), "mercurial", "CNOT") == ships("ZERO", "ONE")
    assert P.move(ships("ZERO", "ZERO"), "mercurial", "CNOT") == ships("ZERO", "ZERO")
    assert P.move(ships("ONE", "ZERO"), "mercurial", "CNOT") == ships("ONE", "ZERO")


@pytest.mark.parametrize("mine,theirs,dest", [("ZERO", "PLUS", "PHI PLUS"),
                                              ("ZERO", "MINUS", "PHI MINUS"),
                                              ("ONE", "PLUS", "PSI PLUS"),
                                              ("ONE", "MINUS", "PSI MINUS")])
@pytest.mark.parametrize("ship", P.SHIPS)
def test_cnot_entry_table(ship, mine, theirs, dest):
    here = {ship: mine, P.other(ship): theirs}
    assert P.move(here, ship, "CNOT") == ships(dest)
    # only the ship in Centarious can enter: the Superious ship's CNOT does nothing
    assert P.move(here, P.other(ship), "CNOT") == here


def test_cnot_with_both_ships_in_superious_does_nothing_on_the_board():
    for m, r in itertools.product(("PLUS", "MINUS"), repeat=2):
        for ship in P.SHIPS:
            assert P.move(ships(m, r), ship, "CNOT") == ships(m, r)


# ------------------------------------------------------------------------------ §3.4 inside

INSIDE_ROWS = {  # the sheet's table, typed again: X M, X R, H M, H R, CNOT M, CNOT R, SWAP
    "PHI PLUS": ("PSI PLUS", "PSI PLUS", "OMEGA TWO", "OMEGA TWO", ("ZERO", "PLUS"),
                 ("PLUS", "ZERO"), None),
    "PHI MINUS": ("PSI MINUS", "PSI MINUS", "OMEGA ZERO", "OMEGA THREE", ("ZERO", "MINUS"),
                  ("MINUS", "ZERO"), None),
    "PSI PLUS": ("PHI PLUS", "PHI PLUS", "OMEGA THREE", "OMEGA ZERO", ("ONE", "PLUS"),
                 ("PLUS", "ONE"), None),
    "PSI MINUS": ("PHI MINUS", "PHI MINUS", "OMEGA ONE", "OMEGA ONE", ("ONE", "MINUS"),
                  ("MINUS", "ONE"), None),
    "OMEGA ZERO": ("OMEGA TWO", "OMEGA ONE", "PHI MINUS", "PSI PLUS", "OMEGA TWO", None,
                   "OMEGA THREE"),
    "OMEGA ONE": ("OMEGA THREE", "OMEGA ZERO", "PSI MINUS", "PSI MINUS", None, None, None),
    "OMEGA TWO": ("OMEGA ZERO", "OMEGA THREE", "PHI PLUS", "PHI PLUS", "OMEGA ZERO",
                  "OMEGA THREE", None),
    "OMEGA THREE": ("OMEGA ONE", "OMEGA TWO", "PSI PLUS", "PHI MINUS", None, "OMEGA TWO",
                    "OMEGA ZERO"),
}
COLUMNS = [("X", "mercurial"), ("X", "rubicon"), ("H", "mercurial"), ("H", "rubicon"),
           ("CNOT", "mercurial"), ("CNOT", "rubicon"), ("SWAP", "mercurial")]


@pytest.mark.parametrize("planet", list(INSIDE_ROWS))
def test_inside_table_row_by_row_both_ships_always_together(planet):
    for (card, ship), want in zip(COLUMNS, INSIDE_ROWS[planet], strict=True):
        got = P.move(ships(planet), ship, card)
        if want is None:
            assert got == ships(planet)
        elif isinstance(want, tuple):       # exit (errata 3): (Mercurial, Rubicon)
            assert got == ships(*want)
        else:
            assert got == ships(want)
    assert P.move(ships(planet), "rubicon", "SWAP") == P.move(ships(planet), "mercurial",
                                                              "SWAP")


def test_errata_3_exit_example_mercurial_cnot_on_phi_plus():
    assert P.move(ships("PHI PLUS"), "mercurial", "CNOT") == ships("ZERO", "PLUS")


def test_inside_swap_only_moves_between_omega_zero_and_omega_three():
    moved = {p for p in P.ENTANGLION_PLANETS
             if P.move(ships(p), "mercurial", "SWAP") != ships(p)}
    assert moved == {"OMEGA ZERO", "OMEGA THREE"}


# ------------------------------------------------------------------------------ §3.5 ring

def test_clockwise_ring_and_counting_errata():
    assert P.RING == ("OMEGA ZERO", "OMEGA ONE", "PSI MINUS", "PHI MINUS", "OMEGA THREE",
                      "OMEGA TWO", "PHI PLUS", "PSI PLUS")
    assert P.ring_count(1) == "OMEGA ONE"
    assert P.ring_count(7) == "PSI PLUS"
    assert P.ring_count(8) == "OMEGA ZERO"
    # counting over some planets only (Spooky Action skips occupied ones), wrapping round
    assert P.ring_count(1, ("PHI PLUS", "OMEGA ZERO")) == "PHI PLUS"
    assert P.ring_count(2, ("PHI PLUS", "OMEGA ZERO")) == "OMEGA ZERO"
    assert P.ring_count(3, ("PHI PLUS", "OMEGA ZERO")) == "PHI PLUS"


# ------------------------------------------------------------------------------ §3.6 physics

def test_every_move_is_the_real_gate_except_the_superious_kickback():
    """All 24 positions x 4 cards x 2 players: the board's destination equals the gate applied
    to the joint state, up to global phase, except CNOT in Superious on MINUS (the board
    ignores the phase kickback, §3.6) — and exactly there."""
    differ = set()
    for here in positions():
        for seat, ship in enumerate(P.SHIPS):
            for card in ("X", "H", "CNOT", "SWAP"):
                after = P.move(here, ship, card)
                if not Q.same_up_to_phase(joint(after), gate(joint(here), seat, card)):
                    differ.add((here["mercurial"], here["rubicon"], ship, card))
    assert differ == {("MINUS", "PLUS", "mercurial", "CNOT"),
                      ("MINUS", "MINUS", "mercurial", "CNOT"),
                      ("PLUS", "MINUS", "rubicon", "CNOT"),
                      ("MINUS", "MINUS", "rubicon", "CNOT")}


def test_the_set_of_states_is_closed_under_the_seven_moves():
    states = [joint(p) for p in positions()]
    for psi in states:
        for seat in (0, 1):
            for card in ("X", "H", "CNOT", "SWAP"):
                out = gate(psi, seat, card)
                assert any(Q.same_up_to_phase(out, s) for s in states)

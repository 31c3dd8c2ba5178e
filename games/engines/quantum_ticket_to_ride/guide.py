"""How to play Quantum Ticket-to-Ride: the rules page (``guide.Guide``), in the words of
``docs/rules/quantum-ticket-to-ride.md``. The examples play a small map made for them (the rules'
Berlin → Munich → Vienna → Rome example, where H → Z → H turns |0⟩ into |1⟩); seed 167 deals
Player 1 that mission and the cards to claim its three routes in four turns.

Each gate card has its own worked example on a two-city map (``gate_map``): Player 1 holds a
mission Madrid → Toledo, has claimed the one route, of that gate, and runs it; the text says
what the gate did to the state, exactly (global phase included: Y|+⟩ = −i|−⟩), and
``tests/test_rules_pages.py`` checks it against the engine and an independent numpy sum."""
from __future__ import annotations

from ..base import gettext_noop
from ..guide import Example, Guide, Section

MAP = {
    "name": "Berlin to Rome",
    "description": "Six cities; Berlin to Rome by H, Z, H is an X.",
    "cities": [
        {"name": "Berlin", "x": 570, "y": 220}, {"name": "Munich", "x": 520, "y": 370},
        {"name": "Vienna", "x": 660, "y": 400}, {"name": "Rome", "x": 540, "y": 600},
        {"name": "Paris", "x": 300, "y": 330}, {"name": "Madrid", "x": 140, "y": 560},
    ],
    "routes": [
        {"a": "Berlin", "b": "Munich", "gate": "H", "length": 1},
        {"a": "Munich", "b": "Vienna", "gate": "Z", "length": 1},
        {"a": "Vienna", "b": "Rome", "gate": "H", "length": 1},
        {"a": "Berlin", "b": "Paris", "gate": "X", "length": 1},
        {"a": "Paris", "b": "Madrid", "gate": "I", "length": 1},
        {"a": "Madrid", "b": "Rome", "gate": "Y", "length": 2},
    ],
    "missions": [
        {"id": "BERLIN-ROME", "start": "Berlin", "target": "Rome", "initial_state": "0",
         "target_state": "1", "qubits": 1, "level": "basic"},
        {"id": "PARIS-MADRID", "start": "Paris", "target": "Madrid", "initial_state": "0",
         "target_state": "0", "qubits": 1, "level": "basic"},
    ],
}
SEED = 167
# Player 1 claims Berlin–Munich and Munich–Vienna, Player 2 draws and claims Berlin–Paris, then
# Player 1 claims Vienna–Rome
GAME_SO_FAR = ((0, {"claim": 0}), (0, {"pass": True}), (1, {"draw": True}), (0, {"claim": 1}),
               (0, {"pass": True}), (1, {"claim": 3}), (1, {"pass": True}), (0, {"claim": 2}))


#: per gate card: (the mission's initial state, its target, its qubits, its level, the seed that
#: gives Player 1 the first turn, the mission Madrid → Toledo and a card of the gate)
GATE_EXAMPLES = {
    "I": ("0", "0", 1, "basic", 7),
    "X": ("0", "1", 1, "basic", 0),
    "Y": ("+", "-", 1, "intermediate", 0),
    "Z": ("+", "-", 1, "intermediate", 0),
    "H": ("0", "+", 1, "intermediate", 13),
    "CNOT": ("+", "Phi+", 2, "advanced", 0),
}


def gate_map(gate: str) -> dict:
    """Two cities joined by one route of ``gate`` (length 1) and two missions along it, one
    each way, both a match for that gate."""
    initial, target, qubits, level, _seed = GATE_EXAMPLES[gate]
    mission = {"initial_state": initial, "target_state": target, "qubits": qubits, "level": level}
    return {
        "name": f"{gate} route",
        "description": f"Madrid to Toledo by one {gate} route.",
        "cities": [{"name": "Madrid", "x": 420, "y": 300}, {"name": "Toledo", "x": 220, "y": 380}],
        "routes": [{"a": "Madrid", "b": "Toledo", "gate": gate, "length": 1}],
        "missions": [{"id": "MADRID-TOLEDO", "start": "Madrid", "target": "Toledo", **mission},
                     {"id": "TOLEDO-MADRID", "start": "Toledo", "target": "Madrid", **mission}],
    }


def _gate(gate: str, title: str, text: str) -> Example:
    """Player 1 has claimed the ``gate`` route Madrid–Toledo and runs it."""
    _initial, _target, _qubits, level, seed = GATE_EXAMPLES[gate]
    return Example(title, text, action={"run": ["Madrid", "Toledo"]}, seat=0,
                   moves=((0, {"claim": 0}),), seed=seed, variant=level,
                   options={"map": gate_map(gate)}, view_seat=0)


def _at(title: str, text: str, upto: int, seat: int, action: dict) -> Example:
    """``seat`` makes ``action`` after the first ``upto`` actions of ``GAME_SO_FAR``."""
    return Example(title, text, action=action, seat=seat, moves=GAME_SO_FAR[:upto], seed=SEED,
                   options={"map": MAP}, view_seat=seat)


GUIDE = Guide(sections=(
    Section(gettext_noop("Goal"), paragraphs=(
        gettext_noop("Claim gate routes across a map, then run your secret mission qubit along your own "
                     "routes. Be the first to run a path whose circuit turns your mission's initial state "
                     "into its target state. If nobody manages, the longest total length of claimed routes "
                     "wins."),
    )),
    Section(gettext_noop("The map, cards and missions"), items=(
        gettext_noop("Cities are joined by routes. A route has a gate and a length N: the gate is applied "
                     "N times, so a Z route of length 2 does nothing."),
        gettext_noop("Gate cards: I, X, Y, Z, H and CNOT. You start with 5 cards and 1 secret mission: a "
                     "start city with an initial state, a target city with a target state."),
        gettext_noop("Your mission qubit starts in its initial state; a second qubit starts in |0⟩. I, X, "
                     "Y, Z and H act on the mission qubit; CNOT uses it as the control and the second "
                     "qubit as the target."),
    )),
    Section(gettext_noop("A turn"), paragraphs=(
        gettext_noop("First act, one of: draw, claim, or pass when you can do neither. Then, if you own a "
                     "route, you may run a path or end the turn."),
    ), sections=(
        Section(gettext_noop("Draw"), paragraphs=(
            gettext_noop("Take the top two cards of the pile (fewer near the hand limit of 12)."),
        ), examples=(
            _at(gettext_noop("Drawing two cards"),
                gettext_noop("Player 2 draws the top two cards of the pile."), 2, 1, {"draw": True}),
        )),
        Section(gettext_noop("Claim"), paragraphs=(
            gettext_noop("Claim one unclaimed route by discarding exactly N cards of its gate, N its length. "
                         "A claimed route can never be claimed again."),
        ), examples=(
            _at(gettext_noop("Claiming a route"),
                gettext_noop("Player 1 discards one H card and claims Berlin–Munich (H, length 1)."),
                0, 0, {"claim": 0}),
        )),
        Section(gettext_noop("Run a path"), paragraphs=(
            gettext_noop("Run a path along your own routes from your mission's start to its target: its "
                         "gates are applied to the initial state in the order travelled. A match wins at "
                         "once; otherwise only you learn the result and play goes on."),
        ), examples=(
            _at(gettext_noop("H → Z → H is X"),
                gettext_noop("Player 1 owns Berlin–Munich (H), Munich–Vienna (Z) and Vienna–Rome (H) and "
                             "runs the mission Berlin |0⟩ → Rome |1⟩: |0⟩ → |+⟩ → |−⟩ → |1⟩. A match: "
                             "Player 1 wins."),
                len(GAME_SO_FAR), 0, {"run": ["Berlin", "Munich", "Vienna", "Rome"]}),
        )),
    )),
    Section(gettext_noop("The gates"), paragraphs=(
        gettext_noop("Gates are written in the order they act: X → H means X first, then H (the "
                     "operator product is H·X)."),
    ), items=(
        gettext_noop("I does nothing; X flips |0⟩ and |1⟩; Z flips |+⟩ and |−⟩; Y does both."),
        gettext_noop("H turns |0⟩ into |+⟩ and |1⟩ into |−⟩, and back."),
        gettext_noop("CNOT on a superposed mission qubit entangles it with the second qubit: a one-qubit "
                     "mission then cannot match exactly."),
    ), sections=(
        # each example: Player 1 runs Madrid → Toledo along one route of the gate
        Section("I", examples=(_gate("I", gettext_noop("I on |0⟩"), gettext_noop(
            "Player 1 runs the mission qubit from Madrid to Toledo along the I route: I|0⟩ = |0⟩, "
            "the qubit stays as it was.")),)),
        Section("X", examples=(_gate("X", gettext_noop("X on |0⟩"), gettext_noop(
            "Along the X route the mission qubit flips: X|0⟩ = |1⟩.")),)),
        Section("Y", examples=(_gate("Y", gettext_noop("Y on |+⟩"), gettext_noop(
            "Along the Y route the mission qubit flips with a phase: Y|+⟩ = −i|−⟩, which is |−⟩ up "
            "to a global phase that no measurement sees, so the run matches the target |−⟩.")),)),
        Section("Z", examples=(_gate("Z", gettext_noop("Z on |+⟩"), gettext_noop(
            "Along the Z route the sign of the |1⟩ part flips: Z|+⟩ = |−⟩.")),)),
        Section("H", examples=(_gate("H", gettext_noop("H on |0⟩"), gettext_noop(
            "Along the H route the mission qubit goes into an equal superposition: H|0⟩ = |+⟩.")),)),
        Section("CNOT", examples=(_gate("CNOT", gettext_noop("CNOT on |+0⟩"), gettext_noop(
            "Along the CNOT route the mission qubit q0, in |+⟩, controls the second qubit q1, in "
            "|0⟩, and entangles them: CNOT|+0⟩ = (|00⟩+|11⟩)/√2 = |Φ+⟩.")),)),
    )),
    Section(gettext_noop("Variants"), items=(
        gettext_noop("Basic: one-qubit missions between |0⟩ and |1⟩."),
        gettext_noop("Intermediate: one-qubit missions with |+⟩ or |−⟩."),
        gettext_noop("Advanced: two-qubit missions, up to the Bell states."),
        gettext_noop("Mixed: missions of any level."),
        gettext_noop("The end: when the pile is empty every player has one last turn, then the most "
                     "claimed route length wins. Time is up: the game is scored as it stands."),
    )),
))

"""Engine cards, event cards, quantum components, dice and the detection track (sheet §1, §4–§6,
§8, §9). Pure data and small pure helpers; the flow lives in ``flow``.
"""
from __future__ import annotations

import random
from typing import Literal

PROBE = "PROBE"
#: §1: 24 engine cards.
ENGINE_DECK = ("H",) * 8 + ("CNOT",) * 7 + ("X",) * 5 + ("SWAP",) * 3 + (PROBE,)
HAND_SIZE = 3
SLOTS = 6

QUANTUM_TUNNEL = "Quantum Tunnel"
BENNETT = "Bennett"
HEISENBERG = "Heisenberg"
MECHANIC = "The Mechanic"
BIT_FLIP = "Bit Flip Error"
WAVE_COLLAPSE = "Wave Function Collapse"
SCHRODINGER = "Schrödinger"
SPOOKY = "Spooky Action"
QUANTUM_SHUFFLE = "Quantum Shuffle"
#: §9: the 9 event cards, one copy each.
EVENT_CARDS = (QUANTUM_TUNNEL, BENNETT, HEISENBERG, MECHANIC, BIT_FLIP, WAVE_COLLAPSE,
               SCHRODINGER, SPOOKY, QUANTUM_SHUFFLE)
KEEP_CARDS = (QUANTUM_TUNNEL, BENNETT, HEISENBERG, MECHANIC)
#: keep cards that are played as the Event action (Quantum Tunnel rides on Navigate/Retrieve)
ACTION_EVENTS = (BENNETT, HEISENBERG, MECHANIC)
EVENT_CARD_TEXTS = {
    QUANTUM_TUNNEL: "Keep: cancels one orbital or ground defense check this turn (not an action).",
    BENNETT: "Keep: move one quantum component from your ship to the other ship or back.",
    HEISENBERG: "Keep: roll the d8 and move both ships that many planets clockwise from "
                "OMEGA ZERO, with no orbital check.",
    MECHANIC: "Keep: put your hand aside, draw 3 engine cards, play 0, 1 or 2 of them "
              "(no orbital checks), discard the rest, take your hand back.",
    BIT_FLIP: "Now: the detection token goes to the first 4.",
    WAVE_COLLAPSE: "Now: detection two spaces back.",
    SCHRODINGER: "Now: detection +1.",
    SPOOKY: "Now: one random component of your ship flies to an empty planet (d8 clockwise "
            "from OMEGA ZERO) and must be retrieved again.",
    QUANTUM_SHUFFLE: "Now: rebuild the event deck as at setup, then draw another event card.",
}

PHYSICAL_QUBITS = "Physical Qubits"
QUBIT_INTERCONNECT = "Qubit Interconnect"
DILUTION_REFRIGERATOR = "Dilution Refrigerator"
QUANTUM_GATES = "Quantum Gates"
QUANTUM_PROGRAMMING = "Quantum Programming"
QUANTUM_ERROR_CORRECTION = "Quantum Error Correction"
CONTROL_INFRASTRUCTURE = "Control Infrastructure"
MAGNETIC_SHIELDING = "Magnetic Shielding"
#: §8: the 8 quantum components and whether each helps (bonus) or hurts (penalty) its holder.
COMPONENTS: dict[str, str] = {
    PHYSICAL_QUBITS: "bonus", QUBIT_INTERCONNECT: "bonus", DILUTION_REFRIGERATOR: "penalty",
    QUANTUM_GATES: "bonus", QUANTUM_PROGRAMMING: "bonus", QUANTUM_ERROR_CORRECTION: "bonus",
    CONTROL_INFRASTRUCTURE: "penalty", MAGNETIC_SHIELDING: "bonus",
}
COMPONENT_TEXTS = {
    PHYSICAL_QUBITS: "When detected by orbital defenses, choose ZERO or ONE for each ship "
                     "instead of rolling the Centarious die.",
    QUBIT_INTERCONNECT: "At the start of your turn you may trade one engine card with the other "
                        "player (both ships on the same planet). Not an action.",
    DILUTION_REFRIGERATOR: "Your engine hand limit becomes 2. When you retrieve it, discard one "
                           "engine card at once.",
    QUANTUM_GATES: "When you exchange, draw 2 instead of 1, keep one and discard the other.",
    QUANTUM_PROGRAMMING: "Navigating to an Entanglion planet that holds no component skips the "
                         "orbital check.",
    QUANTUM_ERROR_CORRECTION: "+1 to your Entanglion die rolls (defense checks and PROBE).",
    CONTROL_INFRASTRUCTURE: "−1 to your Entanglion die rolls (defense checks and PROBE).",
    MAGNETIC_SHIELDING: "Whenever a defense roll (or PROBE) of yours fails, you roll once more "
                        "and the second roll replaces the first.",
}

#: §6: the detection-rate track, 0-based index; X (index 11) is the loss.
TRACK: tuple[int | Literal["X"], ...] = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, "X")
LOSS_INDEX = 11
FIRST_FOUR = 5
#: §6 / §13.4: starting rate -> the first space with that number.
START_INDEX = {1: 0, 2: 1, 3: 3}


def rate(index: int) -> int | str:
    return TRACK[index]


def centarious_die(rng: random.Random) -> int:
    """§5: the binary d6, a fair coin: 0 -> ZERO, 1 -> ONE."""
    return rng.randrange(2)


def entanglion_die(rng: random.Random) -> int:
    """§5: the yellow d8."""
    return rng.randint(1, 8)


def engine_stack_at_setup(rng: random.Random) -> list[str]:
    """§4/§10.3: PROBE at the bottom, the other 23 shuffled on top. Top of the stack first."""
    cards = [c for c in ENGINE_DECK if c != PROBE]
    rng.shuffle(cards)
    return cards + [PROBE]


def event_deck_from(pool: list[str], rng: random.Random) -> list[str]:
    """§10.4 / §9 Quantum Shuffle / §13.10: Quantum Shuffle set aside, the others shuffled, 3
    dealt face down (all of them if fewer than 3), Quantum Shuffle on them, the rest on top.
    Top of the deck first."""
    others = [c for c in pool if c != QUANTUM_SHUFFLE]
    rng.shuffle(others)
    bottom, top = others[:3], others[3:]
    deck = list(top)
    if QUANTUM_SHUFFLE in pool:
        deck.append(QUANTUM_SHUFFLE)
    return deck + bottom

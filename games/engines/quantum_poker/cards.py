"""The cards: decks, options' defaults, dealing a hand (``_start_hand``)."""
from __future__ import annotations

from typing import Any

from ..base import (
    Event,
    State,
    chance,
    event,
)
from ..schema import Actions, Bool, Int, Obj, Options, TrueOnly
from .physics import _basis_amps
from .texts import EVENT_TEXTS, _player

SLUG = "quantum-poker"
QUBITS_PER_PLAYER = 4
ANTE = QUBITS_PER_PLAYER
QUBIT_DECK = 20
PAULI_KINDS = ("X", "Y", "Z", "H", "CX", "SWAP")
PAULI_COPIES = 8
OWN_KINDS = ("X", "Y", "Z", "H")
DEFAULT_OPTIONS: dict[str, Any] = {
    "community_cards": 5,
    "hands": 5,
    "starting_chips": 20,
    "physics_mode": False,
    "whole_pot": False,
}
# the shapes of the options and actions (checked by ``Engine``: see the package docstring)
OPTIONS = Options(community_cards=Int(1, 10), hands=Int(1, 100), starting_chips=Int(8, 1000),
                  physics_mode=Bool(), whole_pot=Bool())
ACTIONS = Actions(
    declare=Obj(declare=TrueOnly()),
    card=Obj(card=Int(0), target=Obj(seat=Int(0), qubit=Int(0, QUBITS_PER_PLAYER - 1)),
             optional={"own": Int(0, QUBITS_PER_PLAYER - 1)}),
)


# --------------------------------------------------------------------------- hand flow

def _start_hand(state: State, n: int, events: list[Event]) -> None:
    players = state["players"]
    number = len(state["results"]) + 1
    dealer = state["dealer"]
    in_hand = [c >= ANTE for c in state["chips"]]
    order = [(dealer + k) % players for k in range(1, players + 1)]
    order = [s for s in order if in_hand[s]]
    physics = state["options"]["physics_mode"]
    rng = chance(state["seed"], n, "qubit-deck")
    deck = [0] * (QUBIT_DECK // 2) + [1] * (QUBIT_DECK // 2)  # half the deck turned round
    rng.shuffle(deck)
    qubits: list[list[dict]] = [[] for _ in range(players)]
    k = 0
    for _ in range(QUBITS_PER_PLAYER):
        for s in order:
            value = deck[k]
            card = {"id": f"h{number}-q{k}", "value": value, "shown": False, "bet": 1,
                    "superposed": False, "initial": value, "gates": [], "public_known": False,
                    "known_by": [s]}
            if physics:
                card["amps"] = _basis_amps(value)
            qubits[s].append(card)
            k += 1
    prng = chance(state["seed"], n, "pauli-deck")
    pauli = [kind for kind in PAULI_KINDS for _ in range(PAULI_COPIES)]
    prng.shuffle(pauli)
    community = [{"id": f"h{number}-p{i}", "kind": kind, "taken_by": None, "order": None}
                 for i, kind in enumerate(pauli[:state["options"]["community_cards"]])]
    state["hand"] = {
        "number": number, "dealer": dealer, "in_hand": in_hand, "order": order,
        "turn": order[0], "qubits": qubits, "community": community, "plays": [],
        "declared_by": None, "last_turns": [], "phase": "play", "result": None,
    }
    events.append(event(EVENT_TEXTS, "hand_start", "hand_start",
                        {"hand": number, "dealer": _player(dealer)}, hand=number, dealer=dealer))
    for s in range(players):
        if not in_hand[s]:
            events.append(event(EVENT_TEXTS, "sit_out", "sit_out", {"player": _player(s), "ante": ANTE},
                                seat=s))
    for s in order:
        state["chips"][s] -= ANTE
        state["pot"] += ANTE
        events.append(event(EVENT_TEXTS, "ante", "ante", {"player": _player(s), "ante": ANTE},
                            seat=s, chips=ANTE))
    kinds = [c["kind"] for c in community]
    events.append(event(EVENT_TEXTS, "community", "community", {"cards": kinds}, cards=kinds))
    events.append(event(EVENT_TEXTS, "turn", "turn", {"player": _player(order[0])}, seat=order[0]))

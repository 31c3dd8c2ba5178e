"""What one seat (or a spectator) sees of the table."""
from __future__ import annotations

from ..base import (
    State,
    events_for,
)
from .cards import SLUG
from .physics import ket, named_state
from .rules import _can_declare, _knows


def build_view(game, state: State, seat: int | None) -> dict:
    """``QuantumPoker.view`` (the format is in the package docstring)."""
    if seat is not None:
        game.check_seat(state, seat)
    hand = state["hand"]
    physics = state["options"]["physics_mode"]
    seats = []
    for s in range(state["players"]):
        qubits = []
        for slot, q in enumerate(hand["qubits"][s]):
            knows = _knows(q, s, seat)
            known = not q["superposed"] and q["value"] is not None and knows
            row = {"id": q["id"], "slot": slot, "shown": q["shown"],
                   "bet": q["bet"], "superposed": q["superposed"],
                   "value": q["value"] if known else None, "known": known,
                   # perfect recall: a value this seat knows only from what it saw
                   "remembered": known and not q["shown"] and s != seat}
            if physics:
                # the state this seat can follow through the public gates, else None;
                # ``state`` is it without its global phase: |0⟩, |1⟩, |+⟩ or |−⟩ (a
                # superposed card is |+⟩ or |−⟩, and the next H tells them apart)
                follows = knows and hand["phase"] == "play"
                row["ket"] = ket(q["amps"]) if follows else None
                row["state"] = named_state(q["amps"]) if follows else None
            qubits.append(row)
        seats.append({"seat": s, "chips": state["chips"][s],
                      "in_hand": hand["in_hand"][s], "sitting_out": not hand["in_hand"][s],
                      "is_dealer": s == hand["dealer"], "qubits": qubits})
    last_hand = None
    if state["history"]:
        done = state["history"][-1]
        last_hand = dict(done["result"])
        last_hand["cards"] = [[{"id": q["id"], "value": q["value"], "bet": q["bet"]}
                               for q in done["qubits"][s]]
                              for s in range(state["players"])]
        # simplified mode: what physics mode would have given (fixed at the showdown)
        summary = done.get("physics_summary")
        last_hand["physics"] = summary if game.every_teaching_card else _noted(summary)
    events = events_for(state["events"], seat)
    return {
        "game": SLUG,
        "variant": state["variant"],
        "options": dict(state["options"]),
        "physics_mode": state["options"]["physics_mode"],
        "players": state["players"],
        "seat": seat,
        "hand": hand["number"],
        "hands": state["options"]["hands"],
        "phase": hand["phase"],
        "dealer": hand["dealer"],
        "turn": hand["turn"],
        "to_act": game.to_act(state),
        "pot": state["pot"],
        "can_declare": _can_declare(state),
        "declared_by": hand["declared_by"],
        "last_turns": list(hand["last_turns"]),
        "seats": seats,
        "community": [{"index": i, "id": c["id"], "kind": c["kind"],
                       "taken_by": c["taken_by"], "order": c["order"]}
                      for i, c in enumerate(hand["community"])],
        "plays": list(hand["plays"]),
        "events": list(events),
        "last_hand": last_hand,
        "results": list(state["results"]),
        "finished": state["finished"],
        "outcome": game.outcome(state),
    }


def _noted(summary: dict | None) -> dict | None:
    """The teaching summary of a finished hand with each seat's noted cards only (a card with
    no note ends the same in both modes: the table is told nothing of it)."""
    if summary is None:
        return None
    return {**summary, "seats": [row and {**row, "cards": [c for c in row["cards"] if c["note"]]}
                                 for row in summary["seats"]]}

"""The scores of QuantumPoker's measured qubit cards (physics mode), for the statistics pages
(``QuantumPoker.scorer``; see "Scoring a circuit's outcomes" in engines/base.py)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import NotScorable, Verdict, gettext_noop


@dataclass
class PokerScorer:
    """QuantumPoker (physics mode): a seat scores the bets (1 or 2) of its qubit cards that
    measure 1. Circuit bit k is the card ``circuit.metadata["bits"][k]``."""

    state: Mapping[str, Any]
    bits: list[dict]
    game: str = "quantum-poker"

    def __post_init__(self) -> None:
        self.seats = sorted({b["seat"] for b in self.bits})
        self.sides = [f"seat {s + 1}" for s in self.seats]

    def score(self, key: str) -> tuple[int, ...]:
        compact = key.replace(" ", "")
        hand = self.state["hand"]
        totals = dict.fromkeys(self.seats, 0)
        for b in self.bits:
            if compact[len(compact) - 1 - b["bit"]] == "1":
                totals[b["seat"]] += hand["qubits"][b["seat"]][b["qubit"]]["bet"]
        return tuple(totals[s] for s in self.seats)

    def exact(self) -> dict[str, float] | None:
        return None  # the circuit has no mid-circuit measurement: the statevector is exact

    def actual(self) -> tuple[int, ...] | None:
        result = self.state["hand"].get("result")
        if not result:
            return None
        return tuple(result["scores"][s] or 0 for s in self.seats)

    def final_board(self) -> list[str] | None:
        return None  # the cards are shown on the game's own board

    ranks_sides = True

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> Verdict:
        return []


def poker_scorer(state: Mapping[str, Any], circuit: Any) -> PokerScorer:
    if circuit is None or not circuit.metadata or "bits" not in circuit.metadata:
        raise NotScorable(gettext_noop("This poker position has no circuit (physics mode is off)."))
    return PokerScorer(state, circuit.metadata["bits"])

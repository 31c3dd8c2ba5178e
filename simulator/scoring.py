"""Scores of measured outcomes, per game: the bridge between counts and the game's rules.

An *outcome key* is the bitstring of a circuit's final-measurement register (its first
classical register) in qiskit's order: the rightmost character is classical bit 0.

``scorer_for(game_slug, state)`` returns a ``Scorer`` with

* ``sides``: names of what is scored (QTris: the colours; poker: the seats in the hand),
* ``score(key)``: the score per side of one outcome,
* ``exact()``: the engine's own Born distribution ``{key: p}``, or None (then the back end
  computes it from the circuit),
* ``actual()``: the score the match really got at this position, or None,
* ``final_board()``: the measured board to draw beside the odds (QTris), or None.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from games.engines import UnknownGame, abilities_of, get_game


class Scorer(Protocol):
    game: str
    sides: list[str]

    def score(self, key: str) -> tuple[int, ...]: ...

    def exact(self) -> dict[str, float] | None: ...

    def actual(self) -> tuple[int, ...] | None: ...

    def final_board(self) -> list[str] | None: ...


class NotScorable(ValueError):
    """This game (or this position) has no circuit whose outcomes can be scored."""


@dataclass
class QTrisScorer:
    """QTris: 8 lines; a line all white is a qtris for White, all black one for Black.
    Outcome bit k-1 is square k (0 white, 1 black)."""

    state: Mapping[str, Any]
    game: str = "qtris"
    sides: tuple[str, ...] = ("white", "black")

    def __post_init__(self) -> None:
        self.sides = list(self.sides)

    def score(self, key: str) -> tuple[int, ...]:
        from games.engines.qtris import outcome_of_bitstring, score_of_outcome

        lines = score_of_outcome(outcome_of_bitstring(key))
        return (lines["white"], lines["black"])

    def exact(self) -> dict[str, float] | None:
        from games.engines.qtris import final_distribution

        return {format(row["outcome"], "09b"): row["p"] for row in final_distribution(dict(self.state))}

    def actual(self) -> tuple[int, ...] | None:
        lines = self.state.get("lines")
        return (lines["white"], lines["black"]) if lines else None

    def final_board(self) -> list[str] | None:
        """The measured board at the end (W/B per square), once there is one."""
        board = self.state.get("final_board")
        return ["W" if b == 0 else "B" for b in board] if board else None


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


def has_circuit(game_slug: str, options: Mapping[str, Any] | None) -> bool:
    """Whether a match of this game (with these options) has a circuit, hence statistics pages,
    as its engine declares (``Abilities.circuit``): QTris always, QuantumPoker in physics mode,
    quantum tic-tac-toe never (no quantum state)."""
    try:
        game = get_game(game_slug)
    except UnknownGame:
        return False
    return abilities_of(game).has_circuit(options) and game_slug in SCORERS


def _poker_scorer(state: Mapping[str, Any], circuit: Any) -> Scorer:
    if circuit is None or not circuit.metadata or "bits" not in circuit.metadata:
        raise NotScorable("This poker position has no circuit (physics mode is off).")
    return PokerScorer(state, circuit.metadata["bits"])


# game slug -> the scorer of its circuits' outcomes (the rules that turn bits into scores)
SCORERS = {
    "qtris": lambda state, circuit: QTrisScorer(state),
    "quantum-poker": _poker_scorer,
}


def scorer_for(game_slug: str, state: Mapping[str, Any], circuit: Any = None) -> Scorer:
    make = SCORERS.get(game_slug)
    if make is None:
        raise NotScorable(f"{game_slug} has no circuit statistics.")
    return make(state, circuit)


def score_outcome(game_slug: str, bits: str, state: Mapping[str, Any], circuit: Any = None
                  ) -> dict[str, int]:
    """The score per side of one measured outcome, e.g. ``{"white": 1, "black": 0}``."""
    scorer = scorer_for(game_slug, state, circuit)
    return dict(zip(scorer.sides, scorer.score(bits), strict=True))


def exact_distribution(game_slug: str, state: Mapping[str, Any], circuit: Any = None
                       ) -> dict[str, float] | None:
    """The engine's exact outcome distribution ``{key: p}`` (None: use the circuit's)."""
    return scorer_for(game_slug, state, circuit).exact()


def score_table(scorer: Scorer, weights: Mapping[str, float]) -> dict[str, Any]:
    """Aggregate outcome weights (shot counts or probabilities) into a score distribution.

    Returns ``{"sides", "total", "table": [{"score": [..], "label", "weight", "fraction"}],
    "expected": [per side], "win": {side: fraction, "tie": fraction}}``."""
    total = float(sum(weights.values()))
    by_score: dict[tuple[int, ...], float] = {}
    for key, w in weights.items():
        if w:
            s = scorer.score(key)
            by_score[s] = by_score.get(s, 0.0) + float(w)
    sides = list(scorer.sides)
    expected = [0.0] * len(sides)
    win = {side: 0.0 for side in sides} | {"tie": 0.0}
    table = []
    for score in sorted(by_score):
        w = by_score[score]
        frac = w / total if total else 0.0
        for i, v in enumerate(score):
            expected[i] += v * frac
        best = max(score)
        leaders = [i for i, v in enumerate(score) if v == best]
        win[sides[leaders[0]] if len(leaders) == 1 else "tie"] += frac
        table.append({"score": list(score), "label": score_label(sides, score),
                      "weight": w, "fraction": frac})
    return {"sides": sides, "total": total, "table": table, "expected": expected, "win": win}


def score_label(sides: list[str], score: tuple[int, ...] | list[int]) -> str:
    """``"W1 B0"`` for QTris, ``"1:3 2:0"`` style for seats."""
    if sides == ["white", "black"]:
        return f"W{score[0]} B{score[1]}"
    return " ".join(f"{side.removeprefix('seat ')}:{v}" for side, v in zip(sides, score, strict=True))

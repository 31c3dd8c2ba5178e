"""The scores of QTris's measured boards, for the statistics pages (``QTris.scorer``; see
"Scoring a circuit's outcomes" in engines/base.py)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import Verdict


@dataclass
class QTrisScorer:
    """QTris: 8 lines; a line all white is a qtris for White, all black one for Black.
    Outcome bit k-1 is square k (0 white, 1 black)."""

    state: Mapping[str, Any]
    game: str = "qtris"
    sides: tuple[str, ...] = ("white", "black")

    def __post_init__(self) -> None:
        self.sides = list(self.sides)  # type: ignore[assignment]

    def score(self, key: str) -> tuple[int, ...]:
        from .scoring import outcome_of_bitstring, score_of_outcome

        lines = score_of_outcome(outcome_of_bitstring(key))
        return (lines["white"], lines["black"])

    def exact(self) -> dict[str, float] | None:
        from .analysis import final_distribution

        return {format(row["outcome"], "09b"): row["p"] for row in final_distribution(dict(self.state)["board"])}

    def actual(self) -> tuple[int, ...] | None:
        lines = self.state.get("lines")
        return (lines["white"], lines["black"]) if lines else None

    def final_board(self) -> list[str] | None:
        """The measured board at the end (W/B per square), once there is one."""
        board = self.state.get("final_board")
        return ["W" if b == 0 else "B" for b in board] if board else None

    ranks_sides = True

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> Verdict:
        return []

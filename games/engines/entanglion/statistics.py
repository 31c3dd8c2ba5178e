"""Where a measurement would find Entanglion's ships, for the statistics pages
(``Entanglion.scorer``; see "Scoring a circuit's outcomes" in engines/base.py)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import Verdict, gettext_noop


@dataclass
class EntanglionScorer:
    """Entanglion: the ships' two qubits measured in the Z basis, as where each ship would be
    found in Centarious: a side scores 1 when its ship is found on ONE, 0 on ZERO (so the
    expected score of a ship is its chance of ONE). Circuit bit k is qubit k: q0 Mercurial,
    q1 Rubicon (the engine's ``circuit``). The game itself never scores a measurement: no
    actual score, and the statevector of the (measurement-free) circuit is exact."""

    state: Mapping[str, Any]
    game: str = "entanglion"
    sides: tuple[str, ...] = ("mercurial", "rubicon")

    def __post_init__(self) -> None:
        self.sides = list(self.sides)  # type: ignore[assignment]

    def score(self, key: str) -> tuple[int, ...]:
        compact = key.replace(" ", "")
        return (int(compact[-1]), int(compact[-2]))

    def exact(self) -> dict[str, float] | None:
        return None

    def actual(self) -> tuple[int, ...] | None:
        return None

    def final_board(self) -> list[str] | None:
        return None  # the ships are shown on the game's own board

    ranks_sides = False  # co-operative: the ships win or lose together

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> Verdict:
        """Where a measurement now would find the ships, and whether the outcomes are correlated
        (entangled ships) or not; and that the game's detection ignores this (sheet §3.6)."""
        p_m, p_r = exact["expected"]
        same = sum(row["fraction"] for row in exact["table"] if row["score"][0] == row["score"][1])
        independent = p_m * p_r + (1 - p_m) * (1 - p_r)
        lines: Verdict = [
            (gettext_noop("Measured now, Mercurial would be found on ONE with probability %(m)s and Rubicon "
                          "with probability %(r)s."), {"m": f"{p_m:.0%}", "r": f"{p_r:.0%}"}),
            (gettext_noop("Both ships on the same Centarious planet: %(same)s."), {"same": f"{same:.0%}"})]
        if abs(same - independent) > 1e-9:
            lines.append((gettext_noop("That is not %(ind)s, as two separate ships would give: the outcomes are "
                                       "correlated, the ships are entangled."), {"ind": f"{independent:.0%}"}))
        if same < 1 - 1e-9:
            lines.append((gettext_noop("In the game a detection still sends both ships to the same planet: a game "
                                       "rule, not physics."), {}))
        return lines

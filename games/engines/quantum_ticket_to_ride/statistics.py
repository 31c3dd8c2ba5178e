"""Whether a run's measured outcomes found the target, for the statistics pages
(``QuantumTicketToRide.scorer``; see "Scoring a circuit's outcomes" in engines/base.py)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import NotScorable, Verdict, gettext_noop


@dataclass
class TicketScorer:
    """Quantum Ticket-to-Ride: the last run's circuit is measured in the target's basis; an
    outcome listed in ``circuit.metadata["success"]`` found the target state. Two sides, so
    the score table reads as the success and failure rates."""

    state: Mapping[str, Any]
    metadata: Mapping[str, Any]
    game: str = "quantum-ticket-to-ride"
    sides: tuple[str, ...] = ("success", "failure")

    def __post_init__(self) -> None:
        self.sides = list(self.sides)  # type: ignore[assignment]

    def score(self, key: str) -> tuple[int, ...]:
        found = key.replace(" ", "") in self.metadata["success"]
        return (1, 0) if found else (0, 1)

    def exact(self) -> dict[str, float] | None:
        return None  # no mid-circuit measurement: the circuit's statevector is exact

    def actual(self) -> tuple[int, ...] | None:
        """The game's own verdict on the circuit's run (an exact comparison, nothing measured:
        a match is fidelity 1 within 1e-9); None before a run."""
        if self.metadata.get("ran") is False:
            return None
        return (1, 0) if self.metadata["fidelity"] >= 1 - 1e-9 else (0, 1)

    def final_board(self) -> list[str] | None:
        return None  # the map is drawn by the game's own board

    ranks_sides = False  # one run of one seat: the success rate, not a contest

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> Verdict:
        """The run's exact answer (its fidelity is the probability that a shot finds the
        target) beside the success rate of each back end's shots (``runs``: label → Run)."""
        meta = self.metadata
        mission = meta["mission"]
        p = 100 * exact["win"]["success"]
        if meta.get("ran") is False:  # before any run the engine's circuit is a mission as prepared
            return [(gettext_noop("No run yet: this is the mission qubit of %(start)s as prepared, measured against "
                                  "its target (exact success probability %(p).1f%%)."),
                     {"start": mission["start"], "p": p})]
        lines: Verdict = [
            (gettext_noop("The run %(path)s: exact fidelity with the target %(fidelity).3f, so %(p).1f%% of shots "
                          "should find it."),
             {"path": " → ".join(meta["cities"]), "fidelity": meta["fidelity"], "p": p}),
            (gettext_noop("Mission %(id)s: %(start)s → %(target)s, target state %(target_state)s."),
             {"id": mission["id"], "start": mission["start"], "target": mission["target"],
              "target_state": mission["target_state"]})]
        for label, run in runs.items():
            if run is None or not run.scores:
                continue
            lines.append((gettext_noop("%(backend)s (%(device)s): %(rate).1f%% of %(shots)d shots found the "
                                       "target state."),
                          {"backend": label, "device": run.device or run.backend,
                           "rate": 100 * run.scores["win"].get("success", 0.0), "shots": run.shots}))
        return lines


def ticket_scorer(state: Mapping[str, Any], circuit: Any) -> TicketScorer:
    if circuit is None or not circuit.metadata or "success" not in circuit.metadata:
        raise NotScorable(gettext_noop("No run yet: a circuit exists once a player has run a path."))
    return TicketScorer(state, dict(circuit.metadata))

"""Scores of measured outcomes, per game: the bridge between counts and the game's rules.

An *outcome key* is the bitstring of a circuit's final-measurement register (its first
classical register) in qiskit's order: the rightmost character is classical bit 0.

``scorer_for(game_slug, state)`` returns a ``Scorer`` with

* ``sides``: names of what is scored (QTris: the colours; poker: the seats in the hand),
* ``score(key)``: the score per side of one outcome,
* ``exact()``: the engine's own Born distribution ``{key: p}``, or None (then the back end
  computes it from the circuit),
* ``actual()``: the score the match really got at this position, or None,
* ``final_board()``: the measured board to draw beside the odds (QTris), or None,
* ``ranks_sides``: whether the sides compete (who wins is worth saying), and
  ``verdict(exact, runs)``: what the exact odds and the runs mean in the game's own words
  (may be empty; the common who-wins verdict follows when ``ranks_sides``).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.translation import gettext, gettext_noop, pgettext

from games.engines import UnknownGame, abilities_of, get_game


class Scorer(Protocol):
    game: str
    sides: list[str]
    ranks_sides: bool

    def score(self, key: str) -> tuple[int, ...]: ...

    def exact(self) -> dict[str, float] | None: ...

    def actual(self) -> tuple[int, ...] | None: ...

    def final_board(self) -> list[str] | None: ...

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> list[str]:
        """The game's own words on the exact answer and the runs (``runs``: label -> Run or None)."""
        ...


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

    ranks_sides = True

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> list[str]:
        return []


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

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> list[str]:
        return []


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
        self.sides = list(self.sides)

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

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> list[str]:
        """Where a measurement now would find the ships, and whether the outcomes are correlated
        (entangled ships) or not; and that the game's detection ignores this (sheet §3.6)."""
        p_m, p_r = exact["expected"]
        same = sum(row["fraction"] for row in exact["table"] if row["score"][0] == row["score"][1])
        independent = p_m * p_r + (1 - p_m) * (1 - p_r)
        lines = [gettext("Measured now, Mercurial would be found on ONE with probability %(m)s and Rubicon "
                         "with probability %(r)s.") % {"m": f"{p_m:.0%}", "r": f"{p_r:.0%}"},
                 gettext("Both ships on the same Centarious planet: %(same)s.") % {"same": f"{same:.0%}"}]
        if abs(same - independent) > 1e-9:
            lines.append(gettext("That is not %(ind)s, as two separate ships would give: the outcomes are "
                                 "correlated, the ships are entangled.") % {"ind": f"{independent:.0%}"})
        if same < 1 - 1e-9:
            lines.append(gettext("In the game a detection still sends both ships to the same planet: a game "
                                 "rule, not physics."))
        return lines


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
        self.sides = list(self.sides)

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

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> list[str]:
        """The run's exact answer (its fidelity is the probability that a shot finds the
        target) beside the success rate of each back end's shots (``runs``: label → Run)."""
        meta = self.metadata
        mission = meta["mission"]
        p = 100 * exact["win"]["success"]
        if meta.get("ran") is False:  # before any run the engine's circuit is a mission as prepared
            return [gettext("No run yet: this is the mission qubit of %(start)s as prepared, measured against "
                      "its target (exact success probability %(p).1f%%).") % {"start": mission["start"], "p": p}]
        lines = [gettext("The run %(path)s: exact fidelity with the target %(fidelity).3f, so %(p).1f%% of shots "
                   "should find it.") % {"path": " → ".join(meta["cities"]), "fidelity": meta["fidelity"], "p": p},
                 gettext("Mission %(id)s: %(start)s → %(target)s, target state %(target_state)s.")
                 % {"id": mission["id"], "start": mission["start"], "target": mission["target"],
                    "target_state": mission["target_state"]}]
        for label, run in runs.items():
            if run is None or not run.scores:
                continue
            lines.append(gettext("%(backend)s (%(device)s): %(rate).1f%% of %(shots)d shots found the target state.")
                         % {"backend": label, "device": run.device or run.backend,
                            "rate": 100 * run.scores["win"].get("success", 0.0), "shots": run.shots})
        return lines

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
        raise NotScorable(gettext("This poker position has no circuit (physics mode is off)."))
    return PokerScorer(state, circuit.metadata["bits"])


def _ticket_scorer(state: Mapping[str, Any], circuit: Any) -> Scorer:
    if circuit is None or not circuit.metadata or "success" not in circuit.metadata:
        raise NotScorable(gettext("No run yet: a circuit exists once a player has run a path."))
    return TicketScorer(state, dict(circuit.metadata))


# game slug -> the scorer of its circuits' outcomes (the rules that turn bits into scores)
SCORERS = {
    "qtris": lambda state, circuit: QTrisScorer(state),
    "quantum-poker": _poker_scorer,
    "entanglion": lambda state, circuit: EntanglionScorer(state),
    "quantum-ticket-to-ride": _ticket_scorer,
}


def scorer_for(game_slug: str, state: Mapping[str, Any], circuit: Any = None) -> Scorer:
    make = SCORERS.get(game_slug)
    if make is None:
        raise NotScorable(gettext("%(game)s has no circuit statistics.") % {"game": game_slug})
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
    """``"W1 B0"`` for QTris, ``"1:3 2:0"`` style for seats: the language-neutral key of a score
    (the API's, the stored runs'); ``score_words`` shows it to a reader."""
    if sides == ["white", "black"]:
        return f"W{score[0]} B{score[1]}"
    return " ".join(f"{side.removeprefix('seat ')}:{v}" for side, v in zip(sides, score, strict=True))


_COLOUR_SCORE = re.compile(r"W(\d+) B(\d+)")


def score_words(label: str) -> str:
    """A score label as a reader sees it: QTris's ``"W1 B0"`` with the initials of "white" and
    "black" in the reader's language; ``"success:1 failure:0"`` with the sides' words
    (``side_words``); seats' numbers (``"1:3 2:0"``) as they are."""
    m = _COLOUR_SCORE.fullmatch(label)
    if not m:
        parts = [part.partition(":") for part in label.split(" ")]
        if all(side and colon and value.isdigit() for side, colon, value in parts):
            return " ".join(f"{side_words(side)}:{value}" for side, _colon, value in parts)
        return label
    # Translators: a QTris score, white's qtris then black's, e.g. "W3 B1": W and B are one-letter
    # abbreviations of "white" and "black" (the two sides' colours); keep them one letter each.
    return pgettext("QTris score: W = white, B = black", "W%(white)s B%(black)s") % {"white": m[1], "black": m[2]}


# The neutral keys of sides and verdicts (the API's, the CSV's, the stored runs') and the words a
# reader sees for them; a key not listed (a Ticket-to-Ride or poker seat is "seat 2") is worded below.
_SIDE_WORDS = {
    "white": gettext_noop("white"), "black": gettext_noop("black"),
    "tie": gettext_noop("draw"), "draw": gettext_noop("draw"),
    "lost together": gettext_noop("lost together"),
    "first player": gettext_noop("first player"), "second player": gettext_noop("second player"),
    "success": gettext_noop("success"), "failure": gettext_noop("failure"),
    "mercurial": "Mercurial", "rubicon": "Rubicon",  # the ships' names, the same in every language
}
_SEAT = re.compile(r"seat (\d+)")


def side_words(key: str) -> str:
    """A side or verdict key of the statistics (``"white"``, ``"tie"``, ``"lost together"``,
    ``"first player"``, ``"seat 2"``, several winners ``"seat 1/seat 2"``) in the reader's language."""
    key = str(key)
    if "/" in key:
        return " / ".join(side_words(part) for part in key.split("/"))
    if key in _SIDE_WORDS:
        return gettext(_SIDE_WORDS[key])
    m = _SEAT.fullmatch(key)
    if m:
        return gettext("seat %(n)s") % {"n": m[1]}
    return key

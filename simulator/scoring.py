"""Scores of measured outcomes, per game: the bridge between counts and the game's rules.

An *outcome key* is the bitstring of a circuit's final-measurement register (its first
classical register) in qiskit's order: the rightmost character is classical bit 0.

``scorer_for(game_slug, state, circuit)`` returns a ``Scorer``, the engine's own
(``scorer(state, circuit)``, see "Scoring a circuit's outcomes" in games/engines/base.py), with

* ``sides``: names of what is scored (QTris: the colours; poker: the seats in the hand),
* ``score(key)``: the score per side of one outcome,
* ``exact()``: the engine's own Born distribution ``{key: p}``, or None (then the back end
  computes it from the circuit),
* ``actual()``: the score the match really got at this position, or None,
* ``final_board()``: the measured board to draw beside the odds (QTris), or None,
* ``ranks_sides``: whether the sides compete (who wins is worth saying), and
  ``verdict(exact, runs)``: what the exact odds and the runs mean in the game's own words, in
  the reader's language (may be empty; the common who-wins verdict follows when ``ranks_sides``).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from games.engines import NotScorable as EngineNotScorable
from games.engines import Scorer as EngineScorer
from games.engines import UnknownGame, abilities_of, get_game
from games.engines.base import render_refusal


class NotScorable(ValueError):
    """This game (or this position) has no circuit whose outcomes can be scored (the message is
    in the reader's language)."""


class Scorer:
    """An engine's scorer (``games.engines.base.Scorer``) as the statistics read it: its verdict
    in the reader's language."""

    def __init__(self, scorer: EngineScorer):
        self._scorer = scorer
        self.game = scorer.game
        self.sides = list(scorer.sides)
        self.ranks_sides = scorer.ranks_sides

    def score(self, key: str) -> tuple[int, ...]:
        return self._scorer.score(key)

    def exact(self) -> dict[str, float] | None:
        return self._scorer.exact()

    def actual(self) -> tuple[int, ...] | None:
        return self._scorer.actual()

    def final_board(self) -> list[str] | None:
        return self._scorer.final_board()

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> list[str]:
        """The game's own words on the exact answer and the runs (``runs``: label -> Run or None)."""
        return [gettext(msgid) % params if params else gettext(msgid)
                for msgid, params in self._scorer.verdict(exact, runs)]


def has_circuit(game_slug: str, options: Mapping[str, Any] | None) -> bool:
    """Whether a match of this game (with these options) has a circuit, hence statistics pages,
    as its engine declares (``Abilities.circuit``): QTris always, QuantumPoker in physics mode,
    quantum tic-tac-toe never (no quantum state)."""
    try:
        game = get_game(game_slug)
    except UnknownGame:
        return False
    return abilities_of(game).has_circuit(options)


def scorer_for(game_slug: str, state: Mapping[str, Any], circuit: Any = None) -> Scorer:
    """The scorer of the outcomes of ``circuit`` at ``state``: the engine's own (``scorer``,
    declared with ``Abilities.circuit``); ``NotScorable`` for a game or position without one."""
    try:
        game = get_game(game_slug)
    except UnknownGame:
        game = None
    if game is None or not abilities_of(game).circuit:
        raise NotScorable(gettext("%(game)s has no circuit statistics.") % {"game": game_slug})
    try:
        return Scorer(game.scorer(state, circuit))  # type: ignore[attr-defined]
    except EngineNotScorable as exc:
        raise NotScorable(render_refusal(exc.msgid, exc.params, gettext, ngettext)) from None


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

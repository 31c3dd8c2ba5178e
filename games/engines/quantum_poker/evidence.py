"""QuantumPoker's concept evidence (see "Concept evidence" in games/engines/base.py): what a card
play (or a declaration) shows of its player's understanding, judged from the player's own view
(``view(before, seat)``): what they could know of each card — a value, a state they followed
through the public gates (physics mode), or nothing.

A card is modelled as the player can know it: ``0`` or ``1``; ``+`` or ``-`` (physics mode: a
state followed through the gates); ``S`` (the classic game's superposed card, its value gone);
``?`` (unknown). Its chance of showing 1 is 0, 1 or ½. A misconception is claimed only about
the last community card of the hand (nothing later can change what it did) when another target
of that card would have given the player more chips to expect from the showdown (the table's
payout, from what they can know: an unknown card is 1 with chance ½).

* ``h_undoes_h`` (interference, misconception): physics mode, H on one's own |+⟩, which makes it
  a sure 0 (H·H = I).
* ``h_on_minus`` (phase, shows): physics mode, H on one's own |−⟩, which makes it a sure 1.
* ``x_on_superposed`` (phase, misconception): X on one's own superposed card, which it leaves as
  it is.
* ``cx_on_superposed`` (phase, misconception): CX on an opponent's superposed card.
* ``h_on_sure_zero`` (superposition, shows): H on one's own sure 0, which makes it a coin.
* ``declare_ahead`` (measurement, shows): a declaration while one's expected count (the Born
  odds of what one can know) is ahead of every other player's.
"""
from __future__ import annotations

from itertools import product
from math import prod
from typing import Any

from ..base import Action, Evidence, State, evidence, gettext_noop

EVIDENCE_TEXTS = {
    "h_undoes_h": gettext_noop(
        "Played H on your qubit %(qubit)s, which was |+⟩: H undoes H (H·H = I), it does not flip a "
        "coin again, so the card is now |0⟩, a sure 0."),
    "h_on_minus": gettext_noop(
        "Played H on your qubit %(qubit)s, which was |−⟩: the minus sign, a phase, decided the "
        "outcome (H|−⟩ = |1⟩), a sure 1."),
    "x_on_superposed": gettext_noop(
        "Played X on your qubit %(qubit)s, which was in superposition: X swaps the chances of 0 "
        "and 1, and they were equal, so nothing changed (X|+⟩ = |+⟩, X|−⟩ = −|−⟩)."),
    "cx_on_superposed": gettext_noop(
        "Played CX on qubit %(qubit)s of player %(number)s, which was in superposition: X leaves its equal "
        "chances of 0 and 1 as they were, while a known 1 could have been flipped to 0."),
    "h_on_sure_zero": gettext_noop(
        "Played H on your qubit %(qubit)s, a sure 0: in superposition it now shows 1 half of the "
        "time."),
    "declare_ahead": gettext_noop(
        "Declared measurement with an expected count of %(mine)s against at most %(best)s for "
        "the others: the odds of the measurement were on your side."),
}

TOL = 1e-9
PHYSICS = {
    "H": {"0": "+", "+": "0", "1": "-", "-": "1"},
    "X": {"0": "1", "1": "0", "+": "+", "-": "-"},
    "Y": {"0": "1", "1": "0", "+": "-", "-": "+"},
    "Z": {"0": "0", "1": "1", "+": "-", "-": "+"},
}
CLASSIC = {
    "H": {"0": "S", "1": "S", "?": "S", "S": "?"},
    "X": {"0": "1", "1": "0", "?": "?", "S": "S"},
    "Y": {"0": "1", "1": "0", "?": "?", "S": "S"},
    "Z": {},
}
STATE_NAMES = {"|0⟩": "0", "|1⟩": "1", "|+⟩": "+", "|−⟩": "-"}


def _card(row: dict, physics: bool) -> str:
    if physics and row.get("state") in STATE_NAMES:
        return STATE_NAMES[row["state"]]
    if row.get("known") and row.get("value") in (0, 1):
        return str(row["value"])
    if row.get("superposed"):
        return "S"
    return "?"


def _p1(card: str) -> float:
    return {"0": 0.0, "1": 1.0}.get(card, 0.5)


def _after(card: str, gate: str, physics: bool) -> str:
    table = PHYSICS if physics else CLASSIC
    return table.get(gate, {}).get(card, card)


def _bet_after(bet: int, gate: str) -> int:
    """A card's bet after ``gate``: Z doubles a single bet and halves a double one."""
    return (2 if bet == 1 else 1) if gate == "Z" else bet


def _worth(row: dict, gate: str, physics: bool) -> float:
    """How much ``gate`` on this card changes its owner's expected count."""
    card = _card(row, physics)
    bet = row["bet"]
    new_bet = _bet_after(bet, gate)
    return _p1(_after(card, gate, physics)) * new_bet - _p1(card) * bet


def _expected(seat_row: dict, physics: bool) -> float:
    return sum(_p1(_card(q, physics)) * q["bet"] for q in seat_row["qubits"])


def _last_card(view: dict, index: int) -> bool:
    """Whether this community card is the last one of the hand: nothing played later can change
    what it did, so one step ahead is the whole story."""
    return all(c["taken_by"] is not None for i, c in enumerate(view["community"]) if i != index)


def _chips(view: dict, seat: int, changed: tuple[int, int], gate: str, physics: bool) -> float | None:
    """The chips the player can expect back from the showdown (from what they can know), with
    ``gate`` applied to the card ``changed`` (seat, slot): the rulebook's payout (the highest
    count takes back its own chips and collects the chips on the others' 1-cards, the others'
    0-cards go back to their owners; ties share) or the whole pot. None when too many cards are
    uncertain (over 12) to make a claim.

    The payout depends only on each player's count (the bets on their 1-cards), and the cards
    are independent: so the outcomes counted are the players' counts, each with its chance (the
    product of each player's own distribution), not the 2^n values of the cards one by one."""
    counts: dict[int, dict[int, float]] = {}  # owner → {count: chance}
    bets: dict[int, int] = {}  # owner → the chips on all their cards
    unsure = 0
    for s in view["seats"]:
        if not s["in_hand"]:
            continue
        owner = s["seat"]
        dist, bets[owner] = {0: 1.0}, 0
        for q in s["qubits"]:
            card, bet = _card(q, physics), q["bet"]
            if changed == (owner, q["slot"]):
                card = _after(card, gate, physics)
                bet = _bet_after(bet, gate)
            bets[owner] += bet
            p1 = _p1(card)
            if p1 == 1:
                dist = {c + bet: w for c, w in dist.items()}
            elif p1 > 0:
                unsure += 1
                grown: dict[int, float] = {}
                for c, w in dist.items():
                    grown[c] = grown.get(c, 0.0) + w * (1 - p1)
                    grown[c + bet] = grown.get(c + bet, 0.0) + w * p1
                dist = grown
        counts[owner] = dist
    if unsure > 12:
        return None
    owners = list(counts)
    whole_pot = bool(view["options"].get("whole_pot"))
    total = 0.0
    for outcome in product(*(counts[o].items() for o in owners)):
        weight = prod(w for _, w in outcome)
        count = {o: c for o, (c, _) in zip(owners, outcome, strict=True)}
        top = max(count.values())
        winners = [o for o in owners if count[o] == top]
        if whole_pot:
            got = view["pot"] / len(winners) if seat in winners else 0.0
        elif seat in winners:
            got = bets[seat] + sum(count[o] for o in owners if o not in winners) / len(winners)
        else:
            got = bets.get(seat, 0) - count.get(seat, 0)
        total += weight * got
    return total


def _better_target(view: dict, seat: int, gate: str, target: tuple[int, int],
                   worth: dict[tuple[int, int], float], physics: bool) -> bool:
    """Whether another target of the same card gave the player more chips to expect."""
    here = _chips(view, seat, target, gate, physics)
    if here is None:
        return False
    for other in worth:
        there = _chips(view, seat, other, gate, physics)
        if there is not None and there > here + TOL:
            return True
    return False


def concept_evidence(game: Any, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
    view = game.view(before, seat)
    physics = bool(view["physics_mode"])
    seats = view["seats"]
    if action.get("declare"):
        mine = _expected(seats[seat], physics)
        others = [_expected(s, physics) for s in seats if s["seat"] != seat and s["in_hand"]]
        if others and mine > max(others) + TOL:
            return [evidence(EVIDENCE_TEXTS, "measurement", "shows", "declare_ahead",
                             {"mine": f"{mine:g}", "best": f"{max(others):g}"})]
        return []
    if "card" not in action or "own" in action:
        return []
    gate = view["community"][action["card"]]["kind"]
    target = action["target"]
    tseat, slot = target["seat"], target["qubit"]
    row = seats[tseat]["qubits"][slot]
    card = _card(row, physics)
    params = {"qubit": slot + 1}
    if gate == "CX":
        gate = "X"
        worth = {(s["seat"], q["slot"]): -_worth(q, "X", physics)
                 for s in seats if s["seat"] != seat and s["in_hand"] for q in s["qubits"]}
    else:
        worth = {(seat, q["slot"]): _worth(q, gate, physics) for q in seats[seat]["qubits"]}
    better = _last_card(view, action["card"]) and _better_target(view, seat, gate, (tseat, slot), worth, physics)
    found: list[Evidence] = []
    kind = view["community"][action["card"]]["kind"]
    if kind == "H" and physics and card == "+" and better:
        found.append(evidence(EVIDENCE_TEXTS, "interference", "misconception", "h_undoes_h", params))
    elif kind == "H" and physics and card == "-":
        found.append(evidence(EVIDENCE_TEXTS, "phase", "shows", "h_on_minus", params))
    elif kind == "H" and card == "0":
        found.append(evidence(EVIDENCE_TEXTS, "superposition", "shows", "h_on_sure_zero", params))
    elif kind == "X" and row["superposed"] and better:
        found.append(evidence(EVIDENCE_TEXTS, "phase", "misconception", "x_on_superposed", params))
    elif kind == "CX" and row["superposed"] and better:
        found.append(evidence(EVIDENCE_TEXTS, "phase", "misconception", "cx_on_superposed",
                              {**params, "number": tseat + 1}))
    return found

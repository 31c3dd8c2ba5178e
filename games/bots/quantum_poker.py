"""QuantumPoker bots. They decide from ``view(state, seat)`` and the legal actions only.

* ``random``: uniform over the legal actions.
* ``strong``: models every qubit card by the chance it shows 1 at showdown (own values and
  shown values are known; hidden or superposed ones count 50/50), simulates each legal play on
  that model and picks the one that maximises its chance of winning the pot (ties counting
  half), then its expected lead over the best opponent, minus chips it would put at risk.
  In declared mode it declares when it already wins with high probability.
"""
from __future__ import annotations

import math
import random

from games.bots.common import RandomBot
from games.engines import Action

Model = list[list[dict] | None]  # per seat: qubit cards as {"p": P(1), "bet", "sup"}


def _model(view: dict) -> Model:
    model: Model = []
    for seat in view["seats"]:
        if not seat["in_hand"]:
            model.append(None)
            continue
        cards = []
        for q in seat["qubits"]:
            p = float(q["value"]) if q["known"] and q["value"] is not None else 0.5
            cards.append({"p": p, "bet": q["bet"], "sup": q["superposed"]})
        model.append(cards)
    return model


def _dist(cards: list[dict]) -> dict[int, float]:
    dist = {0: 1.0}
    for c in cards:
        nxt: dict[int, float] = {}
        for score, pr in dist.items():
            nxt[score] = nxt.get(score, 0.0) + pr * (1 - c["p"])
            nxt[score + c["bet"]] = nxt.get(score + c["bet"], 0.0) + pr * c["p"]
        dist = nxt
    return dist


def _win_chance(model: Model, me: int) -> float:
    """P(win) + P(tie)/2 for seat ``me``, treating cards as independent."""
    mine = _dist(model[me])
    others = [_dist(c) for s, c in enumerate(model) if c is not None and s != me]
    total = 0.0
    for x, px in mine.items():
        lt = math.prod(sum(p for sc, p in d.items() if sc < x) for d in others)
        le = math.prod(sum(p for sc, p in d.items() if sc <= x) for d in others)
        total += px * (lt + (le - lt) / 2)
    return total


def _expected(cards: list[dict]) -> float:
    return sum(c["p"] * c["bet"] for c in cards)


def _simulate(model: Model, view: dict, me: int, action: Action) -> tuple[Model, int]:
    """The model after ``action``, and the chips it moves from my stack (+) or back (−)."""
    new = [None if cards is None else [dict(c) for c in cards] for cards in model]
    kind = view["community"][action["card"]]["kind"]
    t = action["target"]
    q = new[t["seat"]][t["qubit"]]
    spent = 0
    if kind in ("X", "CX", "Y"):
        if not q["sup"]:
            q["p"] = 1 - q["p"]
    elif kind == "Z":
        if q["bet"] == 2:
            q["bet"] = 1
            spent = -1
        elif view["seats"][me]["chips"] >= 1:
            q["bet"] = 2
            spent = 1
    elif kind == "H":
        # first H: superposed; second H: a coin (simplified) or a value we cannot read
        # from the view (physics) -- 50/50 either way
        q["sup"] = not q["sup"]
        q["p"] = 0.5
    elif kind == "SWAP":
        own = action["own"]
        new[me][own], new[t["seat"]][t["qubit"]] = new[t["seat"]][t["qubit"]], new[me][own]
    return new, spent


class StrongBot:
    label = "Strong"

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        me = view["seat"]
        model = _model(view)
        now = _win_chance(model, me)
        best_value, best = -math.inf, []
        for action in legal:
            if "declare" in action:
                continue
            after, spent = _simulate(model, view, me, action)
            lead = _expected(after[me]) - max(
                _expected(c) for s, c in enumerate(after) if c is not None and s != me)
            value = _win_chance(after, me) + 0.01 * lead - 0.004 * spent
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        if {"declare": True} in legal and (not best or now >= 0.8 and now >= best_value - 0.05):
            return {"declare": True}
        return rng.choice(best) if best else rng.choice(legal)


BOTS = {"random": RandomBot(), "strong": StrongBot()}

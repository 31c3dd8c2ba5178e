"""QuantumPoker bots. They decide from ``view(state, seat)`` and the legal actions only.

* ``random``: uniform over the legal actions.
* ``strong`` (``SearchStrongBot``): with two players in the hand it searches the remaining
  plays (all of them with the classic 5 community cards, 3 plies with more), both players
  choosing their best under what its view lets it know, and values the end by the exact
  expected payout of the showdown (rulebook or whole-pot payout). Each card is a belief over
  |0⟩, |1⟩, |+⟩, |−⟩ (a card it can follow -- the view's ``ket``, own, shown or remembered
  values -- is certain; any other is 50/50 between the two states its ``superposed`` flag
  allows), and the plays apply the real gates in physics mode (the simplified H otherwise).
  So it plans H·Z·H = X (a Z on its |+⟩, then an H: a sure 1, on a doubled bet), knows
  H·H = I, and does not count on an H its opponent can take first. In declared mode it values
  declaring the same way (everyone's last turn). With three or more players it plays as
  ``OneStepStrongBot``.
* ``OneStepStrongBot`` (the first strong bot, not offered as a level): models every
  qubit card by the chance it shows 1 at showdown, simulates each legal play one step deep
  and picks the one that maximises its chance of winning (ties counting half), then its
  expected lead, minus chips it would put at risk; it declares when it already wins with
  high probability. In physics mode it applies the real gates to the cards it can follow.
* ``ClassicStrongBot`` (not offered as a level): the same one-step search with the simplified
  model of H (always 50/50) in both modes. ``bench/poker_bots.py`` plays the strong bot
  against both.
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


class ClassicStrongBot:
    label = "Strong (classic model)"

    def model(self, view: dict) -> Model:
        return _model(view)

    def simulate(self, model: Model, view: dict, me: int, action: Action) -> tuple[Model, int]:
        return _simulate(model, view, me, action)

    def value(self, after: Model, view: dict, me: int, spent: int) -> float:
        lead = _expected(after[me]) - max(
            _expected(c) for s, c in enumerate(after) if c is not None and s != me)
        return _win_chance(after, me) + 0.01 * lead - 0.004 * spent

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        me = view["seat"]
        model = self.model(view)
        now = _win_chance(model, me)
        best_value, best = -math.inf, []
        for action in legal:
            if "declare" in action:
                continue
            after, spent = self.simulate(model, view, me, action)
            value = self.value(after, view, me, spent)
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        if {"declare": True} in legal and (not best or now >= 0.8 and now >= best_value - 0.05):
            return {"declare": True}
        return rng.choice(best) if best else rng.choice(legal)


# ----------------------------------------------------------------- physics mode

_H = {"0": "+", "1": "-", "+": "0", "-": "1"}
_X = {"0": "1", "1": "0", "+": "+", "-": "-"}
_Z = {"0": "0", "1": "1", "+": "-", "-": "+"}
_Y = {"0": "1", "1": "0", "+": "-", "-": "+"}
_P1 = {"0": 0.0, "1": 1.0, "+": 0.5, "-": 0.5}


def _state_of(ket: str | None) -> str | None:
    """|0⟩, |1⟩, |+⟩ or |−⟩ (up to a global phase) from the view's ket, else None."""
    if not ket:
        return None
    for token, st in (("|0⟩", "0"), ("|1⟩", "1"), ("|+⟩", "+"), ("|−⟩", "-")):
        if ket.endswith(token):
            return st
    return None


def _p_of(card: dict, h_left: bool, mine: bool) -> float:
    st = card.get("st")
    if st is None:
        return card["p"]
    if st == "-" and mine and h_left:
        # an H still on the table could turn |−⟩ into a sure 1 (only its holder plays H on
        # it; a |+⟩ it simply leaves alone: 50/50)
        return 0.75
    return _P1[st]


class OneStepStrongBot(ClassicStrongBot):
    label = "Strong (one step, first version)"

    def model(self, view: dict) -> Model:
        model = _model(view)
        if not view.get("physics_mode"):
            return model
        for seat, cards in zip(view["seats"], model, strict=True):
            if cards is None:
                continue
            for q, c in zip(seat["qubits"], cards, strict=True):
                c["st"] = _state_of(q.get("ket"))
                if c["st"] is not None:
                    c["p"] = _P1[c["st"]]
        h_left = any(c["taken_by"] is None and c["kind"] == "H" for c in view["community"])
        me = view["seat"]
        for s, cards in enumerate(model):
            for c in cards or []:
                c["p"] = _p_of(c, h_left, s == me)
        return model

    def simulate(self, model: Model, view: dict, me: int, action: Action) -> tuple[Model, int]:
        if not view.get("physics_mode") or "card" not in action:
            return super().simulate(model, view, me, action)
        kind = view["community"][action["card"]]["kind"]
        t = action["target"]
        card = model[t["seat"]][t["qubit"]]
        if kind == "SWAP" or card.get("st") is None:
            new, spent = super().simulate(model, view, me, action)
            if kind == "H" and card.get("st") is None and not card["sup"]:
                new[t["seat"]][t["qubit"]]["p"] = 0.5
            return new, spent
        new, spent = super().simulate(model, view, me, action)   # bet and chips
        c = new[t["seat"]][t["qubit"]]
        gate = "X" if kind == "CX" else kind
        c["st"] = {"X": _X, "Y": _Y, "Z": _Z, "H": _H}[gate][card["st"]]
        c["sup"] = c["st"] in "+-"
        h_left = any(x["taken_by"] is None and x["kind"] == "H" and i != action["card"]
                     for i, x in enumerate(view["community"]))
        c["p"] = _p_of(c, h_left, t["seat"] == me)
        return new, spent


# ------------------------------------------------------ the search bot (two players)

# A card as the seat may know it: (P|0⟩, P|1⟩, P|+⟩, P|−⟩, bet). Every card of this game stays
# in one of those four states up to a global phase (X, Y, Z and H map them onto each other).
Card = tuple[float, float, float, float, int]
# the real gates permute the four states: new[i] = old[perm[i]] (each is its own inverse)
_PERM = {"X": (1, 0, 2, 3), "Y": (1, 0, 3, 2), "Z": (0, 1, 3, 2), "H": (2, 3, 0, 1)}
_MAX_PLIES = 5        # look-ahead in plays: all of them with the classic 5 community cards
_LONG_TABLE_PLIES = 3  # with more community cards (keeps a match well under a second)


def _belief(q: dict, physics: bool) -> Card:
    """What the seat can know of one card from its view (a 50/50 where it cannot)."""
    bet = q["bet"]
    st = _state_of(q.get("ket")) if physics else None
    if st is not None:
        return tuple(1.0 if s == st else 0.0 for s in "01+-") + (bet,)
    if q["known"] and q["value"] is not None:
        return (1.0 - q["value"], float(q["value"]), 0.0, 0.0, bet)
    if q["superposed"]:
        return (0.0, 0.0, 0.5, 0.5, bet)
    return (0.5, 0.5, 0.0, 0.0, bet)


def _gate_card(c: Card, gate: str, physics: bool) -> Card:
    if physics:
        p = _PERM[gate]
        return (c[p[0]], c[p[1]], c[p[2]], c[p[3]], c[4])
    sup = c[2] + c[3] > 0.5
    if gate in ("X", "Y"):       # simplified game: flips a value, nothing on a superposed card
        return c if sup else (c[1], c[0], 0.0, 0.0, c[4])
    if gate == "H":              # simplified game: erases the value; a second H is a coin
        return (0.5, 0.5, 0.0, 0.0, c[4]) if sup else (0.0, 0.0, 0.5, 0.5, c[4])
    return c


def _scores(cards) -> list[float]:
    """Distribution of a hand's score at showdown (Born rule: |±⟩ gives 1 half the time)."""
    dist = [1.0]
    for c in cards:
        p = c[1] + 0.5 * (c[2] + c[3])
        nxt = [0.0] * (len(dist) + c[4])
        for s, pr in enumerate(dist):
            if pr:
                nxt[s] += pr * (1 - p)
                nxt[s + c[4]] += pr * p
        dist = nxt
    return dist


def _payout(mine, theirs, whole_pot: bool) -> float:
    """My expected chips from the showdown of a two-player hand (the rulebook payout: the
    winner collects the chips on the loser's 1-cards, i.e. the loser's score; a tie moves
    nothing; ``whole_pot``: the winner takes every chip on the loser's cards)."""
    a, b = _scores(mine), _scores(theirs)
    lose_mine = sum(c[4] for c in mine) if whole_pot else None
    win_theirs = sum(c[4] for c in theirs) if whole_pot else None
    total = 0.0
    for x, px in enumerate(a):
        if not px:
            continue
        for y, py in enumerate(b):
            if x > y:
                total += px * py * (win_theirs if whole_pot else y)
            elif x < y:
                total -= px * py * (lose_mine if whole_pot else x)
    return total


class SearchStrongBot:
    """Two players: searches the remaining plays (a few plies, both players choosing their best
    under the seat's knowledge) and picks the play with the best exact expected payout under
    the real physics (physics mode) or the simplified rules. Other tables: ``StrongBot``."""

    label = "Strong"

    def __init__(self) -> None:
        self.fallback = OneStepStrongBot()

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        me = view["seat"]
        seats = [s["seat"] for s in view["seats"] if s["in_hand"]]
        if len(seats) != 2 or me not in seats or not legal:
            return self.fallback.choose(view, legal, rng)
        opp = seats[0] if seats[1] == me else seats[1]
        physics = bool(view.get("physics_mode"))
        self.physics = physics
        self.whole_pot = bool(view["options"].get("whole_pot"))
        self.memo: dict = {}
        hand = [[_belief(q, physics) for q in view["seats"][s]["qubits"]] for s in (me, opp)]
        chips = (view["seats"][me]["chips"], view["seats"][opp]["chips"])
        left = [c["kind"] for c in view["community"] if c["taken_by"] is None]
        self.plies = _MAX_PLIES if len(left) <= _MAX_PLIES else _LONG_TABLE_PLIES
        if view.get("declared_by") is not None:
            turns = tuple(0 if s == me else 1 for s in view["last_turns"])
        else:
            turns = tuple(k % 2 for k in range(len(left)))
        best_value, best = -math.inf, []
        for action in legal:
            if "declare" in action:
                # everyone gets one last turn from my left, me last
                value = self._search(hand, chips, tuple(sorted(left)), (1, 0)[:len(left)])
            else:
                kind = view["community"][action["card"]]["kind"]
                rest = list(left)
                rest.remove(kind)
                t = action["target"]
                move = (kind, action.get("own"), t["qubit"])
                h, c = self._apply(hand, chips, 0, move)
                value = self._search(h, c, tuple(sorted(rest)), turns[1:])
            if value > best_value + 1e-9:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    def _apply(self, hand, chips, mover: int, move) -> tuple[list, tuple]:
        kind, own, q = move
        hand = [list(hand[0]), list(hand[1])]
        other = 1 - mover
        if kind == "SWAP":
            hand[mover][own], hand[other][q] = hand[other][q], hand[mover][own]
            return hand, chips
        seat = other if kind == "CX" else mover
        c = hand[seat][q]
        if kind == "Z":
            chips = list(chips)
            if c[4] == 2:
                c = c[:4] + (1,)
                chips[seat] += 1
            elif chips[seat] >= 1:
                c = c[:4] + (2,)
                chips[seat] -= 1
            chips = tuple(chips)
        hand[seat][q] = _gate_card(c, "X" if kind == "CX" else kind, self.physics)
        return hand, chips

    def _moves(self, kind: str):
        if kind == "SWAP":
            return [(kind, i, j) for i in range(4) for j in range(4)]
        return [(kind, None, q) for q in range(4)]

    def _search(self, hand, chips, left: tuple, turns: tuple, depth: int = 1) -> float:
        if not turns or not left or depth >= self.plies:
            return _payout(hand[0], hand[1], self.whole_pot)
        key = (tuple(sorted(hand[0])), tuple(sorted(hand[1])), chips, left, turns)
        if key in self.memo:
            return self.memo[key]
        mover = turns[0]
        values = []
        for kind in sorted(set(left)):
            rest = list(left)
            rest.remove(kind)
            rest = tuple(rest)
            seen = set()
            for move in self._moves(kind):
                h, c = self._apply(hand, chips, mover, move)
                k = (tuple(sorted(h[0])), tuple(sorted(h[1])), c)
                if k in seen:
                    continue
                seen.add(k)
                values.append(self._search(h, c, rest, turns[1:], depth + 1))
        value = max(values) if mover == 0 else min(values)
        self.memo[key] = value
        return value


StrongBot = SearchStrongBot

BOTS = {"random": RandomBot(), "strong": StrongBot()}

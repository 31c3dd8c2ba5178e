"""Entanglion bots. They decide from ``view(state, seat)`` and the legal actions only.

* ``random``: uniform over the legal actions (the baseline).
* ``partner`` (``PartnerBot``): plans with its partner. From the open hands it searches the
  plies to come (the two players alternate; a ply plays one card of the mover's hand or
  waits) for the quickest way onto a planet that still holds a component, and beyond the
  known cards it counts the distance with any cards (``DIST``). Each orbital check on the way
  costs by the chance of being detected, so at a high detection rate it prefers routes with
  fewer arrivals, uses Quantum Tunnel on risky checks and The Mechanic (moves with no checks).
  It retrieves whenever it can, bonus components before the penalty ones, and exchanges the
  card its plans need least when no card helps.
"""
from __future__ import annotations

import functools
import random
from collections import deque

from games.bots.common import RandomBot
from games.engines import Action
from games.engines.entanglion.planets import ENTANGLION_PLANETS, SHIPS, inside, move

CARDS = ("H", "CNOT", "X", "SWAP")
PENALTY = {"Dilution Refrigerator", "Control Infrastructure"}
POSITIONS = [(m, r) for m in ("ZERO", "ONE", "PLUS", "MINUS")
             for r in ("ZERO", "ONE", "PLUS", "MINUS")] + [(p, p) for p in ENTANGLION_PLANETS]
DEPTH = 4


def _ships(key: tuple[str, str]) -> dict:
    return {"mercurial": key[0], "rubicon": key[1]}


@functools.cache
def _dist_any(target: str) -> dict[tuple[tuple[str, str], int], int]:
    """Plies (players alternating, any card, waiting allowed) from (position, mover) until both
    ships orbit ``target``."""
    goal = (target, target)
    dist = {(goal, 0): 0, (goal, 1): 0}
    # backward BFS over the reversed edges
    preds: dict[tuple, list] = {}
    for pos in POSITIONS:
        for turn in (0, 1):
            nexts = {(pos, 1 - turn)}
            for card in CARDS:
                after = move(_ships(pos), SHIPS[turn], card)
                nexts.add(((after["mercurial"], after["rubicon"]), 1 - turn))
            for n in nexts:
                preds.setdefault(n, []).append((pos, turn))
    queue = deque(dist)
    while queue:
        node = queue.popleft()
        for prev in preds.get(node, []):
            if prev not in dist:
                dist[prev] = dist[node] + 1
                queue.append(prev)
    return dist


def _risk(view: dict, seat: int) -> float:
    return 1.0 - view["detection"]["pass_chance"][str(seat)]


class PartnerBot:
    """A co-operative planner (see the module docstring)."""

    label = "Partner"
    risk_weight = 4.0     # plies an orbital check is worth per unit of detection chance
    wait_cost = 1.5       # an exchange: a ply that moves nothing (and cycles the deck)
    defer_retrieval = True  # leave a retrieval to the partner whose roll is better
    tunnel_risk = 0.5     # play Quantum Tunnel on a check at least this likely to fail

    # ----------------------------------------------------------------- planning

    def _targets(self, view: dict) -> dict[str, float]:
        """Planets with a component and the bonus for going there first."""
        return {p: (1.0 if c in PENALTY else 0.0)
                for p, c in view["components"]["on_planets"].items()}

    def _plan(self, view: dict, ships: dict, hands: list[list[str]], mover: int,
              start_risky: bool = False) -> float:
        """Expected cost (plies + risk) to reach a component planet from here."""
        targets = self._targets(view)
        if not targets:
            return 0.0
        risk = [_risk(view, 0), _risk(view, 1)]
        weight = self.risk_weight
        best = float("inf")
        start = ((ships["mercurial"], ships["rubicon"]), tuple(tuple(sorted(h)) for h in hands),
                 mover)
        frontier = [(start, 0.0)]
        seen = {start: 0.0}
        for depth in range(DEPTH + 1):
            nxt = []
            for (pos, hs, turn), cost in frontier:
                if inside(_ships(pos)) and pos[0] in targets:
                    best = min(best, depth + cost + targets[pos[0]])
                    continue
                tail = min((_dist_any(t).get((pos, turn), 99) + targets[t] for t in targets),
                           default=99)
                # beyond the known cards: the needed cards must still be drawn
                best = min(best, depth + cost + 1.5 * tail + 1)
                if depth == DEPTH:
                    continue
                options = [(None, pos, hs)]
                for card in sorted(set(hs[turn])):
                    after = move(_ships(pos), SHIPS[turn], card)
                    key = (after["mercurial"], after["rubicon"])
                    left = list(hs[turn])
                    left.remove(card)
                    nhs = tuple(tuple(left) if s == turn else hs[s] for s in (0, 1))
                    options.append((card, key, nhs))
                for card, key, nhs in options:
                    extra = 0.0
                    if card is not None and inside(_ships(key)) and key != pos:
                        extra = weight * risk[turn]
                    node = (key, nhs, 1 - turn)
                    c = cost + extra
                    if node not in seen or seen[node] > c:
                        seen[node] = c
                        nxt.append((node, c))
            frontier = nxt
        return best + (weight * risk[1 - mover] if start_risky else 0.0)

    def _after_play(self, view: dict, seat: int, card: str) -> tuple[dict, list[list[str]]]:
        ships = move(view["ships"], SHIPS[seat], card)
        hands = [list(h) for h in view["hands"]]
        hands[seat].remove(card)
        return ships, hands

    def _checks(self, view: dict, before: dict, after: dict) -> bool:
        return inside(after) and (not inside(before)
                                  or before["mercurial"] != after["mercurial"])

    # ----------------------------------------------------------------- choosing

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        seat = view["seat"]
        phase = view["phase"]
        if phase == "land":
            return min(legal, key=lambda a: self._plan(view, a["land"], view["hands"],
                                                       1 - seat))
        if phase in ("discard", "keep"):
            key = next(iter(legal[0]))
            return min(legal, key=lambda a: self._card_value(view, seat, a[key], keep=key ==
                                                             "keep"))
        if phase == "mechanic":
            return self._mechanic(view, legal, seat)
        return self._turn(view, legal, seat, rng)

    def _card_value(self, view: dict, seat: int, card: str, keep: bool) -> float:
        """Plan cost with the hand after discarding ``card`` (discard) or keeping it (keep)."""
        hands = [list(h) for h in view["hands"]]
        if keep:
            hands[seat].append(card)
        else:
            hands[seat].remove(card)
        cost = self._plan(view, view["ships"], hands, seat)
        return cost if keep else -cost

    def _mechanic(self, view: dict, legal: list[Action], seat: int) -> Action:
        hands = [list(h) for h in view["hands"]]
        here = self._plan(view, view["ships"], hands, 1 - seat)
        best, best_cost = {"stop": True}, here
        for action in legal:
            if "mechanic" not in action:
                continue
            ships = move(view["ships"], SHIPS[seat], action["mechanic"])
            cost = self._plan(view, ships, hands, 1 - seat) - 0.1   # moves here are free
            if cost < best_cost:
                best, best_cost = action, cost
        return best

    def _turn(self, view: dict, legal: list[Action], seat: int, rng: random.Random) -> Action:
        risky = _risk(view, seat) >= self.tunnel_risk
        retrieve = [a for a in legal if "retrieve" in a]
        if retrieve:
            tunnel = [a for a in retrieve if a.get("tunnel")]
            if tunnel and risky:
                return tunnel[0]
            mine, theirs = (view["detection"]["pass_chance"][str(s)] for s in (seat, 1 - seat))
            exchanges = [a for a in legal if "exchange" in a]
            if self.defer_retrieval and theirs > mine + 1e-9 and exchanges:
                # the partner rolls better: let them retrieve next turn, swap a card meanwhile
                return min(exchanges, key=lambda a: self._card_value(view, seat, a["exchange"],
                                                                     keep=False))
            return retrieve[0]
        plays = [a for a in legal if "play" in a and not a.get("tunnel")]
        scored = []
        exchanges = [a for a in legal if "exchange" in a]
        for action in plays:
            ships, hands = self._after_play(view, seat, action["play"])
            check = self._checks(view, view["ships"], ships)
            tunnel = {"play": action["play"], "tunnel": True}
            use_tunnel = check and risky and tunnel in legal
            cost = self._plan(view, ships, hands, 1 - seat, start_risky=check and not use_tunnel)
            scored.append((cost, tunnel if use_tunnel else action))
        waiting = self._plan(view, view["ships"], view["hands"], 1 - seat) + self.wait_cost
        events = [a for a in legal if "event" in a]
        for action in events:
            card = action["event"]
            if card == "The Mechanic":
                scored.append((waiting - 1.5, action))
            elif card == "Heisenberg":
                far = not view["inside"] or risky
                scored.append((waiting - (1.0 if far else -1.0), action))
        best_cost, best = min(scored, key=lambda x: x[0], default=(float("inf"), None))
        if best is not None and best_cost < waiting:
            return best
        if exchanges:
            return min(exchanges, key=lambda a: self._card_value(view, seat, a["exchange"],
                                                                 keep=False))
        return best if best is not None else rng.choice(legal)


BOTS = {"random": RandomBot(), "partner": PartnerBot()}

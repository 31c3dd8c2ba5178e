"""Teacher analysis: the shortest card sequences to the remaining components and the chance of
detection (``analyse(state)``), and the search helpers the bots share (``shortest``).

Only public facts are used (hands are open, §4; the decks' order is not).
"""
from __future__ import annotations

from collections import Counter, deque

from . import rules as R
from .cards import MAGNETIC_SHIELDING, TRACK
from .kets import describe
from .planets import SHIPS, inside, move

CARDS = ("H", "CNOT", "X", "SWAP")


def pass_probability(state: dict, seat: int) -> float:
    """P(a defense roll of ``seat`` passes at the current rate), with its modifiers and a
    Magnetic Shielding re-roll."""
    rate = TRACK[state["detection"]]
    if rate == "X":
        return 0.0
    mod = R.modifier(state, seat)
    p = sum(1 for r in range(1, 9) if r + mod > rate) / 8
    if R.holds(state, seat, MAGNETIC_SHIELDING):
        p = p + (1 - p) * p
    return round(p, 10)


def _key(ships: dict) -> tuple[str, str]:
    return ships["mercurial"], ships["rubicon"]


def shortest(ships: dict, hands: list[list[str]] | None, targets: set[str],
             max_cards: int = 8) -> list[dict] | None:
    """The shortest sequence of card plays that brings both ships onto one of ``targets`` (an
    Entanglion planet). ``hands``: the cards each seat may use (each once), or None for any
    number of any card. Turn order is not imposed: a step is one card by either seat.
    Returns ``[{"seat", "card", "ships"}...]`` (``[]`` if already there) or None."""
    if inside(ships) and ships["mercurial"] in targets:
        return []
    start_hands = tuple(tuple(sorted(h)) for h in hands) if hands is not None else None
    start = (_key(ships), start_hands)
    seen = {start}
    queue: deque[tuple[dict, tuple[tuple[str, ...], ...] | None, list[dict]]] = deque(
        [(ships, start_hands, [])])
    while queue:
        here, hs, path = queue.popleft()
        if len(path) >= max_cards:
            continue
        for seat in (0, 1):
            options = CARDS if hs is None else sorted(set(hs[seat]))
            for card in options:
                after = move(here, SHIPS[seat], card)
                if after == here:
                    continue
                if hs is None:
                    nhs = None
                else:
                    left = list(hs[seat])
                    left.remove(card)
                    nhs = tuple(tuple(left) if s == seat else hs[s] for s in (0, 1))
                key = (_key(after), nhs)
                if key in seen:
                    continue
                seen.add(key)
                step = path + [{"seat": seat, "card": card, "ships": after}]
                if inside(after) and after["mercurial"] in targets:
                    return step
                queue.append((after, nhs, step))
    return None


def arrivals(ships: dict, path: list[dict]) -> int:
    """How many orbital checks a path brings (arrivals at a new Entanglion planet)."""
    count, here = 0, ships
    for step in path:
        after = step["ships"]
        if inside(after) and not (inside(here) and here["mercurial"] == after["mercurial"]):
            count += 1
        here = after
    return count


def public_analysis(state: dict) -> dict:
    """The players' part of ``analyse`` alone (the ships, the detection), without the teacher's
    route search."""
    ships = state["ships"]
    pass_now = {str(s): pass_probability(state, s) for s in (0, 1)}
    return {
        "ships": dict(ships),
        "state": describe(ships),
        "detection": {"index": state["detection"], "rate": TRACK[state["detection"]]},
        "detection_chance_next_arrival": round(1 - pass_now[str(state["turn"])], 10),
        "detection_chance_by_seat": {s: round(1 - p, 10) for s, p in pass_now.items()},
    }


def analyse(state: dict) -> dict:
    ships = state["ships"]
    hands = [list(h) for h in state["hands"]]
    routes = []
    for planet, component in sorted(state["planet_components"].items()):
        from_hands = shortest(ships, hands, {planet}, max_cards=6)
        any_cards = shortest(ships, None, {planet})
        routes.append({
            "planet": planet, "component": component,
            "from_hands": from_hands, "cards_from_hands": None if from_hands is None
            else len(from_hands),
            "any_cards": any_cards, "cards_any": None if any_cards is None else len(any_cards),
            "orbital_checks": arrivals(ships, from_hands if from_hands is not None
                                       else any_cards or []),
        })
    return {
        **public_analysis(state),
        "routes": routes,
        "nearest": min((r for r in routes if r["cards_from_hands"] is not None),
                       key=lambda r: r["cards_from_hands"], default=None),
        "cards_left": dict(Counter(state["engine_stack"])),
    }

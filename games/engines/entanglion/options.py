"""Setup options (validated; a bad option raises ``IllegalAction("bad_option", ...)``).

``ships``: ``{"mercurial": PLANET, "rubicon": PLANET}`` -- both outside Entanglion (anywhere) or
both on the same Entanglion planet. Default: each rolls the Centarious die (§10.7).
``hands``: ``[[cards of Mercurial], [cards of Rubicon]]`` (engine cards H, CNOT, X, SWAP; at
most 3 each). Default: each draws 3 from the stack, first player first (§10.8).
``engine_stack``: the top of the engine stack, top card first (may include PROBE); the rest of
the 24 cards go below it shuffled, PROBE at the very bottom unless given.
``event_deck``: the top of the event deck, top card first; the rest below it shuffled.
``components``: ``{PLANET: COMPONENT}`` for Entanglion planets; ``held``: ``{"mercurial":
[...], "rubicon": [...]}``. Together they must place each of the 8 components at most once;
components not placed are shuffled onto the free Entanglion planets.
``start_rate``: 1, 2 or 3 (the first space with that number; default 1, variant "hard": 3);
``detection``: a track index 0..10 instead.
``first``: 0 or 1, the seat that starts (default: the d8 roll-off of §10.6).
``bit_flip_only_if_lower`` (bool, §13.2 house rule), ``interconnect_anywhere`` (bool, §13.7).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import IllegalAction, gettext_noop, ngettext_lazy
from .cards import COMPONENTS, ENGINE_DECK, EVENT_CARDS, LOSS_INDEX, PROBE, START_INDEX
from .planets import ENTANGLION, ENTANGLION_PLANETS, PLANETS, SHIPS

KEYS = {"ships", "hands", "engine_stack", "event_deck", "components", "held", "start_rate",
        "detection", "first", "bit_flip_only_if_lower", "interconnect_anywhere"}


def _bad(msgid: str, **params: Any) -> IllegalAction:
    """A refused option: ``msgid`` (marked with ``gettext_noop``) and its params."""
    return IllegalAction("bad_option", msgid, params)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ship_dict(value: Any, name: str) -> dict:
    if not isinstance(value, dict) or set(value) - set(SHIPS) or not all(
            isinstance(k, str) for k in value):
        raise _bad(gettext_noop("'%(name)s' must be an object with the keys 'mercurial' and 'rubicon'."), name=name)
    return value


def _card_list(value: Any, name: str, allowed: tuple[str, ...]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in allowed
                                              for c in value):
        raise _bad(gettext_noop("'%(name)s' must be a list of cards among %(cards)s."), name=name,
                   cards=", ".join(sorted(set(allowed))))
    return list(value)


def parse(options: Any, variant: str) -> dict:
    """The normalised options (JSON-able), or IllegalAction with a clear message."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _bad(gettext_noop("The options must be a JSON object."))
    unknown = set(options) - KEYS
    if unknown:
        raise _bad(gettext_noop("Options this game does not know: %(options)s."), options=", ".join(sorted(map(str, unknown))))
    out: dict[str, Any] = {"ships": None, "hands": None, "engine_stack": [],
                           "event_deck": [], "components": {}, "held": {},
                           "detection": START_INDEX[3 if variant == "hard" else 1],
                           "first": None, "bit_flip_only_if_lower": False,
                           "interconnect_anywhere": False}
    if "ships" in options:
        ships = _ship_dict(options["ships"], "ships")
        if set(ships) != set(SHIPS) or not all(isinstance(p, str) and p in PLANETS
                                               for p in ships.values()):
            raise _bad(gettext_noop("'ships' must give a planet (e.g. \"ZERO\", \"PHI PLUS\") for both "
                       "'mercurial' and 'rubicon'."))
        inside = [PLANETS[p] == ENTANGLION for p in ships.values()]
        if any(inside) and ships["mercurial"] != ships["rubicon"]:
            raise _bad(gettext_noop("In Entanglion both ships share one planet: give them the same one."))
        out["ships"] = {s: ships[s] for s in SHIPS}
    engine_cards = ("H", "CNOT", "X", "SWAP")
    used: Counter = Counter()
    if "hands" in options:
        hands = options["hands"]
        if not isinstance(hands, list) or len(hands) != 2:
            raise _bad(gettext_noop("'hands' must be two lists of engine cards: Mercurial's, then Rubicon's."))
        out["hands"] = [_card_list(h, "hands", engine_cards) for h in hands]
        if any(len(h) > 3 for h in out["hands"]):
            raise _bad(gettext_noop("A hand holds at most 3 engine cards."))
        used.update(c for h in out["hands"] for c in h)
    if "engine_stack" in options:
        out["engine_stack"] = _card_list(options["engine_stack"], "engine_stack",
                                         engine_cards + (PROBE,))
        used.update(out["engine_stack"])
    deck = Counter(ENGINE_DECK)
    for card, k in used.items():
        if k > deck[card]:
            raise _bad(ngettext_lazy("There is only %(n)s %(card)s engine card, the options use %(k)s.",
                                     "There are only %(n)s %(card)s engine cards, the options use %(k)s.", "n"),
                       n=deck[card], card=card, k=k)
    if "event_deck" in options:
        out["event_deck"] = _card_list(options["event_deck"], "event_deck", EVENT_CARDS)
        if len(set(out["event_deck"])) != len(out["event_deck"]):
            raise _bad(gettext_noop("Each event card exists once: 'event_deck' repeats one."))
    placed: list[str] = []
    if "components" in options:
        comps = options["components"]
        if not isinstance(comps, dict) or not all(
                isinstance(p, str) and p in ENTANGLION_PLANETS and isinstance(c, str)
                and c in COMPONENTS for p, c in comps.items()):
            raise _bad(gettext_noop("'components' maps Entanglion planets to quantum components, e.g. "
                       "{\"PHI PLUS\": \"Quantum Gates\"}."))
        out["components"] = dict(comps)
        placed += list(comps.values())
    if "held" in options:
        held = _ship_dict(options["held"], "held")
        for comps in held.values():
            if not isinstance(comps, list) or not all(isinstance(c, str) and c in COMPONENTS
                                                      for c in comps):
                raise _bad(gettext_noop("'held' lists the quantum components each ship already holds."))
        out["held"] = {s: list(held.get(s, [])) for s in SHIPS if held.get(s)}
        placed += [c for comps in held.values() for c in comps]
    if len(set(placed)) != len(placed):
        raise _bad(gettext_noop("Each quantum component exists once: the options place one twice."))
    if "start_rate" in options and "detection" in options:
        raise _bad(gettext_noop("Give either 'start_rate' or 'detection', not both."))
    if "start_rate" in options:
        if not _is_int(options["start_rate"]) or options["start_rate"] not in START_INDEX:
            raise _bad(gettext_noop("'start_rate' must be 1 or 2 (easy) or 3 (harder)."))
        out["detection"] = START_INDEX[options["start_rate"]]
    if "detection" in options:
        if not _is_int(options["detection"]) or not 0 <= options["detection"] < LOSS_INDEX:
            raise _bad(gettext_noop("'detection' must be a track index from 0 to %(hi)s."), hi=LOSS_INDEX - 1)
        out["detection"] = options["detection"]
    if "first" in options:
        if not _is_int(options["first"]) or options["first"] not in (0, 1):
            raise _bad(gettext_noop("'first' must be 0 (Mercurial) or 1 (Rubicon)."))
        out["first"] = options["first"]
    for flag in ("bit_flip_only_if_lower", "interconnect_anywhere"):
        if flag in options:
            if not isinstance(options[flag], bool):
                raise _bad(gettext_noop("'%(flag)s' must be true or false."), flag=flag)
            out[flag] = options[flag]
    return out

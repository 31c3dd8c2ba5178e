"""Toy coin: a sixth game that exists only in the tests, to show that a game declares itself.

Two players call a coin in turn ("heads" or "tails"); a right call scores a point; after
``ROUNDS`` calls each, the higher score wins. Nothing is secret, there is no circuit, no bot
beyond a random one. The platform learns all of it from this engine, its bots' module
(``tests/toygame/bots.py``) and its board script (``tests/toygame/static/toygame/toy-coin.js``),
registered by one line (``tests/toygame/__init__.py``).
"""
from __future__ import annotations

from games.engines.base import Abilities, Action, Event, State, chance, clone, event, gettext_noop
from games.engines.contract import Engine
from games.engines.schema import Actions, Obj, OneOf

SLUG = "toy-coin"
ROUNDS = 2
SIDES = ("heads", "tails")

EVENT_TEXTS = {
    "called": gettext_noop("Player %(player)s calls %(call)s: the coin shows %(coin)s."),
    "time_up": gettext_noop("Time is up: the calls so far decide."),
}


class ToyCoin(Engine):
    slug = SLUG
    name = "Toy coin"
    rules_version = 1
    min_players = 2
    max_players = 2
    variants = ("basic",)
    variant_names = {"basic": gettext_noop("basic")}
    actions = Actions(call=Obj(call=OneOf(*SIDES)))
    event_texts = EVENT_TEXTS
    finish_rule = gettext_noop("When time is up, the calls so far decide.")
    abilities = Abilities()

    def start(self, players: int, variant: str, seed: int, options: dict) -> State:
        return {"game": SLUG, "variant": variant, "players": players, "seed": seed, "action_number": 0,
                "turn": 0, "scores": [0] * players, "calls": [], "over": False}

    def play(self, state: State, seat: int, kind: str, action: Action) -> tuple[State, list[Event]]:
        state = clone(state)
        state["action_number"] += 1
        coin = chance(state["seed"], state["action_number"]).choice(SIDES)
        if coin == action["call"]:
            state["scores"][seat] += 1
        state["calls"].append({"seat": seat, "call": action["call"], "coin": coin})
        state["turn"] = (seat + 1) % state["players"]
        state["over"] = len(state["calls"]) >= ROUNDS * state["players"]
        return state, [event(EVENT_TEXTS, "call", "called", {"player": seat + 1, "call": action["call"],
                                                                 "coin": coin}, seat=seat)]

    def to_act(self, state: State) -> list[int]:
        return [] if state["over"] else [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return [{"call": side} for side in SIDES] if seat in self.to_act(state) else []

    def view(self, state: State, seat: int | None) -> dict:
        if seat is not None:
            self.check_seat(state, seat)
        return {"scores": list(state["scores"]), "calls": clone(state["calls"]), "turn": state["turn"],
                "over": state["over"], "rounds": ROUNDS}

    def outcome(self, state: State) -> dict | None:
        if not state["over"]:
            return None
        scores = state["scores"]
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
        return {"scores": list(scores), "winners": [] if len(winners) > 1 else winners}

    def analysis(self, state: State) -> dict:
        return {}

    def circuit(self, state: State) -> None:
        return None

    def finish(self, state: State) -> tuple[State, list[Event]]:
        if state["over"]:
            return state, []
        state = clone(state)
        state["over"] = True
        return state, [event(EVENT_TEXTS, "time_up", "time_up")]


GAME = ToyCoin()

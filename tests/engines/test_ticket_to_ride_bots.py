"""Quantum Ticket-to-Ride bots: the A* planner runs what matches, claims along its plan,
blocks with spare cards, and beats the random baseline; both only play legal actions."""
from __future__ import annotations

import random

from games.bots import get_bot
from games.engines import clone
from tests.engines.ttr_support import GAME, mission, position, route, table

PLANNER = get_bot("quantum-ticket-to-ride", "strong")
RANDOM = get_bot("quantum-ticket-to-ride", "random")


def choose(bot, state, seat, rng=None):
    legal = GAME.legal_actions(state, seat)
    action = bot.choose(clone(GAME.view(state, seat)), clone(legal), rng or random.Random(0))
    assert action in legal
    return action


def test_the_planner_runs_the_path_that_matches_and_passes_when_none_does():
    s = table(seed=0)
    seat = s["turn"]
    pairs = ["Berlin-Munich", "Munich-Vienna", "Vienna-Rome", "Munich-Prague", "Berlin-Prague"]
    owners = {route(s, *p.split("-")): seat for p in pairs}
    s = position(s, step="run", owners=owners, missions={seat: mission(s, "B01")})
    # Berlin→Prague→Munich→Vienna→Rome is X·Y·H·Z·H: no match; the direct H·Z·H is X
    assert choose(PLANNER, s, seat) == {"run": ["Berlin", "Munich", "Vienna", "Rome"]}
    no = position(s, owners={route(s, "Berlin", "Munich"): None})
    assert choose(PLANNER, no, seat) == {"pass": True}


def test_the_planner_claims_a_route_of_its_cheapest_plan_when_it_can_pay():
    s = table(seed=0)
    seat = s["turn"]
    s = position(s, missions={seat: mission(s, "B01")}, hands={seat: ["H", "I", "I"]})
    action = choose(PLANNER, s, seat)
    assert action["claim"] in (route(s, "Berlin", "Munich"), route(s, "Vienna", "Rome"))
    broke = position(s, hands={seat: ["I"]})
    assert choose(PLANNER, broke, seat) == {"draw": True}


def test_the_planner_blocks_with_cards_its_plan_does_not_need_when_its_hand_is_full():
    s = table(seed=0)
    seat, other = s["turn"], 1 - s["turn"]
    # its plan (B01: Berlin–Munich H, Munich–Vienna Z, Vienna–Rome H) needs none of these
    s = position(s, missions={seat: mission(s, "B01")}, hands={seat: ["Y"] * 2 + ["I"] * 10})
    # nobody to block: the longest spare route (I, length 4) — claimed length decides a tie
    assert choose(PLANNER, s, seat) == {"claim": route(s, "Edinburgh", "Copenhagen")}
    # the other player reached Kyiv: the I route into Kyiv blocks them
    s = position(s, owners={route(s, "Warsaw", "Kyiv"): other})
    assert choose(PLANNER, s, seat) == {"claim": route(s, "Riga", "Kyiv")}
    # two routes of the other player fit mission B06 (Athens |0⟩ → Kyiv |1⟩: Athens–Belgrade
    # X3, Belgrade–Bucharest Z2, Bucharest–Kyiv Y2): the bot takes the route they still need
    # rather than the longer Rome–Belgrade beside them
    s = position(s, owners={route(s, "Warsaw", "Kyiv"): None,
                            route(s, "Athens", "Belgrade"): other,
                            route(s, "Belgrade", "Bucharest"): other})
    assert choose(PLANNER, s, seat) == {"claim": route(s, "Bucharest", "Kyiv")}
    one = position(s, owners={route(s, "Athens", "Belgrade"): None})
    assert choose(PLANNER, one, seat) == {"claim": route(s, "Rome", "Belgrade")}
    # with room in its hand it keeps drawing instead
    roomy = position(s, hands={seat: ["Y"] * 2 + ["I"] * 6})
    assert choose(PLANNER, roomy, seat) == {"draw": True}


def play(seed: int, planner_seat: int) -> dict:
    rng = random.Random(seed)
    state = table(players=2, variant=("basic", "intermediate", "advanced", "mixed")[seed % 4],
                  seed=seed)
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        bot = PLANNER if seat == planner_seat else RANDOM
        state, _ = GAME.apply(state, seat, choose(bot, state, seat, rng))
    return GAME.outcome(state)


def test_the_planner_beats_the_random_baseline():
    results = [play(seed, seed % 2) for seed in range(12)]
    wins = sum(out["winners"] == [seed % 2] for seed, out in enumerate(results))
    assert wins >= 11
    assert sum(out["reason"] == "mission" for out in results) >= 8

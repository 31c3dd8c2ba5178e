"""QuantumPoker properties over many seeded random matches: what each view shows, chips,
exact legal actions, bot strength. (JSON, replay, junk, secrets and bot legality: the shared
conformance suite, tests/test_engine_conformance.py.)"""
from __future__ import annotations

import json
import random

import pytest

from games.bots.quantum_poker import BOTS
from games.engines import IllegalAction, get_game
from tests.support.engines import knows, poker_twin, recall_oracle

GAME = get_game("quantum-poker")
SECRET_KEYS = {"seed", "initial", "amps", "gates", "public_known", "known_by"}


def random_setup(rng: random.Random) -> tuple[int, str, dict, int]:
    players = rng.randint(2, 5)
    variant = rng.choice(GAME.variants)
    options = {"community_cards": rng.randint(1, 10), "hands": rng.randint(1, 3),
               "physics_mode": rng.random() < 0.5}
    return players, variant, options, rng.randrange(10**9)


def playout(seed: int):
    """Yield (state, log) along one random match."""
    rng = random.Random(seed)
    players, variant, options, match_seed = random_setup(rng)
    state = GAME.setup(players=players, variant=variant, seed=match_seed, options=options)
    log: list = []
    yield state, log, (players, variant, options, match_seed)
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        # now and then prefer a second H (a collapse, whose coin may be private)
        second_h = [a for a in legal if "card" in a
                    and state["hand"]["community"][a["card"]]["kind"] == "H"
                    and state["hand"]["qubits"][seat][a["target"]["qubit"]]["superposed"]]
        action = rng.choice(second_h if second_h and rng.random() < 0.7 else legal)
        state, _ = GAME.apply(state, seat, action)
        log.append((seat, action))
        yield state, log, (players, variant, options, match_seed)


def keys_of(obj) -> set:
    if isinstance(obj, dict):
        return set(obj) | set().union(*(keys_of(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(keys_of(v) for v in obj)) if obj else set()
    return set()


def check_view(state: dict, seat: int | None) -> None:
    v = GAME.view(state, seat)
    assert not keys_of(v) & SECRET_KEYS
    hand = state["hand"]
    oracle = recall_oracle(state) if hand["phase"] == "play" else {}
    for s, seat_view in enumerate(v["seats"]):
        for slot, q in enumerate(seat_view["qubits"]):
            truth = hand["qubits"][s][slot]
            if truth["superposed"]:
                assert q["value"] is None
            elif truth["shown"] or s == seat or (oracle and knows(oracle, truth["id"], seat)):
                assert q["value"] == truth["value"]
                assert q["remembered"] == (not truth["shown"] and s != seat)
            else:
                assert q["value"] is None
            if "ket" in q and oracle:
                assert (q["ket"] is not None) == knows(oracle, truth["id"], seat)
    assert GAME.view(poker_twin(state, seat), seat) == v


@pytest.mark.parametrize("chunk", range(4))
def test_views_show_values_per_the_rules_and_chips_are_conserved(chunk):
    for seed in range(chunk * 25, chunk * 25 + 25):
        for step in playout(seed):
            state, log, match = step
            assert sum(state["chips"]) + state["pot"] == match[0] * 20
            if state["hand"]["phase"] == "play":
                bets = sum(q["bet"] for cards in state["hand"]["qubits"] for q in cards)
                assert state["pot"] == bets        # every chip in the pot sits on a card
            for seat in [None, *range(match[0])]:
                check_view(state, seat)
        options = match[2]
        out = GAME.outcome(state)
        assert out["scores"] == state["chips"] and state["pot"] == 0
        assert len(out["hands"]) == options["hands"] or sum(
            c >= 4 for c in state["chips"]) < 2


def candidate_actions(state: dict) -> list:
    players = state["players"]
    cards = range(-1, len(state["hand"]["community"]) + 1)
    out = [{"declare": True}]
    for c in cards:
        for s in range(-1, players + 1):
            for q in range(-1, 5):
                out.append({"card": c, "target": {"seat": s, "qubit": q}})
                for own in (0, 3, 4):
                    out.append({"card": c, "own": own, "target": {"seat": s, "qubit": q}})
    return out


def test_legal_actions_are_exactly_the_applicable_ones():
    checked = 0
    for seed in range(6):
        for i, (state, _, _) in enumerate(playout(1000 + seed)):
            if GAME.outcome(state) is not None or i % 4:
                continue
            seat = GAME.to_act(state)[0]
            legal = {json.dumps(a, sort_keys=True) for a in GAME.legal_actions(state, seat)}
            assert len(legal) == len(GAME.legal_actions(state, seat))
            for action in candidate_actions(state):
                key = json.dumps(action, sort_keys=True)
                try:
                    GAME.apply(state, seat, action)
                    ok = True
                except IllegalAction:
                    ok = False
                assert ok == (key in legal), action
            checked += 1
    assert checked >= 6


def play_bots(seed: int, levels: dict[int, str], players: int, variant: str,
              physics: bool) -> dict:
    rng = random.Random(seed)
    state = GAME.setup(players=players, variant=variant, seed=seed,
                       options={"physics_mode": physics})
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        action = BOTS[levels[seat]].choose(GAME.view(state, seat), legal, rng)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)
    return GAME.outcome(state)


@pytest.mark.parametrize("variant,physics", [("classic", False), ("declared", True)])
def test_strong_bot_beats_random(variant, physics):
    strong_chips = random_chips = strong_wins = 0
    matches = 24
    for seed in range(matches):
        strong = seed % 2
        out = play_bots(seed, {strong: "strong", 1 - strong: "random"}, 2, variant, physics)
        strong_chips += out["scores"][strong]
        random_chips += out["scores"][1 - strong]
        strong_wins += out["winners"] == [strong]
    # the rulebook payout returns a loser's chips on its 0-qubits, so chips move less than
    # with the whole pot: the strong bot ends with about 1.75 times the random bot's chips
    assert strong_chips > 1.5 * random_chips
    assert strong_wins >= matches * 0.9

"""Entanglion bots: they decide from the view alone, the partner plays sensible co-op moves,
and a partner pair wins far more often than the random baseline."""
from __future__ import annotations

import random

from games.bots import get_bot
from games.engines import clone
from games.engines.entanglion import cards as C
from tests.support.entanglion import GAME, table

MERC, RUB = 0, 1
PARTNER = get_bot("entanglion", "partner")


def choose(state: dict, seat: int) -> dict:
    return PARTNER.choose(GAME.view(state, seat), GAME.legal_actions(state, seat),
                          random.Random(0))


def finish(levels: tuple[str, str], seed: int) -> dict:
    rng = random.Random(seed)
    bots = [get_bot("entanglion", level) for level in levels]
    state = GAME.setup(seed=seed)
    for _ in range(3000):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, bots[seat].choose(
            GAME.view(state, seat), GAME.legal_actions(state, seat), rng))
    return GAME.outcome(state)


def test_the_partner_decides_from_the_view_only():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["H", "X", "SWAP"], ["CNOT", "H", "X"]])
    twin = clone(state)
    twin["engine_stack"].reverse()
    twin["seed"] += 99
    assert choose(state, MERC) == choose(twin, MERC)


def test_the_partner_retrieves_a_component_under_its_ship():
    state = table(ships={"mercurial": "OMEGA TWO", "rubicon": "OMEGA TWO"},
                  hands=[["H", "X", "SWAP"], ["CNOT", "H", "X"]])
    assert choose(state, MERC) == {"retrieve": True}


def test_the_partner_enters_entanglion_when_its_cnot_reaches_a_component():
    state = table(ships={"mercurial": "PLUS", "rubicon": "ZERO"},
                  hands=[["H", "X", "SWAP"], ["CNOT", "SWAP", "SWAP"]], first=RUB)
    assert choose(state, RUB) == {"play": "CNOT"}


def test_the_partner_sets_up_the_entry_its_partner_can_finish():
    # Rubicon holds the CNOT; Mercurial's H puts Mercurial in Superious for it
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["H", "SWAP", "SWAP"], ["CNOT", "X", "X"]])
    assert choose(state, MERC) == {"play": "H"}


def test_the_partner_uses_quantum_tunnel_when_a_check_is_likely_to_fail():
    state = table(ships={"mercurial": "OMEGA TWO", "rubicon": "OMEGA TWO"}, detection=9,
                  hands=[["H", "X", "SWAP"], ["CNOT", "H", "X"]])
    state["event_hands"][MERC] = [C.QUANTUM_TUNNEL]
    assert choose(state, MERC) == {"retrieve": True, "tunnel": True}


def test_a_partner_pair_wins_a_real_share_and_random_almost_never():
    partner = [finish(("partner", "partner"), seed) for seed in range(16)]
    rand = [finish(("random", "random"), seed) for seed in range(16)]
    won = sum(o["result"] == "won" for o in partner)
    assert won >= 5, won
    assert sum(o["result"] == "won" for o in rand) <= 1
    assert (sum(o["components"] for o in partner)
            > 2 * sum(o["components"] for o in rand))

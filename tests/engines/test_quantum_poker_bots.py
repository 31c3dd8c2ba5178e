"""The strong QuantumPoker bot (games/bots/quantum_poker.py): legal plays only, from its own
view; in physics mode it plans with the real gates (H·Z·H = X) and beats the first, one-step
bot over seeded matches (the full 200-seed figure: bench/poker_bots.py)."""
from __future__ import annotations

import random

import pytest

from games.bots.quantum_poker import BOTS, OneStepStrongBot
from tests.engines.test_quantum_poker import GAME, new, play, rig


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("variant", ["classic", "declared"])
@pytest.mark.parametrize("options", [{"physics_mode": True}, {"physics_mode": False},
                                     {"physics_mode": True, "whole_pot": True,
                                      "community_cards": 8}])
def test_strong_bot_plays_only_legal_actions_from_its_view(players, variant, options):
    levels = ["strong", "random", "strong"][:players]
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.setup(players=players, variant=variant, seed=seed,
                           options={"hands": 2, **options})
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            action = BOTS[levels[seat]].choose(view, legal, rng)
            assert action in legal
            assert GAME.view(state, seat) == view          # the bot does not touch its view
            state, _ = GAME.apply(state, seat, action)


def z_then_h_position():
    """Physics mode. Seat 1 (dealt 0, 1, 1, 1) put an H on its 0: |+⟩. Left: Z, H, H --
    seat 1 plays now and last, seat 0 (who cannot touch seat 1's cards with an H) between."""
    s = rig(new(2, physics_mode=True, community_cards=5), cards=["H", "X", "Z", "H", "H"],
            values={1: [0, 1, 1, 1], 0: [0] * 4})
    s, _ = play(s, 0, 1, 0)
    s, _ = play(s, 1, 0, 0)
    assert GAME.to_act(s) == [1]
    assert GAME.view(s, 1)["seats"][1]["qubits"][0]["ket"] == "|+⟩"
    return s


@pytest.mark.parametrize("seed", range(5))
def test_strong_bot_uses_h_z_h_is_x(seed):
    # Z on |+⟩ gives |−⟩ (and doubles the bet); the last H then gives 1 for sure: H·Z·H = X,
    # a doubled 1 -- 5 points for sure, where a Z on a 1 and an H anywhere make at most 4
    s = z_then_h_position()
    rng = random.Random(seed)
    strong = BOTS["strong"]
    action = strong.choose(GAME.view(s, 1), GAME.legal_actions(s, 1), rng)
    assert action == {"card": 2, "target": {"seat": 1, "qubit": 0}}
    s, _ = GAME.apply(s, 1, action)
    assert GAME.view(s, 1)["seats"][1]["qubits"][0]["ket"] == "|−⟩"
    s, _ = play(s, 3, 0, 1)                                   # seat 0 must take an H
    action = strong.choose(GAME.view(s, 1), GAME.legal_actions(s, 1), rng)
    assert action == {"card": 4, "target": {"seat": 1, "qubit": 0}}
    s, _ = GAME.apply(s, 1, action)
    done = s["history"][-1]
    assert done["qubits"][1][0]["value"] == 1 and done["qubits"][1][0]["bet"] == 2
    assert done["result"]["scores"][1] == 5


def test_the_one_step_bot_misses_h_z_h_is_x():
    # the first, one-step bot doubles a sure 1 instead: it cannot plan the Z before the H
    s = z_then_h_position()
    choices = {OneStepStrongBot().choose(GAME.view(s, 1), GAME.legal_actions(s, 1),
                                         random.Random(seed))["target"]["qubit"]
               for seed in range(10)}
    assert 0 not in choices


def test_strong_bot_will_not_walk_into_a_denied_h():
    # same, but the cards left are Z, H, X: seat 0 can take the H away, so a Z on |+⟩ is no
    # plan (it would stay 50/50 on a doubled bet); a Z on a sure 1 is worth a sure point
    s = rig(new(2, physics_mode=True, community_cards=5), cards=["H", "X", "Z", "H", "X"],
            values={1: [0, 1, 1, 1], 0: [0] * 4})
    s, _ = play(s, 0, 1, 0)
    s, _ = play(s, 1, 0, 0)
    for seed in range(5):
        action = BOTS["strong"].choose(GAME.view(s, 1), GAME.legal_actions(s, 1),
                                       random.Random(seed))
        assert action["card"] == 2 and action["target"]["qubit"] != 0


def test_strong_bot_beats_the_one_step_bot_in_physics_mode():
    """Seeded two-player matches in physics mode, each seed twice with the seats swapped (the
    same deals and Pauli cards), as in bench/poker_bots.py (which plays 200 seeds)."""
    from bench.poker_bots import compare

    t = compare(16, physics=True, community_cards=5)
    assert t["games"] == 32
    assert t["new_chips"] > t["old_chips"] + 40
    assert t["new_wins"] > 1.5 * t["old_wins"]
    assert t["pairs_new"] > 2 * t["pairs_old"]


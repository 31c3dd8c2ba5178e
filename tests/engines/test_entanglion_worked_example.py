"""The sheet's §15 worked example (the rulebook's first game), played move by move."""
from __future__ import annotations

from games.engines.entanglion import cards as C
from tests.support.entanglion import GAME, apply_where, codes, rolls

MERC, RUB = 0, 1


def test_first_game_of_the_rulebook_move_by_move():
    state = GAME.setup(seed=0, variant="easy", options={
        "first": MERC,
        "ships": {"mercurial": "ZERO", "rubicon": "ZERO"},
        "hands": [["X", "H", "H"], ["CNOT", "SWAP", "X"]],
        "engine_stack": ["X", "H"],
        "components": {"PHI PLUS": C.QUANTUM_GATES},
        "event_deck": [C.HEISENBERG],
    })
    assert state["detection"] == 0 and C.TRACK[state["detection"]] == 1
    assert GAME.to_act(state) == [MERC]

    # 1. Mercurial plays H: ZERO -> PLUS, draws X; slot 1 is H on the blue line.
    state, events = GAME.apply(state, MERC, {"play": "H"})
    assert state["ships"] == {"mercurial": "PLUS", "rubicon": "ZERO"}
    assert sorted(state["hands"][MERC]) == ["H", "X", "X"]
    assert state["engine_control"] == [{"card": "H", "seat": MERC}]
    assert rolls(events) == []

    # 2. Rubicon (on ZERO) plays CNOT with Mercurial on PLUS: both to PHI PLUS, draws H,
    #    orbital roll 3 > 1: not seen. Slot 2 is CNOT on the red line.
    state, events = apply_where(state, RUB, {"play": "CNOT"},
                                lambda s, e: rolls(e) == [3])
    assert state["ships"] == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}
    assert sorted(state["hands"][RUB]) == ["H", "SWAP", "X"]
    assert codes(events).index("draw") < codes(events).index("entanglion_die")
    assert "not_seen" in codes(events)
    assert state["engine_control"][1] == {"card": "CNOT", "seat": RUB}

    # 3. Mercurial retrieves: 6 > 1, Quantum Gates goes on Mercurial's board.
    state, events = apply_where(state, MERC, {"retrieve": True},
                                lambda s, e: rolls(e) == [6])
    assert state["held"] == [[C.QUANTUM_GATES], []]

    # 4. Rubicon plays H: PHI PLUS -> OMEGA TWO (slot 3); roll 1 <= 1: detected. The
    #    Centarious die shows 1: both ships to ONE. Detection to the first 2. The quantum event
    #    is Heisenberg, which Rubicon keeps.
    state, events = apply_where(
        state, RUB, {"play": "H"},
        lambda s, e: rolls(e) == [1] and any(x["code"] == "centarious_die" and x["face"] == 1
                                             for x in e))
    moves = [e for e in events if e["type"] == "play"]
    assert moves[0]["after"] == {"mercurial": "OMEGA TWO", "rubicon": "OMEGA TWO"}
    assert moves[0]["slot"] == 3
    assert "detected" in codes(events)
    assert state["ships"] == {"mercurial": "ONE", "rubicon": "ONE"}
    assert state["detection"] == 1 and C.TRACK[state["detection"]] == 2
    assert state["event_hands"] == [[], [C.HEISENBERG]]
    assert state["turn"] == MERC and not state["finished"]

"""Entanglion rules, one test per rule (sheet §4–§12). Chance outcomes are picked by trying
match seeds (``apply_where``); tables are set up with the engine's own options or, for a
mid-game situation, by editing the plain-data state."""
from __future__ import annotations

from collections import Counter

import pytest

from games.engines import IllegalAction, clone
from games.engines.entanglion import cards as C
from tests.support.entanglion import GAME, apply_where, codes, d8, rolls, table

MERC, RUB = 0, 1


def inside_at(planet: str, **options) -> dict:
    return table(ships={"mercurial": planet, "rubicon": planet}, **options)


def failing(state, events):
    return any(e["code"] == "detected" for e in events)


def passing_orbital(state, events):
    return any(e["code"] == "not_seen" for e in events)


# ------------------------------------------------------------------------------ §4 cards

def test_engine_stack_at_setup_has_24_cards_with_probe_last_of_the_first_pass():
    state = GAME.setup(seed=5)
    cards = state["engine_stack"] + state["hands"][0] + state["hands"][1]
    assert Counter(cards) == Counter(H=8, CNOT=7, X=5, SWAP=3, PROBE=1)
    assert state["engine_stack"][-1] == "PROBE"
    assert all(len(h) == 3 for h in state["hands"])


def test_navigate_puts_the_card_in_the_next_slot_and_draws_a_replacement():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["H", "X", "X"], ["H", "H", "H"]], engine_stack=["SWAP"])
    state, events = GAME.apply(state, MERC, {"play": "H"})
    assert state["ships"]["mercurial"] == "PLUS"
    assert state["engine_control"] == [{"card": "H", "seat": MERC}]
    assert sorted(state["hands"][MERC]) == ["SWAP", "X", "X"]
    state, _ = GAME.apply(state, RUB, {"play": "H"})
    assert [s["seat"] for s in state["engine_control"]] == [MERC, RUB]


def test_a_card_with_no_effect_is_legal_fills_a_slot_and_is_replaced():
    state = table(ships={"mercurial": "PLUS", "rubicon": "ZERO"},
                  hands=[["X", "X", "X"], ["H", "H", "H"]], engine_stack=["CNOT"])
    state, events = GAME.apply(state, MERC, {"play": "X"})
    assert state["ships"] == {"mercurial": "PLUS", "rubicon": "ZERO"}
    assert "no_effect" in codes(events)
    assert len(state["engine_control"]) == 1 and len(state["hands"][MERC]) == 3


def test_players_play_only_for_their_own_ship_and_only_cards_in_hand():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["H", "X", "X"], ["CNOT", "H", "H"]])
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, MERC, {"play": "CNOT"})
    assert err.value.code == "not_in_hand"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, RUB, {"play": "H"})
    assert err.value.code == "not_your_turn"


def test_six_full_slots_bring_a_quantum_event_at_the_end_of_the_turn_and_clear_them():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "X", "X"], ["H", "H", "H"]],
                  event_deck=[C.SCHRODINGER, C.WAVE_COLLAPSE])
    state["engine_control"] = [{"card": "H", "seat": s % 2} for s in range(5)]
    state, events = GAME.apply(state, MERC, {"play": "X"})
    assert codes(events).index("full") < codes(events).index("event_drawn")
    assert [e["card"] for e in events if e["code"] == "event_drawn"] == [C.SCHRODINGER]
    assert state["engine_control"] == []
    assert state["engine_discard"].count("H") == 5 and "X" in state["engine_discard"]
    assert state["detection"] == 1 and state["turn"] == RUB


@pytest.mark.parametrize("roll,rises", [(3, True), (4, False)])
def test_probe_is_resolved_when_drawn_below_4_raises_detection(roll, rises):
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "X", "X"], ["H", "H", "H"]], engine_stack=["PROBE", "SWAP"])
    state, events = apply_where(state, MERC, {"play": "X"}, d8(roll, purpose="probe"))
    assert state["detection"] == (1 if rises else 0)
    assert "PROBE" in state["engine_discard"] and "PROBE" not in state["hands"][MERC]
    assert "SWAP" in state["hands"][MERC]          # PROBE replaced by the next card


def test_empty_stack_takes_the_shuffled_discard_pile():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "X", "X"], ["H", "H", "H"]])
    state["engine_discard"] = state["engine_stack"][:4]
    state["engine_stack"] = []
    kept = Counter(state["engine_discard"])
    state, events = GAME.apply(state, MERC, {"play": "X"})
    assert "reshuffle" in codes(events)
    assert Counter(state["engine_stack"] + state["hands"][MERC][2:]) == kept
    # cards in engine control are not part of the reshuffle
    assert state["engine_control"] == [{"card": "X", "seat": MERC}]


def test_exchange_discards_one_draws_one_and_leaves_engine_control_alone():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "X", "X"], ["H", "H", "H"]], engine_stack=["SWAP"])
    state, _ = GAME.apply(state, MERC, {"exchange": "X"})
    assert sorted(state["hands"][MERC]) == ["SWAP", "X", "X"]
    assert state["engine_discard"] == ["X"] and state["engine_control"] == []
    assert state["ships"]["mercurial"] == "ZERO" and state["turn"] == RUB


# ------------------------------------------------------------------------------ §5 dice

def test_centarious_die_is_a_fair_coin_for_the_starting_planets():
    starts = Counter(GAME.setup(seed=s)["ships"]["mercurial"] for s in range(400))
    assert set(starts) == {"ZERO", "ONE"}
    assert 150 < starts["ZERO"] < 250


def test_entanglion_die_is_a_uniform_d8():
    seen = Counter(C.entanglion_die(__import__("random").Random(s)) for s in range(4000))
    assert set(seen) == set(range(1, 9))
    assert all(400 < n < 600 for n in seen.values())


# ------------------------------------------------------------------------------ §6 track

def test_detection_track_and_start_spaces():
    assert C.TRACK == (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, "X")
    assert GAME.setup(seed=1, variant="easy")["detection"] == 0
    assert GAME.setup(seed=1, variant="hard")["detection"] == 3
    assert table(start_rate=2)["detection"] == 1


@pytest.mark.parametrize("roll,seen", [(1, True), (2, True), (3, False)])
def test_a_check_passes_only_strictly_above_the_rate(roll, seen):
    state = table(ships={"mercurial": "ZERO", "rubicon": "PLUS"}, detection=2,   # rate 2
                  hands=[["CNOT", "X", "X"], ["H", "H", "H"]],
                  event_deck=[C.WAVE_COLLAPSE])
    state, events = apply_where(state, MERC, {"play": "CNOT"}, d8(roll))
    assert ("detected" in codes(events)) == seen


def test_increase_by_one_moves_one_space_and_x_is_an_immediate_loss():
    state = inside_at("PHI PLUS", detection=10, hands=[["X", "X", "X"], ["H", "H", "H"]])
    state, events = apply_where(state, MERC, {"retrieve": True}, d8(2))
    assert state["detection"] == 11 and state["finished"] and state["result"] == "lost"
    assert GAME.outcome(state)["winners"] == [] and GAME.to_act(state) == []
    state = inside_at("PHI PLUS", detection=0, hands=[["X", "X", "X"], ["H", "H", "H"]])
    state, _ = apply_where(state, MERC, {"retrieve": True}, d8(1))
    assert state["detection"] == 1 and C.TRACK[state["detection"]] == 2   # 1 -> the first 2


# ------------------------------------------------------------------------------ §7 defenses

def test_entering_entanglion_triggers_one_orbital_check_rolled_by_the_card_player():
    state = table(ships={"mercurial": "PLUS", "rubicon": "ZERO"},
                  hands=[["X", "X", "X"], ["CNOT", "H", "H"]], first=RUB)
    state, events = apply_where(state, RUB, {"play": "CNOT"}, passing_orbital)
    checks = [e for e in events if e["type"] == "roll" and e.get("die") == "d8"]
    assert len(checks) == 1 and checks[0]["seat"] == RUB
    assert state["ships"] == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}


def test_no_orbital_check_without_a_new_entanglion_planet_or_on_leaving():
    state = inside_at("OMEGA ONE", hands=[["CNOT", "X", "X"], ["CNOT", "H", "H"]])
    state, events = GAME.apply(state, MERC, {"play": "CNOT"})           # no path: stays
    assert rolls(events) == [] and state["ships"]["mercurial"] == "OMEGA ONE"
    state = inside_at("PSI MINUS", hands=[["CNOT", "X", "X"], ["CNOT", "H", "H"]])
    state, events = GAME.apply(state, MERC, {"play": "CNOT"})           # exit
    assert rolls(events) == [] and state["ships"] == {"mercurial": "ONE", "rubicon": "MINUS"}


def test_moving_inside_to_a_new_planet_is_checked():
    state = inside_at("PHI PLUS", hands=[["X", "X", "X"], ["CNOT", "H", "H"]])
    state, events = apply_where(state, MERC, {"play": "X"}, passing_orbital)
    assert len(rolls(events)) == 1 and state["ships"]["mercurial"] == "PSI PLUS"


def test_detection_sends_both_ships_to_one_centarious_planet_then_plus_one_then_an_event():
    state = inside_at("PHI PLUS", hands=[["H", "X", "X"], ["CNOT", "H", "H"]],
                      event_deck=[C.HEISENBERG])
    for face in (0, 1):
        after, events = apply_where(state, MERC, {"play": "H"},
                                    lambda s, e, f=face: failing(s, e) and any(
                                        x["code"] == "centarious_die" and x["face"] == f
                                        for x in e))
        planet = ("ZERO", "ONE")[face]
        assert after["ships"] == {"mercurial": planet, "rubicon": planet}
        order = codes(events)
        assert order.index("centarious_die") < order.index("detection_up") < order.index(
            "event_drawn")
        assert after["detection"] == 1 and after["event_hands"][MERC] == [C.HEISENBERG]
        assert after["engine_control"] == []          # §13.1: every quantum event clears it


def test_retrieve_success_puts_the_component_on_the_retrievers_own_board():
    state = inside_at("OMEGA TWO", hands=[["H", "X", "X"], ["CNOT", "H", "H"]],
                      components={"OMEGA TWO": C.MAGNETIC_SHIELDING}, first=RUB)
    state, events = apply_where(state, RUB, {"retrieve": True}, d8(5))
    assert state["held"][RUB] == [C.MAGNETIC_SHIELDING]
    assert "OMEGA TWO" not in state["planet_components"]
    assert {"retrieve": True} not in GAME.legal_actions(state, MERC)


def test_failed_retrieval_raises_detection_and_the_ships_stay_without_a_recheck():
    state = inside_at("OMEGA TWO", detection=3, hands=[["H", "X", "X"], ["CNOT", "H", "H"]])
    state, events = apply_where(state, MERC, {"retrieve": True}, d8(3))
    assert state["detection"] == 4 and state["ships"]["mercurial"] == "OMEGA TWO"
    assert len(rolls(events)) == 1 and "OMEGA TWO" in state["planet_components"]


def test_retrieve_is_only_offered_on_an_entanglion_planet_holding_a_component():
    outside = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"})
    assert not any("retrieve" in a for a in GAME.legal_actions(outside, MERC))
    empty = inside_at("PHI PLUS", held={"mercurial": [C.QUANTUM_GATES]},
                      components={"PSI PLUS": C.PHYSICAL_QUBITS})
    empty["planet_components"].pop("PHI PLUS", None)
    assert not any("retrieve" in a for a in GAME.legal_actions(empty, MERC))
    with pytest.raises(IllegalAction):
        GAME.apply(empty, MERC, {"retrieve": True})


# ------------------------------------------------------------------------------ §8 components

def test_physical_qubits_lets_the_detected_player_choose_each_ships_landing():
    state = inside_at("PHI PLUS", hands=[["H", "X", "X"], ["CNOT", "H", "H"]],
                      held={"mercurial": [C.PHYSICAL_QUBITS]}, event_deck=[C.SCHRODINGER])
    state, events = apply_where(state, MERC, {"play": "H"}, failing)
    assert GAME.to_act(state) == [MERC] and state["pending"]["kind"] == "land"
    assert "centarious_die" not in codes(events) and state["detection"] == 0
    state, events = GAME.apply(state, MERC, {"land": {"mercurial": "ONE", "rubicon": "ZERO"}})
    assert state["ships"] == {"mercurial": "ONE", "rubicon": "ZERO"}
    assert state["detection"] == 2          # +1 detection, +1 Schrödinger
    assert state["turn"] == RUB


def test_qubit_interconnect_trades_before_the_action_on_the_same_planet_only():
    state = inside_at("PHI PLUS", hands=[["H", "X", "X"], ["CNOT", "SWAP", "H"]],
                      held={"mercurial": [C.QUBIT_INTERCONNECT]})
    trade = {"trade": {"give": "X", "take": "SWAP"}}
    assert trade in GAME.legal_actions(state, MERC)
    state, _ = GAME.apply(state, MERC, trade)
    assert sorted(state["hands"][MERC]) == ["H", "SWAP", "X"]
    assert sorted(state["hands"][RUB]) == ["CNOT", "H", "X"]
    assert state["turn"] == MERC                    # not an action
    assert not any("trade" in a for a in GAME.legal_actions(state, MERC))   # once a turn
    apart = table(ships={"mercurial": "ZERO", "rubicon": "ONE"},
                  hands=[["H", "X", "X"], ["CNOT", "SWAP", "H"]],
                  held={"mercurial": [C.QUBIT_INTERCONNECT]})
    assert not any("trade" in a for a in GAME.legal_actions(apart, MERC))
    apart["options"]["interconnect_anywhere"] = True            # §13.7 house rule
    assert any("trade" in a for a in GAME.legal_actions(apart, MERC))


def test_dilution_refrigerator_discard_on_retrieval_and_a_hand_of_two():
    state = inside_at("OMEGA ONE", hands=[["H", "X", "X"], ["CNOT", "SWAP", "H"]],
                      components={"OMEGA ONE": C.DILUTION_REFRIGERATOR},
                      engine_stack=["SWAP", "SWAP"])
    state, _ = apply_where(state, MERC, {"retrieve": True}, d8(8))
    assert state["pending"] == {"kind": "discard", "seat": MERC}
    assert sorted(GAME.legal_actions(state, MERC), key=str) == [{"discard": "H"},
                                                               {"discard": "X"}]
    state, _ = GAME.apply(state, MERC, {"discard": "X"})
    assert sorted(state["hands"][MERC]) == ["H", "X"] and state["turn"] == RUB
    state, _ = GAME.apply(state, RUB, {"exchange": "SWAP"})
    state, _ = GAME.apply(state, MERC, {"play": "H"})
    assert len(state["hands"][MERC]) == 2                 # draws back up to 2 only


def test_quantum_gates_exchange_draws_two_and_keeps_one():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["H", "X", "X"], ["CNOT", "SWAP", "H"]],
                  held={"mercurial": [C.QUANTUM_GATES]}, engine_stack=["SWAP", "CNOT"])
    state, events = GAME.apply(state, MERC, {"exchange": "X"})
    assert state["pending"] == {"kind": "keep", "seat": MERC, "cards": ["SWAP", "CNOT"]}
    state, _ = GAME.apply(state, MERC, {"keep": "CNOT"})
    assert sorted(state["hands"][MERC]) == ["CNOT", "H", "X"]
    assert state["engine_discard"] == ["X", "SWAP"] and state["turn"] == RUB


def test_quantum_programming_skips_the_check_only_where_no_component_lies():
    base = inside_at("PHI PLUS", hands=[["X", "H", "X"], ["CNOT", "SWAP", "H"]],
                     held={"mercurial": [C.QUANTUM_PROGRAMMING]},
                     components={"OMEGA TWO": C.QUANTUM_GATES})
    base["planet_components"].pop("PSI PLUS", None)
    state, events = GAME.apply(base, MERC, {"play": "X"})           # to empty PSI PLUS
    assert rolls(events) == [] and "skipped_programming" in codes(events)
    state, events = apply_where(base, MERC, {"play": "H"}, passing_orbital)  # OMEGA TWO
    assert len(rolls(events)) == 1


@pytest.mark.parametrize("component,mod", [(C.QUANTUM_ERROR_CORRECTION, 1),
                                           (C.CONTROL_INFRASTRUCTURE, -1)])
def test_die_modifiers_change_defense_rolls_of_their_holder_only(component, mod):
    state = inside_at("OMEGA TWO", detection=3, hands=[["H", "X", "X"], ["CNOT", "H", "H"]],
                      held={"mercurial": [component]})
    roll = 3 if mod == 1 else 4                       # rate 3: 3+1 passes, 4−1 fails
    after, events = apply_where(state, MERC, {"retrieve": True}, d8(roll))
    event = next(e for e in events if e["type"] == "roll")
    assert event["modifier"] == mod and event["total"] == roll + mod
    assert event["passed"] == (mod == 1)
    state["turn"] = RUB                                # the partner's roll is unmodified
    after, events = apply_where(state, RUB, {"retrieve": True}, d8(roll))
    assert next(e for e in events if e["type"] == "roll")["modifier"] == 0


def test_magnetic_shielding_rolls_a_failed_check_again():
    state = inside_at("OMEGA TWO", detection=3, hands=[["H", "X", "X"], ["CNOT", "H", "H"]],
                      held={"mercurial": [C.MAGNETIC_SHIELDING]})
    state, events = apply_where(state, MERC, {"retrieve": True},
                                lambda s, e: next(x for x in e if x["type"] == "roll")[
                                    "rolls"][0] == 2)
    roll = next(e for e in events if e["type"] == "roll")
    assert len(roll["rolls"]) == 2 and roll["passed"] == (roll["rolls"][1] > 3)
    ok, events = apply_where(state | {"turn": MERC, "finished": False}, MERC,
                             {"exchange": "H"}, lambda s, e: True)
    assert not any(e["type"] == "roll" for e in events)


# ------------------------------------------------------------------------------ §9 events

def _event_table(card, **options):
    options.setdefault("ships", {"mercurial": "ZERO", "rubicon": "ZERO"})
    options.setdefault("hands", [["X", "X", "X"], ["H", "H", "H"]])
    state = table(event_deck=[card], **options)
    state["engine_control"] = [{"card": "H", "seat": s % 2} for s in range(5)]
    return state


def test_keep_cards_go_to_the_hand_of_the_player_whose_turn_caused_the_event():
    for card in C.KEEP_CARDS:
        state, _ = GAME.apply(_event_table(card), MERC, {"play": "X"})
        assert state["event_hands"] == [[card], []]


def test_bit_flip_error_puts_the_token_on_the_first_four_even_from_below():
    state, _ = GAME.apply(_event_table(C.BIT_FLIP), MERC, {"play": "X"})
    assert state["detection"] == C.FIRST_FOUR and C.TRACK[state["detection"]] == 4
    state, _ = GAME.apply(_event_table(C.BIT_FLIP, detection=8), MERC, {"play": "X"})
    assert state["detection"] == 5
    state, _ = GAME.apply(_event_table(C.BIT_FLIP, bit_flip_only_if_lower=True), MERC,
                          {"play": "X"})
    assert state["detection"] == 0                               # §13.2 house rule


def test_wave_function_collapse_two_spaces_back_never_below_the_start():
    state, _ = GAME.apply(_event_table(C.WAVE_COLLAPSE, detection=6), MERC, {"play": "X"})
    assert state["detection"] == 4
    state, _ = GAME.apply(_event_table(C.WAVE_COLLAPSE, detection=1), MERC, {"play": "X"})
    assert state["detection"] == 0


def test_schrodinger_raises_detection_and_can_lose_the_game():
    state, _ = GAME.apply(_event_table(C.SCHRODINGER, detection=3), MERC, {"play": "X"})
    assert state["detection"] == 4
    state, _ = GAME.apply(_event_table(C.SCHRODINGER, detection=10), MERC, {"play": "X"})
    assert state["result"] == "lost"


def test_spooky_action_moves_a_held_component_to_an_empty_planet_counted_clockwise():
    held = [C.QUANTUM_GATES]
    comps = {"OMEGA ONE": C.PHYSICAL_QUBITS, "PHI MINUS": C.QUBIT_INTERCONNECT}
    state = _event_table(C.SPOOKY, held={"mercurial": held}, components=comps)
    for p in list(state["planet_components"]):
        if p not in comps:
            del state["planet_components"][p]
    after, events = apply_where(state, MERC, {"play": "X"}, d8(1, purpose="spooky"))
    # 1 = first empty planet clockwise from OMEGA ZERO: OMEGA ONE is occupied -> PSI MINUS
    assert after["planet_components"]["PSI MINUS"] == C.QUANTUM_GATES
    assert after["held"][MERC] == []
    after, _ = apply_where(state, MERC, {"play": "X"}, d8(6, purpose="spooky"))
    # empty in ring order: PSI MINUS, OMEGA THREE, OMEGA TWO, PHI PLUS, PSI PLUS, OMEGA ZERO
    assert after["planet_components"]["OMEGA ZERO"] == C.QUANTUM_GATES
    nothing, events = GAME.apply(_event_table(C.SPOOKY), MERC, {"play": "X"})
    assert "spooky_nothing" in codes(events)


def test_quantum_shuffle_rebuilds_the_deck_with_three_under_it_and_draws_again():
    state = _event_table(C.QUANTUM_SHUFFLE)
    state["event_deck"] = [C.QUANTUM_SHUFFLE, C.SCHRODINGER, C.BIT_FLIP]
    state["event_discard"] = [C.SPOOKY, C.WAVE_COLLAPSE, C.HEISENBERG]
    after, events = GAME.apply(state, MERC, {"play": "X"})
    drawn = [e["card"] for e in events if e["type"] == "quantum_event"]
    assert drawn[0] == C.QUANTUM_SHUFFLE and len(drawn) == 2
    pool = after["event_deck"] + after["event_discard"] + after["event_hands"][MERC]
    assert sorted(pool) == sorted([C.QUANTUM_SHUFFLE, C.SCHRODINGER, C.BIT_FLIP, C.SPOOKY,
                                   C.WAVE_COLLAPSE, C.HEISENBERG])
    deck = C.event_deck_from(list(C.EVENT_CARDS), __import__("random").Random(3))
    assert deck.index(C.QUANTUM_SHUFFLE) == 5 and len(deck) == 9     # the 6th card


def test_quantum_tunnel_cancels_an_orbital_check_and_is_not_an_action():
    state = inside_at("PHI PLUS", detection=10, hands=[["X", "H", "X"], ["H", "H", "H"]])
    state["event_hands"][MERC] = [C.QUANTUM_TUNNEL]
    assert {"play": "H", "tunnel": True} in GAME.legal_actions(state, MERC)
    assert {"play": "CNOT", "tunnel": True} not in GAME.legal_actions(state, MERC)
    after, events = GAME.apply(state, MERC, {"play": "H", "tunnel": True})
    assert rolls(events) == [] and after["ships"]["mercurial"] == "OMEGA TWO"
    assert after["event_hands"][MERC] == [] and C.QUANTUM_TUNNEL in after["event_discard"]
    after, events = GAME.apply(state, MERC, {"retrieve": True, "tunnel": True})
    assert rolls(events) == [] and after["held"][MERC]          # retrieval just succeeds


def test_heisenberg_moves_both_ships_clockwise_with_no_check_even_from_outside():
    state = table(ships={"mercurial": "ZERO", "rubicon": "MINUS"}, detection=10,
                  hands=[["X", "H", "X"], ["H", "H", "H"]])
    state["event_hands"][MERC] = [C.HEISENBERG]
    for roll, planet in ((1, "OMEGA ONE"), (7, "PSI PLUS"), (8, "OMEGA ZERO")):
        after, events = apply_where(state, MERC, {"event": C.HEISENBERG}, d8(roll))
        assert after["ships"] == {"mercurial": planet, "rubicon": planet}
        assert len(rolls(events)) == 1 and not after["finished"] and after["turn"] == RUB


def test_bennett_moves_a_component_between_the_ships_with_its_effect():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "H", "X"], ["H", "H", "H"]],
                  held={"rubicon": [C.QUANTUM_ERROR_CORRECTION]})
    state["event_hands"][MERC] = [C.BENNETT]
    after, _ = GAME.apply(state, MERC, {"event": C.BENNETT,
                                        "component": C.QUANTUM_ERROR_CORRECTION})
    assert after["held"] == [[C.QUANTUM_ERROR_CORRECTION], []]
    from games.engines.entanglion.rules import modifier
    assert modifier(after, MERC) == 1 and modifier(after, RUB) == 0


def test_bennett_with_the_dilution_refrigerator_new_holder_discards_old_draws_up():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "H", "X"], ["H", "H"]], engine_stack=["SWAP"],
                  held={"rubicon": [C.DILUTION_REFRIGERATOR]})
    state["event_hands"][RUB] = [C.BENNETT]
    state["turn"] = RUB
    after, _ = GAME.apply(state, RUB, {"event": C.BENNETT,
                                       "component": C.DILUTION_REFRIGERATOR})
    assert sorted(after["hands"][RUB]) == ["H", "H", "SWAP"]
    assert GAME.to_act(after) == [MERC] and after["pending"]["kind"] == "discard"
    after, _ = GAME.apply(after, MERC, {"discard": "X"})
    assert sorted(after["hands"][MERC]) == ["H", "X"] and after["turn"] == MERC


def test_the_mechanic_plays_zero_one_or_two_cards_without_checks_then_the_hand_returns():
    state = table(ships={"mercurial": "ZERO", "rubicon": "PLUS"}, detection=10,
                  hands=[["X", "X", "X"], ["H", "H", "H"]],
                  engine_stack=["CNOT", "PROBE", "H", "SWAP", "H"])
    state["event_hands"][MERC] = [C.MECHANIC]
    after, events = apply_where(state, MERC, {"event": C.MECHANIC}, d8(5, purpose="probe"))
    # errata 2: PROBE drawn during The Mechanic is resolved, replaced, and play goes on
    assert after["pending"]["cards"] == ["CNOT", "H", "SWAP"] and after["detection"] == 10
    after, events = GAME.apply(after, MERC, {"mechanic": "CNOT"})    # enters: no check
    assert after["ships"]["mercurial"] == "PHI PLUS" and rolls(events) == []
    assert after["engine_control"] == [{"card": "CNOT", "seat": MERC}]
    after, events = GAME.apply(after, MERC, {"mechanic": "H"})       # second: done
    assert after["ships"]["mercurial"] == "OMEGA TWO" and rolls(events) == []
    assert after["pending"] is None and after["turn"] == RUB
    assert after["hands"][MERC] == ["X", "X", "X"]
    assert after["engine_discard"] == ["PROBE", "SWAP"]        # the unplayed cards discarded
    stop, _ = GAME.apply(apply_where(state, MERC, {"event": C.MECHANIC},
                                     d8(5, purpose="probe"))[0], MERC, {"stop": True})
    assert sorted(stop["engine_discard"]) == ["CNOT", "H", "PROBE", "SWAP"]   # zero played
    assert stop["ships"] == state["ships"]


# ------------------------------------------------------------------------------ §10 setup

def test_setup_places_one_component_per_entanglion_planet_and_shuffle_is_sixth():
    for seed in range(20):
        state = GAME.setup(seed=seed)
        assert sorted(state["planet_components"].values()) == sorted(C.COMPONENTS)
        assert state["event_deck"][5] == C.QUANTUM_SHUFFLE
        assert set(state["ships"].values()) <= {"ZERO", "ONE"}


def test_setup_first_player_is_the_higher_d8_roll_rerolled_on_ties():
    for seed in range(40):
        state = GAME.setup(seed=seed)
        first = [e for e in state["events"] if e["code"] == "first_player_roll"]
        assert all(e["rolls"][0] == e["rolls"][1] for e in first[:-1])
        a, b = first[-1]["rolls"]
        assert a != b and state["first"] == (0 if a > b else 1) == state["turn"]


def test_setup_options_are_validated_with_clear_messages():
    bad = [{"ships": {"mercurial": "PHI PLUS", "rubicon": "ZERO"}},
           {"ships": {"mercurial": "MARS", "rubicon": "ZERO"}},
           {"hands": [["H", "H", "H", "H"], []]}, {"hands": [["PROBE"], []]},
           {"engine_stack": ["SWAP"] * 4}, {"event_deck": [C.BENNETT, C.BENNETT]},
           {"components": {"ZERO": C.QUANTUM_GATES}},
           {"held": {"mercurial": [C.QUANTUM_GATES]}, "components": {"PHI PLUS":
                                                                    C.QUANTUM_GATES}},
           {"start_rate": 4}, {"detection": 11}, {"first": 2}, {"zz": 1}, [],
           {"interconnect_anywhere": 1}]
    for options in bad:
        with pytest.raises(IllegalAction) as err:
            GAME.setup(seed=0, options=options)
        assert err.value.code == "bad_option" and err.value.message
    with pytest.raises(IllegalAction):
        GAME.setup(players=3)


# ------------------------------------------------------------------------------ §11 play

def test_turns_alternate_with_exactly_one_action_and_no_pass():
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "X", "X"], ["H", "H", "H"]])
    kinds = {next(iter(a)) for a in GAME.legal_actions(state, MERC)}
    assert kinds <= {"play", "exchange", "retrieve", "event", "trade"}
    assert GAME.legal_actions(state, RUB) == []
    state, _ = GAME.apply(state, MERC, {"exchange": "X"})
    assert GAME.to_act(state) == [RUB] and state["turn_number"] == 2


def test_detection_and_full_engine_control_in_one_turn_make_two_events():
    state = inside_at("PHI PLUS", hands=[["H", "X", "X"], ["CNOT", "H", "H"]],
                      event_deck=[C.SCHRODINGER, C.WAVE_COLLAPSE, C.BIT_FLIP], detection=2)
    state["engine_control"] = [{"card": "H", "seat": s % 2} for s in range(5)]
    after, events = apply_where(state, MERC, {"play": "H"}, failing)
    drawn = [e for e in events if e["code"] == "event_drawn"]
    assert [e["cause"] for e in drawn] == ["detection", "engine_control"]
    assert [e["card"] for e in drawn] == [C.SCHRODINGER, C.WAVE_COLLAPSE]


def test_win_at_once_when_the_ships_hold_all_eight_components():
    held = [c for c in C.COMPONENTS if c != C.QUANTUM_GATES]
    state = inside_at("PSI PLUS", held={"mercurial": held[:4], "rubicon": held[4:]},
                      components={"PSI PLUS": C.QUANTUM_GATES})
    state, events = apply_where(state, MERC, {"retrieve": True}, d8(7))
    assert state["result"] == "won" and GAME.outcome(state)["winners"] == [0, 1]
    assert GAME.outcome(state)["scores"] == [8, 8] and GAME.to_act(state) == []
    with pytest.raises(IllegalAction):
        GAME.apply(state, RUB, {"play": "H"})


def test_a_failed_orbital_check_can_lose_the_game_before_any_event():
    state = inside_at("PHI PLUS", detection=10, hands=[["H", "X", "X"], ["CNOT", "H", "H"]])
    state, events = apply_where(state, MERC, {"play": "H"}, failing)
    assert state["result"] == "lost" and "event_drawn" not in codes(events)


def test_apply_never_changes_its_input():
    state = inside_at("PHI PLUS", hands=[["H", "X", "X"], ["CNOT", "H", "H"]])
    before = clone(state)
    GAME.apply(state, MERC, {"play": "H"})
    assert state == before


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_every_card_and_component_and_the_ships_together(seed):
    """Along seeded random games (with components that add decisions): the 24 engine cards,
    the 9 event cards and the 8 components are all somewhere exactly once, hands stay within
    their limit, engine control within 6 slots, and in Entanglion the ships share a planet."""
    import random

    from games.engines.entanglion.planets import ENTANGLION, PLANETS

    rng = random.Random(seed)
    options = {"held": {"mercurial": [C.DILUTION_REFRIGERATOR, C.QUANTUM_GATES,
                                      C.PHYSICAL_QUBITS],
                        "rubicon": [C.QUBIT_INTERCONNECT, C.MAGNETIC_SHIELDING]}} \
        if seed % 2 else {}
    state = GAME.setup(seed=seed, variant=rng.choice(GAME.variants), options=options)
    while True:
        pending = state["pending"] or {}
        engine = (state["engine_stack"] + state["engine_discard"] + state["hands"][0]
                  + state["hands"][1] + [s["card"] for s in state["engine_control"]]
                  + list(pending.get("cards", [])))
        assert Counter(engine) == Counter(C.ENGINE_DECK)
        assert sorted(state["event_deck"] + state["event_discard"] + state["event_hands"][0]
                      + state["event_hands"][1]) == sorted(C.EVENT_CARDS)
        assert sorted([*state["planet_components"].values(), *state["held"][0],
                       *state["held"][1]]) == sorted(C.COMPONENTS)
        ships = state["ships"]
        if ENTANGLION in (PLANETS[ships["mercurial"]], PLANETS[ships["rubicon"]]):
            assert ships["mercurial"] == ships["rubicon"]
        assert len(state["engine_control"]) <= C.SLOTS
        if GAME.outcome(state) is not None:
            break
        assert all(len(state["hands"][s]) <= 3 for s in (0, 1))
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_die_modifiers_do_not_change_the_heisenberg_count():
    """§13.11 default: component modifiers apply to defense checks and PROBE only."""
    state = table(ships={"mercurial": "ZERO", "rubicon": "ZERO"},
                  hands=[["X", "H", "X"], ["H", "H", "H"]],
                  held={"mercurial": [C.QUANTUM_ERROR_CORRECTION, C.MAGNETIC_SHIELDING]})
    state["event_hands"][MERC] = [C.HEISENBERG]
    after, events = apply_where(state, MERC, {"event": C.HEISENBERG}, d8(1))
    roll = next(e for e in events if e["type"] == "roll")
    assert roll["modifier"] == 0 and roll["rolls"] == [1]
    assert after["ships"]["mercurial"] == "OMEGA ONE"

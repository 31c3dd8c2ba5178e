"""Quantum Ticket-to-Ride: every rule of docs/rules/quantum-ticket-to-ride.md, one test each
(or more), plus its worked examples."""
from __future__ import annotations

from collections import Counter

import pytest

from games.engines import IllegalAction
from tests.engines.ttr_support import GAME, mission, position, route, table, tiny_map

GATES = ["I", "X", "Y", "Z", "H", "CNOT"]


# --- deck and deal ---------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deck_is_72_cards_12_of_each_gate_and_each_player_gets_5(players):
    s = table(players=players, seed=players)
    assert [len(h) for h in s["hands"]] == [5] * players
    everything = Counter(s["pile"]) + sum((Counter(h) for h in s["hands"]), Counter())
    assert everything == Counter({g: 12 for g in GATES})
    assert len(s["pile"]) == 72 - 5 * players


def test_each_player_gets_one_mission_of_the_chosen_level_all_different():
    for variant in ("basic", "intermediate", "advanced"):
        for seed in range(10):
            s = table(players=5, variant=variant, seed=seed)
            assert len({m["id"] for m in s["missions"]}) == 5
            assert {m["level"] for m in s["missions"]} == {variant}
    levels = {m["level"] for seed in range(30) for m in table(5, "mixed", seed)["missions"]}
    assert levels == {"basic", "intermediate", "advanced"}


def test_the_deal_and_the_order_are_random_but_reproduced_by_the_seed():
    orders = {tuple(table(players=4, seed=seed)["order"]) for seed in range(30)}
    assert len(orders) > 5
    firsts = {table(players=3, seed=seed)["order"][0] for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert table(players=3, seed=7) == table(players=3, seed=7)
    assert table(players=3, seed=7)["pile"] != table(players=3, seed=8)["pile"]
    s = table(players=3, seed=7)
    assert sorted(s["order"]) == [0, 1, 2] and s["turn"] == s["order"][0]


def test_setup_refuses_bad_players_variants_options_and_too_few_missions():
    for kwargs in ({"players": 1}, {"players": 6}, {"players": True}, {"variant": "hard"},
                   {"seed": "x"}, {"options": {"zz": 1}}, {"options": []}):
        with pytest.raises(IllegalAction):
            GAME.setup(**{"players": 2, "variant": "basic", "seed": 0, **kwargs})
    with pytest.raises(IllegalAction) as err:       # the tiny map has 2 basic missions
        table(players=3, options={"map": tiny_map()})
    assert err.value.code == "not_enough_missions"


# --- a turn: draw or claim ----------------------------------------------------------------

def test_drawing_takes_the_top_two_cards_of_the_pile():
    s = table(seed=1)
    seat = s["turn"]
    top = s["pile"][-2:]
    after, events = GAME.apply(s, seat, {"draw": True})
    assert Counter(after["hands"][seat]) == Counter(s["hands"][seat]) + Counter(top)
    assert after["pile"] == s["pile"][:-2]
    assert any(e["code"] == "draw" and e["count"] == 2 for e in events)
    assert after["turn"] != seat                       # no route yet: the turn passes


def test_the_hand_limit_is_12():
    s = table(seed=2)
    seat = s["turn"]
    eleven = position(s, hands={seat: ["I", "X", "Y", "Z", "H", "I", "X", "Y", "Z", "H", "I"]})
    after, _ = GAME.apply(eleven, seat, {"draw": True})
    assert len(after["hands"][seat]) == 12             # only one card fits
    full = position(s, hands={seat: ["I", "X", "Y", "Z", "H", "I"] * 2})
    assert {"draw": True} not in GAME.legal_actions(full, seat)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(full, seat, {"draw": True})
    assert err.value.code == "cannot_draw"


def test_claiming_discards_exactly_n_cards_of_the_routes_gate():
    s = table(seed=3)
    seat = s["turn"]
    r = route(s, "Vienna", "Rome")                     # H, length 1
    r3 = route(s, "Edinburgh", "London")              # Z, length 3
    s = position(s, hands={seat: ["Z", "Z", "Z", "Z", "H", "H", "X"]})
    after, events = GAME.apply(s, seat, {"claim": r3})
    assert Counter(after["hands"][seat]) == Counter({"Z": 1, "H": 2, "X": 1})
    assert after["discard"] == ["Z", "Z", "Z"] and after["owners"][r3] == seat
    assert any(e["code"] == "claim" and e["route"] == r3 for e in events)
    assert {"claim": r} in GAME.legal_actions(s, seat)


def test_a_claim_needs_enough_cards_of_that_gate():
    s = table(seed=3)
    seat = s["turn"]
    r3 = route(s, "Edinburgh", "London")               # Z, length 3
    s = position(s, hands={seat: ["Z", "Z", "H", "H", "H"]})
    assert {"claim": r3} not in GAME.legal_actions(s, seat)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, {"claim": r3})
    assert err.value.code == "not_enough_cards"


def test_a_claimed_route_can_never_be_claimed_again():
    s = table(seed=4)
    seat = s["turn"]
    other = 1 - seat
    r = route(s, "Berlin", "Munich")                   # H, length 1
    s = position(s, hands={seat: ["H", "H", "H"]}, owners={r: other})
    assert {"claim": r} not in GAME.legal_actions(s, seat)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, {"claim": r})
    assert err.value.code == "route_taken"
    mine = position(s, owners={r: seat})
    with pytest.raises(IllegalAction):
        GAME.apply(mine, seat, {"claim": r})


def test_a_player_may_pass_only_when_they_can_neither_draw_nor_claim():
    s = table(seed=5)
    seat = s["turn"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, {"pass": True})
    assert err.value.code == "must_act"
    stuck = position(s, pile=[], hands={seat: []})      # nothing to draw, nothing to pay with
    assert GAME.legal_actions(stuck, seat) == [{"pass": True}]
    after, events = GAME.apply(stuck, seat, {"pass": True})
    assert any(e["code"] == "cannot_act" for e in events)


def test_only_the_seat_to_act_may_act():
    s = table(seed=6)
    seat = 1 - s["turn"]
    assert GAME.legal_actions(s, seat) == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, {"draw": True})
    assert err.value.code == "not_your_turn"


# --- the run ----------------------------------------------------------------------------

def berlin_rome(seed: int = 0, seat_routes: tuple = ("Berlin-Munich", "Munich-Vienna",
                                                     "Vienna-Rome")) -> tuple[dict, int]:
    """Seat to act owns the given routes, holds mission B01 (Berlin |0⟩ → Rome |1⟩), and is
    at its run step."""
    s = table(seed=seed)
    seat = s["turn"]
    owners = {route(s, *pair.split("-")): seat for pair in seat_routes}
    return position(s, step="run", owners=owners, missions={seat: mission(s, "B01")}), seat


def test_h_z_h_is_x_from_berlin_to_rome_and_a_matching_run_wins_at_once():
    s, seat = berlin_rome()
    assert {"run": ["Berlin", "Munich", "Vienna", "Rome"]} in GAME.legal_actions(s, seat)
    after, events = GAME.apply(s, seat, {"run": ["Berlin", "Munich", "Vienna", "Rome"]})
    done = next(e for e in events if e["type"] == "run")
    assert done["code"] == "mission_complete" and "visible_to" not in done
    assert done["gates"] == ["H", "Z", "H"] and done["q0"] == "|1⟩"
    assert done["ket"] == "|10⟩" and done["fidelity"] == 1.0
    assert after["finished"] and GAME.to_act(after) == []
    out = GAME.outcome(after)
    assert out["winners"] == [seat] and out["reason"] == "mission"
    assert out["completed"] == [seat]


def test_a_run_that_does_not_match_lets_play_go_on_and_the_routes_stay_claimed():
    s, seat = berlin_rome(seat_routes=("Berlin-Munich", "Munich-Vienna", "Vienna-Budapest",
                                       "Budapest-Belgrade", "Rome-Belgrade"))
    path = ["Berlin", "Munich", "Vienna", "Budapest", "Belgrade", "Rome"]
    assert {"run": path} in GAME.legal_actions(s, seat)
    after, events = GAME.apply(s, seat, {"run": path})
    run = next(e for e in events if e["type"] == "run")
    # H·Z·X·Y·I³ on |0⟩: H|0⟩ = |+⟩, Z: |−⟩, X: −|−⟩, Y: ∝ |+⟩, I: |+⟩ → fidelity ½ with |1⟩
    assert run["code"] == "run_no_match" and run["visible_to"] == [seat]
    assert run["fidelity"] == pytest.approx(0.5) and run["q0"] == "|+⟩"
    assert not after["finished"] and after["turn"] != seat and after["step"] == "act"
    assert [o for o in after["owners"] if o == seat] == [seat] * 5
    assert after["runs"][-1]["match"] is False


def test_the_run_step_comes_after_the_action_only_for_a_seat_with_routes():
    s = table(seed=8)
    seat = s["turn"]
    r = route(s, "Berlin", "Munich")
    with_route = position(s, owners={r: seat})
    after, events = GAME.apply(with_route, seat, {"draw": True})
    assert after["turn"] == seat and after["step"] == "run"
    assert GAME.legal_actions(after, seat) == [{"pass": True}]      # not connected yet
    assert any(e["code"] == "may_run" for e in events)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(after, seat, {"draw": True})
    assert err.value.code == "already_acted"
    ended, events = GAME.apply(after, seat, {"pass": True})
    assert ended["turn"] != seat and ended["step"] == "act"
    assert any(e["code"] == "turn_end" for e in events)
    with pytest.raises(IllegalAction) as err:                       # no run before acting
        GAME.apply(with_route, seat, {"run": ["Berlin", "Munich"]})
    assert err.value.code == "not_now"


def test_a_run_follows_the_players_own_routes_from_start_to_target_once_per_city():
    s, seat = berlin_rome(seat_routes=("Berlin-Munich", "Munich-Vienna", "Vienna-Rome",
                                       "Munich-Prague", "Berlin-Prague"))
    bad = {("Rome", "Vienna", "Munich", "Berlin"): "wrong_ends",
           ("Berlin", "Prague", "Munich", "Berlin", "Munich", "Vienna", "Rome"): "city_twice",
           ("Berlin", "Munich", "Milan", "Rome"): "not_your_route",
           ("Berlin", "Rome"): "not_your_route"}
    for path, code in bad.items():
        with pytest.raises(IllegalAction) as err:
            GAME.apply(s, seat, {"run": list(path)})
        assert err.value.code == code, path
    legal = [a["run"] for a in GAME.legal_actions(s, seat) if "run" in a]
    assert sorted(legal) == sorted([["Berlin", "Munich", "Vienna", "Rome"],
                                    ["Berlin", "Prague", "Munich", "Vienna", "Rome"]])
    other = position(s, owners={route(s, "Vienna", "Rome"): 1 - seat})
    assert [a for a in GAME.legal_actions(other, seat) if "run" in a] == []


def test_the_seeds_worked_example_x_h_z_z_gives_minus_so_no_win():
    """The design description's example: Berlin→Munich (X), Munich→Vienna (H), Vienna→Rome
    (Z, length 2) on |0⟩: X·H·Z·Z = |−⟩, not |1⟩ — fidelity ½, the player does not win."""
    s = table(options={"map": tiny_map()})
    seat = s["turn"]
    s = position(s, step="run", owners={0: seat, 1: seat, 2: seat},
                 missions={seat: mission(s, "T1")})
    after, events = GAME.apply(s, seat, {"run": ["Berlin", "Munich", "Vienna", "Rome"]})
    run = next(e for e in events if e["type"] == "run")
    assert run["gates"] == ["X", "H", "Z", "Z"] and run["q0"] == "|−⟩"
    assert run["fidelity"] == pytest.approx(0.5) and not after["finished"]


# --- the register ---------------------------------------------------------------------

def run_on_tiny(gate: str, length: int, initial: str, target: str, qubits: int) -> dict:
    m = tiny_map()
    m["routes"] = [{"a": "Berlin", "b": "Rome", "gate": gate, "length": length},
                   {"a": "Berlin", "b": "Munich", "gate": "X", "length": 1},
                   {"a": "Munich", "b": "Rome", "gate": "H", "length": 1},
                   {"a": "Munich", "b": "Vienna", "gate": "CNOT", "length": 1},
                   {"a": "Vienna", "b": "Rome", "gate": "H", "length": 1}]
    m["missions"] = [{"id": "P", "start": "Berlin", "target": "Munich", "initial_state": "0",
                      "target_state": "1", "qubits": 1, "level": "basic"},
                     {"id": "Q", "start": "Munich", "target": "Berlin", "initial_state": "1",
                      "target_state": "0", "qubits": 1, "level": "basic"}]
    s = table(options={"map": m})
    seat = s["turn"]
    test_mission = {"id": "P", "start": "Berlin", "target": "Rome", "initial_state": initial,
                    "target_state": target, "qubits": qubits,
                    "level": "advanced" if qubits == 2 else "basic"}
    s = position(s, step="run", owners={0: seat}, missions={seat: test_mission})
    _, events = GAME.apply(s, seat, {"run": ["Berlin", "Rome"]})
    return next(e for e in events if e["type"] == "run")


def test_a_one_qubit_mission_compares_q0s_reduced_state_so_cnot_on_a_superposition_spoils():
    assert run_on_tiny("CNOT", 1, "+", "+", 1)["fidelity"] == pytest.approx(0.5)
    assert run_on_tiny("CNOT", 1, "+", "+", 1)["q0"] is None          # entangled
    assert run_on_tiny("CNOT", 2, "+", "+", 1)["match"]               # CNOT·CNOT = I
    assert run_on_tiny("CNOT", 1, "1", "1", 1)["match"]               # q1 flipped, q0 still |1⟩
    assert run_on_tiny("CNOT", 1, "0", "0", 1)["match"]


def test_a_two_qubit_mission_compares_the_whole_register_q1_starting_in_zero():
    assert run_on_tiny("CNOT", 1, "1", "11", 2)["match"]
    assert not run_on_tiny("CNOT", 1, "1", "10", 2)["match"]
    assert run_on_tiny("I", 1, "1", "10", 2)["match"]
    bell = run_on_tiny("CNOT", 1, "+", "Phi+", 2)
    assert bell["match"] and bell["ket"] == "(|00⟩+|11⟩)/√2"
    assert run_on_tiny("CNOT", 3, "-", "Phi-", 2)["match"]            # length 3 = one CNOT


def test_a_match_ignores_global_phase_and_needs_fidelity_one():
    y = run_on_tiny("Y", 1, "0", "1", 1)                              # Y|0⟩ = i|1⟩
    assert y["match"] and y["fidelity"] == 1.0
    assert run_on_tiny("Y", 1, "+", "-", 1)["match"]                  # Y|+⟩ = −i|−⟩
    assert not run_on_tiny("H", 1, "0", "1", 1)["match"]              # ½ is not a match
    assert run_on_tiny("Z", 2, "+", "+", 1)["match"]                  # Z² = I


# --- the end ----------------------------------------------------------------------------

def test_when_the_pile_empties_everyone_has_one_last_turn_then_the_longest_claims_win():
    s = table(players=3, seed=9)
    order = s["order"]
    first, second, third = order
    long_route = route(s, "Budapest", "Kyiv")             # H, length 4
    short = route(s, "Berlin", "Munich")                  # H, length 1
    s = position(s, seat=first, pile=["X", "Y"], hands={second: ["H"] * 4, third: ["H"]})
    s, events = GAME.apply(s, first, {"draw": True})      # empties the pile
    assert any(e["code"] == "last_round" for e in events)
    assert s["final_round"] and s["last_turns"] == [second, third, first]
    assert not GAME.legal_actions(s, second).count({"draw": True})
    s, _ = GAME.apply(s, second, {"claim": long_route})
    s, _ = GAME.apply(s, second, {"pass": True})          # its run step: end the turn
    assert s["turn"] == third
    s, _ = GAME.apply(s, third, {"claim": short})
    s, _ = GAME.apply(s, third, {"pass": True})
    assert s["turn"] == first and not s["finished"]
    actions = GAME.legal_actions(s, first)
    s, _ = GAME.apply(s, first, actions[0])
    if not s["finished"]:
        s, _ = GAME.apply(s, first, {"pass": True})
    out = GAME.outcome(s)
    assert s["finished"] and out["reason"] == "pile_empty"
    assert out["scores"][second] == 4 and out["winners"] == [second]


def test_equal_longest_claims_share_the_win():
    s = table(players=2, seed=10)
    a, b = s["order"]
    s = position(s, seat=b, pile=[], hands={b: []},
                 owners={route(s, "Berlin", "Munich"): a, route(s, "Vienna", "Rome"): b})
    s["final_round"], s["last_turns"] = True, [b]
    s, _ = GAME.apply(s, b, {"pass": True})               # cannot act
    s, _ = GAME.apply(s, b, {"pass": True})               # run step: end the turn
    out = GAME.outcome(s)
    assert out["reason"] == "pile_empty" and out["winners"] == [0, 1]
    assert out["scores"] == [1, 1]


def test_when_nobody_can_draw_or_claim_the_game_ends_by_claimed_length():
    s = table(players=2, seed=11)
    a, b = s["order"]
    every = {r: a for r in range(len(s["owners"]))}
    every[route(s, "Vienna", "Rome")] = None
    s = position(s, seat=a, owners=every, hands={a: ["X"] * 12, b: ["X"] * 12})
    s, _ = GAME.apply(s, a, {"pass": True})
    s, events = GAME.apply(s, a, {"pass": True})
    assert s["finished"] and GAME.outcome(s)["reason"] == "blocked"
    assert GAME.outcome(s)["winners"] == [a]


# --- secrets ----------------------------------------------------------------------------

def test_missions_and_hands_are_secret_until_the_end():
    s = table(players=3, seed=12)
    for seat in range(3):
        view = GAME.view(s, seat)
        assert view["mission"] == s["missions"][seat] and view["hand"] == s["hands"][seat]
        for row in view["seats"]:
            assert row["mission"] == (s["missions"][seat] if row["seat"] == seat else None)
            assert row["cards"] == len(s["hands"][row["seat"]])
        dealt = [e for e in view["events"] if e["type"] == "mission"]
        assert [e["seat"] for e in dealt] == [seat]
    spectator = GAME.view(s, None)
    assert spectator["hand"] is None and spectator["mission"] is None
    assert all(r["mission"] is None for r in spectator["seats"])
    assert not any(e["type"] in ("mission", "drew") for e in spectator["events"])
    won, seat = berlin_rome(seed=12)
    after, _ = GAME.apply(won, seat, {"run": ["Berlin", "Munich", "Vienna", "Rome"]})
    for viewer in (None, 0, 1):
        assert [r["mission"] for r in GAME.view(after, viewer)["seats"]] == after["missions"]


def test_a_failed_run_shows_nothing_to_the_others_but_the_end_of_the_turn():
    s, seat = berlin_rome(seat_routes=("Berlin-Munich", "Munich-Vienna", "Vienna-Budapest",
                                       "Budapest-Belgrade", "Rome-Belgrade"))
    ran, _ = GAME.apply(s, seat, {"run": ["Berlin", "Munich", "Vienna", "Budapest",
                                          "Belgrade", "Rome"]})
    passed, _ = GAME.apply(s, seat, {"pass": True})
    other = 1 - seat
    assert GAME.view(ran, other) == GAME.view(passed, other)
    assert GAME.view(ran, None) == GAME.view(passed, None)
    assert GAME.view(ran, seat) != GAME.view(passed, seat)
    assert GAME.view(ran, seat)["runs"][0]["fidelity"] == pytest.approx(0.5)


# --- previews and analysis ----------------------------------------------------------------

def test_a_run_preview_shows_the_register_after_each_route_along_any_path_from_the_start():
    s, seat = berlin_rome(seat_routes=("Berlin-Munich",))
    p = GAME.preview(s, seat, {"run": ["Berlin", "Munich", "Vienna"]})
    assert p["kind"] == "run" and p["owned"] == [True, False] and not p["complete"]
    assert [step["q0"] for step in p["trace"]["steps"]] == ["|+⟩", "|−⟩"]
    assert [step["bloch"] for step in p["trace"]["steps"]] == [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]]
    full = GAME.preview(s, seat, {"run": ["Berlin", "Munich", "Vienna", "Rome"]})
    assert full["complete"] and full["trace"]["match"] and not full["runnable"]
    start = GAME.preview(s, seat, {"run": ["Berlin"]})
    assert start["trace"]["ket"] == "|00⟩" and start["trace"]["bloch"] == [0.0, 0.0, 1.0]
    for bad in ({"run": ["Rome", "Vienna"]}, {"run": ["Berlin", "Rome", "Berlin"]},
                {"run": ["Berlin", "Athens"]}, {"run": []}, {"draw": True}, {"zz": 1}, None):
        with pytest.raises(IllegalAction):
            GAME.preview(s, seat, bad)
    assert GAME.view(s, seat)["run_paths"] == []        # nothing runnable yet


def test_an_entangling_step_shows_a_shorter_bloch_vector():
    s = table(variant="advanced", seed=3)
    seat = s["turn"]
    s = position(s, missions={seat: mission(s, "A08")})          # Vienna |+⟩ → Rome |Φ+⟩
    p = GAME.preview(s, seat, {"run": ["Vienna", "Budapest", "Bucharest"]})
    last = p["trace"]["steps"][-1]                             # X then CNOT on |+⟩|0⟩
    assert last["gate"] == "CNOT" and last["q0"] is None
    assert last["bloch"] == [0.0, 0.0, 0.0] and last["ket"] == "(|00⟩+|11⟩)/√2"


def test_the_teachers_analysis_gives_each_player_the_cheapest_remaining_cards():
    s = table(seed=0)
    seat = s["turn"]
    s = position(s, missions={seat: mission(s, "B01")}, hands={seat: ["H"]})
    row = GAME.analysis(s)["players"][seat]
    assert row["cards_needed"] == 3 and row["plan"]["cities"] == ["Berlin", "Munich", "Vienna",
                                                                   "Rome"]
    assert row["cards_missing"] == {"Z": 1, "H": 1}
    claimed = position(s, owners={route(s, "Berlin", "Munich"): seat})
    a = GAME.analysis(claimed)
    assert a["players"][seat]["cards_needed"] == 2 and a["claimed_length"][seat] == 1
    assert seat in a["closest"]
    blocked = position(s, owners={route(s, "Berlin", "Munich"): 1 - seat})
    assert GAME.analysis(blocked)["players"][seat]["cards_needed"] > 3
    assert set(GAME.analysis(s)) == {"claimed_length", "players", "closest", "teacher_only"}


def test_the_remembered_plans_give_the_analysis_a_fresh_search_gives_at_every_move():
    import random

    from games.engines.quantum_ticket_to_ride import analysis

    rng = random.Random(3)
    for seed in range(3):
        s = table(players=3, variant="mixed", seed=seed)
        while GAME.outcome(s) is None:
            remembered = GAME.analysis(s)
            analysis._PLANNED.clear()
            assert GAME.analysis(s) == remembered
            seat = GAME.to_act(s)[0]
            s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))


def test_every_event_carries_a_code_and_a_text():
    import random

    rng = random.Random(5)
    for seed in range(4):
        s = table(players=3, variant="mixed", seed=seed)
        events = list(s["events"])
        while GAME.outcome(s) is None:
            seat = GAME.to_act(s)[0]
            s, evs = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
            events += evs
        for e in events:
            assert isinstance(e["code"], str) and e["code"] and e["text"], e


def test_after_a_failed_run_a_twin_with_other_secrets_looks_the_same_to_every_other_seat():
    from tests.support.engines import ttr_twin

    s, seat = berlin_rome(seat_routes=("Berlin-Munich", "Munich-Vienna", "Vienna-Budapest",
                                       "Budapest-Belgrade", "Rome-Belgrade"))
    ran, _ = GAME.apply(s, seat, {"run": ["Berlin", "Munich", "Vienna", "Budapest",
                                          "Belgrade", "Rome"]})
    for viewer in (None, 1 - seat):
        other = ttr_twin(ran, viewer)
        assert other["runs"] != ran["runs"] and other["missions"][seat] != ran["missions"][seat]
        assert GAME.view(other, viewer) == GAME.view(ran, viewer)
    assert GAME.view(ttr_twin(ran, 1 - seat), seat) != GAME.view(ran, seat)

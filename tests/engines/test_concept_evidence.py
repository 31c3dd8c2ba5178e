"""Concept evidence (games/engines/base.py, "Concept evidence"): for every detector of every game
a position that triggers it and a close one that must not; and the strongest bot's moves, played
against the random bot, raise no misconception (a detector never judges a move that was good
for the game)."""
from __future__ import annotations

import random

import pytest

from games.bots import bot_levels
from games.engines import get_game


def codes(game, state, seat, action):
    """The evidence codes of ``seat`` playing ``action`` in ``state`` (applied for real)."""
    after, _ = game.apply(state, seat, action)
    return [e["code"] for e in game.concept_evidence(state, seat, action, after)], after


# --- QTris --------------------------------------------------------------------------------

QTRIS = get_game("qtris")


def board(**squares):
    spec: list = ["W"] * 9
    for k, v in squares.items():
        spec[int(k[1:]) - 1] = v
    return spec


def qtris(spec, hand, variant="basic", colors=("white", "black")):
    """Alice (seat 0) to play first, her hand ``hand`` and two I cards drawn from a deck of I."""
    players = 3 if variant == "eve" else 2
    return QTRIS.setup(players, variant, 1, {
        "board": spec, "hands": [list(hand)] + [["I"] * 4] * (players - 1), "first_seat": 0,
        "colors": list(colors), "skip_mulligan": True, "deck": ["I"] * 24})


def test_qtris_z_on_a_sure_colour_is_a_phase_misconception_only_when_a_better_play_was_there():
    found, _ = codes(QTRIS, qtris(board(s5="B"), ["Z", "X", "I", "I"]), 0, {"card": "Z", "squares": [5]})
    assert found == ["z_on_sure"]
    found, _ = codes(QTRIS, qtris(board(s5="B"), ["Z", "I", "I", "I"]), 0, {"card": "Z", "squares": [5]})
    assert found == []  # nothing in the hand could do better: no evidence


def test_qtris_cx_from_a_sure_control_is_an_entanglement_misconception_a_kitten_control_is_not():
    found, _ = codes(QTRIS, qtris(board(s1="B"), ["CX", "X", "I", "I"]), 0, {"card": "CX", "squares": [1, 2]})
    assert found == ["cx_sure_control"]
    found, _ = codes(QTRIS, qtris(board(s1="R"), ["CX", "X", "I", "I"]), 0, {"card": "CX", "squares": [1, 2]})
    assert "cx_sure_control" not in found


def test_qtris_h_on_a_kitten_reads_as_interference_by_the_colour_it_lands_on():
    found, _ = codes(QTRIS, qtris(board(s5="L"), ["H", "Z", "I", "I"]), 0, {"card": "H", "squares": [5]})
    assert found == ["h_back_to_theirs"]      # |−⟩ → |1⟩: black for sure, White's loss
    found, _ = codes(QTRIS, qtris(board(s5="R"), ["H", "Z", "I", "I"]), 0, {"card": "H", "squares": [5]})
    assert found == ["h_kitten_to_mine"]      # |+⟩ → |0⟩: white for sure
    found, _ = codes(QTRIS, qtris(board(s5="W"), ["H", "Z", "I", "I"]), 0, {"card": "H", "squares": [5]})
    assert found == []                        # a sure colour made a kitten: not this detector


def test_qtris_z_then_h_on_a_kitten_shows_phase():
    state = qtris(board(s5="R"), ["Z", "H", "I", "I"], colors=("black", "white"))
    found, state = codes(QTRIS, state, 0, {"card": "Z", "squares": [5]})
    assert found == []
    found, _ = codes(QTRIS, state, 0, {"card": "H", "squares": [5]})
    assert found == ["h_after_z"]
    found, _ = codes(QTRIS, qtris(board(s5="L"), ["H", "I", "I", "I"], colors=("black", "white")), 0,
                     {"card": "H", "squares": [5]})
    assert found == ["h_kitten_to_mine"]      # the same kitten with no Z before: not the phase story


def test_qtris_a_bell_pair_that_raises_the_chances_shows_entanglement():
    spec = board(s1="R", s3="B", s5="B", s9="B")
    found, _ = codes(QTRIS, qtris(spec, ["CX", "I", "I", "I"]), 0, {"card": "CX", "squares": [1, 5]})
    assert found == ["bell_pair"]
    found, _ = codes(QTRIS, qtris(spec, ["CX", "I", "I", "I"]), 0, {"card": "CX", "squares": [1, 2]})
    assert found == []                        # a pair too, but White's chances did not go up


def test_qtris_a_gate_that_leaves_a_mixture_as_it_was_is_a_noise_misconception():
    spec = board(s1="B", s5=["W", "B"])
    found, _ = codes(QTRIS, qtris(spec, ["X", "X", "I", "I"], variant="noise"), 0, {"card": "X", "squares": [5]})
    assert found == ["gate_on_mixture"]
    spec = board(s1="B", s5=["W", "B", "B", "B"])
    found, _ = codes(QTRIS, qtris(spec, ["X", "X", "I", "I"], variant="noise"), 0, {"card": "X", "squares": [5]})
    assert found == []                        # ¼ → ¾: the gate did change the chances


def test_qtris_eve_measuring_where_the_outcome_is_certain_is_a_measurement_misconception():
    state = qtris(board(s2="B"), ["I", "I", "I", "I"], variant="eve", colors=("white", "black", "white"))
    state, _ = QTRIS.apply(state, 0, {"card": "I"})          # Alice's one play: Eve's turn
    eve = QTRIS.to_act(state)[0]
    state["hands"][1] = ["X", "X", "X"]
    found, _ = codes(QTRIS, state, eve, {"eve_measure": {"squares": [5], "basis": "color"}, "discard": ["X", "X"]})
    assert found == ["certain_measurement"]
    found, _ = codes(QTRIS, state, eve, {"eve_measure": {"squares": [5], "basis": "left-right"}, "discard": ["X", "X"]})
    assert found == []


# --- the strongest bot raises no misconception ---------------------------------------------

# strong-bot-vs-random games per game (the strong QTris bot values all 512 boards of every play:
# fewer of its games keep the suite fast)
STRONG_GAMES = {"qtris": 10, "quantum-ticket-to-ride": 20, "entanglion": 30, "quantum-poker": 30,
                "quantum-tictactoe": 30}

# options of the i-th game (physics mode in every other poker game)
STRONG_OPTIONS = {"quantum-poker": lambda i: {"physics_mode": i % 2 == 1}}


def strong_moves(slug: str, games: int, seed: int = 0):
    """``(state, seat, action, after)`` of every move of the game's best bot in ``games``
    games against the random bot (the variants in turn, the best bot in every seat in turn)."""
    game = get_game(slug)
    bots = bot_levels(slug)
    strong, weak = list(bots.values())[-1], bots["random"]
    for i in range(games):
        variant = game.variants[i % len(game.variants)]
        players = game.player_range(variant)[0]
        options = STRONG_OPTIONS[slug](i) if slug in STRONG_OPTIONS else {}
        state = game.setup(players=players, variant=variant, seed=seed + i, options=options)
        rng = random.Random(f"evidence:{slug}:{seed + i}")
        best = i % players
        for _ in range(3000):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            bot = strong if seat == best else weak
            action = bot.choose(game.view(state, seat), game.legal_actions(state, seat), rng)
            after, _ = game.apply(state, seat, action)
            if bot is strong:
                yield state, seat, action, after
            state = after


@pytest.mark.parametrize("slug", sorted(STRONG_GAMES))
def test_the_strongest_bots_moves_raise_no_misconception(slug):
    game = get_game(slug)
    judged = 0
    for before, seat, action, after in strong_moves(slug, STRONG_GAMES[slug]):
        wrong = [e for e in game.concept_evidence(before, seat, action, after) if e["kind"] == "misconception"]
        assert not wrong, (before.get("variant"), seat, action, wrong)
        judged += 1
    assert judged


# --- Quantum Ticket-to-Ride ---------------------------------------------------------------

TICKET = get_game("quantum-ticket-to-ride")
ROUTES = [("A", "B", "H"), ("B", "C", "Z"), ("C", "D", "H"), ("A", "E", "X"), ("B", "E", "CNOT")]
TICKET_MAP = {
    "name": "Evidence", "description": "For tests.",
    "cities": [{"name": c, "x": 100 * i, "y": 100 + 50 * (i % 2)} for i, c in enumerate("ABCDE")],
    "routes": [{"a": a, "b": b, "gate": g, "length": 1} for a, b, g in ROUTES],
    "missions": [
        {"id": "M1", "start": "A", "target": "E", "initial_state": "0", "target_state": "1", "qubits": 1, "level": "basic"},
        {"id": "M2", "start": "A", "target": "B", "initial_state": "0", "target_state": "+", "qubits": 1, "level": "intermediate"},
        {"id": "M3", "start": "A", "target": "E", "initial_state": "0", "target_state": "Phi+", "qubits": 2, "level": "advanced"},
    ],
}


def ticket_run(path: str, goal: str, initial: str = "0"):
    """Seat 0 owns every route and runs ``path`` (cities) for a mission ``initial`` → ``goal``."""
    state = TICKET.setup(players=2, variant="mixed", seed=0, options={"map": TICKET_MAP})
    state["turn"], state["step"] = 0, "run"
    state["owners"] = [0] * len(ROUTES)
    state["missions"][0] = {"id": "X", "start": path[0], "target": path[-1], "initial_state": initial,
                            "target_state": goal, "qubits": 2 if len(goal) > 1 else 1, "level": "advanced"}
    found, _ = codes(TICKET, state, 0, {"run": list(path)})
    return found


def test_ticket_a_run_off_by_a_sign_is_a_phase_misconception_the_right_sign_shows_phase():
    assert ticket_run("ABC", "+") == ["phase_miss"]                 # H → Z: |−⟩, not |+⟩
    assert ticket_run("ABC", "-") == ["phase_used", "superposed_goal"]


def test_ticket_a_cnot_on_a_superposed_mission_qubit_is_an_entanglement_misconception_unless_the_goal_is_a_bell_state():
    assert ticket_run("ABE", "+") == ["entangled_miss"]             # H → CNOT: q0 entangled
    assert ticket_run("ABE", "Phi+") == ["bell_goal"]


def test_ticket_a_superposition_for_a_value_is_a_superposition_misconception():
    assert ticket_run("AB", "1") == ["superposition_miss"]          # H: |+⟩, fidelity ½ with |1⟩
    assert ticket_run("AB", "+") == ["superposed_goal"]
    assert ticket_run("AB", "-") == ["phase_miss"]                  # |+⟩ for |−⟩: a sign, not a value


def test_ticket_a_run_through_a_superposition_back_to_a_value_shows_interference():
    assert ticket_run("ABCD", "1") == ["phase_used", "interference"]   # H → Z → H = X
    assert ticket_run("AE", "1") == []                                 # X alone: no superposition on the way


# --- Entanglion ---------------------------------------------------------------------------

ENTANGLION = get_game("entanglion")


def entanglion(mercurial: str, rubicon: str, card: str, seat: int = 0):
    """The evidence of ``seat`` playing ``card`` with the ships on those planets."""
    hands = [[card, "X", "H"], ["X", "H", "H"]] if seat == 0 else [["X", "H", "H"], [card, "X", "H"]]
    state = ENTANGLION.setup(players=2, variant="easy", seed=3, options={
        "ships": {"mercurial": mercurial, "rubicon": rubicon}, "hands": hands, "first": seat})
    return codes(ENTANGLION, state, seat, {"play": card})[0]


def test_entanglion_cnot_from_centarious_with_the_control_in_superious_shows_entanglement():
    assert entanglion("ZERO", "PLUS", "CNOT") == ["cnot_entry"]
    assert entanglion("ZERO", "ONE", "CNOT") == []        # a classical flip: no entanglement
    assert entanglion("PLUS", "ZERO", "CNOT") == []       # the Superious ship cannot enter


def test_entanglion_cnot_on_a_bell_planet_shows_entanglement_undone():
    assert entanglion("PHI PLUS", "PHI PLUS", "CNOT") == ["cnot_exit"]
    assert entanglion("OMEGA ONE", "OMEGA ONE", "CNOT") == []   # no CNOT path from OMEGA ONE


def test_entanglion_h_toward_superious_beside_a_centarious_ship_shows_superposition():
    assert entanglion("ZERO", "ONE", "H") == ["h_prepares_entry"]
    assert entanglion("ZERO", "PLUS", "H") == []          # the other ship is not waiting in Centarious


def test_entanglion_h_inside_moves_the_whole_pair():
    assert entanglion("PHI PLUS", "PHI PLUS", "H") == ["h_inside"]    # → OMEGA TWO
    assert entanglion("PHI PLUS", "PHI PLUS", "X") == []              # X: a path, but no H


def test_entanglion_swap_between_omega_zero_and_three_shows_entanglement():
    assert entanglion("OMEGA ZERO", "OMEGA ZERO", "SWAP", seat=1) == ["swap_omega"]
    assert entanglion("PHI PLUS", "PHI PLUS", "SWAP", seat=1) == []  # SWAP leaves Φ+ as it is


# --- QuantumPoker -------------------------------------------------------------------------

POKER = get_game("quantum-poker")


def poker(cards, mine, theirs, physics=True, variant="classic", shown_theirs=None):
    """A hand rigged with these community cards; seat 1 (to act first) holds ``mine``, seat 0
    ``theirs`` (hidden unless ``shown_theirs``)."""
    state = POKER.setup(players=2, variant=variant, seed=1, options={"physics_mode": physics})
    hand = state["hand"]
    hand["community"] = [{"id": f"t{i}", "kind": k, "taken_by": None, "order": None} for i, k in enumerate(cards)]
    for seat, values in ((1, mine), (0, theirs)):
        for q, v in zip(hand["qubits"][seat], values, strict=True):
            q["value"] = q["initial"] = v
            if "amps" in q:
                q["amps"] = [[1.0, 0.0], [0.0, 0.0]] if v == 0 else [[0.0, 0.0], [1.0, 0.0]]
    for q, f in zip(hand["qubits"][0], shown_theirs or [False] * 4, strict=True):
        q["shown"] = q["public_known"] = f
    return state


def poker_plays(state, *plays):
    """Apply ``(card, target seat, qubit)`` plays; the evidence codes of the last one."""
    found: list = []
    for card, seat, qubit in plays:
        actor = POKER.to_act(state)[0]
        found, state = codes(POKER, state, actor, {"card": card, "target": {"seat": seat, "qubit": qubit}})
    return found


def test_poker_h_that_undoes_h_on_the_last_card_is_an_interference_misconception():
    state = poker(["H", "X", "H"], [0, 0, 1, 1], [1, 0, 0, 0], shown_theirs=[True] * 4)
    assert poker_plays(state, (0, 1, 0), (1, 0, 1), (2, 1, 0)) == ["h_undoes_h"]   # |+⟩ → |0⟩: a tie
    state = poker(["H", "X", "H"], [0, 0, 1, 1], [1, 0, 0, 0], shown_theirs=[True] * 4)
    assert poker_plays(state, (0, 1, 0), (1, 0, 1), (2, 1, 1)) == ["h_on_sure_zero"]   # H on the other 0: the better play
    state = poker(["H", "X", "H", "Z"], [0, 0, 1, 1], [1, 0, 0, 0], shown_theirs=[True] * 4)
    assert poker_plays(state, (0, 1, 0), (1, 0, 1), (2, 1, 0)) == []    # a card is still to come


def test_poker_h_on_a_minus_shows_phase_in_physics_mode_only():
    plays = ((0, 1, 0), (1, 0, 1), (2, 1, 0), (3, 0, 2), (4, 1, 0))    # H → Z → H on seat 1's card
    assert poker_plays(poker(["H", "X", "Z", "X", "H"], [0, 0, 0, 0], [1, 0, 0, 0]), *plays) == ["h_on_minus"]
    assert poker_plays(poker(["H", "X", "Z", "X", "H"], [0, 0, 0, 0], [1, 0, 0, 0], physics=False), *plays) == []


def test_poker_x_on_a_superposed_card_is_a_phase_misconception_when_a_zero_was_there_to_flip():
    state = poker(["H", "X", "X"], [0, 0, 0, 0], [0, 0, 0, 0], physics=False, shown_theirs=[True] * 4)
    assert poker_plays(state, (0, 1, 0), (1, 0, 3), (2, 1, 0)) == ["x_on_superposed"]
    state = poker(["H", "X", "X"], [0, 0, 0, 0], [0, 0, 0, 0], physics=False, shown_theirs=[True] * 4)
    assert poker_plays(state, (0, 1, 0), (1, 0, 3), (2, 1, 1)) == []


def test_poker_cx_on_a_superposed_opponent_card_is_a_phase_misconception_beside_a_known_one():
    cards, theirs, shown = ["X", "H", "CX"], [0, 1, 1, 1], [False, True, True, True]
    state = poker(cards, [1, 1, 1, 0], theirs, physics=False, shown_theirs=shown)
    assert poker_plays(state, (0, 1, 3), (1, 0, 0), (2, 0, 0)) == ["cx_on_superposed"]
    state = poker(cards, [1, 1, 1, 0], theirs, physics=False, shown_theirs=shown)
    assert poker_plays(state, (0, 1, 3), (1, 0, 0), (2, 0, 1)) == []


def test_poker_h_on_a_sure_zero_shows_superposition():
    assert poker_plays(poker(["H", "X"], [0, 1, 1, 1], [0, 0, 0, 0]), (0, 1, 0)) == ["h_on_sure_zero"]
    assert poker_plays(poker(["H", "X"], [0, 1, 1, 1], [0, 0, 0, 0]), (0, 1, 1)) == []


def test_poker_declaring_with_the_odds_ahead_shows_measurement():
    state = poker(["X", "X", "X"], [1, 1, 1, 1], [0, 0, 0, 0], variant="declared")
    assert codes(POKER, state, 1, {"declare": True})[0] == ["declare_ahead"]
    state = poker(["X", "X", "X"], [0, 0, 0, 0], [0, 0, 0, 0], variant="declared")
    assert codes(POKER, state, 1, {"declare": True})[0] == []


def showdown_chips_by_every_value(view, seat, changed, gate, physics):
    """The expected chips of ``seat`` by the cards' values one by one (2^n outcomes): the
    independent count that ``evidence._chips`` (by the players' counts) must match."""
    from games.engines.quantum_poker import evidence as ev

    cards = []
    for s in view["seats"]:
        if s["in_hand"]:
            for q in s["qubits"]:
                card, bet = ev._card(q, physics), q["bet"]
                if changed == (s["seat"], q["slot"]):
                    card, bet = ev._after(card, gate, physics), (2 if bet == 1 else 1) if gate == "Z" else bet
                cards.append((s["seat"], ev._p1(card), bet))
    unsure = [i for i, (_, p, _) in enumerate(cards) if 0 < p < 1]
    if len(unsure) > 12:
        return None  # (too many to count: no claim)
    total = 0.0
    for bits in range(1 << len(unsure)):
        ones = {i for i, (_, p, _) in enumerate(cards) if p == 1} | {i for k, i in enumerate(unsure) if bits >> k & 1}
        counts: dict[int, int] = {}
        for i, (owner, _, bet) in enumerate(cards):
            counts[owner] = counts.get(owner, 0) + (bet if i in ones else 0)
        winners = [o for o, c in counts.items() if c == max(counts.values())]
        if view["options"].get("whole_pot"):
            got = view["pot"] / len(winners) if seat in winners else 0.0
        elif seat in winners:
            got = sum(b for o, _, b in cards if o == seat) + sum(
                b for i, (o, _, b) in enumerate(cards) if o not in winners and i in ones) / len(winners)
        else:
            got = sum(b for i, (o, _, b) in enumerate(cards) if o == seat and i not in ones)
        total += 0.5 ** len(unsure) * got
    return total


@pytest.mark.parametrize("seed", range(4))
def test_poker_expected_chips_match_a_count_over_every_card_value(seed):
    from games.engines.quantum_poker import evidence as ev

    rng = random.Random(seed)
    kinds = {"0": {"known": True, "value": 0}, "1": {"known": True, "value": 1}, "S": {"superposed": True},
             "?": {}, "+": {"state": "|+⟩"}, "-": {"state": "|−⟩"}}
    for _ in range(60):
        physics = rng.random() < 0.5
        seats = []
        for n in range(rng.randint(2, 4)):
            qubits = [{"slot": k, "bet": rng.choice([1, 1, 2]), "known": False, "value": None, "superposed": False,
                       "state": None, **kinds[rng.choice(list(kinds))]} for k in range(rng.randint(2, 4))]
            seats.append({"seat": n, "in_hand": rng.random() < 0.85 or n == 0, "qubits": qubits})
        view = {"seats": seats, "pot": rng.randint(4, 30), "options": {"whole_pot": rng.random() < 0.3}}
        seat = rng.randrange(len(seats))
        target = (rng.randrange(len(seats)), rng.randint(0, 1))
        gate = rng.choice(["H", "X", "Y", "Z"])
        expected = showdown_chips_by_every_value(view, seat, target, gate, physics)
        got = ev._chips(view, seat, target, gate, physics)
        assert got == (None if expected is None else pytest.approx(expected, abs=1e-12))


# --- Quantum tic-tac-toe ------------------------------------------------------------------

TICTACTOE = get_game("quantum-tictactoe")


def tictactoe(history: str, last: dict, square_to_o: int | None = None):
    """The evidence of ``last`` after the moves of ``history`` (the engine's notation), with
    ``square_to_o``'s classical mark made O's."""
    from games.engines.quantum_tictactoe import actions_from_history

    state = TICTACTOE.setup(seed=0)
    for seat, action in actions_from_history(history.split()):
        state, _ = TICTACTOE.apply(state, seat, action)
    if square_to_o:
        state["classical"][square_to_o - 1]["player"] = "O"
    return codes(TICTACTOE, state, TICTACTOE.to_act(state)[0], last)[0]


def test_tictactoe_a_collapse_read_as_a_measurement_chosen_for_or_against_oneself():
    history = "X1+(1,8) O2+(1,7) X3+(4,5) O4+(8,9) X5+(5,9) O6+(4,8)"
    assert tictactoe(history, {"collapse": 4}) == ["collapse_for_me"]
    assert tictactoe(history, {"collapse": 8}) == ["collapse_against_me"]
    assert tictactoe("X1+(1,2) O2+(2,5) X3+(1,5)", {"collapse": 5}) == []   # no line either way
    history = "X1+(5,6) O2+(6,9) X3+(5,7) O4+(3,7) X5+(4,9) O6+(3,6)"
    assert tictactoe(history, {"collapse": 6}) == ["collapse_against_me"]
    assert tictactoe(history, {"collapse": 3}) == ["collapse_for_me"]


def test_tictactoe_closing_a_cycle_that_hands_the_opponent_the_win_is_a_measurement_misconception():
    history = "X1+(8,9) O2+(1,2) X3+(6,7) O4+(7,8) X5+(3,8)"
    assert tictactoe(history, {"squares": [7, 9]}) == ["cycle_gift"]
    assert tictactoe(history, {"squares": [4, 5]}) == []          # no cycle: nothing to choose


def test_tictactoe_a_cycle_that_wins_whichever_way_it_collapses_shows_entanglement():
    history = "X1+(1,7) O2+(2,7) X3+(2,4) O4+(3,8)"
    assert tictactoe(history, {"squares": [1, 7]}) == ["cycle_either_way"]
    assert tictactoe(history, {"squares": [5, 6]}) == []


def test_tictactoe_a_spooky_mark_on_two_winning_squares_shows_superposition():
    history = "X1+(1,9) O2+(2,3) X3+(7,9) O4+(2,6) X5+(2,9) O6+(2,3) X@O6(3)"
    assert tictactoe(history, {"squares": [4, 8]}) == ["double_threat"]   # 1-4-7 and 7-8-9
    assert tictactoe(history, {"squares": [4, 8]}, square_to_o=1) == []  # 4 no longer completes a line


def test_tictactoe_a_spooky_mark_joining_two_entangled_groups_shows_entanglement():
    assert tictactoe("X1+(1,2) O2+(5,6)", {"squares": [2, 5]}) == ["links_groups"]
    assert tictactoe("X1+(1,2) O2+(5,6)", {"squares": [2, 4]}) == []    # 4 holds no spooky mark
    assert tictactoe("X1+(1,2) O2+(2,5)", {"squares": [1, 5]}) == []    # one group: closes a cycle

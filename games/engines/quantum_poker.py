"""QuantumPoker: poker with qubit cards and Pauli cards (rules: shared/rules/quantum-poker.md).

Pure Python, no Django. ``GAME`` implements the shared engine protocol (``games.engines.base``).

Settled choices (beyond the rules file)
---------------------------------------
* Seats are 0-based; "clockwise" is increasing seat number, so the dealer's left is
  ``(dealer + 1) % players``. Seat 0 deals the first hand; after each hand the dealer button
  moves to the next seat to the left that can still ante.
* X, Y, Z and H are applied to one of the mover's **own** qubit cards (the source: "a uno de sus
  qubits"); CX to a qubit card of **another** player; SWAP exchanges one own qubit card with
  one of another player's.
* Z with no chip in the owner's stack: the card is still applied (every community card must be
  applied) but the bet cannot be doubled, so it has no effect on the bet (in physics mode the
  real Z gate still acts on the qubit). Halving a doubled bet returns the chip from the pot to
  the stack of the qubit card's current owner (a SWAP carries the bet with the card).
* Ante is one chip per qubit card (4). A player with fewer than 4 chips when a hand is dealt
  sits out for the rest of the match (keeps the chips). The match ends after ``hands`` hands
  or as soon as fewer than two players can ante (so in particular when one holds all chips).
* Payout (the rulebook): the winner takes back the chips on their own qubit cards and collects
  the chips on the other players' cards that measured 1 (a doubled bet is two chips); the
  chips on the others' 0-cards go back to their holders. Equal highest scores each take back
  their own chips and share what is collected evenly; the remainder goes to the first tied
  player clockwise from the dealer, i.e. starting at the dealer's left (the dealer is last).
  The table option ``whole_pot`` pays the whole pot to the winner(s) instead.
* When H collapses a **hidden** superposed qubit card, the coin is flipped out of sight: only
  the owner learns the result (a private event). A shown card's coin is public.
* Declared mode: on their turn a player may declare measurement instead of taking a card,
  laying their cards face up at once (hidden ones become shown; superposed ones stay
  superposed); everyone, the declarer included, then has exactly one last turn (taking a card
  as usual, clockwise from the declarer's left, the declarer last); then showdown. If the
  community cards run out first, the showdown comes when the last card is applied. Untaken
  cards are then left unapplied.
* Perfect recall: each card keeps ``known_by``, the seats that can know its value from what
  they saw (its holders looked at it; X, Y, CX, Z and SWAP are public and followed). A first H
  in the simplified game erases it for everyone; a hidden coin flip leaves only the holder
  knowing; in physics mode H is a public unitary, so whoever knew the state still knows it.
* Simplified mode (default): H erases the value (superposed, no value at all); a second H
  collapses it by a coin flip. Physics mode (``physics_mode``): every qubit card is a real,
  independent qubit (state stored as amplitudes); X, Y, Z, H are the real gates (CX = X on
  another player's qubit, not a CNOT), Y also toggles visibility and Z also toggles the bet.
  H·H = I but H·Z·H = X and H·Y·H = −Y: the texts say which happened, never "the second H
  undoes the first" when a Z or Y came between; Y's phase is the real one (Y|0⟩ = i|1⟩,
  Y|1⟩ = −i|0⟩; the simplified game's "+i show / −i hide" is named as its mnemonic). The
  showdown measures by the Born rule. A qubit card is "superposed" when it is not in a basis
  state; then it shows no value to anyone.
* Next hand is dealt automatically right after a showdown (no decision exists between hands).

Options (``setup(..., options=...)``)
-------------------------------------
``community_cards`` int 1..10 (default 5), ``hands`` int 1..100 (default 5),
``starting_chips`` int 8..1000 (default 20), ``physics_mode`` bool (default False),
``whole_pot`` bool (default False: the rulebook payout).
Unknown keys or wrong types raise ``IllegalAction("bad_option", ...)``.

Actions (JSON objects; ints must be real ints, never bools)
-----------------------------------------------------------
* ``{"card": i, "target": {"seat": s, "qubit": q}}`` -- take untaken community card ``i`` and
  apply it to qubit card ``q`` (0..3) of seat ``s``. X/Y/Z/H: ``s`` must be the mover;
  CX: ``s`` must be another player in the hand.
* ``{"card": i, "own": q, "target": {"seat": s, "qubit": r}}`` -- SWAP card ``i``: exchange the
  mover's qubit card ``q`` with qubit card ``r`` of seat ``s`` (another player).
* ``{"declare": true}`` -- declared mode only: declare measurement instead of taking a card.
A card with no effect (X on a superposed qubit, ...) is still a legal play.

State (plain JSON dict; secret -- never send it to a client)
------------------------------------------------------------
``{"game", "variant", "options", "players", "seed", "actions" (applied so far),
"chips": [per seat, in the stack], "pot", "dealer", "hand": Hand, "results": [HandResult],
"history": [Hand of every finished hand], "events": [events of the last action],
"finished": bool}``.
Hand: ``{"number", "dealer", "in_hand": [bool per seat], "order": [seats, clockwise from the
dealer's left], "turn": seat|None, "qubits": [[QubitCard x4] per seat, [] if sitting out],
"community": [{"id", "kind", "taken_by", "order"}], "plays": [public log of plays],
"declared_by", "last_turns": [seats still owed a last turn], "phase": "play"|"over",
"result": HandResult|None}``.
QubitCard: ``{"id": "h<hand>-q<k>", "value": 0|1|None (None while superposed),
"shown", "bet": 1|2, "superposed", "initial": dealt value, "gates": ["X"|"Y"|"Z"|"H", ...]
(the real gates applied, CX recorded as "X"), "public_known": whether the table can deduce
the exact value/state, "known_by": [seats that can know it], and in physics mode
"amps": [[re, im], [re, im]]}``.
HandResult: ``{"hand", "dealer", "scores": [int|None per seat], "winners", "pot",
"collected", "payouts": [per seat], "values": [[0|1 x4]|None per seat],
"bets": [[1|2 x4]|None],
"declared_by"}``.

View (``view(state, seat)``; ``seat=None`` is the spectator view)
------------------------------------------------------------------
``{"game", "variant", "options", "physics_mode", "players", "seat", "hand" (number),
"hands" (total), "phase", "dealer", "turn", "to_act", "pot", "can_declare", "declared_by",
"last_turns", "seats": [{"seat", "chips", "in_hand", "sitting_out", "is_dealer", "qubits":
[{"id", "slot", "shown", "bet", "superposed", "value": 0|1|None, "known": bool,
"remembered": bool, and in physics mode "ket": str|None and "state": "|0⟩"|"|1⟩"|"|+⟩"|"|−⟩"|None
(the ket without its global phase)}]}],
"community": [{"index", "id", "kind", "taken_by", "order"}], "plays", "events",
"last_hand": {result + "cards": [[{"id", "value", "bet"}]] + "physics"}|None, "results", "finished",
"outcome"}``. ``value`` is given only when the card is not superposed and the seat can know it:
shown, its own, deducible by the whole table, or remembered (``remembered``: known only from
what this seat saw, e.g. a card it held and swapped away). ``ket`` (physics mode) is the state
of a card whose state the seat can follow, else None. No seed, no initial values, no phases
the seat could not follow.
``last_hand["physics"]`` (simplified mode only, else None) is the teaching point for the
*finished* hand, fixed at its showdown: ``{"hand", "differs", "seats": [{"seat", "score",
"physics_expected", "cards": [{"id", "slot", "dealt", "applied", "physics_p1", "physics_ket",
"value", "bet", "note"}]}|None]}`` -- what physics mode would have given for the same dealt
cards and plays (all of that hand's cards are revealed by then; nothing of the current hand).

Events: dicts with ``"type"`` and human ``"text"`` (1-based "Player 1", "qubit 1"; the
machine fields ``seat``/``qubit`` are 0-based). An event with ``"visible_to": [seats]`` is
private (the owner's hidden coin flip); ``view`` filters them, so broadcast views, not raw
events. Types: hand_start, sit_out, ante, community, play, declare, collapse, coin, showdown,
measure, score, pot, match_end.

Analysis (``analysis``): ``expected_public`` and ``p_win_public`` use only public knowledge;
``expected_exact``, ``p_win``, ``p_split``, ``qubits`` (p1, kets) and
``physics_counterfactual`` are teacher-only (listed under ``"teacher_only"``).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

import quantum

from .base import (
    Abilities,
    Action,
    Event,
    IllegalAction,
    State,
    chance,
    clone,
    event,
    events_for,
    gettext_noop,
    is_int,
    message,
    moment,
    render_text,
)

SLUG = "quantum-poker"
QUBITS_PER_PLAYER = 4
ANTE = QUBITS_PER_PLAYER
QUBIT_DECK = 20
PAULI_KINDS = ("X", "Y", "Z", "H", "CX", "SWAP")
PAULI_COPIES = 8
OWN_KINDS = ("X", "Y", "Z", "H")
DEFAULT_OPTIONS: dict[str, Any] = {
    "community_cards": 5,
    "hands": 5,
    "starting_chips": 20,
    "physics_mode": False,
    "whole_pot": False,
}
OPTION_RANGES = {"community_cards": (1, 10), "hands": (1, 100), "starting_chips": (8, 1000)}
EPS = 1e-9


# --------------------------------------------------------------------------- small helpers

def _player(seat: int) -> dict:
    """"Player 1" as a translatable event parameter."""
    return message("player", number=seat + 1)


def _qubit_of(actor: int, owner: int, qubit: int) -> dict:
    """"their qubit 2" / "Player 3's qubit 2" as a translatable event parameter."""
    if actor == owner:
        return message("their_qubit", qubit=qubit + 1)
    return message("players_qubit", player=_player(owner), qubit=qubit + 1)


def _coin(heads: bool, value: int) -> dict:
    return message("coin_outcome", side=message("heads" if heads else "tails"), value=value)


# The texts of the events (see games/engines/base.py): code -> English msgid.
EVENT_TEXTS = {
    "player": gettext_noop("Player %(number)s"),
    "their_qubit": gettext_noop("their qubit %(qubit)s"),
    "players_qubit": gettext_noop("%(player)s's qubit %(qubit)s"),
    "heads": gettext_noop("heads"),
    "tails": gettext_noop("tails"),
    "coin_outcome": gettext_noop("%(side)s → %(value)s"),
    "declare": gettext_noop("%(player)s declares measurement and lays their cards face up (superposed "
                            "ones stay superposed): everyone, %(player)s included, gets one last "
                            "turn, starting at %(first)s; then showdown."),
    "hand_start": gettext_noop("Hand %(hand)s: %(dealer)s deals 4 qubit cards face down to each player."),
    "sit_out": gettext_noop("%(player)s has fewer than %(ante)s chips and sits out."),
    "ante": gettext_noop("%(player)s puts one chip on each qubit card (%(ante)s chips)."),
    "community": gettext_noop("Community Pauli cards revealed: %(cards)s."),
    "turn": gettext_noop("%(player)s to play."),
    "last_turn": gettext_noop("%(player)s: last turn."),
    "swap": gettext_noop("%(player)s applied SWAP: their qubit %(own)s and %(target)s change places "
                         "(value, visibility, bet and superposition go with the cards)."),
    "play": gettext_noop("%(player)s applied %(gate)s to %(target)s: %(effect)s"),
    "cx_is_x": gettext_noop("CX in this game is an X on another player's card, not a two-qubit "
                            "CNOT: %(effect)s"),
    "x_superposed_physics": gettext_noop("X on a superposed qubit does nothing (X|+⟩ = |+⟩, "
                                         "X|−⟩ = −|−⟩: at most a global sign)."),
    "x_flip_physics": gettext_noop("the value flips (X|0⟩ = |1⟩, X|1⟩ = |0⟩)."),
    "x_superposed": gettext_noop("X on a superposed qubit does nothing."),
    "x_flip": gettext_noop("the value flips."),
    "now_shown": gettext_noop("now shown"),
    "now_hidden": gettext_noop("now hidden"),
    "mnemonic_show": gettext_noop("(the simplified game's mnemonic calls this +i, show)"),
    "mnemonic_hide": gettext_noop("(the simplified game's mnemonic calls this −i, hide)"),
    "y_superposed_physics": gettext_noop("it is %(vis)s %(mnemonic)s; the real Y turns |+⟩ into "
                                         "−i|−⟩ and |−⟩ into i|+⟩: the phase "
                                         "between |0⟩ and |1⟩ flips."),
    "y_flip_physics": gettext_noop("the value flips, Y|0⟩ = i|1⟩ and Y|1⟩ = −i|0⟩ "
                                   "(a phase ±i on the amplitude), and it is %(vis)s %(mnemonic)s."),
    "now_shown_i": gettext_noop("now shown (+i)"),
    "now_hidden_i": gettext_noop("now hidden (−i)"),
    "y_superposed": gettext_noop("on a superposed qubit only the visibility toggles: %(vis)s."),
    "y_flip": gettext_noop("the value flips and it is %(vis)s."),
    "z_note_superposed": gettext_noop(" The real Z turns |+⟩ into |−⟩ and |−⟩ "
                                      "into |+⟩: that phase decides what a later H gives."),
    "z_note_basis": gettext_noop(" The real Z leaves |0⟩ and |1⟩ as they are "
                                 "(Z|1⟩ = −|1⟩, only a sign)."),
    "z_halve": gettext_noop("the bet is halved; the bet travels with the card, so the chip goes back "
                            "to its current owner, %(owner)s's stack.%(note)s"),
    "z_double": gettext_noop("the bet is doubled (one more chip into the pot).%(note)s"),
    "z_no_chip": gettext_noop("no chip left in %(owner)s's stack to double the bet, so the bet "
                              "stays normal.%(note)s"),
    "hh_identity": gettext_noop("H·H = I: a second H with nothing between restores the value"),
    "hh_flips": gettext_noop("%(law)s: %(what)s between two H flips the value"),
    "a_gate": gettext_noop("a %(gate)s"),
    # a sequence of cards in the order played, with arrows: H → Z → X → H
    "hh_flips_many": gettext_noop("H → %(gates)s → H flips the value: between the two H, "
                                  "%(gates)s swaps |+⟩ and |−⟩ an odd number of times (a Z or "
                                  "a Y swaps them, an X does not)"),
    "hh_cancel": gettext_noop("H → %(gates)s → H leaves the value as it was before the first H: "
                              "between the two H, %(gates)s swaps |+⟩ and |−⟩ an even number of "
                              "times (a Z or a Y swaps them, an X does not)"),
    "face_down_paren": gettext_noop(" (face down)"),
    "h_flip_physics": gettext_noop("%(why)s; it has a definite value again%(face)s, the opposite of "
                                   "the value before the first H."),
    "h_restore_physics": gettext_noop("%(why)s; it has a definite value again%(face)s, the same as "
                                      "the value before the first H."),
    "h_superpose_physics": gettext_noop("it is now in superposition (laid down on the table): "
                                        "H|0⟩ = |+⟩, H|1⟩ = |−⟩; the value is "
                                        "not lost, it is in the phase."),
    "h_superpose_face_up": gettext_noop("it is now in superposition (laid down face up); its value is gone."),
    "h_superpose_face_down": gettext_noop("it is now in superposition (laid down face down); its value "
                                          "is gone."),
    "h_coin_shown": gettext_noop("H on a superposed qubit collapses it: coin flip %(outcome)s."),
    "h_coin_hidden": gettext_noop("H on a superposed qubit collapses it: a coin is flipped out of sight "
                                  "and the card stays face down."),
    "coin": gettext_noop("Coin flip: %(outcome)s."),
    "your_coin": gettext_noop("Your coin flip: %(outcome)s."),
    "showdown": gettext_noop("Showdown: every qubit card is revealed."),
    "measure": gettext_noop("Measuring %(target)s (P(1) = %(p1).2f): %(value)s."),
    "moment_against_odds": gettext_noop("Against the odds at the showdown: all %(n)s superposed cards of "
                                        "%(player)s came out %(value)s, a %(percent)s%% chance."),
    "showdown_coin": gettext_noop("Coin flip for %(player)s's superposed qubit %(qubit)s: %(outcome)s."),
    "score": gettext_noop("%(player)s shows %(values)s and scores %(score)s."),
    "one_point": gettext_noop("%(n)s point"),
    "points": gettext_noop("%(n)s points"),
    "wins_pot": gettext_noop("%(names)s wins the pot of %(pot)s chips with %(points)s."),
    "split_pot": gettext_noop("%(names)s tie on %(points)s and split the pot of %(pot)s chips (%(parts)s)."),
    "wins_ones": gettext_noop("%(names)s wins with %(points)s: takes back their own %(back)s chips and "
                              "collects the %(collected)s chips on the other players' qubits that "
                              "measured 1%(rest)s."),
    "share_ones": gettext_noop("%(names)s tie on %(points)s: each takes back their own chips and they "
                               "share the %(collected)s chips on the other players' qubits that "
                               "measured 1 (%(parts)s in all)%(rest)s."),
    "zeros_back": gettext_noop("; the chips on the others' 0-qubits (%(returned)s) go back to their owners"),
    "match_end": gettext_noop("The match is over (%(why)s): %(leaders)s with %(top)s chips."),
    "all_hands_played": gettext_noop("all hands are played"),
    "cannot_ante": gettext_noop("fewer than two players can ante"),
    "time_up": gettext_noop("Time is up: the hand in progress goes to showdown as it stands."),
    "time_up_reason": gettext_noop("time is up"),
    # the physics-mode teaching note of a simplified hand (``note`` beside ``note_message``)
    "last_h_superposition": gettext_noop("the last H leaves it in superposition"),
    "then": gettext_noop("%(a)s; %(b)s"),
    "note_erased": gettext_noop("The H that erased this value did not really: in physics mode %(story)s, "
                                "so it would be %(value)s for sure."),
    "note_definite": gettext_noop("In physics mode this qubit has a definite value: in physics mode "
                                  "%(story)s, so it would be %(value)s for sure."),
    "note_chance": gettext_noop("In physics mode %(story)s: both modes leave this to chance (50/50)."),
}


# --------------------------------------------------------------------------- single qubits

def _amps_to_c(amps: list) -> tuple[complex, complex]:
    return complex(*amps[0]), complex(*amps[1])


def _clean(x: float) -> float:
    x = round(x, 12)
    return 0.0 if x == 0 else x


def _c_to_amps(a: complex, b: complex) -> list:
    return [[_clean(a.real), _clean(a.imag)], [_clean(b.real), _clean(b.imag)]]


def _basis_amps(value: int) -> list:
    return [[1.0, 0.0], [0.0, 0.0]] if value == 0 else [[0.0, 0.0], [1.0, 0.0]]


def _gate(amps: list, gate: str) -> list:
    """The real one-qubit gate (``quantum.GATES``: X, Y, Z, H) on a card's amplitudes."""
    a, b = quantum.GATES[gate] @ np.array(_amps_to_c(amps))
    return _c_to_amps(complex(a), complex(b))


def _p1(amps: list) -> float:
    a, b = _amps_to_c(amps)
    n = abs(a) ** 2 + abs(b) ** 2
    p = abs(b) ** 2 / n
    if p < EPS:
        return 0.0
    if p > 1 - EPS:
        return 1.0
    return p


def _basis_value(amps: list) -> int | None:
    p = _p1(amps)
    if p == 0.0:
        return 0
    if p == 1.0:
        return 1
    return None


def _run_gates(initial: int, gates: list[str]) -> list:
    amps = _basis_amps(initial)
    for g in gates:
        amps = _gate(amps, g)
    return amps


def ket(amps: list) -> str:
    """A readable ket for one qubit card, e.g. ``|0⟩``, ``−i|1⟩``, ``|+⟩``, ``0.6|0⟩ + 0.8|1⟩``."""
    return quantum.kets.qubit(*_amps_to_c(amps))


_NAMED_STATES = {"|0⟩": (1, 0), "|1⟩": (0, 1), "|+⟩": (1, 1), "|−⟩": (1, -1)}


def named_state(amps: list) -> str | None:
    """The card's state up to its global phase, ``|0⟩ |1⟩ |+⟩ |−⟩`` (the only states X, Y, Z
    and H reach from a dealt card), else None."""
    psi = np.array(_amps_to_c(amps))
    for name, vec in _NAMED_STATES.items():
        if quantum.same_up_to_phase(psi, np.array(vec, dtype=complex) / np.linalg.norm(vec), 1e-9):
            return name
    return None


# --------------------------------------------------------------------------- the game

class QuantumPoker:
    slug = SLUG
    name = "QuantumPoker"
    event_texts = EVENT_TEXTS
    finish_rule = gettext_noop("When time is up, the hand in progress goes to showdown as it "
                               "stands; then the most chips win.")
    min_players = 2
    max_players = 5
    variants = ("classic", "declared")
    variant_names = {"classic": gettext_noop("classic"), "declared": gettext_noop("declared measurement")}
    # players see the odds from public knowledge only; the exact odds (which would tell the
    # hidden values) are the teacher's; a circuit only in physics mode
    abilities = Abilities(
        public_analysis_keys=("hand", "phase", "mode", "expected_public", "p_win_public"),
        teacher_only_analysis_keys=("expected_exact", "p_win", "p_split", "qubits",
                                    "physics_counterfactual", "teacher_only"),
        circuit=True, circuit_option="physics_mode",
        teaching_moments=True,
    )

    AGAINST_ODDS = 0.3  # showdown outcomes with at most this chance together are "against the odds"

    def teaching_moments(self, events: list[Event], history: list[list[Event]]) -> list[dict]:
        """At a showdown, a player's superposed cards (two or more) all came out the same value,
        together an outcome with at most a 30 % chance (the product of each card's chance: the
        cards are never entangled). Only from the showdown's public measurements and coin
        flips (every card is revealed then), never a hidden card."""
        out = []
        outcomes: dict[int, list[tuple[int, float]]] = {}
        for e in events_for(events, None):
            if e.get("type") == "measure" and e.get("code") == "measure":
                p1 = float(e["params"]["p1"])
                outcomes.setdefault(e["seat"], []).append((e["value"], p1 if e["value"] == 1 else 1 - p1))
            elif e.get("type") == "collapse" and e.get("code") == "showdown_coin":
                outcomes.setdefault(e["seat"], []).append((e["value"], 0.5))
        for seat, found in sorted(outcomes.items()):
            values = {v for v, _p in found}
            p = 1.0
            for _v, chance_of in found:
                p *= chance_of
            if len(found) >= 2 and len(values) == 1 and 0 < p <= self.AGAINST_ODDS:
                value = values.pop()
                out.append(moment(EVENT_TEXTS, "moment_against_odds", {
                    "player": _player(seat), "n": len(found), "value": value, "percent": f"{100 * p:.3g}",
                }) | {"kind": "against_odds", "seat": seat, "value": value, "cards": len(found), "p": p})
        return out

    # ----------------------------------------------------------------- set-up

    def setup(self, players: int = 2, variant: str = "classic", seed: int = 0,
              options: dict | None = None) -> State:
        if not is_int(players) or not self.min_players <= players <= self.max_players:
            raise IllegalAction("bad_players", gettext_noop("QuantumPoker is for 2 to 5 players."))
        if variant not in self.variants:
            raise IllegalAction("bad_variant",
                                f"Unknown variant {variant!r}: choose 'classic' or 'declared'.")
        if not is_int(seed):
            raise IllegalAction("bad_seed", gettext_noop("The seed must be an integer."))
        opts = _parse_options(options)
        state: State = {
            "game": SLUG,
            "variant": variant,
            "options": opts,
            "players": players,
            "seed": seed,
            "actions": 0,
            "chips": [opts["starting_chips"]] * players,
            "pot": 0,
            "dealer": 0,
            "hand": None,
            "results": [],
            "history": [],
            "events": [],
            "finished": False,
        }
        events: list[Event] = []
        _start_hand(state, 0, events)
        state["events"] = events
        return state

    # ----------------------------------------------------------------- turns

    def to_act(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        turn = state["hand"]["turn"]
        return [] if turn is None else [turn]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not is_int(seat) or seat not in self.to_act(state):
            return []
        hand = state["hand"]
        others = [s for s in hand["order"] if s != seat]
        actions: list[Action] = []
        for i, card in enumerate(hand["community"]):
            if card["taken_by"] is not None:
                continue
            kind = card["kind"]
            if kind in OWN_KINDS:
                actions += [{"card": i, "target": {"seat": seat, "qubit": q}}
                            for q in range(QUBITS_PER_PLAYER)]
            elif kind == "CX":
                actions += [{"card": i, "target": {"seat": s, "qubit": q}}
                            for s in others for q in range(QUBITS_PER_PLAYER)]
            else:
                actions += [{"card": i, "own": own, "target": {"seat": s, "qubit": q}}
                            for own in range(QUBITS_PER_PLAYER)
                            for s in others for q in range(QUBITS_PER_PLAYER)]
        if _can_declare(state):
            actions.append({"declare": True})
        return actions

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state["finished"]:
            raise IllegalAction("match_over", gettext_noop("The match is over."))
        if not is_int(seat) or seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", gettext_noop("It is not your turn."))
        move = _parse_action(state, seat, action)
        new = clone(state)
        n = new["actions"] + 1
        new["actions"] = n
        events: list[Event] = []
        hand = new["hand"]
        if move["declare"]:
            hand["declared_by"] = seat
            order = hand["order"]
            i = order.index(seat)
            # everyone, the declarer included, gets one last turn from the declarer's left
            hand["last_turns"] = [order[(i + k) % len(order)] for k in range(1, len(order) + 1)]
            hand["plays"].append({"seat": seat, "declare": True})
            for q in hand["qubits"][seat]:
                q["shown"] = True
                if not q["superposed"]:
                    q["public_known"] = True
            events.append(event(EVENT_TEXTS, "declare", "declare",
                                {"player": _player(seat), "first": _player(hand["last_turns"][0])},
                                seat=seat))
        else:
            _play(new, seat, move, n, events)
        _advance(new, seat, move["declare"], n, events)
        new["events"] = events
        return new, events

    def finish(self, state: State) -> tuple[State, list[Event]]:
        """Time is up: the hand in progress goes to showdown as it stands (its qubits measured,
        the pot paid by the usual rule), then the match ends and the most chips win. A showdown
        rather than a refund: the cards already played are part of the hand, and measuring
        them is how every hand ends."""
        if state["finished"]:
            return state, []
        new = clone(state)
        n = new["actions"] + 1
        new["actions"] = n
        events: list[Event] = [event(EVENT_TEXTS, "time_up", "time_up")]
        _showdown(new, n, events, last=True)
        new["events"] = events
        return new, events

    # ----------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict:
        if seat is not None and (not is_int(seat) or not 0 <= seat < state["players"]):
            raise IllegalAction("bad_seat", gettext_noop("No such seat."))
        hand = state["hand"]
        physics = state["options"]["physics_mode"]
        seats = []
        for s in range(state["players"]):
            qubits = []
            for slot, q in enumerate(hand["qubits"][s]):
                knows = _knows(q, s, seat)
                known = not q["superposed"] and q["value"] is not None and knows
                row = {"id": q["id"], "slot": slot, "shown": q["shown"],
                       "bet": q["bet"], "superposed": q["superposed"],
                       "value": q["value"] if known else None, "known": known,
                       # perfect recall: a value this seat knows only from what it saw
                       "remembered": known and not q["shown"] and s != seat}
                if physics:
                    # the state this seat can follow through the public gates, else None;
                    # ``state`` is it without its global phase: |0⟩, |1⟩, |+⟩ or |−⟩ (a
                    # superposed card is |+⟩ or |−⟩, and the next H tells them apart)
                    follows = knows and hand["phase"] == "play"
                    row["ket"] = ket(q["amps"]) if follows else None
                    row["state"] = named_state(q["amps"]) if follows else None
                qubits.append(row)
            seats.append({"seat": s, "chips": state["chips"][s],
                          "in_hand": hand["in_hand"][s], "sitting_out": not hand["in_hand"][s],
                          "is_dealer": s == hand["dealer"], "qubits": qubits})
        last_hand = None
        if state["history"]:
            done = state["history"][-1]
            last_hand = dict(done["result"])
            last_hand["cards"] = [[{"id": q["id"], "value": q["value"], "bet": q["bet"]}
                                   for q in done["qubits"][s]]
                                  for s in range(state["players"])]
            # simplified mode: what physics mode would have given (fixed at the showdown)
            last_hand["physics"] = done.get("physics_summary")
        events = events_for(state["events"], seat)
        return {
            "game": SLUG,
            "variant": state["variant"],
            "options": dict(state["options"]),
            "physics_mode": state["options"]["physics_mode"],
            "players": state["players"],
            "seat": seat,
            "hand": hand["number"],
            "hands": state["options"]["hands"],
            "phase": hand["phase"],
            "dealer": hand["dealer"],
            "turn": hand["turn"],
            "to_act": self.to_act(state),
            "pot": state["pot"],
            "can_declare": _can_declare(state),
            "declared_by": hand["declared_by"],
            "last_turns": list(hand["last_turns"]),
            "seats": seats,
            "community": [{"index": i, "id": c["id"], "kind": c["kind"],
                           "taken_by": c["taken_by"], "order": c["order"]}
                          for i, c in enumerate(hand["community"])],
            "plays": clone(hand["plays"]),
            "events": clone(events),
            "last_hand": clone(last_hand),
            "results": clone(state["results"]),
            "finished": state["finished"],
            "outcome": self.outcome(state),
        }

    def outcome(self, state: State) -> dict | None:
        if not state["finished"]:
            return None
        chips = list(state["chips"])
        best = max(chips)
        return {"scores": chips, "winners": [s for s, c in enumerate(chips) if c == best],
                "hands": clone(state["results"])}

    # ----------------------------------------------------------------- teaching

    def analysis(self, state: State) -> dict:
        """Expected showdown scores and win odds for the current hand.

        Public: ``expected_public``, ``p_win_public`` (hidden values 50/50 unless the table
        can deduce them, superposed 50/50). Teacher-only: ``expected_exact``, ``p_win``,
        ``p_split`` (exact, enumerating coin flips / Born outcomes of the true state),
        ``qubits`` (per card P(1), kets) and ``physics_counterfactual``.
        """
        hand = state["hand"]
        physics = state["options"]["physics_mode"]
        exact_dists: list[dict[int, float] | None] = []
        public_dists: list[dict[int, float] | None] = []
        expected_exact: list[float | None] = []
        expected_public: list[float | None] = []
        qubits: list[list[dict] | None] = []
        for s in range(state["players"]):
            if not hand["in_hand"][s]:
                exact_dists.append(None)
                public_dists.append(None)
                expected_exact.append(None)
                expected_public.append(None)
                qubits.append(None)
                continue
            rows = []
            for slot, q in enumerate(hand["qubits"][s]):
                p_ex = _p1_exact(q, physics)
                p_pub = _p1_public(q, physics)
                row = {"id": q["id"], "slot": slot, "p1": p_ex, "p1_public": p_pub,
                       "bet": q["bet"], "superposed": q["superposed"]}
                if physics:
                    row["amps"] = clone(q["amps"])
                    row["ket"] = ket(q["amps"])
                else:
                    row["ket"] = ("superposed: H erased the value, a coin decides"
                                  if q["superposed"] else f"|{q['value']}⟩")
                rows.append(row)
            qubits.append(rows)
            exact_dists.append(_score_dist([(r["p1"], r["bet"]) for r in rows]))
            public_dists.append(_score_dist([(r["p1_public"], r["bet"]) for r in rows]))
            expected_exact.append(_round(sum(r["p1"] * r["bet"] for r in rows)))
            expected_public.append(_round(sum(r["p1_public"] * r["bet"] for r in rows)))
        p_win, p_split = _win_odds(exact_dists)
        p_win_public, _ = _win_odds(public_dists)
        return {
            "hand": hand["number"],
            "phase": hand["phase"],
            "mode": "physics" if physics else "simplified",
            "expected_public": expected_public,
            "p_win_public": p_win_public,
            "expected_exact": expected_exact,
            "p_win": p_win,
            "p_split": p_split,
            "qubits": qubits,
            "physics_counterfactual": physics_counterfactual(state),
            "teacher_only": [k for k in self.abilities.teacher_only_analysis_keys
                             if k != "teacher_only"],
        }

    def circuit(self, state: State):
        """Physics mode: a qiskit ``QuantumCircuit`` for the current hand, else ``None``.

        One qubit per qubit card in play; circuit qubit/classical bit ``k`` is the card at
        ``circuit.metadata["bits"][k]`` = ``{"bit", "seat", "qubit", "card"}``, in seat order
        then slot order of where the cards sit now (a SWAP moves a card, not a gate). Each
        qubit is prepared in the card's dealt value (an X for 1), gets the real gates applied
        to that card so far, then all are measured.
        """
        if not state["options"]["physics_mode"]:
            return None
        return hand_circuit(state["hand"])


# --------------------------------------------------------------------------- options/actions

def _parse_options(options: Any) -> dict:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise IllegalAction("bad_option", gettext_noop("Options must be a JSON object."))
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise IllegalAction("bad_option", gettext_noop("Unknown option(s): %(options)s. Known: %(known)s."),
                            {"options": ", ".join(sorted(map(str, unknown))), "known": ", ".join(DEFAULT_OPTIONS)})
    opts = dict(DEFAULT_OPTIONS)
    for key, value in options.items():
        if key in ("physics_mode", "whole_pot"):
            if not isinstance(value, bool):
                raise IllegalAction("bad_option", gettext_noop("%(key)s must be true or false."), {"key": key})
        else:
            lo, hi = OPTION_RANGES[key]
            if not is_int(value) or not lo <= value <= hi:
                raise IllegalAction("bad_option", gettext_noop("%(key)s must be a whole number from %(lo)s to %(hi)s."),
                                    {"key": key, "lo": lo, "hi": hi})
        opts[key] = value
    return opts


def _bad(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _parse_action(state: State, seat: int, action: Any) -> dict:
    hand = state["hand"]
    if not isinstance(action, dict):
        raise _bad("malformed", 'An action is an object such as {"card": 0, "target": '
                                '{"seat": 1, "qubit": 2}} or {"declare": true}.')
    keys = set(action)
    if keys == {"declare"}:
        if action["declare"] is not True:
            raise _bad("malformed", 'To declare measurement send {"declare": true}.')
        if state["variant"] != "declared":
            raise _bad("not_declared_mode", "Declaring measurement is only in declared mode.")
        if hand["declared_by"] is not None:
            raise _bad("already_declared", "Measurement has already been declared.")
        return {"declare": True}
    if keys not in ({"card", "target"}, {"card", "own", "target"}):
        raise _bad("malformed", 'An action has "card" and "target" (and "own" for SWAP), '
                                'or is {"declare": true}.')
    card = action["card"]
    if not is_int(card):
        raise _bad("malformed", '"card" must be the index of a community card.')
    if not 0 <= card < len(hand["community"]):
        raise _bad("no_such_card", f"There is no community card {card}.")
    if hand["community"][card]["taken_by"] is not None:
        raise _bad("card_taken", "That community card has already been taken.")
    target = action["target"]
    if not isinstance(target, dict) or set(target) != {"seat", "qubit"}:
        raise _bad("malformed", '"target" must be {"seat": s, "qubit": q}.')
    tseat, tq = target["seat"], target["qubit"]
    if not is_int(tseat) or not is_int(tq):
        raise _bad("malformed", "Target seat and qubit must be whole numbers.")
    if not 0 <= tseat < state["players"] or not hand["in_hand"][tseat]:
        raise _bad("bad_target", "That seat has no qubit cards in this hand.")
    if not 0 <= tq < QUBITS_PER_PLAYER:
        raise _bad("bad_target", "Qubits are numbered 0 to 3.")
    kind = hand["community"][card]["kind"]
    move = {"declare": False, "card": card, "kind": kind, "seat": tseat, "qubit": tq}
    if kind == "SWAP":
        if "own" not in action:
            raise _bad("malformed", 'SWAP needs "own": the index of your qubit to exchange.')
        own = action["own"]
        if not is_int(own):
            raise _bad("malformed", '"own" must be a whole number.')
        if not 0 <= own < QUBITS_PER_PLAYER:
            raise _bad("bad_target", "Qubits are numbered 0 to 3.")
        if tseat == seat:
            raise _bad("swap_same_player", "SWAP exchanges your qubit with another player's.")
        move["own"] = own
    elif "own" in action:
        raise _bad("malformed", f'Only SWAP takes "own"; this card is {kind}.')
    elif kind == "CX":
        if tseat == seat:
            raise _bad("cx_own_qubit", "CX applies X to another player's qubit, never your own.")
    elif tseat != seat:
        raise _bad("own_qubit_only", f"{kind} is applied to one of your own qubits.")
    return move


def _can_declare(state: State) -> bool:
    hand = state["hand"]
    return (not state["finished"] and state["variant"] == "declared"
            and hand["phase"] == "play" and hand["declared_by"] is None
            and hand["turn"] is not None)


# --------------------------------------------------------------------------- hand flow

def _start_hand(state: State, n: int, events: list[Event]) -> None:
    players = state["players"]
    number = len(state["results"]) + 1
    dealer = state["dealer"]
    in_hand = [c >= ANTE for c in state["chips"]]
    order = [(dealer + k) % players for k in range(1, players + 1)]
    order = [s for s in order if in_hand[s]]
    physics = state["options"]["physics_mode"]
    rng = chance(state["seed"], n, "qubit-deck")
    deck = [0] * (QUBIT_DECK // 2) + [1] * (QUBIT_DECK // 2)  # half the deck turned round
    rng.shuffle(deck)
    qubits: list[list[dict]] = [[] for _ in range(players)]
    k = 0
    for _ in range(QUBITS_PER_PLAYER):
        for s in order:
            value = deck[k]
            card = {"id": f"h{number}-q{k}", "value": value, "shown": False, "bet": 1,
                    "superposed": False, "initial": value, "gates": [], "public_known": False,
                    "known_by": [s]}
            if physics:
                card["amps"] = _basis_amps(value)
            qubits[s].append(card)
            k += 1
    prng = chance(state["seed"], n, "pauli-deck")
    pauli = [kind for kind in PAULI_KINDS for _ in range(PAULI_COPIES)]
    prng.shuffle(pauli)
    community = [{"id": f"h{number}-p{i}", "kind": kind, "taken_by": None, "order": None}
                 for i, kind in enumerate(pauli[:state["options"]["community_cards"]])]
    state["hand"] = {
        "number": number, "dealer": dealer, "in_hand": in_hand, "order": order,
        "turn": order[0], "qubits": qubits, "community": community, "plays": [],
        "declared_by": None, "last_turns": [], "phase": "play", "result": None,
    }
    events.append(event(EVENT_TEXTS, "hand_start", "hand_start",
                        {"hand": number, "dealer": _player(dealer)}, hand=number, dealer=dealer))
    for s in range(players):
        if not in_hand[s]:
            events.append(event(EVENT_TEXTS, "sit_out", "sit_out", {"player": _player(s), "ante": ANTE},
                                seat=s))
    for s in order:
        state["chips"][s] -= ANTE
        state["pot"] += ANTE
        events.append(event(EVENT_TEXTS, "ante", "ante", {"player": _player(s), "ante": ANTE},
                            seat=s, chips=ANTE))
    kinds = [c["kind"] for c in community]
    events.append(event(EVENT_TEXTS, "community", "community", {"cards": kinds}, cards=kinds))
    events.append(event(EVENT_TEXTS, "turn", "turn", {"player": _player(order[0])}, seat=order[0]))


def _advance(state: State, seat: int, declared_now: bool, n: int, events: list[Event]) -> None:
    hand = state["hand"]
    cards_left = any(c["taken_by"] is None for c in hand["community"])
    if hand["declared_by"] is not None:
        if not declared_now and hand["last_turns"] and hand["last_turns"][0] == seat:
            hand["last_turns"].pop(0)
        if not hand["last_turns"] or not cards_left:
            _showdown(state, n, events)
            return
        nxt = hand["last_turns"][0]
        events.append(event(EVENT_TEXTS, "turn", "last_turn", {"player": _player(nxt)}, seat=nxt))
    else:
        if not cards_left:
            _showdown(state, n, events)
            return
        order = hand["order"]
        nxt = order[(order.index(seat) + 1) % len(order)]
        events.append(event(EVENT_TEXTS, "turn", "turn", {"player": _player(nxt)}, seat=nxt))
    hand["turn"] = nxt


def _play(state: State, seat: int, move: dict, n: int, events: list[Event]) -> None:
    hand = state["hand"]
    physics = state["options"]["physics_mode"]
    card = hand["community"][move["card"]]
    card["taken_by"] = seat
    card["order"] = sum(1 for p in hand["plays"] if "card" in p)
    kind = move["kind"]
    tseat, tq = move["seat"], move["qubit"]
    play = {"seat": seat, "card": move["card"], "id": card["id"], "kind": kind,
            "target": {"seat": tseat, "qubit": tq}}
    if kind == "SWAP":
        play["own"] = move["own"]
    hand["plays"].append(play)
    base = {"type": "play", "seat": seat, "card": move["card"], "card_id": card["id"],
            "kind": kind, "target": {"seat": tseat, "qubit": tq}}
    if kind == "SWAP":
        own = move["own"]
        mine, theirs = hand["qubits"][seat][own], hand["qubits"][tseat][tq]
        hand["qubits"][seat][own], hand["qubits"][tseat][tq] = theirs, mine
        _holder_looks(mine, tseat)
        _holder_looks(theirs, seat)
        events.append(event(EVENT_TEXTS, "play", "swap",
                            {"player": _player(seat), "own": own + 1,
                             "target": message("players_qubit", player=_player(tseat), qubit=tq + 1)},
                            **base, own=own, no_effect=False, effect="swap"))
        return
    q = hand["qubits"][tseat][tq]
    where = _qubit_of(seat, tseat, tq)
    gate = "X" if kind == "CX" else kind
    effect, no_effect, private, code = _apply_card(state, tseat, q, gate, n, events)
    q["gates"].append(gate)
    if physics:
        q["superposed"] = _basis_value(q["amps"]) is None
        q["value"] = _basis_value(q["amps"])
    if q["shown"] and not q["superposed"]:
        q["public_known"] = True
    _holder_looks(q, tseat)
    if kind == "CX":
        effect = message("cx_is_x", effect=effect)
    events.append(event(EVENT_TEXTS, "play", "play",
                        {"player": _player(seat), "gate": kind, "target": where, "effect": effect},
                        **base, no_effect=no_effect, effect=code))
    events.extend(private)


def _knows(q: dict, holder: int, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) can know card ``q`` (held by ``holder``) from what
    it saw: it is shown, or the whole table could follow it, or ``seat`` holds it or once
    looked at it and followed it through the public plays (perfect recall)."""
    if q["shown"] or q["public_known"]:
        return True
    if seat is None:
        return False
    # the holder looks at a card with a definite value (then it is in ``known_by`` too)
    return seat in q["known_by"] or (seat == holder and not q["superposed"])


def _holder_looks(q: dict, holder: int) -> None:
    """Perfect recall: the holder of a card with a definite value looks at it and knows it
    (``known_by`` lists every seat that can know the card's value from what it saw)."""
    if not q["superposed"] and holder not in q["known_by"]:
        q["known_by"] = sorted([*q["known_by"], holder])


def _value_before_superposition(q: dict) -> tuple[int, list[str]]:
    """Physics mode: the basis value the card had before its last H, and the gates since."""
    amps = _basis_amps(q["initial"])
    before, since = q["initial"], []
    for g in q["gates"]:
        v = _basis_value(amps)
        if v is not None:
            before, since = v, []
        since.append(g)
        amps = _gate(amps, g)
    return before, since[1:]     # drop the first H itself


def _between_hs(between: list[str]) -> tuple[bool, dict]:
    """What the gates between two H do once the second H is applied: (flips?, explanation)."""
    flips = sum(g in ("Z", "Y") for g in between) % 2 == 1
    if not between:
        return False, message("hh_identity")
    # the cards in the order played, with arrows ("·" would read as an operator product)
    gates = " → ".join(between)
    if flips:
        zs = [g for g in between if g in ("Z", "Y")]
        if zs in (["Z"], ["Y"]):  # one Z or Y (an X beside it changes only a global sign)
            law = "H·Z·H = X" if zs == ["Z"] else "H·Y·H = −Y"
            return True, message("hh_flips", law=law, what=message("a_gate", gate=zs[0]))
        return True, message("hh_flips_many", gates=gates)
    return False, message("hh_cancel", gates=gates)


def _apply_card(state: State, owner: int, q: dict, gate: str, n: int,
                events: list[Event]) -> tuple[dict, bool, list[Event], str]:
    """Apply the gate of one card to qubit card ``q``.

    Returns (text as an event message, no_effect, extra events, effect code). Texts never
    name a hidden value.
    """
    physics = state["options"]["physics_mode"]
    private: list[Event] = []
    was_superposed = q["superposed"]
    if gate == "X":
        if physics:
            q["amps"] = _gate(q["amps"], "X")
            if was_superposed:
                return message("x_superposed_physics"), True, private, "x_superposed"
            return message("x_flip_physics"), False, private, "x_flip"
        if was_superposed:
            return message("x_superposed"), True, private, "x_superposed"
        q["value"] ^= 1
        return message("x_flip"), False, private, "x_flip"
    if gate == "Y":
        q["shown"] = not q["shown"]
        if physics:
            vis = message("now_shown" if q["shown"] else "now_hidden")
            q["amps"] = _gate(q["amps"], "Y")
            mnemonic = message("mnemonic_show" if q["shown"] else "mnemonic_hide")
            if was_superposed:
                return (message("y_superposed_physics", vis=vis, mnemonic=mnemonic), False, private,
                        "y_superposed")
            return (message("y_flip_physics", vis=vis, mnemonic=mnemonic), False, private,
                    "y_flip")
        vis = message("now_shown_i" if q["shown"] else "now_hidden_i")
        if was_superposed:
            return message("y_superposed", vis=vis), False, private, "y_superposed"
        q["value"] ^= 1
        return message("y_flip", vis=vis), False, private, "y_flip"
    if gate == "Z":
        state_note: dict | str = ""
        if physics:
            q["amps"] = _gate(q["amps"], "Z")
            state_note = message("z_note_superposed" if was_superposed else "z_note_basis")
        if q["bet"] == 2:
            q["bet"] = 1
            state["pot"] -= 1
            state["chips"][owner] += 1
            return (message("z_halve", owner=_player(owner), note=state_note), False, private,
                    "z_halve")
        if state["chips"][owner] >= 1:
            q["bet"] = 2
            state["chips"][owner] -= 1
            state["pot"] += 1
            return message("z_double", note=state_note), False, private, "z_double"
        return (message("z_no_chip", owner=_player(owner), note=state_note), not physics, private,
                "z_no_chip")
    # H
    if physics:
        if was_superposed:
            before, between = _value_before_superposition(q)
            q["amps"] = _gate(q["amps"], "H")
            flips, why = _between_hs(between)
            v = _basis_value(q["amps"])
            face = f" ({v})" if q["shown"] else message("face_down_paren")
            text = message("h_flip_physics" if flips else "h_restore_physics", why=why, face=face)
            return text, False, private, "h_flip" if flips else "h_restore"
        q["amps"] = _gate(q["amps"], "H")
        return message("h_superpose_physics"), False, private, "h_superpose"
    if not was_superposed:
        q["superposed"] = True
        q["value"] = None
        q["public_known"] = False
        q["known_by"] = []
        text = message("h_superpose_face_up" if q["shown"] else "h_superpose_face_down")
        return text, False, private, "h_superpose"
    rng = chance(state["seed"], n, "coin")
    heads = rng.random() < 0.5
    q["value"] = 1 if heads else 0
    q["superposed"] = False
    q["known_by"] = [owner]
    outcome = _coin(heads, q["value"])
    if q["shown"]:
        q["public_known"] = True
        private.append(event(EVENT_TEXTS, "coin", "coin", {"outcome": outcome},
                             seat=owner, value=q["value"]))
        return message("h_coin_shown", outcome=outcome), False, private, "h_coin"
    q["public_known"] = False
    private.append(event(EVENT_TEXTS, "coin", "your_coin", {"outcome": outcome},
                         seat=owner, value=q["value"], visible_to=[owner]))
    return message("h_coin_hidden"), False, private, "h_coin"


def _showdown(state: State, n: int, events: list[Event], last: bool = False) -> None:
    hand = state["hand"]
    physics = state["options"]["physics_mode"]
    players = state["players"]
    rng = chance(state["seed"], n, "showdown")
    events.append(event(EVENT_TEXTS, "showdown", "showdown", hand=hand["number"]))
    scores: list[int | None] = [None] * players
    for s in hand["order"]:
        for slot, q in enumerate(hand["qubits"][s]):
            if physics:
                p1 = _p1(q["amps"])
                if 0.0 < p1 < 1.0:
                    value = (1, 0)[quantum.sample([p1, 1 - p1], rng.random())]  # 1 listed first
                    events.append(event(EVENT_TEXTS, "measure", "measure",
                                        {"target": message("players_qubit", player=_player(s),
                                                           qubit=slot + 1),
                                         "p1": p1, "value": value},
                                        seat=s, qubit=slot, value=value, p1=_round(p1)))
                else:
                    value = int(p1)
                q["amps"] = _basis_amps(value)
            elif q["superposed"]:
                heads = rng.random() < 0.5
                value = 1 if heads else 0
                events.append(event(EVENT_TEXTS, "collapse", "showdown_coin",
                                    {"player": _player(s), "qubit": slot + 1,
                                     "outcome": _coin(heads, value)},
                                    seat=s, qubit=slot, value=value))
            else:
                value = q["value"]
            q["value"] = value
            q["superposed"] = False
            q["shown"] = True
            q["public_known"] = True
        score = sum(q["bet"] for q in hand["qubits"][s] if q["value"] == 1)
        scores[s] = score
        values = " ".join(str(q["value"]) for q in hand["qubits"][s])
        events.append(event(EVENT_TEXTS, "score", "score",
                            {"player": _player(s), "values": values, "score": score},
                            seat=s, score=score))
    best = max(sc for sc in scores if sc is not None)
    dealer = hand["dealer"]
    clockwise = [(dealer + k) % players for k in range(1, players + 1)]
    winners = [s for s in clockwise if scores[s] == best]
    pot = state["pot"]
    payouts = [0] * players
    if state["options"]["whole_pot"]:
        collected = pot           # table option: the winners share the whole pot
    else:
        # the rulebook: the winner takes back their own chips and collects the chips on the
        # other players' qubits that measured 1; the chips on their 0-qubits go back
        collected = 0
        for s in hand["order"]:
            for q in hand["qubits"][s]:
                if s in winners:
                    payouts[s] += q["bet"]
                elif q["value"] == 1:
                    collected += q["bet"]
                else:
                    payouts[s] += q["bet"]
    share, remainder = divmod(collected, len(winners))
    for i, s in enumerate(winners):
        payouts[s] += share + (remainder if i == 0 else 0)
    for s in range(players):
        state["chips"][s] += payouts[s]
    assert sum(payouts) == pot
    state["pot"] = 0
    pts = message("one_point" if best == 1 else "points", n=best)
    names = [_player(s) for s in winners]
    parts = ", ".join(str(payouts[s]) for s in winners)
    if state["options"]["whole_pot"]:
        if len(winners) == 1:
            code, params = "wins_pot", {"names": names, "pot": pot, "points": pts}
        else:
            code, params = "split_pot", {"names": names, "points": pts, "pot": pot, "parts": parts}
    else:
        back = sum(q["bet"] for q in hand["qubits"][winners[0]])
        returned = [payouts[s] for s in range(players) if s not in winners]
        rest = message("zeros_back", returned=sum(returned)) if sum(returned) else ""
        if len(winners) == 1:
            code, params = "wins_ones", {"names": names, "points": pts, "back": back,
                                         "collected": collected, "rest": rest}
        else:
            code, params = "share_ones", {"names": names, "points": pts, "collected": collected,
                                          "parts": parts, "rest": rest}
    winners_sorted = sorted(winners)
    events.append(event(EVENT_TEXTS, "pot", code, params,
                        rule="whole_pot" if state["options"]["whole_pot"] else "collect_ones",
                        winners=winners_sorted, pot=pot, collected=collected, payouts=payouts))
    result = {
        "hand": hand["number"], "dealer": dealer, "scores": scores, "winners": winners_sorted,
        "pot": pot, "collected": collected, "payouts": payouts,
        "declared_by": hand["declared_by"],
        "values": [[q["value"] for q in hand["qubits"][s]] if hand["in_hand"][s] else None
                   for s in range(players)],
        "bets": [[q["bet"] for q in hand["qubits"][s]] if hand["in_hand"][s] else None
                 for s in range(players)],
    }
    hand["phase"] = "over"
    hand["turn"] = None
    hand["last_turns"] = []
    hand["result"] = result
    if not physics:
        # the teaching point, fixed now that every card is revealed (see ``_teaching_summary``)
        hand["physics_summary"] = _teaching_summary(state, hand["number"])
    state["results"].append(result)
    state["history"].append(clone(hand))
    can_ante = [s for s in range(players) if state["chips"][s] >= ANTE]
    if last or len(state["results"]) >= state["options"]["hands"] or len(can_ante) < 2:
        state["finished"] = True
        chips = state["chips"]
        top = max(chips)
        leaders = [_player(s) for s in range(players) if chips[s] == top]
        why = message("time_up_reason" if last else
                      "all_hands_played" if len(state["results"]) >= state["options"]["hands"]
                      else "cannot_ante")
        events.append(event(EVENT_TEXTS, "match_end", "match_end",
                            {"why": why, "leaders": leaders, "top": top}, chips=list(chips)))
        return
    state["dealer"] = next(s for s in clockwise if state["chips"][s] >= ANTE)
    _start_hand(state, n, events)


# --------------------------------------------------------------------------- analysis helpers

def _round(x: float) -> float:
    return round(x, 10)


def _p1_exact(q: dict, physics: bool) -> float:
    if physics:
        return _round(_p1(q["amps"]))
    return 0.5 if q["superposed"] else float(q["value"])


def _p1_public(q: dict, physics: bool) -> float:
    """P(value 1 at showdown) from what the whole table knows."""
    if physics:
        if q["public_known"]:
            return _round(_p1(q["amps"]))
        return _round(sum(_p1(_run_gates(v, q["gates"])) for v in (0, 1)) / 2)
    if q["superposed"]:
        return 0.5
    if q["shown"] or q["public_known"]:
        return float(q["value"])
    return 0.5


def _score_dist(cards: list[tuple[float, int]]) -> dict[int, float]:
    dist = {0: 1.0}
    for p, w in cards:
        nxt: dict[int, float] = {}
        for score, pr in dist.items():
            if p < 1:
                nxt[score] = nxt.get(score, 0.0) + pr * (1 - p)
            if p > 0:
                nxt[score + w] = nxt.get(score + w, 0.0) + pr * p
        dist = nxt
    return dist


def _win_odds(dists: list[dict[int, float] | None]) -> tuple[list, list]:
    """Per seat: P(sole highest score) and P(tied for the highest score)."""
    def below(d: dict[int, float], x: int, strict: bool) -> float:
        return sum(p for sc, p in d.items() if (sc < x if strict else sc <= x))

    p_win: list[float | None] = []
    p_split: list[float | None] = []
    for s, d in enumerate(dists):
        if d is None:
            p_win.append(None)
            p_split.append(None)
            continue
        others = [o for i, o in enumerate(dists) if i != s and o is not None]
        win = tie = 0.0
        for x, px in d.items():
            lt = math.prod(below(o, x, True) for o in others)
            le = math.prod(below(o, x, False) for o in others)
            win += px * lt
            tie += px * (le - lt)
        p_win.append(_round(win))
        p_split.append(_round(tie))
    return p_win, p_split


def physics_counterfactual(state: State, hand_number: int | None = None) -> dict:
    """What physics mode would have given for the same dealt cards and the same card plays.

    Uses the last finished hand (or ``hand_number``), else the current hand. Teacher-only /
    after the hand: it uses the dealt (initial) values. Per seat: expected score in physics
    mode with the same bets, and the score the hand actually had (or its expectation);
    per qubit card: gates, physics P(1) and ket, the simplified value, and a note where the
    two modes differ (the H that "erased" a value in the simplified game did not really).
    """
    hand = None
    if hand_number is not None:
        hand = next((h for h in state["history"] if h["number"] == hand_number), None)
        if hand is None and state["hand"]["number"] == hand_number:
            hand = state["hand"]
        if hand is None:
            raise IllegalAction("bad_hand", f"No hand {hand_number}.")
    elif state["history"]:
        hand = state["history"][-1]
    else:
        hand = state["hand"]
    physics = state["options"]["physics_mode"]
    seats = []
    for s in range(state["players"]):
        if not hand["in_hand"][s]:
            seats.append(None)
            continue
        cards = []
        exp_phys = exp_game = 0.0
        for slot, q in enumerate(hand["qubits"][s]):
            amps = _run_gates(q["initial"], q["gates"])
            p1 = _round(_p1(amps))
            game_p1 = _p1_exact(q, physics) if hand["phase"] == "play" else float(q["value"])
            exp_phys += p1 * q["bet"]
            exp_game += game_p1 * q["bet"]
            note = "" if physics else _physics_note(q["gates"], p1)
            note_message = None if physics else _physics_note_message(q["gates"], p1)
            cards.append({"id": q["id"], "slot": slot, "initial": q["initial"],
                          "gates": list(q["gates"]), "physics_p1": p1, "physics_ket": ket(amps),
                          "physics_amps": amps, "game_value": q["value"],
                          "game_superposed": q["superposed"], "bet": q["bet"], "note": note,
                          "note_message": note_message})
        seats.append({"seat": s, "physics_expected": _round(exp_phys),
                      "game_score" if hand["phase"] == "over" else "game_expected":
                          _round(exp_game),
                      "cards": cards})
    return {"hand": hand["number"], "mode": "physics" if physics else "simplified",
            "seats": seats}


def _physics_note(gates: list[str], p1: float) -> str:
    """What physics mode would have said about a card with these gates (simplified hands).

    Each H of the simplified game "erases" the value; in physics mode H is the real Hadamard:
    two H with nothing between restore the value (H·H = I), but a Z (or Y) between them flips
    it (H·Z·H = X, H·Y·H = −Y). The note names the pairs of H as they happened, so it never
    says "the second H undoes the first" when a Z or Y came between.
    """
    hs = [i for i, g in enumerate(gates) if g == "H"]
    if not hs:
        return ""
    note = _physics_note_message(gates, p1)
    return render_text(EVENT_TEXTS, note["code"], note["params"]) if note else ""


def _physics_note_message(gates: list[str], p1: float) -> dict | None:
    """``_physics_note`` as a translatable message (None: no H, no note)."""
    hs = [i for i, g in enumerate(gates) if g == "H"]
    if not hs:
        return None
    laws = [_between_hs(gates[a + 1:b])[1] for a, b in zip(hs[0::2], hs[1::2], strict=False)]
    if len(hs) % 2 == 1:
        laws.append(message("last_h_superposition"))
    story = laws[0]
    for law in laws[1:]:
        story = message("then", a=story, b=law)
    if p1 in (0.0, 1.0):
        code = "note_erased" if len(hs) >= 2 else "note_definite"
        return message(code, story=story, value=int(p1))
    return message("note_chance", story=story)


def _teaching_summary(state: State, hand_number: int) -> dict:
    """For a hand that has just ended in simplified mode: what physics mode would have given
    for the same dealt cards and plays (``physics_counterfactual``), as shown to the whole
    table in ``view(...)["last_hand"]["physics"]``.

    It is computed once, at the showdown, and stored with the finished hand: it uses the dealt
    values, which are secret during the hand but decide nothing after it (the next hand is
    dealt from a fresh shuffle), and every card of the hand is revealed at the showdown anyway.
    The gates applied to a card follow from the public plays. Nothing of the next hand is in it.
    """
    cf = physics_counterfactual(state, hand_number)
    seats: list[dict | None] = []
    for row in cf["seats"]:
        if row is None:
            seats.append(None)
            continue
        seats.append({
            "seat": row["seat"], "physics_expected": row["physics_expected"],
            "score": row.get("game_score"),
            "cards": [{"id": c["id"], "slot": c["slot"], "dealt": c["initial"],
                       "applied": list(c["gates"]), "physics_p1": c["physics_p1"],
                       "physics_ket": c["physics_ket"], "value": c["game_value"],
                       "bet": c["bet"], "note": c["note"], "note_message": c.get("note_message")}
                      for c in row["cards"]],
        })
    return {"hand": cf["hand"], "seats": seats,
            "differs": any(c["note"] and "50/50" not in c["note"]
                           for row in seats if row for c in row["cards"])}


def hand_circuit(hand: dict):
    """The qiskit circuit of one hand's qubit cards (see ``QuantumPoker.circuit``)."""
    from qiskit import QuantumCircuit

    bits = []
    for s, in_hand in enumerate(hand["in_hand"]):
        if in_hand:
            for slot, q in enumerate(hand["qubits"][s]):
                bits.append({"bit": len(bits), "seat": s, "qubit": slot, "card": q["id"]})
    qc = QuantumCircuit(len(bits), len(bits), name=f"quantum-poker-hand-{hand['number']}")
    for b in bits:
        q = hand["qubits"][b["seat"]][b["qubit"]]
        k = b["bit"]
        if q["initial"] == 1:
            qc.x(k)
        for g in q["gates"]:
            {"X": qc.x, "Y": qc.y, "Z": qc.z, "H": qc.h}[g](k)
    qc.barrier()
    qc.measure(range(len(bits)), range(len(bits)))
    qc.metadata = {"hand": hand["number"], "bits": bits}
    return qc


GAME = QuantumPoker()

__all__ = ["GAME", "QuantumPoker", "hand_circuit", "ket", "named_state", "physics_counterfactual"]

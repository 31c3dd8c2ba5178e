"""QuantumPoker: poker with qubit cards and Pauli cards (rules: docs/rules/quantum-poker.md).

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
"value", "bet", "note", "note_message"}]}|None]}`` -- what physics mode would have given for
the same dealt cards and plays (all of that hand's cards are revealed by then; nothing of the
current hand). Its ``cards`` are the cards with a note only: those on which the two modes may
disagree (the others end the same in both, and the page says nothing of them).

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

from .analysis import physics_counterfactual
from .circuit import hand_circuit
from .flow import QuantumPoker
from .physics import _basis_amps, ket, named_state
from .texts import EVENT_TEXTS

GAME = QuantumPoker()

__all__ = ["EVENT_TEXTS", "GAME", "QuantumPoker", "_basis_amps", "hand_circuit", "ket", "named_state",
           "physics_counterfactual"]

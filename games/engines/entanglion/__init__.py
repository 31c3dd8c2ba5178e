"""Entanglion (IBM Research): a cooperative two-qubit game (rules: docs/rules/entanglion.md,
"the sheet"; §13 defaults, §14 which source wins).

Pure Python, no Django. ``GAME`` implements the shared engine protocol. Modules, one job each:
``planets`` (planets, kets, the path tables of §3 as data, ``move``), ``cards`` (engine and
event cards, components, dice, detection track), ``options`` (validated setup options),
``rules`` (drawing/PROBE, defense rolls, detection, quantum events, component effects, the
step queue), ``navigation`` (a card played for a ship: slot, move, circuit record, orbital
check or not), ``flow`` (the Game object, actions, views), ``kets`` (state text), ``analysis``,
``preview``, ``circuit`` (qiskit only there). ``BOARD`` (also in every view) is the static map
for drawing; ``describe(ships)`` the state text of any position.

Seats: exactly 2. Seat 0 = **Mercurial** (blue, qubit q0, the *left* factor of every ket),
seat 1 = **Rubicon** (red, q1). Variants: ``easy`` (detection starts on 1), ``hard`` (on 3).

Settled choices (beyond the sheet; §13 defaults are followed everywhere)
------------------------------------------------------------------------
* Hands (engine and event cards) are open to both partners; the decks' order and the seed are
  the only secrets (of nobody in particular: no seat sees them).
* Magnetic Shielding re-rolls automatically when a defense/PROBE roll fails (a player would
  never re-roll a pass). Die modifiers apply to defense checks and PROBE only (§13.11).
* Quantum Tunnel rides on the action it helps: ``{"play": C, "tunnel": true}`` (offered only
  when that move brings an orbital check) or ``{"retrieve": true, "tunnel": true}``.
* Qubit Interconnect: ``{"trade": ...}`` before the turn's action, once a turn, both ships on
  the same planet (option ``interconnect_anywhere`` drops that, §13.7); the holder decides.
* A card played while all 6 engine-control slots are full (only possible in The Mechanic) goes
  straight to the engine discard pile.
* An empty event deck is rebuilt from the event discard pile like Quantum Shuffle does.

Actions (JSON objects)
----------------------
On your turn (``view["phase"] == "play"``):
``{"play": "H"|"X"|"CNOT"|"SWAP"}`` (+ ``"tunnel": true``) Navigate; ``{"exchange": CARD}``;
``{"retrieve": true}`` (+ ``"tunnel": true``); ``{"event": "Heisenberg"}``,
``{"event": "The Mechanic"}``, ``{"event": "Bennett", "component": NAME}`` (a component on
either ship moves to the other); ``{"trade": {"give": CARD, "take": CARD}}`` (not an action).
Decisions (``view["pending"]``, the seat in ``to_act``):
``land``: ``{"land": {"mercurial": "ZERO"|"ONE", "rubicon": "ZERO"|"ONE"}}`` (Physical Qubits);
``discard``: ``{"discard": CARD}`` (Dilution Refrigerator); ``keep``: ``{"keep": CARD}``
(Quantum Gates); ``mechanic``: ``{"mechanic": CARD}`` or ``{"stop": true}``.

State (plain JSON; never sent to a client)
------------------------------------------
``{"game", "variant", "options", "players": 2, "seed", "actions", "ships": {"mercurial",
"rubicon"}, "detection": track index, "engine_control": [{"card", "seat"}],
"engine_stack"/"event_deck": [top first], "engine_discard", "event_discard",
"hands": [[...], [...]], "event_hands", "planet_components": {PLANET: COMPONENT},
"held": [[...], [...]], "turn", "first", "turn_number", "turn_flags", "pending", "queue",
"circuit": {"start": ships, "gates": [["h", q] | ["x", q] | ["cx", control, target] |
["swap", 0, 1]]}, "finished", "result": None|"won"|"lost", "events"}``.

View (``view(state, seat)``; seat None = spectator/teacher; the same facts for every seat)
------------------------------------------------------------------------------------------
``{"game", "variant", "seat", "ship": "mercurial"|"rubicon"|None, "players", "turn",
"turn_number", "first", "to_act", "phase": "play"|"land"|"discard"|"keep"|"mechanic"|"over",
"pending": None | {"kind", "seat", ["cards", "played", "aside"]},
"ships": {"mercurial": "ZERO", "rubicon": "PHI PLUS"...}, "inside": bool,
"galaxies": {ship: galaxy},
"state": {"ket": "(|00⟩+|01⟩+|10⟩−|11⟩)/2", "amplitudes": [a00, a01, a10, a11] (real),
"basis": ["00", "01", "10", "11"], "entangled", "symbol": "|ω2⟩", "ships": {ship: ket|None}},
"detection": {"index", "rate", "loss_index": 11, "pass_chance": {"0": p, "1": p}},
"engine_control": [{"card", "seat", "ship"}] (≤ 6, in slot order), "hands": [[...], [...]],
"hand_limits", "event_hands": [[...], [...]], "engine_stack": count, "engine_discard": [...],
"event_deck": count, "event_discard": [...],
"components": {"on_planets": {PLANET: NAME}, "held": {ship: [...]}, "found", "remaining",
"total"}, "can_trade", "dice": [roll events of the last action], "events": [last action's],
"options", "board": {"planets": [{"name", "galaxy", "colour", "ket", "x", "y"}], "paths":
[{"a", "b", "cards", "ships"}], "grid", "ring", "track", "slots", "components", "event_cards"},
"finished", "result", "outcome"}``.

Events: ``{"type", ...machine fields, "code", "params", "text"}``: ``text`` is the English
rendering of ``texts.EVENT_TEXTS[code] % params`` (declared as ``GAME.event_texts``; a param
may be a nested message ``{"code", "params"}``), so a page can render it in the reader's
language. Types: setup, roll (``die`` d8/d6, ``rolls``, ``modifier``, ``total``, ``need``,
``passed``, ``purpose``: orbital/ground/probe/heisenberg/spooky/first_player/placement/
landing), turn, play (codes no_effect/no_effect_kickback/enter/exit/move_inside/move_outside/swap_outside;
``before``, ``after``, ``slot``, ``via``), draw, probe, deck, engine_control (full/cleared),
orbital (not_seen/detected/skipped_programming), ground (retrieved/retrieve_failed), detection
(detection_up with ``cause`` probe/orbital/retrieval/schrodinger, bit_flip, wave_collapse),
move (detected_jump/chosen_jump/heisenberg), quantum_event (event_drawn, event_drawn_again),
event_card (kept, played, quantum_tunnel, bennett, spooky_action, spooky_nothing,
quantum_shuffle, mechanic_done), exchange, trade, discard, decision, game_end (won/lost).

Outcome: ``{"scores": [k, k] (components found), "winners": [0, 1] or [], "result",
"components", "turns", "detection"}``. ``analysis(state)``: routes per remaining component
(shortest card sequence from the open hands and with any cards), detection chances; teacher
only. ``preview(state, seat, action)``: see ``preview``. ``circuit(state)``: see ``circuit``.
"""
from __future__ import annotations

from .flow import BOARD, Entanglion
from .kets import describe

GAME = Entanglion()

__all__ = ["BOARD", "GAME", "Entanglion", "describe"]

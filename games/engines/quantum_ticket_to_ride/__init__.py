"""Quantum Ticket-to-Ride (rules: docs/rules/quantum-ticket-to-ride.md): claim gate routes
across a map, then run your mission qubit along your own routes.

Modules: ``register`` (the 2-qubit register, named states, fidelity, kets as text), ``maps``
(load + validate a map), ``search`` (the A* planner over (city, state), shared by map
validation, the bot and ``analysis``), ``paths`` (runnable paths, the register along a path),
``flow`` (the Game object), ``circuit`` (qiskit, imported lazily), ``analysis``.

Map format (JSON; ``maps/europe.json`` is the default)
-------------------------------------------------------
``{"name": str, "description": str,            # both optional, <= 500 characters
   "cities": [{"name": str (1..40 chars), "x": 0..1000, "y": 0..700}],
   "routes": [{"a": city, "b": city, "gate": "I"|"X"|"Y"|"Z"|"H"|"CNOT", "length": 1..6}],
   "missions": [{"id": str (1..40 chars, unique), "start": city, "target": city,
                 "initial_state": "0"|"1"|"+"|"-",            # q0; q1 always starts in |0⟩
                 "target_state": one-qubit "0"|"1"|"+"|"-", or two-qubit "00"|"01"|"10"|"11"|
                                 "+0"|"-0"|"+1"|"-1"|"Phi+"|"Phi-"|"Psi+"|"Psi-" (q0 first),
                 "qubits": 1|2, "level": "basic"|"intermediate"|"advanced"}]}``
Routes are undirected, at most one between two cities; a route's index is its place in the
list. x grows eastwards, y southwards (SVG). Levels: basic = one qubit, |0⟩/|1⟩ only;
intermediate = one qubit with |+⟩ or |−⟩; advanced = two qubits. Caps: 60 cities, 150 routes,
200 missions. Validation (``maps.validate_map``) also wants a connected map and every mission
solvable on the empty board (by ``search.plan``, the bot's search); it raises ``MapError``
whose ``problems`` name every problem found.

Register (settled)
------------------
q0 is the mission qubit, q1 starts in |0⟩; I X Y Z H act on q0, CNOT is q0 → q1; a route of
length N applies its gate N times, in the order travelled. One-qubit missions compare q0's
reduced state with the target, two-qubit missions the whole register; a match is fidelity 1
within 1e-9, global phase ignored.

Variants and options
--------------------
Variant = the mission level dealt: "basic", "intermediate", "advanced" or "mixed" (all).
Options: ``{"map": <map dict>}`` (optional; validated, else ``IllegalAction("bad_map")``).

Turns (settled)
---------------
Setup: 72 gate cards (12 each of I X Y Z H CNOT) shuffled; 5 cards and 1 mission (of the
variant's level, all different) to each player; a random order. Hand limit 12.
A turn has up to two steps of the same seat:

1. step "act": ``{"draw": true}`` takes the top two cards of the pile (fewer if the pile or the
   hand limit allows fewer; not allowed with an empty pile or 12 cards), or
   ``{"claim": route}`` claims an unclaimed route by discarding exactly N cards of its gate
   (N its length), or ``{"pass": true}`` -- only when the seat can neither draw nor claim.
2. step "run" -- only when the seat owns at least one route (public, so the step reveals
   nothing about the secret mission): ``{"run": [city, ...]}`` runs a simple path along the
   seat's own routes from its mission's start to its target, or ``{"pass": true}`` ends the
   turn without running. A run that matches wins at once; else play goes on (the routes
   stay claimed) and only the runner learns the result.

When the pile is empty at the end of a turn, every player (from the next one; the one who
emptied it last) has one last turn; then the longest total of claimed route lengths wins, ties
share. If at the end of a turn nobody can draw or claim any more, the game ends the same way
(reason "blocked").

State (plain JSON; secret -- never send it to a client)
-------------------------------------------------------
``{"game", "variant", "options", "players", "seed", "actions", "map" (validated map),
"pile": [gate] (top = last), "discard": [gate], "hands": [[gate] per seat],
"missions": [mission per seat], "order": [seats], "turn": seat, "step": "act"|"run"|None,
"owners": [seat|None per route], "final_round": bool, "last_turns": [seats],
"runs": [Run], "finished": bool, "result": outcome|None, "events": [events of the last action]}``.
Run: ``{"seat", "action", "mission", "cities", "routes", "gates" (each application), "ket"
(register), "q0" (q0's ket or None if entangled), "amplitudes", "fidelity", "match"}``.

View (``view(state, seat)``; seat None = spectator, sees no hand and no mission)
-------------------------------------------------------------------------------
``{"game", "variant", "players", "seat", "map": {"name", "description", "cities",
"missions" (the whole public deck of the map; who holds which is secret),
"routes": [{"index", "a", "b", "gate", "length", "owner"}]}, "order", "turn", "step",
"to_act", "pile" (count), "discard" (count), "hand_limit", "final_round", "last_turns",
"seats": [{"seat", "cards" (count), "claimed": [route], "claimed_length", "mission" (own, or
everyone's once finished, else None)}], "hand": [gate]|None (own), "mission": own|None,
"can_draw", "run_paths": [Trace] (own paths start → target now runnable), "runs": [own Run],
"winning_run": Run|None, "events", "finished", "outcome"}``.
Trace (``paths.trace``): ``{"cities", "routes", "gates", "steps": [{"from", "to", "route",
"gate", "length", "ket", "q0", "amplitudes", "bloch"}], "ket", "q0", "amplitudes", "bloch",
"fidelity", "match"}`` -- the register after each route (q0's Bloch vector from its reduced
state: shorter than 1 while entangled).

Events (``type``, machine ``code``, parameters, English ``text``)
-----------------------------------------------------------------
setup {order, hand}; mission {seat, mission} (private: ``visible_to`` its holder);
turn {seat} (code turn | last_turn); draw {seat, count, pile}; drew {seat, cards} (private);
claim {seat, route, a, b, gate, length}; pass {seat} (code cannot_act); may_run {seat};
run {seat, cities, gates, ket, q0, fidelity, mission, match} -- code mission_complete
(public) or run_no_match (private); turn_end {seat}; last_round; game_end {reason, winners,
scores, missions} (code game_end_mission | game_end_pile_empty | game_end_blocked).

Outcome: ``{"reason": "mission"|"pile_empty"|"blocked", "scores": [claimed length per seat],
"winners": [seats], "missions": [per seat], "completed": [seats]}``.

Abilities (declared on the Game)
--------------------------------
* ``preview(state, seat, action)``: a run preview traces the register along any simple path
  of the map from the seat's own mission start (a prefix is fine; routes need not be claimed)
  -- ``{"kind": "run", "trace": Trace, "owned", "complete", "runnable"}`` -- for the path
  picker; also claim and pass previews (a draw is chance: ``IllegalAction("no_preview")``).
* ``analysis(state)``: public ``claimed_length`` per seat; teacher-only ``players`` (per seat:
  mission, connected, possible, ``plan`` {cities, routes, to_claim, ket}, ``cards_needed``,
  ``cards_missing`` per gate) and ``closest`` (seats needing the fewest cards).
* ``circuit(state)``: the last run's circuit (``circuit.run_circuit``: 2 qubits, measured in
  the target's basis; ``metadata["success"]`` = the outcome keys meaning success, whose
  probability is the fidelity); before any run, the first player's prepared qubit
  (``metadata["ran"]`` False). ``simulator.scoring`` scores it as success 1 / failure 0.
"""
from __future__ import annotations

from .flow import GAME, QuantumTicketToRide, mission_text
from .maps import MapError, default_map, load_map, validate_map
from .paths import runnable_paths, trace
from .search import Plan, plan

__all__ = ["GAME", "MapError", "Plan", "QuantumTicketToRide", "default_map", "load_map",
           "mission_text", "plan", "runnable_paths", "trace", "validate_map"]

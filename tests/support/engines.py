"""What the engine conformance suite (tests/test_engine_conformance.py) needs per game.

Every engine in ``list_games()`` has a ``GameSpec`` here, registered by slug: which options a
random match may use, and — for a game with secrets — a *twin* builder: ``twin(state, seat)``
returns the same state with every secret that ``seat`` may not know changed, so that
``view(twin(state, seat), seat) == view(state, seat)`` proves the view leaks none of them.
A game declares ``has_secrets=False`` (everything is public) or registers a twin; the suite
fails for an engine that does neither.

Twins change only data the contract says is secret (hidden card values, other hands, the deck,
the seed, private events); they do not depend on rule details beyond the state's field names.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engines import Game, IllegalAction, clone

State = dict[str, Any]
Twin = Callable[[State, "int | None"], State]


@dataclass(frozen=True)
class GameSpec:
    has_secrets: bool
    twin: Twin | None = None
    options: Callable[[random.Random, str], dict] = field(default=lambda rng, variant: {})


@dataclass
class Playout:
    """One seeded random match: everything needed to replay it and what happened live."""

    game: Game
    players: int
    variant: str
    options: dict
    seed: int
    log: list[tuple[int, dict]]
    states: list[State]             # initial state, then after each action
    events: list[list[dict]]        # events of each action


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True)


def round_trip(obj: Any) -> Any:
    return json.loads(json.dumps(obj))


# --- QuantumPoker ------------------------------------------------------------------------

def _poker_options(rng: random.Random, variant: str) -> dict:
    return {"community_cards": rng.randint(1, 10), "hands": rng.randint(1, 2),
            "physics_mode": rng.random() < 0.5}


def _flip_amps(amps: list) -> list:
    """X on a single-qubit state [[re, im], [re, im]]: swap the amplitudes."""
    return [list(amps[1]), list(amps[0])]


def _phase_amps(amps: list) -> list:
    """Z: negate the |1> amplitude (a relative phase nobody can observe)."""
    return [list(amps[0]), [-amps[1][0], -amps[1][1]]]


def recall_oracle(state: dict) -> dict:
    """Per card id of the current hand: the seats that can know its value/state from what they
    saw (the deal of their own cards, the public plays log), and whether the whole table can.

    Worked out from the public log only, independently of the engine's bookkeeping: a holder
    looks at a card with a definite value; X, Y, CX, Z and SWAP are public and followed; a
    shown card is public; in the simplified game a first H erases the value and a second H is
    a coin (seen by all if the card is shown, else by its holder only); in physics mode H is a
    public unitary, so whoever knew the state still knows it."""
    hand = state["hand"]
    physics = state["options"]["physics_mode"]
    order = hand["order"]
    layout: dict[int, list[str]] = {s: [] for s in order}
    for k in range(4 * len(order)):
        layout[order[k % len(order)]].append(f"h{hand['number']}-q{k}")
    know = {cid: {s} for s in order for cid in layout[s]}
    public = dict.fromkeys(know, False)
    shown = dict.fromkeys(know, False)
    sup = dict.fromkeys(know, False)

    def settle(cid: str, holder: int) -> None:
        if not sup[cid]:
            know[cid].add(holder)
            if shown[cid]:
                public[cid] = True

    for p in hand["plays"]:
        if p.get("declare"):
            for cid in layout[p["seat"]]:
                shown[cid] = True
                settle(cid, p["seat"])
            continue
        t = p["target"]
        if p["kind"] == "SWAP":
            me, own = p["seat"], p["own"]
            layout[me][own], layout[t["seat"]][t["qubit"]] = (layout[t["seat"]][t["qubit"]],
                                                              layout[me][own])
            settle(layout[me][own], me)
            settle(layout[t["seat"]][t["qubit"]], t["seat"])
            continue
        cid = layout[t["seat"]][t["qubit"]]
        if p["kind"] == "Y":
            shown[cid] = not shown[cid]
        if p["kind"] == "H":
            if physics:
                sup[cid] = not sup[cid]
            elif not sup[cid]:
                sup[cid], know[cid], public[cid] = True, set(), False
            else:
                sup[cid], know[cid] = False, {t["seat"]}
                public[cid] = shown[cid]
        settle(cid, t["seat"])
    return {cid: (know[cid], public[cid] or shown[cid]) for cid in know}


def knows(oracle: dict, cid: str, seat: int | None) -> bool:
    seats, table = oracle[cid]
    return table or (seat is not None and seat in seats)


def poker_twin(state: State, seat: int | None) -> State:
    """Change what ``seat`` cannot know: the seed, other seats' dealt values, every value of
    the hand that ``seat`` has not seen nor followed (``recall_oracle``), phases of superposed
    qubits, private events of others."""
    other = clone(state)
    other["seed"] += 987654321
    physics = other["options"]["physics_mode"]
    oracle = recall_oracle(state) if state["hand"]["phase"] == "play" else {}
    for hand in [other["hand"], *other["history"]]:
        live = hand is other["hand"] and hand["phase"] != "over"
        for owner, cards in enumerate(hand["qubits"]):
            for q in cards:
                if owner != seat:
                    q["initial"] ^= 1
                if not live or (oracle and knows(oracle, q["id"], seat)):
                    continue
                if q["superposed"]:
                    if physics:
                        q["amps"] = _phase_amps(q["amps"])
                elif not q["shown"] and owner != seat:
                    q["value"] ^= 1
                    if physics:
                        q["amps"] = _flip_amps(q["amps"])
    for event in other["events"]:
        if "visible_to" in event and seat not in event["visible_to"]:
            if isinstance(event.get("value"), int):
                event["value"] ^= 1
            event["text"] += " (changed)"
    return other


# --- QTris -------------------------------------------------------------------------------

def qtris_twin(state: State, seat: int | None) -> State:
    """Change what ``seat`` cannot know: the seed, the deck's order and cards, the cards in
    the other sides' hands and the face-down discards."""
    other = clone(state)
    other["seed"] += 987654321
    cards = sorted({c for hand in other["hands"] for c in hand} | set(other["deck"])
                   | set(other["discard_pile"]) | {"X", "H", "Z"})

    def changed(card: str) -> str:
        return cards[(cards.index(card) + 1) % len(cards)]

    other["deck"] = [changed(c) for c in reversed(other["deck"])]
    own_side = None if seat is None else seat % other["n_sides"]
    for side, hand in enumerate(other["hands"]):
        if side != own_side:
            other["hands"][side] = [changed(c) for c in reversed(hand)]
    other["hidden_discards"] = [changed(c) if isinstance(c, str) else c
                                for c in other["hidden_discards"]]
    return other


def _entanglion_options(rng: random.Random, variant: str) -> dict:
    """Entanglion: sometimes a given start inside Entanglion, a house rule or a start rate."""
    options: dict = {}
    if rng.random() < 0.3:
        planet = rng.choice(["PHI PLUS", "OMEGA TWO", "PSI MINUS"])
        options["ships"] = {"mercurial": planet, "rubicon": planet}
    if rng.random() < 0.3:
        options["start_rate"] = rng.choice([1, 2, 3])
    if rng.random() < 0.3:
        options["interconnect_anywhere"] = True
    return options


# --- Quantum Ticket-to-Ride -------------------------------------------------------------

def ttr_twin(state: State, seat: int | None) -> State:
    """Change what ``seat`` cannot know: the seed, the pile's order and cards, the other
    seats' hands (same sizes), their secret missions while the game runs, their failed runs
    and the private events of others."""
    other = clone(state)
    other["seed"] += 987654321
    gates = ["I", "X", "Y", "Z", "H", "CNOT"]

    def changed(card: str) -> str:
        return gates[(gates.index(card) + 1) % len(gates)]

    other["pile"] = [changed(c) for c in reversed(other["pile"])]
    pool = other["map"]["missions"]
    for s in range(other["players"]):
        if s == seat:
            continue
        other["hands"][s] = sorted((changed(c) for c in other["hands"][s]), key=gates.index)
        if not other["finished"]:
            mine = other["missions"][s]
            others = [m for m in pool if m["id"] != mine["id"]]
            other["missions"][s] = dict(others[(s + len(other["runs"])) % len(others)])
    for run in other["runs"]:
        if run["seat"] != seat and not run["match"]:
            run["fidelity"] = round(1 - run["fidelity"], 10)
            run["cities"] = list(reversed(run["cities"]))
    for event in other["events"]:
        if "visible_to" in event and seat not in event["visible_to"]:
            event["text"] += " (changed)"
            if "cards" in event:
                event["cards"] = [changed(c) for c in event["cards"]]
    return other


SPECS: dict[str, GameSpec] = {
    "quantum-tictactoe": GameSpec(has_secrets=False),
    # co-op: hands and kept event cards are open between the partners (sheet §4, §13.12); the
    # decks' order is hidden from both seats alike (tests/engines/test_entanglion_view.py)
    "entanglion": GameSpec(has_secrets=False, options=_entanglion_options),
    "quantum-poker": GameSpec(has_secrets=True, twin=poker_twin, options=_poker_options),
    "qtris": GameSpec(has_secrets=True, twin=qtris_twin,
                      options=lambda rng, variant: {"skip_mulligan": True}
                      if rng.random() < 0.3 else {}),
    "quantum-ticket-to-ride": GameSpec(has_secrets=True, twin=ttr_twin),
}


def spec_for(game: Game) -> GameSpec:
    if game.slug not in SPECS:
        raise LookupError(f"{game.slug!r} has no GameSpec in tests/support/engines.py: declare "
                          "has_secrets=False or register a twin for its secrets")
    return SPECS[game.slug]


# --- random matches ----------------------------------------------------------------------

def random_setup(game: Game, variant: str, rng: random.Random) -> tuple[State, int, dict, int]:
    """A seeded random table for ``variant``: a player count it accepts, random options."""
    counts = list(range(game.min_players, game.max_players + 1))
    rng.shuffle(counts)
    options = spec_for(game).options(rng, variant)
    seed = rng.randrange(10**9)
    for players in counts:
        try:
            return game.setup(players=players, variant=variant, seed=seed,
                              options=clone(options)), players, options, seed
        except IllegalAction:
            continue
    raise AssertionError(f"{game.slug}/{variant}: no player count is accepted")


def playout(game: Game, variant: str, seed: int, max_actions: int = 400) -> Playout:
    """A seeded random match: a random seat in ``to_act`` takes a random legal action."""
    rng = random.Random(f"{game.slug}:{variant}:{seed}")
    state, players, options, match_seed = random_setup(game, variant, rng)
    match = Playout(game, players, variant, options, match_seed, [], [state], [])
    while game.outcome(state) is None and len(match.log) < max_actions:
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        state, events = game.apply(state, seat, action)
        match.log.append((seat, action))
        match.states.append(state)
        match.events.append(events)
    return match


# --- junk --------------------------------------------------------------------------------

JUNK_VALUES = [None, True, False, -1, 10**6, 2**70, 1.5, "", "1", "zz", [], {}, [None],
               {"zz": 0}, [[1]]]


def junk_action(rng: random.Random, legal: list[dict]) -> Any:
    """A malformed action: wrong type, a legal action with one field broken, missing or
    extra. Legal actions' values are replaced by wrong types or out-of-range values only."""
    kind = rng.randrange(6)
    if kind == 0 or not legal:
        return rng.choice([None, 0, 1, "act", [], [{}], True, 3.5, {}, legal[:1]])
    action = clone(rng.choice(legal))
    key = rng.choice(sorted(action))
    if kind == 1:                               # a field of the wrong type or range
        action[key] = rng.choice(JUNK_VALUES)
    elif kind == 2:                             # a field missing
        del action[key]
        if not action:
            return {}
    elif kind == 3:                             # an unknown field beside legal ones
        action[rng.choice(["zz", "seat", "extra"])] = rng.choice(JUNK_VALUES[:6])
    elif kind == 4 and isinstance(action[key], list) and action[key]:
        inner = action[key]                     # one element of a list broken
        inner[rng.randrange(len(inner))] = rng.choice(JUNK_VALUES)
    elif kind == 4 and isinstance(action[key], dict) and action[key]:
        inner = action[key]                     # one sub-field broken
        inner[rng.choice(sorted(inner))] = rng.choice(JUNK_VALUES)
    else:                                       # a key of the wrong type
        return {rng.choice([1, "Card", key.upper()]): action[key]}
    return action


def junk_seat(rng: random.Random, state: State, game: Game, players: int) -> Any:
    """Mostly a seat that is to act; else another seat or something that is no seat."""
    to_act = game.to_act(state)
    if to_act and rng.random() < 0.7:
        return rng.choice(to_act)
    return rng.choice([*(s for s in range(players) if s not in to_act), -1, players, None,
                       True, "0", 0.0])

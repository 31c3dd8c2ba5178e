"""The ``QuantumPoker`` game object: set-up, turns, actions, the end (formats: package docstring)."""
from __future__ import annotations

from typing import Any

from ..base import (
    Abilities,
    Action,
    Event,
    Evidence,
    State,
    clone,
    event,
    events_for,
    gettext_noop,
    is_int,
    moment,
    successor,
)
from ..contract import Engine
from . import evidence
from .analysis import _p1_exact, _p1_public, _round, _score_dist, _win_odds, physics_counterfactual
from .cards import (
    ACTIONS,
    DEFAULT_OPTIONS,
    OPTIONS,
    OWN_KINDS,
    QUBITS_PER_PLAYER,
    SLUG,
    _start_hand,
)
from .circuit import hand_circuit
from .guide import GUIDE
from .physics import ket
from .rules import _advance, _can_declare, _check_move, _play
from .showdown import _showdown
from .statistics import PokerScorer, poker_scorer
from .texts import EVENT_TEXTS, _player
from .view import build_view

# what an action only appends to (``successor``): the finished hands
APPEND_ONLY = ("history",)

# --------------------------------------------------------------------------- the game

class QuantumPoker(Engine):
    slug = SLUG
    # bump when a stored game would replay differently (engines/base.py). 2: the teaching point
    # after a simplified hand lists its noted cards only (``with_rules(1)``: every card)
    rules_version = 2
    older_rules_versions: tuple[int, ...] = (1,)
    every_teaching_card = False
    name = "QuantumPoker"
    event_texts = EVENT_TEXTS
    evidence_texts = evidence.EVIDENCE_TEXTS
    finish_rule = gettext_noop("When time is up, the hand in progress goes to showdown as it "
                               "stands; then the most chips win.")
    min_players = 2
    max_players = 5
    variants = ("classic", "declared")
    variant_names = {"classic": gettext_noop("classic"), "declared": gettext_noop("declared measurement")}
    how_to_play = GUIDE
    actions = ACTIONS
    options = OPTIONS
    # players see the odds from public knowledge only; the exact odds (which would tell the
    # hidden values) are the teacher's; a circuit only in physics mode
    abilities = Abilities(
        public_analysis_keys=("hand", "phase", "mode", "expected_public", "p_win_public"),
        teacher_only_analysis_keys=("expected_exact", "p_win", "p_split", "qubits",
                                    "physics_counterfactual", "teacher_only"),
        circuit=True, circuit_option="physics_mode",
        teaching_moments=True,
        concept_evidence=True,  # what a play shows of its player's understanding (evidence.py)
        public_analysis=True,  # a player's odds computed alone (``public_analysis``)
    )

    def scorer(self, state: State, circuit: Any = None) -> PokerScorer:
        """The seats' scores of the measured qubit cards (``NotScorable`` without physics mode)."""
        return poker_scorer(state, circuit)

    AGAINST_ODDS = 0.3  # showdown outcomes with at most this chance together are "against the odds"

    def concept_evidence(self, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
        return evidence.concept_evidence(self, before, seat, action, after)

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

    def start(self, players: int, variant: str, seed: int, options: dict) -> State:
        """The first hand dealt (``Engine.setup`` has checked the arguments)."""
        opts = {**DEFAULT_OPTIONS, **options}
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

    def is_over(self, state: State) -> bool:
        return state["finished"]

    def play(self, state: State, seat: int, kind: str, action: Action) -> tuple[State, list[Event]]:
        """A card played or measurement declared by the seat to act (``Engine.apply``)."""
        move = _check_move(state, seat, kind, action)
        new = successor(state, APPEND_ONLY)
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
        new = successor(state, APPEND_ONLY)
        n = new["actions"] + 1
        new["actions"] = n
        events: list[Event] = [event(EVENT_TEXTS, "time_up", "time_up")]
        _showdown(new, n, events, last=True)
        new["events"] = events
        return new, events


    # ----------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict:
        return build_view(self, state, seat)

    def with_rules(self, version: int) -> QuantumPoker:
        """The engine of an older rules version: 1 showed every card in the teaching point."""
        return _QuantumPokerRules1()

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

        Public (``public_analysis``): ``expected_public``, ``p_win_public`` (hidden values 50/50
        unless the table can deduce them, superposed 50/50). Teacher-only: ``expected_exact``,
        ``p_win``, ``p_split`` (exact, enumerating coin flips / Born outcomes of the true state),
        ``qubits`` (per card P(1), kets) and ``physics_counterfactual``.
        """
        hand = state["hand"]
        physics = state["options"]["physics_mode"]
        qubits: list[list[dict] | None] = []
        for s in range(state["players"]):
            if not hand["in_hand"][s]:
                qubits.append(None)
                continue
            rows = []
            for slot, q in enumerate(hand["qubits"][s]):
                row = {"id": q["id"], "slot": slot, "p1": _p1_exact(q, physics), "p1_public": _p1_public(q, physics),
                       "bet": q["bet"], "superposed": q["superposed"]}
                if physics:
                    row["amps"] = clone(q["amps"])
                    row["ket"] = ket(q["amps"])
                else:
                    row["ket"] = ("superposed: H erased the value, a coin decides"
                                  if q["superposed"] else f"|{q['value']}⟩")
                rows.append(row)
            qubits.append(rows)
        expected_exact, p_win, p_split = _odds(_cards(qubits, "p1"))
        return {
            **_public_part(state, _cards(qubits, "p1_public")),
            "expected_exact": expected_exact,
            "p_win": p_win,
            "p_split": p_split,
            "qubits": qubits,
            "physics_counterfactual": physics_counterfactual(state),
            "teacher_only": [k for k in self.abilities.teacher_only_analysis_keys
                             if k != "teacher_only"],
        }

    def public_analysis(self, state: State) -> dict:
        """The public keys of ``analysis`` alone (a player's odds): from what the whole table knows."""
        hand = state["hand"]
        physics = state["options"]["physics_mode"]
        return _public_part(state, [[(_p1_public(q, physics), q["bet"]) for q in hand["qubits"][s]]
                                    if hand["in_hand"][s] else None for s in range(state["players"])])

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


def _odds(cards: list[list[tuple[float, int]] | None]) -> tuple[list[float | None], list, list]:
    """Each seat's expected score and the win odds (``p_win``, ``p_split``) from its cards'
    (P(1), bet), None for a seat out of the hand."""
    expected = [None if c is None else _round(sum(p1 * bet for p1, bet in c)) for c in cards]
    p_win, p_split = _win_odds([None if c is None else _score_dist(c) for c in cards])
    return expected, p_win, p_split


def _cards(qubits: list[list[dict] | None], p1: str) -> list[list[tuple[float, int]] | None]:
    """Each seat's cards of the analysis' ``qubits`` as (the P(1) under key ``p1``, bet)."""
    return [None if rows is None else [(r[p1], r["bet"]) for r in rows] for rows in qubits]


def _public_part(state: State, cards: list[list[tuple[float, int]] | None]) -> dict:
    """The public keys of the analysis, from each seat's cards' public (P(1), bet)."""
    hand = state["hand"]
    expected_public, p_win_public, _ = _odds(cards)
    return {
        "hand": hand["number"],
        "phase": hand["phase"],
        "mode": "physics" if state["options"]["physics_mode"] else "simplified",
        "expected_public": expected_public,
        "p_win_public": p_win_public,
    }


class _QuantumPokerRules1(QuantumPoker):
    """QuantumPoker as first recorded: the same game; only the view of a finished hand's
    teaching point differs (every card of the hand, not the noted ones alone)."""
    rules_version = 1
    older_rules_versions = ()
    every_teaching_card = True

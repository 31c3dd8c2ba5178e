"""QTris game flow: setup, phases, turns, measurement and scoring (the ``Game`` object).

Sides and seats
---------------
``n_sides`` is 2 (3 for ``eve``: side 0 Alice, 1 Eve, 2 Bob). Seat ``s`` belongs to side
``s % n_sides``; any seat of a side may act for it, ``to_act`` lists all seats of the awaited
side(s), every seat of a side sees its side's hand.

Phases and actions
------------------
* ``roll``: each side ``{"roll": true}`` (d10; ties for the highest re-roll among the tied).
* ``color``: the winner ``{"color": "white" | "black"}``; the winner plays first.
* ``mulligan``: all sides at once ``{"mulligan": [indexes into the hand, or card names]}``
  (``[]`` keeps); draws as many (eve: n−1).
* ``operations``: turns alternate (5 each); a turn starts with an automatic draw (2; eve:
  Alice/Bob 1, Eve 2). The noise variant is the rulebook's general rule (§3.4.3): the normal
  game with a d10 noise roll after every turn; its option ``noise_exercise`` is the exercise
  3.4.5 structure (4 turns each, no draw at the start, 2 cards drawn after the roll). Plays:
  ``{"card": "X", "squares": [5]}``, ``{"card": "CX", "squares": [control, target]}``,
  ``{"card": "I"}``, ``{"card": "CX", "discard": true}`` (only when the card has no legal
  target). Eve, once per set, as her whole turn: ``{"eve_measure": {"squares": [s] | [a, b],
  "basis": "color" | "left-right" | "up-down"}, "discard": ["X", "H"]}``.
* ``over``: no actions. Measurement and scoring happen automatically after the last play.

State (``json.loads(json.dumps(state)) == state``)
-------------------------------------------------
``{"game": "qtris", "variant", "seed", "players", "n_sides", "action_number", "phase",
"board": [components, see board.py], "deck": [cards, top first], "hands": [[cards] per side],
"discard_pile" (cards played or discarded face up), "hidden_discards" (mulligan, Eve), "colors": [per side] | None, "first_side", "rolls", "roll_pending",
"color_chooser", "mulligan_pending", "turn": {"index", "side", "plays_left"} | None,
"turns_per_side", "eve_measure_used", "set_number", "scores": [per side], "sets": [...],
"final_board": [9 bits] | None, "lines": {"white", "black"} | None, "circuit_ops": [...],
"events": [last events]}``.

Events are dicts with ``type`` and a ``text`` for people; they never name hidden cards.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from games.engines.base import (
    Abilities,
    Action,
    Event,
    Evidence,
    IllegalAction,
    State,
    chance,
    clone,
    event,
    gettext_noop,
    is_int,
    message,
    ngettext_lazy,
    successor,
)
from games.engines.contract import Engine
from games.engines.schema import (
    Actions,
    Anything,
    Bool,
    Int,
    ListOf,
    Maybe,
    Obj,
    OneOf,
    Options,
    Text,
    TrueOnly,
)

from . import evidence, moments
from . import tiles as T
from .analysis import analyse_board
from .board import (
    LABELS,
    Board,
    BoardError,
    component_index,
    display_squares,
    final_measurement,
    measure_seen,
    measure_unseen,
    noise_squares,
    parse_board,
    random_board,
    seen_roll,
)
from .cards import CARDS, check_play, deck_composition, full_deck, legal_targets
from .exercises import EXERCISE_EXAMPLES
from .guide import GUIDE
from .preview import explain_play, explain_text
from .preview import preview as preview_play
from .scoring import eve_points, score_of_outcome
from .statistics import QTrisScorer
from .texts import EVENT_TEXTS

VARIANTS = ("basic", "advanced", "noise", "s-expansion", "eve")
SIDE_NAMES = {2: ["Alice", "Bob"], 3: ["Alice", "Eve", "Bob"]}
HAND_SIZE = 4
BASES = ("color", "left-right", "up-down")
EVENTS_KEPT = 40
# what an action only appends to (``successor``): the recent events and the circuit's log
APPEND_ONLY = ("events", "circuit_ops")
COLORS = ("white", "black")
# the shapes of the options and actions (checked by ``Engine``; the rules by hand below)
OPTIONS = Options(board=Maybe(Anything()), pairs=Maybe(Anything()),
                  hands=Maybe(ListOf(ListOf(Text()))), deck=Maybe(ListOf(Text())),
                  first_seat=Maybe(Int()), colors=Maybe(ListOf(OneOf(*COLORS))),
                  skip_mulligan=Bool(), noise_exercise=Bool())
ACTIONS = Actions(
    roll=Obj(roll=TrueOnly()),
    color=Obj(color=OneOf(*COLORS)),
    mulligan=Obj(mulligan=ListOf(Anything())),      # card indexes or names: checked by hand
    eve_measure=Obj(eve_measure=Obj(squares=ListOf(Int(1, 9), 1, 2), basis=OneOf(*BASES)),
                    discard=ListOf(Text(), 2, 2)),
    card=Obj(card=Text(), optional={"squares": ListOf(Int(1, 9), 0, 2), "discard": TrueOnly()}),
)
# the actions each phase takes
PHASE_ACTIONS = {"roll": ("roll",), "color": ("color",), "mulligan": ("mulligan",),
                 "operations": ("card", "eve_measure")}


def _illegal(code: str, message: str, params: dict | None = None) -> IllegalAction:
    return IllegalAction(code, message, params)


def n_sides_of(variant: str) -> int:
    return 3 if variant == "eve" else 2


def seats_of_side(state: State, side: int) -> list[int]:
    return [s for s in range(state["players"]) if s % state["n_sides"] == side]


def side_of_seat(state: State, seat: int) -> int:
    return seat % state["n_sides"]


def turns_per_side(variant: str, noise_exercise: bool = False) -> int:
    """5 turns each (the rulebook's general rule, noise included); 4 in the noise variant's
    exercise-3.4.5 structure."""
    return 4 if variant == "noise" and noise_exercise else 5


def turn_draws(variant: str, side: int, noise_exercise: bool = False) -> int:
    """Cards drawn at the start of a turn (the exercise-3.4.5 noise structure draws after)."""
    if variant == "noise" and noise_exercise:
        return 0
    if variant == "eve":
        return 2 if side == 1 else 1
    return 2


def turn_plays(variant: str, side: int) -> int:
    if variant == "eve":
        return 2 if side == 1 else 1
    return 2


def turn_order(state: State) -> list[int]:
    if state["variant"] == "eve":
        return [0, 1, 2]
    f = state["first_side"]
    return [f, 1 - f]


class QTris(Engine):
    slug = "qtris"
    rules_version = 1  # bump when a stored game would replay differently (engines/base.py)
    name = "QTris"
    event_texts = EVENT_TEXTS
    finish_rule = gettext_noop("When time is up, the board is measured as it stands and scored "
                               "(as at the normal end).")
    min_players = 2
    max_players = 9
    variants = VARIANTS
    actions = ACTIONS
    options = OPTIONS
    variant_names = {"basic": gettext_noop("basic"), "advanced": gettext_noop("advanced"),
                     "noise": gettext_noop("noise (mixed states)"), "s-expansion": gettext_noop("S expansion"),
                     "eve": gettext_noop("Eve listens in")}
    # the analysis is computed from the public board only: players may see all of it (unless
    # the teacher hides the odds), and so the statistics pages mid-game
    abilities = Abilities(
        luck=True,  # actual minus exact expected score (``luck``)
        preview=True,
        preview_odds_keys=("analysis", "delta"),
        public_analysis_keys=("p_white", "expected_qtris", "p_win", "kets", "tiles", "eve",
                              "expected_scores", "p_win_sides"),
        live_odds=True,
        circuit=True,
        teaching_moments=True,
        concept_evidence=True,  # what a play shows of its side's understanding (evidence.py)
        teams=True,  # the seats of a side (``seats_of_side``) share its decisions
        side_odds=True,  # the scores are per side (colour): ``side_odds``
        exercises=True,  # a teacher composes starting positions (``options``): exercise mode
    )
    exercise_examples = EXERCISE_EXAMPLES
    how_to_play = GUIDE
    exercise_variant = "advanced"
    evidence_texts = evidence.EVIDENCE_TEXTS

    def side_odds(self, state: State) -> dict:
        """Each side's exact expected score and chance to win (once the colours are known) and
        the side that started, for the session's results."""
        analysis = self.analysis(state)
        return {"expected": analysis.get("expected_scores"), "p_win": analysis.get("p_win_sides"),
                "first": state.get("first_side")}

    def scorer(self, state: State, circuit: Any = None) -> QTrisScorer:
        """The scores of the measured boards (the circuit measures square k into bit k-1)."""
        return QTrisScorer(state)

    def team_of(self, state: State, seat: int) -> int:
        return side_of_seat(state, seat)

    def teaching_moments(self, events: list[Event], history: list[list[Event]]) -> list[dict]:
        return moments.teaching_moments(events, history)

    def concept_evidence(self, before: State, seat: int, action: Action, after: State) -> list[Evidence]:
        return evidence.concept_evidence(self, before, seat, action, after)

    # ------------------------------------------------------------------ setup

    def player_range(self, variant: str) -> tuple[int, int]:
        return max(2, n_sides_of(variant)), self.max_players

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def not_your_turn(self, state: State, seat: int) -> IllegalAction:
        return _illegal("not_your_turn", gettext_noop("seat %(seat)s may not act now (waiting for "
                                                      "seats %(seats)s)"),
                        {"seat": seat, "seats": ", ".join(map(str, self.to_act(state)))})

    def start(self, players: int, variant: str, seed: int, options: dict) -> State:
        """The board, the hands and the order set up (``Engine.setup`` checked the shapes)."""
        n_sides = n_sides_of(variant)
        noise_exercise = options.get("noise_exercise", False)
        if noise_exercise and variant != "noise":
            raise _illegal("bad_option", gettext_noop("noise_exercise is an option of the noise variant"))
        state: State = {
            "game": "qtris", "variant": variant, "seed": seed, "players": players,
            "n_sides": n_sides, "action_number": 0, "phase": "roll",
            "board": [], "deck": [], "hands": [[] for _ in range(n_sides)], "discard_pile": [],
            "hidden_discards": [],
            "colors": None, "first_side": 0, "rolls": {}, "roll_pending": [],
            "color_chooser": None, "mulligan_pending": [], "turn": None,
            "turns_per_side": turns_per_side(variant, noise_exercise),
            "noise_exercise": noise_exercise, "eve_measure_used": False,
            "set_number": 1, "scores": [0] * n_sides, "sets": [], "final_board": None,
            "lines": None, "circuit_ops": [], "events": [],
            "skip_mulligan": bool(options.get("skip_mulligan", False)),
        }
        rng = chance(seed, 0, "setup")
        tiles = T.tile_set(variant)
        if "board" in options and options["board"] is not None:
            try:
                board = parse_board(options["board"], options.get("pairs"), tiles, variant)
            except BoardError as exc:
                raise _illegal("bad_board", exc.msgid, exc.params) from None
        elif options.get("pairs"):
            raise _illegal("bad_board", gettext_noop("pairs were given without a board"))
        else:
            board = random_board(rng, variant)
        self._start_board(state, board)
        self._deal(state, rng, options)
        events: list[Event] = []
        # order and colours
        colors = options.get("colors")
        first_seat = options.get("first_seat")
        if colors is not None:
            state["colors"] = self._parse_colors(colors, players, n_sides)
        if first_seat is not None:
            if not 0 <= first_seat < players:
                raise _illegal("bad_first_seat", gettext_noop("first_seat must be a seat 0–%(last)s"),
                               {"last": players - 1})
            state["first_side"] = first_seat % n_sides
        if variant == "eve":
            state["first_side"] = 0
            if state["colors"] is None:
                state["colors"] = ["white", "black", "white"]
            self._after_order(state, events)
        elif first_seat is not None:
            if state["colors"] is None:
                state["phase"] = "color"
                state["color_chooser"] = state["first_side"]
            else:
                self._after_order(state, events)
        else:
            state["roll_pending"] = list(range(n_sides))
        state["events"] = events[-EVENTS_KEPT:]
        return state

    @staticmethod
    def _parse_colors(colors: Any, players: int, n_sides: int) -> list[str]:
        if len(colors) not in (n_sides, players):
            raise _illegal("bad_colors", gettext_noop("colors must list a colour per side (%(n)s) or per seat"),
                           {"n": n_sides})
        per_side: dict[int, str] = {}
        for i, c in enumerate(colors):
            side = i % n_sides
            if per_side.setdefault(side, c) != c:
                raise _illegal("bad_colors", gettext_noop("seats of side %(side)s were given different colours"),
                               {"side": side})
        out = [per_side[s] for s in range(n_sides)]
        if n_sides == 2 and out[0] == out[1]:
            raise _illegal("bad_colors", gettext_noop("the two sides must play different colours"))
        if n_sides == 3 and (out[0] != out[2] or out[1] == out[0]):
            raise _illegal("bad_colors", gettext_noop("Alice and Bob share one colour, Eve has the other"))
        return out

    def _start_board(self, state: State, board: Board) -> None:
        state["board"] = board
        state["circuit_ops"] = [{"op": "prep", "reset": False, "components": clone(board)}]

    def _deal(self, state: State, rng, options: dict) -> None:
        variant = state["variant"]
        n_sides = state["n_sides"]
        allowed = set(deck_composition(variant))
        hands = options.get("hands")
        deck = options.get("deck")

        def check_cards(cards: list[str], field: str) -> list[str]:
            for i, c in enumerate(cards):
                if c not in allowed:
                    raise _illegal("unknown_card", gettext_noop(
                        "%(field)s: %(card)s is not a card of the %(variant)s deck (%(cards)s)"),
                        {"field": f"{field}[{i}]", "card": repr(c), "variant": variant,
                         "cards": ", ".join(sorted(allowed))})
            return list(cards)

        if hands is not None:
            if len(hands) != n_sides:
                raise _illegal("bad_hands", gettext_noop("hands must list %(n)s hands, one per side"), {"n": n_sides})
            hands = [check_cards(h, f"hands[{i}]") for i, h in enumerate(hands)]
            for i, h in enumerate(hands):
                if len(h) != HAND_SIZE:
                    raise _illegal("bad_hands", ngettext_lazy("hand %(hand)s has %(n)s card, not %(size)s",
                                                             "hand %(hand)s has %(n)s cards, not %(size)s", "n"),
                                   {"hand": i + 1, "n": len(h), "size": HAND_SIZE})
        if deck is not None:
            deck = check_cards(deck, "deck")
        else:
            deck = full_deck(variant)
            if hands is not None:
                for h in hands:
                    for c in h:
                        if c in deck:
                            deck.remove(c)
            rng.shuffle(deck)
        if hands is None:
            if len(deck) < HAND_SIZE * n_sides:
                raise _illegal("bad_deck", gettext_noop("the deck is too small to deal the hands"))
            hands = [deck[HAND_SIZE * i:HAND_SIZE * (i + 1)] for i in range(n_sides)]
            deck = deck[HAND_SIZE * n_sides:]
        state["hands"] = hands
        state["deck"] = deck
        state["discard_pile"] = []
        state["hidden_discards"] = []

    def _after_order(self, state: State, events: list[Event]) -> None:
        if state["skip_mulligan"]:
            self._start_operations(state, events)
        else:
            state["phase"] = "mulligan"
            state["mulligan_pending"] = list(range(state["n_sides"]))

    def _start_operations(self, state: State, events: list[Event]) -> None:
        state["phase"] = "operations"
        state["mulligan_pending"] = []
        self._start_turn(state, 0, events)

    def _draw(self, state: State, side: int, n: int, events: list[Event], why: str) -> None:
        got = min(n, len(state["deck"]))
        state["hands"][side] += state["deck"][:got]
        state["deck"] = state["deck"][got:]
        if n:
            events.append(event(EVENT_TEXTS, "draw", "draw" if got == n else "draw_deck_empty",
                                {"side": self._name(state, side), "count": got},
                                side=side, count=got, reason=why))

    @staticmethod
    def _name(state: State, side: int) -> str:
        return SIDE_NAMES[state["n_sides"]][side]

    def _start_turn(self, state: State, index: int, events: list[Event]) -> None:
        order = turn_order(state)
        side = order[index % len(order)]
        state["turn"] = {"index": index, "side": side,
                         "plays_left": turn_plays(state["variant"], side)}
        events.append(event(EVENT_TEXTS, "turn", "turn", {"turn": index + 1, "side": self._name(state, side)},
                            side=side, turn=index + 1))
        self._draw(state, side, turn_draws(state["variant"], side,
                                           state.get("noise_exercise", False)), events, "turn")
        if not state["hands"][side]:
            self._end_turn(state, events)

    def _end_turn(self, state: State, events: list[Event]) -> None:
        turn = state["turn"]
        side = turn["side"]
        if state["variant"] == "noise":
            rng = chance(state["seed"], state["action_number"], "noise")
            d10 = rng.randint(1, 10)
            if d10 == 10:
                events.append(event(EVENT_TEXTS, "noise", "no_noise", {"side": self._name(state, side)},
                                    side=side, d10=10, square=None))
            else:
                measured = noise_squares(state["board"], d10)
                state["board"] = measure_unseen(state["board"], d10, T.tile_set(state["variant"]))
                state["circuit_ops"].append({"op": "measure", "squares": measured, "basis": "color"})
                events.append(event(EVENT_TEXTS, "noise", "noise",
                                    {"side": self._name(state, side), "d10": d10, "square": d10},
                                    side=side, d10=d10, square=d10))
            if state.get("noise_exercise", False):
                self._draw(state, side, 2, events, "after noise")
        nxt = turn["index"] + 1
        if nxt >= state["turns_per_side"] * state["n_sides"]:
            self._measure_and_score(state, events)
        else:
            self._start_turn(state, nxt, events)

    def finish(self, state: State) -> tuple[State, list[Event]]:
        """Time is up: the board is measured as it stands and scored as at the normal end (in
        Eve's variant this set is the last; the most points win). Colours not chosen yet are
        given by a seeded coin."""
        if self.outcome(state) is not None:
            return state, []
        new = successor(state, APPEND_ONLY)
        new["action_number"] += 1
        events: list[Event] = [event(EVENT_TEXTS, "time_up", "time_up")]
        if new["colors"] is None:
            white = chance(new["seed"], new["action_number"], "finish").randrange(2)
            new["colors"] = ["white" if side == white else "black" for side in range(2)]
            events.append(event(EVENT_TEXTS, "time_up", "time_up_colors",
                                {"side": self._name(new, white)}, side=white))
        new["finished_by_time"] = True
        self._measure_and_score(new, events, last_set=True)
        new["events"] = (new["events"] + events)[-EVENTS_KEPT:]
        return new, events

    def _measure_and_score(self, state: State, events: list[Event], last_set: bool = False) -> None:
        state["turn"] = None
        rng = chance(state["seed"], state["action_number"], "measure")
        bits, mevents = final_measurement(state["board"], rng)
        events += mevents
        lines = score_of_outcome(bits)
        state["final_board"] = bits
        state["lines"] = lines
        colors = state["colors"]
        if state["variant"] == "eve":
            team = lines[colors[0]]
            ab, eve = eve_points(team)
            state["scores"] = [state["scores"][0] + ab, state["scores"][1] + eve,
                               state["scores"][2] + ab]
            state["sets"].append({"set": state["set_number"], "final_board": bits,
                                  "team_qtris": team, "alice_bob_points": ab, "eve_points": eve})
            events.append(event(EVENT_TEXTS, "score", "eve_set_score",
                                {"set": state["set_number"], "team": team, "ab": ab, "eve": eve,
                                 "total": f"{state['scores'][0]}\u2013{state['scores'][1]}"},
                                lines=lines, set=state["set_number"]))
            if max(state["scores"]) >= 3 or last_set:
                state["phase"] = "over"
            else:
                self._new_set(state, events)
            return
        state["scores"] = [lines[c] for c in colors]
        state["phase"] = "over"
        events.append(event(EVENT_TEXTS, "score", "score",
                            {"white": lines["white"], "black": lines["black"]}, lines=lines))

    def _new_set(self, state: State, events: list[Event]) -> None:
        state["set_number"] += 1
        rng = chance(state["seed"], state["action_number"], f"set{state['set_number']}")
        self._start_board(state, random_board(rng, state["variant"]))
        self._deal(state, rng, {})
        state["eve_measure_used"] = False
        state["final_board"] = None
        state["lines"] = None
        events.append(event(EVENT_TEXTS, "set", "new_set", {"set": state["set_number"]},
                            set=state["set_number"]))
        self._after_order(state, events)

    # ------------------------------------------------------------------ queries

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "roll":
            sides = state["roll_pending"]
        elif phase == "color":
            sides = [state["color_chooser"]]
        elif phase == "mulligan":
            sides = state["mulligan_pending"]
        elif phase == "operations":
            sides = [state["turn"]["side"]]
        else:
            sides = []
        return sorted(s for side in sides for s in seats_of_side(state, side))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        side = side_of_seat(state, seat)
        phase = state["phase"]
        if phase == "roll":
            return [{"roll": True}]
        if phase == "color":
            return [{"color": "white"}, {"color": "black"}]
        if phase == "mulligan":
            n = len(state["hands"][side])
            return [{"mulligan": list(c)} for k in range(n + 1) for c in combinations(range(n), k)]
        return self._operation_actions(state, side)

    def _operation_actions(self, state: State, side: int) -> list[Action]:
        variant = state["variant"]
        hand = state["hands"][side]
        out: list[Action] = []
        for card in [c for c in CARDS if c in hand]:
            targets = legal_targets(state["board"], variant, card)
            if card == "I":
                out.append({"card": "I"})
            elif targets:
                out += [{"card": card, "squares": t} for t in targets]
            else:
                out.append({"card": card, "discard": True})
        if self._eve_may_measure(state, side):
            names = sorted({tuple(sorted(p)) for p in combinations(hand, 2)})
            for target in self._eve_targets(state):
                for basis in BASES:
                    for pair in names:
                        out.append({"eve_measure": {"squares": target, "basis": basis},
                                    "discard": list(pair)})
        return out

    @staticmethod
    def _eve_may_measure(state: State, side: int) -> bool:
        return (state["variant"] == "eve" and side == 1 and not state["eve_measure_used"]
                and state["turn"]["plays_left"] == 2 and len(state["hands"][side]) >= 2)

    @staticmethod
    def _eve_targets(state: State) -> list[list[int]]:
        return [list(c["squares"]) for c in state["board"]]

    # ------------------------------------------------------------------ apply

    def play(self, state: State, seat: int, kind: str, action: Action) -> tuple[State, list[Event]]:
        """An action of the right shape by a seat to act (``Engine.apply``), in its phase."""
        expected = PHASE_ACTIONS[state["phase"]]
        if kind not in expected:
            raise _illegal("bad_action", gettext_noop('"%(action)s" is not possible now: this phase '
                                                      'takes %(expected)s.'),
                           {"action": kind, "expected": ", ".join(f'"{k}"' for k in expected)})
        new = successor(state, APPEND_ONLY)
        new["action_number"] += 1
        events: list[Event] = []
        side = side_of_seat(new, seat)
        phase = new["phase"]
        if phase == "roll":
            self._apply_roll(new, side, action, events)
        elif phase == "color":
            self._apply_color(new, side, action, events)
        elif phase == "mulligan":
            self._apply_mulligan(new, side, action, events)
        else:
            self._apply_operation(new, side, action, events)
        new["events"] = (new["events"] + events)[-EVENTS_KEPT:]
        return new, events

    def _apply_roll(self, state: State, side: int, action: Action, events: list[Event]) -> None:
        if side not in state["roll_pending"]:
            raise _illegal("not_your_turn", gettext_noop("this side has already rolled"))
        d10 = chance(state["seed"], state["action_number"], "d10").randint(1, 10)
        state["rolls"][str(side)] = d10
        state["roll_pending"].remove(side)
        events.append(event(EVENT_TEXTS, "roll", "roll", {"side": self._name(state, side), "d10": d10},
                            side=side, d10=d10))
        if state["roll_pending"]:
            return
        best = max(state["rolls"].values())
        top = [int(s) for s, v in state["rolls"].items() if v == best]
        if len(top) > 1:
            state["roll_pending"] = sorted(top)
            state["rolls"] = {}
            events.append(event(EVENT_TEXTS, "tie", "tie"))
            return
        winner = top[0]
        state["first_side"] = winner
        events.append(event(EVENT_TEXTS, "order", "order", {"side": self._name(state, winner)},
                            side=winner))
        if state["colors"] is None:
            state["phase"] = "color"
            state["color_chooser"] = winner
        else:
            self._after_order(state, events)

    def _apply_color(self, state: State, side: int, action: Action, events: list[Event]) -> None:
        c = action["color"]
        other = "black" if c == "white" else "white"
        state["colors"] = [c if s == side else other for s in range(state["n_sides"])]
        events.append(event(EVENT_TEXTS, "color", f"plays_{c}", {"side": self._name(state, side)},
                            side=side, color=c))
        self._after_order(state, events)

    def _apply_mulligan(self, state: State, side: int, action: Action, events: list[Event]) -> None:
        if side not in state["mulligan_pending"]:
            raise _illegal("not_your_turn", gettext_noop("this side has already done its mulligan"))
        choice = action["mulligan"]
        hand = list(state["hands"][side])
        if all(is_int(x) for x in choice):
            if len(set(choice)) != len(choice) or any(not 0 <= x < len(hand) for x in choice):
                raise _illegal("bad_mulligan", gettext_noop("card indexes must be distinct, 0–%(last)s"),
                               {"last": len(hand) - 1})
            keep = [c for i, c in enumerate(hand) if i not in choice]
            gone = [hand[i] for i in choice]
        elif all(isinstance(x, str) for x in choice):
            keep = list(hand)
            gone = []
            for name in choice:
                if name not in keep:
                    raise _illegal("bad_mulligan", gettext_noop("no %(card)r card (left) in the hand"), {"card": name})
                keep.remove(name)
                gone.append(name)
        else:
            raise _illegal("bad_mulligan", gettext_noop("mulligan takes card indexes or card names, not a mix"))
        n = len(gone)
        state["hands"][side] = keep
        state["hidden_discards"] += gone
        state["mulligan_pending"].remove(side)
        draw = max(0, n - 1) if state["variant"] == "eve" else n
        events.append(event(EVENT_TEXTS, "mulligan", "mulligan", {"side": self._name(state, side), "count": n},
                            side=side, discarded=n))
        self._draw(state, side, draw, events, "mulligan")
        if not state["mulligan_pending"]:
            self._start_operations(state, events)

    def _apply_operation(self, state: State, side: int, action: Action, events: list[Event]) -> None:
        if "eve_measure" in action:
            self._apply_eve_measure(state, side, action, events)
            return
        hand = state["hands"][side]
        variant = state["variant"]
        before = state["board"]
        card, squares, board, ops = check_play(before, variant, hand, action)
        hand.remove(card)
        state["discard_pile"].append(card)
        if "discard" in action:
            events.append(event(EVENT_TEXTS, "discard", "discard", {"side": self._name(state, side), "card": card},
                                side=side, card=card))
        else:
            state["board"] = board
            state["circuit_ops"] += ops
            params: dict[str, Any] = {"side": self._name(state, side), "card": card}
            code = "play"
            if len(squares) == 1:
                code, params["square"] = "play_on", squares[0]
            elif squares:
                code, params["control"], params["target"] = "play_cx", squares[0], squares[1]
            events.append(event(EVENT_TEXTS, "play", code, params, side=side, card=card, squares=squares,
                                explain=explain_play(before, board, variant, card, squares, compact=True)))
        self._after_play(state, events)

    def _after_play(self, state: State, events: list[Event]) -> None:
        turn = state["turn"]
        turn["plays_left"] -= 1
        if turn["plays_left"] <= 0 or not state["hands"][turn["side"]]:
            self._end_turn(state, events)

    def _apply_eve_measure(self, state: State, side: int, action: Action, events: list[Event]) -> None:
        if not self._eve_may_measure(state, side):
            raise _illegal("no_eve_measure", gettext_noop("only Eve, once per set, at the start of "
                                                          "her turn (with 2 cards in hand), may measure"))
        squares, basis = list(action["eve_measure"]["squares"]), action["eve_measure"]["basis"]
        if squares not in self._eve_targets(state):
            raise _illegal("bad_squares", gettext_noop("measure one square [s], or a pair as a whole "
                                                       "by its two squares [a, b]"))
        discard = action["discard"]
        hand = list(state["hands"][side])
        for c in discard:
            if c not in hand:
                raise _illegal("bad_discard", gettext_noop("no %(card)r card (left) in Eve's hand"), {"card": c})
            hand.remove(c)
        rng = chance(state["seed"], state["action_number"], "eve")
        u = rng.random()
        before = state["board"][component_index(state["board"], squares[0])]["squares"]
        try:
            board, bits, p = measure_seen(state["board"], squares, basis,
                                          T.tile_set(state["variant"]), u)
            d100 = seen_roll(state["board"], squares, basis, T.tile_set(state["variant"]),
                             bits, rng.random())
        except ValueError:
            raise _illegal("not_a_tile", gettext_noop("the measurement would leave a state that is "
                                                      "not a tile")) from None
        state["board"] = board
        state["hands"][side] = hand
        state["hidden_discards"] += discard
        state["eve_measure_used"] = True
        touched = [c for c in board if set(c["squares"]) & set(before)]
        state["circuit_ops"].append({"op": "measure", "squares": list(squares), "basis": basis})
        state["circuit_ops"].append({"op": "prep", "reset": True, "components": clone(touched)})
        labels = [LABELS[basis][b] for b in bits]
        how = message("certain") if d100 is None else message("rolled_d100", d100=d100)
        events.append(event(EVENT_TEXTS, "eve_measure", "eve_measure",
                            {"squares": ", ".join(map(str, squares)), "basis": message(f"basis_{basis}"),
                             # the outcome in words ("white circle", "kitten up"): the tiles'
                             # codes (W B R L UP DOWN) are kept, language-neutral, in `result`
                             "how": how, "result": [message(f"tile_{label}") for label in labels]},
                            side=side, squares=list(squares), basis=basis, result=labels, d100=d100, p=p,
                            # what the measurement did: the squares collapsed onto the basis she chose
                            explain={"messages": [message(f"eve_{basis}")],
                                     "text": explain_text([message(f"eve_{basis}")])}))
        self._end_turn(state, events)

    # ------------------------------------------------------------------ views & results

    def view(self, state: State, seat: int | None) -> dict:
        side = None if seat is None else side_of_seat(state, seat)
        turn = state["turn"]
        return {
            "game": "qtris", "variant": state["variant"], "phase": state["phase"],
            "seat": seat, "side": side, "n_sides": state["n_sides"],
            "side_names": SIDE_NAMES[state["n_sides"]],
            "seat_sides": [s % state["n_sides"] for s in range(state["players"])],
            "to_act": self.to_act(state),
            "colors": state["colors"],
            "first_side": state["first_side"] if state["phase"] != "roll" else None,
            "rolls": dict(state["rolls"]),
            "turn": None if turn is None else {
                "number": turn["index"] + 1, "side": turn["side"], "plays_left": turn["plays_left"],
                "total": state["turns_per_side"] * state["n_sides"]},
            "turns_per_side": state["turns_per_side"],
            "board": {"components": list(state["board"]),
                      "squares": display_squares(state["board"])},
            "hand": list(state["hands"][side]) if side is not None else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "deck_size": len(state["deck"]),
            "discard_pile": list(state["discard_pile"]),
            "mulligan_pending": list(state["mulligan_pending"]),
            "eve_measure_used": state["eve_measure_used"],
            "set_number": state["set_number"],
            "scores": list(state["scores"]),
            "sets": list(state["sets"]),
            "final_board": state["final_board"],
            "lines": state["lines"],
            "events": list(state["events"]),
        }

    def outcome(self, state: State) -> dict | None:
        if state["phase"] != "over":
            return None
        scores = list(state["scores"])
        if state["variant"] == "eve" and state.get("finished_by_time"):  # the most points win
            sides = [0, 2] if scores[0] > scores[1] else [1] if scores[1] > scores[0] else []
        elif state["variant"] == "eve":
            sides = [0, 2] if scores[0] >= 3 else [1]
        else:
            best = max(scores)
            sides = [s for s in range(2) if scores[s] == best] if scores[0] != scores[1] else []
        winners = sorted(s for side in sides for s in seats_of_side(state, side))
        return {"scores": scores, "winners": winners, "winning_sides": sides,
                "tie": not sides, "colors": state["colors"], "lines": state["lines"],
                "final_board": ["W" if b == 0 else "B" for b in state["final_board"]],
                "final_bits": list(state["final_board"]), "sets": clone(state["sets"])}

    def analysis(self, state: State) -> dict:
        return analyse_board(state["board"], state["colors"], state["variant"])

    def luck(self, state: State, outcome: dict) -> list[float] | None:
        """Per seat: the points its side scored minus the exact expected score before the final
        measurement (None for Eve's variant, scored by sets, and for an outcome without scores)."""
        if state["variant"] == "eve":
            return None
        expected = self.analysis(state).get("expected_scores")
        actual = outcome.get("scores")
        if not expected or not actual:
            return None
        sides = state["n_sides"]
        return [float(actual[i % sides]) - float(expected[i % sides]) for i in range(state["players"])]

    def preview(self, state: State, seat: int, action: Action) -> dict:
        """What a card play would do to the board, without chance (see ``preview``)."""
        return preview_play(self, state, seat, action)

    def circuit(self, state: State):
        from .circuit import build_circuit

        return build_circuit(state["circuit_ops"])

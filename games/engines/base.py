"""The shared engine protocol every game implements (described below; see ``contract.Engine``).

Engines are pure Python: no Django import. A state is plain JSON-able data (a dict);
``apply`` never mutates its input, it returns a new state and the events it caused.
A ``view`` is a new dict, but it may hold parts of the state as they are (its logs, its board)
and the engine's fixed data (a board's layout): copying them was most of a view's cost. Whoever
reads a view (the server's payloads, a bot) only reads it; the conformance suite checks that the
server's reading and every bot leave the states and the engine as they were.

Optional abilities
------------------
What the platform may do with an engine beyond the required methods — a hover ``preview``,
which keys of ``analysis`` a player may see, whether the game has a circuit (hence the
"vs the odds" and circuit pages), whether players may follow the odds mid-game — is declared
once, as a class attribute ``abilities`` holding an ``Abilities``::

    from games.engines.base import Abilities

    class MyGame:
        slug = "my-game"
        ...
        abilities = Abilities(
            preview=True,                                # def preview(self, state, seat, action)
            preview_odds_keys=("analysis", "delta"),     # preview keys that carry odds
            public_analysis_keys=("hand", "expected_public"),   # players may see these ...
            teacher_only_analysis_keys=("expected_exact",),     # ... only the teacher these
            live_odds=False,                             # True: nothing in the odds is secret,
                                                         #   players open statistics mid-game
            circuit=True, circuit_option="physics_mode", # circuit() returns a QuantumCircuit
        )                                                #   (only when that option is true)

An engine that declares nothing has ``Abilities()``: no preview, no analysis for players
(the teacher sees all of it), no circuit. The platform never looks for methods with
``hasattr`` nor tests game slugs: it reads ``abilities_of(game)`` and applies the policy
centrally (``Abilities.may_see_analysis`` / ``analysis_for`` for the payloads,
``preview_for`` for previews, ``has_circuit`` for the statistics and circuit pages — an
engine with a circuit also scores its outcomes, ``scorer(state, circuit)``, see "Scoring a
circuit's outcomes" below — and ``statistics_mid_game``).
Players see public analysis keys only while the teacher shows the odds (``show_odds``).

``tests/test_engine_conformance.py`` checks that every engine's declaration is true of the
engine: a declared preview works (an undeclared one is absent); a declared circuit is a
``QuantumCircuit`` for a started game (an undeclared one is None); every key ``analysis``
returns is declared public or teacher-only, and the public part is the same for a twin with
other secrets; ``live_odds`` only with no teacher-only key.

Teaching moments
----------------
An engine declaring ``Abilities(teaching_moments=True)`` has
``teaching_moments(events, history) -> list[Moment]``: what one applied action's public
``events`` teach (a gate sequence that acts as another gate, a Bell pair made, an outcome
against the odds, a cycle collapsed), given ``history``, the public events of the earlier
actions of the match (a list per action, oldest first; the platform may pass only the last
few, so a moment that needs more simply is not produced). A moment is ``moment(texts, code,
params)``, ``{"code", "params", "text"}`` like an event, rendered in the reader's language by
``games/event_text.localize``. Moments read public events only (``public(events)``): the
platform shows them on the projector, to the whole class. The conformance suite checks that
moments are plain data with registered codes, and that an undeclared engine has none.

Concept evidence
----------------
What a move shows of a student's understanding, the first step of "what each student
understood". An engine declaring ``Abilities(concept_evidence=True)`` has
``concept_evidence(before, seat, action, after) -> list[Evidence]``: what ``seat``'s ``action``,
which took ``before`` to ``after``, shows. It is pure and keeps no state of its own: it judges
from the move, the two states and what the mover could see — whatever depends on hidden
information is read from the mover's view (``self.view(before, seat)``), since a misconception
can only be claimed about what the student could know. An evidence is plain data made with
``evidence(texts, concept, kind, code, params)``::

    {"concept": "phase", "kind": "misconception", "code": "z_on_sure", "params": {"square": 5}}

``concept`` is one of ``CONCEPTS`` (superposition, measurement, entanglement, phase,
interference, noise), ``kind`` one of ``EVIDENCE_KINDS`` ("shows": the move used the concept
well; "misconception": the move makes sense only under a wrong idea of it, and a better move
was there to make). ``code`` names a short sentence for the teacher registered in the engine's
``evidence_texts`` (``{code: gettext_noop("English %(param)s")}``), rendered like an event's
text (``render_text``). A detector never judges a move that was good for the game: the
strongest bot's moves raise no misconception. Each detector is defined in one sentence under
"Concept evidence" in the game's ``docs/rules/<game>.md``. The platform asks through
``Abilities.evidence_for`` (nothing from an engine that declares nothing); the conformance suite
checks that evidence is plain data, deterministic, from the fixed sets, with registered codes
whose msgids its params fill.

Event texts in the reader's language
------------------------------------
Every event carries, beside its ``type`` and machine fields, a ``code`` and ``params`` and the
English ``text``; the platform renders ``text`` again in each reader's language in one place
(``games/event_text.py``: live payloads, the event history, replays). An engine registers its
texts once, as a class attribute ``event_texts``: ``{code: English msgid with %(param)s}``,
each msgid wrapped in ``gettext_noop`` from this module (a no-op marker, so engines stay free of
Django while ``make messages`` still extracts the msgids into locale/*/django.po)::

    from games.engines.base import event, gettext_noop, message

    EVENT_TEXTS = {
        "played": gettext_noop("%(player)s plays %(card)s"),
        "player": gettext_noop("Player %(number)s"),
    }

    class MyGame:
        event_texts = EVENT_TEXTS
        ...
        events.append(event(EVENT_TEXTS, "play", "played",
                            {"player": message("player", number=seat + 1), "card": "H"},
                            seat=seat))   # -> {"type": "play", "seat": 0, "code": "played",
                                          #     "params": {...}, "text": "Player 1 plays H"}

A parameter is a number or a string shown as it is (names, kets, square numbers, gates), a
nested ``message(code, **params)`` (translated too: "Player 1", "heads", a reason), or a list
of those (joined with ", "). Codes are local to the engine (``event_text`` looks them up by
the match's game). ``tests/test_i18n.py`` checks that every event of the conformance games
has a registered code whose English rendering is its ``text``, and the catalogs translate
every msgid; after adding texts run ``make messages``, translate locale/es and locale/pl, and
``make catalogs``.

Names in the reader's language
------------------------------
A game's ``name`` is shown as it is when it is a proper noun ("QTris", "Entanglion"), or is a
``gettext_noop`` msgid when it has words to translate ("Quantum tic-tac-toe"). Its variants are
slugs (``basic``, ``eve``: kept in the API, the database and the options); their display names
are the class attribute ``variant_names``, ``{variant: gettext_noop("English name")}``, one per
variant. The platform shows both through ``games.names`` (``game_name``, ``variant_name``, the
``game_name`` / ``variant_name`` template filters of ``{% load game_names %}``), never a slug.

A game declares itself
----------------------
Everything the platform knows of a game it reads from the engine (and the engine's entry in
the registry, ``games.engines.GAMES``: the engine's module, its bots' module and its board
script); no platform module names a game. A new game is its engine module (``GAME``), its
bots' module (``BOTS``), its board script (``static/games/<slug>.js`` unless the registry says
otherwise) and one line in ``GAMES`` (or ``register_game(...)``). Beside ``abilities``, an
engine may declare (``contract.Engine`` has the defaults: nothing):

* ``board_texts``: ``{key: gettext_noop("words")}``, the words its board script shows (the
  pages put them, in the reader's language, in a JSON block: ``{% board_texts game %}``);
* ``summary_texts``: the msgids of its ``summary`` (``Abilities.summary``);
* ``how_to_play``: a ``guide.Guide``, its rules page in the reader's language (``/games/<slug>/rules/``):
  the words of its ``docs/rules/<game>.md`` as ``gettext_noop`` msgids, and worked examples whose
  before and after its board script draws from real engine states;
* ``scorer(state, circuit)`` (``Abilities.circuit``), below.

Scoring a circuit's outcomes
----------------------------
An engine with a circuit turns its measured outcomes into scores: ``scorer(state, circuit)``
returns a ``Scorer`` (plain Python: the circuit is only read for its ``metadata``), or raises
``NotScorable(msgid, params)`` for a position without one. An outcome key is the bitstring of
the circuit's first classical register in qiskit's order (the rightmost character is bit 0).

* ``sides``: what is scored (QTris: the colours; poker: the seats in the hand),
* ``score(key)``: the score per side of one outcome,
* ``exact()``: the engine's own Born distribution ``{key: p}``, or None (then the back end
  computes it from the circuit),
* ``actual()``: the score the match really got at this position, or None,
* ``final_board()``: the measured board to draw beside the odds (QTris), or None,
* ``ranks_sides``: whether the sides compete (who wins is worth saying), and
* ``verdict(exact, runs)``: what the exact odds and the runs mean in the game's own words, a
  list of ``(msgid, params)`` (``gettext_noop``; ``simulator.scoring`` renders them; may be
  empty: the common who-wins verdict follows when ``ranks_sides``).

Time is up: ``finish``
----------------------
Every engine implements ``finish(state) -> (state, events)``: end the game now by this game's
own rule (a lesson's "finish in 5 minutes" ran out). It is pure and reproducible (any chance
comes from ``chance(seed, …)``), returns a state whose ``outcome`` is not None and whose
``to_act`` is empty, and events with codes like every other. Its rule in words is the class
attribute ``finish_rule`` (a ``gettext_noop`` msgid shown to players before the time is up).
The platform records it in the match log as the action ``FINISH_ACTION`` (``{"platform":
"finish"}``, logged under seat 0); ``replay_steps`` — hence every replay and statistic — runs
``finish`` for it (``apply_logged``).

Rules versions: stored games never change
-----------------------------------------
A match is stored as ``(game, variant, options, seed, actions)`` and every replay, statistic,
standing and progress page re-runs it on the engine, so a rule change would silently rewrite
last month's games. Every engine therefore declares the version of its rules, the class
attribute ``rules_version`` (an int, 1 for the rules as first recorded), and the platform
stores it on each match when it is created (``Match.rules_version``). Bump it with any change
that makes a stored ``(setup, actions)`` give other states, views, legal actions, events
(codes, params) or outcome; a change of the English texts alone (msgids) needs no bump.

The platform asks for the engine of a match's version (``under_rules(game, version)``,
``get_game(slug, version)``, ``replay_steps(..., rules_version=)``): the current engine for the
current version; for an older one the engine must have kept its behaviour, declared as
``older_rules_versions = (1, ...)`` with ``with_rules(version) -> Game`` returning an engine
that plays exactly those rules (its ``rules_version`` is that version). Any other version is
refused with ``RulesVersionUnsupported``, which the platform shows as "played under rules this
server no longer plays" instead of re-running the match under new rules.

``tests/golden/`` holds recorded games per game and variant (bots, chance, the platform's
"time is up") with every seat's and the spectator's view at every step; ``tests/test_golden_games.py``
replays them under the version they were recorded with, so an engine change that alters a
stored game fails there unless the old version's behaviour is kept (record new files with
``python -m tests.golden.record`` after a bump; it never overwrites a file of the same version).
"""
from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """Raised by ``apply`` (and setup) when an action or option is not allowed.

    ``code`` is a short machine-readable reason, ``message`` says it in words for a student.
    A message with values is given as a msgid and its ``params`` (translated by the platform,
    ``games.errors.from_illegal``)::

        raise IllegalAction("classical_square", gettext_noop("square %(square)s is classical"),
                            {"square": s})

    ``message`` is then the English text with the values filled in. A message that counts
    something has plural forms (``ngettext_lazy(singular, plural, "need")``: the number in param
    ``need`` picks the form, three in Polish, never "card(s)"). A parameter may itself be
    a text to translate: a msgid string, a ``(msgid, params)`` pair, or a list of those (joined
    by "; "); see ``render_refusal``. Every msgid is marked with ``gettext_noop`` (never an
    f-string: ``tests/test_engine_conformance.py`` checks every refusal is a registered msgid).
    """

    def __init__(self, code: str, message: str, params: Mapping[str, Any] | None = None):
        self.msgid = message
        self.params = dict(params) if params else None
        message = render_refusal(message, self.params)
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def render_refusal(msgid: str, params: Mapping[str, Any] | None,
                   translate=lambda text: text, ntranslate=None) -> str:
    """The text of a refusal, each msgid passed through ``translate`` (English by default;
    ``games.errors.from_illegal`` passes gettext), a msgid with plural forms (``Plural``) through
    ``ntranslate(singular, plural, n)`` (ngettext): a string parameter is translated as a msgid
    when the catalog has it (a game's name), a ``(msgid, params)`` pair is rendered the same way,
    a list is joined by "; "."""

    def value(v: Any) -> Any:
        if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) and isinstance(v[1], Mapping):
            return render_refusal(v[0], v[1], translate, ntranslate)
        if isinstance(v, list):
            return "; ".join(str(value(x)) for x in v)
        return translate(v) if isinstance(v, str) and v else v

    text = _plural_form(msgid, params or {}, ntranslate) if isinstance(msgid, Plural) else translate(msgid)
    if not params:
        return text
    return text % {k: value(v) for k, v in params.items()}


@dataclass(frozen=True)
class Abilities:
    """The optional abilities of an engine and its hidden-information policy (see the module
    docstring for how an engine declares them).

    * ``preview``: the engine has ``preview(state, seat, action) -> dict``, what ``action``
      would do without applying it (no chance); it raises ``IllegalAction`` when it cannot.
    * ``preview_odds_keys``: keys of a preview result that carry odds; a reader who may not
      see the live odds gets the preview without them.
    * ``public_analysis_keys``: keys of ``analysis`` a player may see (while the teacher shows
      the live odds); every other key is for the teacher only.
    * ``teacher_only_analysis_keys``: keys of ``analysis`` that only the teacher sees (declared
      so that the conformance suite can check every key is classified).
    * ``public_analysis``: the engine has ``public_analysis(state) -> dict``, exactly the public
      keys of ``analysis`` computed alone, without the teacher's part (Ticket-to-Ride: the
      claimed lengths, not the planner's search per seat): what a player's view is sent.
    * ``live_odds``: the odds hold nothing secret at any time, so players may open the
      statistics pages of an unfinished match (while the teacher shows the live odds).
    * ``circuit``: ``circuit(state)`` returns a qiskit ``QuantumCircuit`` (hence the "vs the
      odds" and circuit pages); with ``circuit_option`` only when that match option is true.
    * ``private_circuit``: ``circuit(state)`` may hold a secret that the rules never reveal (a
      Ticket-to-Ride run that missed its target); the engine then has ``public_circuit(state)``,
      the circuit players see on the statistics pages (the teacher sees ``circuit``), which
      holds nothing a finished game does not show every seat.
    * ``teaching_moments``: the engine has ``teaching_moments(events, history) -> list``, the
      moments one applied action's public events teach (see the module docstring).
    * ``concept_evidence``: the engine has ``concept_evidence(before, seat, action, after) ->
      list[Evidence]``, what one move shows of the mover's understanding of a concept (see
      "Concept evidence" in the module docstring), with its texts in ``evidence_texts``.
    * ``teams``: seats play in teams that share their decisions: ``team_of(state, seat) -> int``
      names a seat's team, and any seat of a team that ``to_act`` lists may make the team's
      decision (the others of the team then need not). Without it every seat's decision is its
      own. Either way, where several seats (teams) are awaited at once, each decides for itself:
      one acting never takes another's decision away. The platform lets a bot make its own
      decisions at once, but never one its human teammate is awaited for.
    * ``cooperative``: the seats win or lose together (the standings give every seat the
      table's result; rounds pair a table's seats as one team).
    * ``luck``: the engine has ``luck(state, outcome) -> list[float] | None``: per seat, the score
      it got minus the score it could expect before chance decided (the standings' and progress
      pages' "luck"; None where the game or variant has no such number).
    * ``side_odds``: with ``teams``, the outcome's scores are per team (a side) and the engine has
      ``side_odds(state) -> {"expected": [per side] | None, "p_win": [per side] | None, "first":
      side | None}``, the exact odds of each side and the side that started, for the session's
      results (QTris's colours); without it a seat is its own side and the results show no odds.
    * ``summary``: the engine has ``summary(view) -> {"facts", "text", "rank"}``, a match at a
      glance for the teacher's dashboard card and the session report, read from the spectator's
      view: ``facts`` machine values, ``text`` a list of ``message(code, **params)`` whose codes
      are in ``summary_texts`` (``gettext_noop`` msgids, rendered in the reader's language and
      joined), ``rank`` a sort key (smaller first). Without it a table has no summary.
    * ``partner_phrases``: the ids of the quick signals partners may send each other in this
      game (``games.partner_signals.PHRASES`` words them), in the order the page shows them;
      empty: no signals.
    * ``exercises``: a teacher may compose starting positions (exercise mode): the engine's
      ``setup`` takes a position in its ``options``, and it has ``exercise_examples`` (ready-made
      positions: ``{"key", "name", "description", "variant", "options"}``, ``gettext_noop`` name
      and description) and ``exercise_variant`` (the editor's first variant).
    * ``session_extension``: the name of a platform extension a session of this game gets
      (``"ticket_maps"``: maps uploaded to the class, chosen per session or table and handed to
      the engine as the option ``map``; the teacher's route progress per table); "" for none.
    """

    preview: bool = False
    preview_odds_keys: tuple[str, ...] = ()
    public_analysis_keys: tuple[str, ...] = ()
    teacher_only_analysis_keys: tuple[str, ...] = ()
    public_analysis: bool = False
    live_odds: bool = False
    circuit: bool = False
    circuit_option: str = ""
    private_circuit: bool = False
    teaching_moments: bool = False
    concept_evidence: bool = False
    teams: bool = False
    cooperative: bool = False
    luck: bool = False
    side_odds: bool = False
    summary: bool = False
    partner_phrases: tuple[str, ...] = ()
    exercises: bool = False
    session_extension: str = ""

    def __post_init__(self) -> None:
        both = set(self.public_analysis_keys) & set(self.teacher_only_analysis_keys)
        if both:
            raise ValueError(f"analysis keys declared both public and teacher-only: {sorted(both)}")
        if self.circuit_option and not self.circuit:
            raise ValueError("circuit_option without circuit")
        if self.private_circuit and not self.circuit:
            raise ValueError("private_circuit without circuit")
        if self.side_odds and not self.teams:
            raise ValueError("side_odds without teams")
        if self.public_analysis and not self.public_analysis_keys:
            raise ValueError("public_analysis without public_analysis_keys")

    def has_circuit(self, options: Mapping[str, Any] | None) -> bool:
        """Whether a match with these options has a circuit (and statistics pages)."""
        if not self.circuit:
            return False
        return not self.circuit_option or bool((options or {}).get(self.circuit_option))

    def may_see_analysis(self, *, is_teacher: bool, show_odds: bool) -> bool:
        """Whether a reader sees any of ``analysis``: the teacher always; a player while the
        teacher shows the live odds, in a game with public analysis keys."""
        return is_teacher or (show_odds and bool(self.public_analysis_keys))

    def analysis_for(self, analysis: dict, *, is_teacher: bool, show_odds: bool) -> dict | None:
        """The part of ``analysis`` a reader may see: all of it for the teacher; for a player
        the public keys while the odds are shown; None for nothing."""
        if not self.may_see_analysis(is_teacher=is_teacher, show_odds=show_odds):
            return None
        if is_teacher:
            return analysis
        return {k: v for k, v in analysis.items() if k in self.public_analysis_keys}

    def preview_for(self, result: dict, *, show_odds: bool) -> dict:
        """A preview as a player may see it: without its odds while the teacher hides them,
        or when the analysis holds secrets (no public analysis keys)."""
        if self.may_see_analysis(is_teacher=False, show_odds=show_odds):
            return result
        return {k: v for k, v in result.items() if k not in self.preview_odds_keys}

    def circuit_for(self, game, state, *, is_teacher: bool):
        """The circuit of ``state`` as its reader may see it: ``public_circuit`` for players of
        an engine with a private circuit, ``circuit`` otherwise."""
        if self.private_circuit and not is_teacher:
            return game.public_circuit(state)
        return game.circuit(state)

    def statistics_mid_game(self, show_odds: bool) -> bool:
        """Whether players may open the statistics pages before the match is over."""
        return self.live_odds and show_odds

    def evidence_for(self, game, before, seat: int, action, after) -> list[Evidence]:
        """What ``seat``'s ``action`` (``before`` -> ``after``) shows of its understanding
        (``concept_evidence``); nothing from an engine that declares none."""
        if not self.concept_evidence:
            return []
        return game.concept_evidence(before, seat, action, after)

    def team_of(self, game, state, seat: int) -> int:
        """The team whose decision ``seat`` makes (its own seat number in a game without teams)."""
        return game.team_of(state, seat) if self.teams else seat

    def side_odds_of(self, game, state) -> dict | None:
        """Each side's exact odds and the side that started (``side_odds``), or None."""
        return game.side_odds(state) if self.side_odds else None


NO_ABILITIES = Abilities()


class NotScorable(ValueError):
    """A position (or a game) without a circuit whose outcomes can be scored: ``msgid`` and its
    ``params`` say why (rendered in the reader's language by the platform)."""

    def __init__(self, msgid: str, params: Mapping[str, Any] | None = None):
        self.msgid = msgid
        self.params = dict(params) if params else None
        super().__init__(render_refusal(msgid, self.params))


Verdict = list[tuple[str, dict[str, Any]]]  # [(msgid, params)]


class Scorer(Protocol):
    """The scores of a circuit's measured outcomes (see "Scoring a circuit's outcomes")."""

    game: str
    sides: list[str]
    ranks_sides: bool

    def score(self, key: str) -> tuple[int, ...]: ...

    def exact(self) -> dict[str, float] | None: ...

    def actual(self) -> tuple[int, ...] | None: ...

    def final_board(self) -> list[str] | None: ...

    def verdict(self, exact: Mapping[str, Any], runs: Mapping[str, Any]) -> Verdict:
        """The game's own words on the exact answer and the runs (``runs``: label -> a run with
        ``scores``, ``device``, ``backend``, ``shots``, or None), as ``(msgid, params)``."""
        ...


@runtime_checkable
class Game(Protocol):
    """The engine contract. Optional abilities are declared in ``abilities`` (``Abilities``);
    ``preview(state, seat, action) -> dict`` exists exactly when ``abilities.preview``."""

    slug: str
    name: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]
    variant_names: Mapping[str, str]
    abilities: Abilities
    rules_version: int  # bumped with every change that alters a stored game (module docstring)

    def setup(self, players: int = 2, variant: str | None = None, seed: int = 0,
              options: dict | None = None) -> State: ...
    def to_act(self, state: State) -> list[int]: ...
    def legal_actions(self, state: State, seat: int) -> list[Action]: ...
    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...
    def view(self, state: State, seat: int | None) -> dict: ...
    def outcome(self, state: State) -> dict | None: ...
    def analysis(self, state: State) -> dict: ...
    def circuit(self, state: State): ...
    def finish(self, state: State) -> tuple[State, list[Event]]: ...


def gettext_noop(text: str) -> str:
    """Marks an engine's English msgid for extraction (``make messages``); returns it as is."""
    return text


class Plural(str):
    """An engine text with plural forms (``ngettext_lazy``): as a str, its English plural form;
    ``singular`` beside it, and the name of the param whose number picks the form ("#squares":
    the number of entries of param ``squares``, a list or a text of comma-separated entries)."""

    singular: str
    counted: str  # (not ``count``: a str has that method)


def ngettext_lazy(singular: str, plural: str, count: str = "count") -> str:
    """Marks an English text with plural forms for extraction (``make messages`` reads
    ``ngettext_lazy(singular, plural)``): rendered by ``render_text`` in the form the number in
    param ``count`` asks for, in the reader's language (Polish has three forms: never "(s)")."""
    text = Plural(plural)
    text.singular, text.counted = singular, count
    return text


Message = dict[str, Any]  # {"code": str, "params": {...}}


def message(code: str, **params: Any) -> Message:
    """A nested translatable text for an event parameter ("Player 2", "heads", a reason)."""
    return {"code": code, "params": params}


def render_text(texts: Mapping[str, str], code: str, params: Mapping[str, Any],
                translate=lambda text: text, ntranslate=None) -> str:
    """The text of ``code`` with ``params``, each msgid passed through ``translate`` (English by
    default; ``games.event_text`` passes gettext), a text with plural forms (``Plural``) through
    ``ntranslate(singular, plural, n)`` (ngettext; English forms without it)."""

    def value(v: Any) -> Any:
        if isinstance(v, dict) and "code" in v:
            return render_text(texts, v["code"], v.get("params") or {}, translate, ntranslate)
        if isinstance(v, list):
            return ", ".join(str(value(x)) for x in v)
        return v

    text = texts[code]
    chosen = _plural_form(text, params, ntranslate) if isinstance(text, Plural) else translate(text)
    return chosen % {k: value(v) for k, v in params.items()}


def _plural_form(text: Plural, params: Mapping[str, Any], ntranslate=None) -> str:
    """The form of ``text`` the number in its counted param asks for: ``ntranslate(singular,
    plural, n)`` in the reader's language, the English form without it."""
    if text.counted.startswith("#"):  # how many entries: "3, 7" -> 2
        entries = params.get(text.counted[1:])
        n = len(entries) if isinstance(entries, list) else len(str(entries).split(","))
    else:
        number = params.get(text.counted)
        n = number if isinstance(number, int) else int(number) if isinstance(number, str) and number.isdigit() else 2
    return ntranslate(text.singular, str(text), n) if ntranslate else text.singular if n == 1 else str(text)


def event(texts: Mapping[str, str], type_: str, code: str, params: Mapping[str, Any] | None = None,
          **fields: Any) -> Event:
    """An event of ``type_`` with its machine ``fields``, its text ``code`` and ``params`` and
    the English ``text`` rendered from them."""
    params = dict(params or {})
    return {"type": type_, **fields, "code": code, "params": params,
            "text": render_text(texts, code, params)}


Moment = dict[str, Any]  # {"code": str, "params": {...}, "text": English}


def moment(texts: Mapping[str, str], code: str, params: Mapping[str, Any] | None = None) -> Moment:
    """A teaching moment: like an event, a text ``code`` with ``params`` and the English ``text``."""
    params = dict(params or {})
    return {"code": code, "params": params, "text": render_text(texts, code, params)}


Evidence = dict[str, Any]  # {"concept", "kind", "code", "params"}

#: the concepts a move may show evidence of, and the two kinds of evidence
CONCEPTS = ("superposition", "measurement", "entanglement", "phase", "interference", "noise")
EVIDENCE_KINDS = ("shows", "misconception")


def evidence(texts: Mapping[str, str], concept: str, kind: str, code: str,
             params: Mapping[str, Any] | None = None) -> Evidence:
    """One piece of concept evidence (see "Concept evidence"): ``code`` must be registered in
    ``texts`` and its msgid filled by ``params``."""
    if concept not in CONCEPTS or kind not in EVIDENCE_KINDS:
        raise ValueError(f"unknown concept or kind: {concept!r}, {kind!r}")
    params = dict(params or {})
    render_text(texts, code, params)  # a KeyError for an unregistered code or a missing param
    return {"concept": concept, "kind": kind, "code": code, "params": params}


def public(events: Iterable[Event]) -> list[Event]:
    """The events every seat may see (what teaching moments are made of)."""
    return events_for(list(events), None)


def is_int(value: Any) -> bool:
    """True for a real ``int`` (never a ``bool``): how every engine checks seats, squares,
    cards and int options coming from JSON."""
    return isinstance(value, int) and not isinstance(value, bool)


def abilities_of(game: Game) -> Abilities:
    """The abilities ``game`` declares (``Abilities()`` when it declares none)."""
    declared = getattr(game, "abilities", NO_ABILITIES)
    if not isinstance(declared, Abilities):
        raise TypeError(f"{game.slug}.abilities must be an Abilities, not {type(declared).__name__}")
    return declared


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (None: the public ones): an event with ``visible_to`` goes
    only to those seats. Views and the platform both filter with this one function."""
    return [e for e in events if isinstance(e, dict)
            and ("visible_to" not in e or (seat is not None and seat in e["visible_to"]))]


def chance(seed: int, action_number: int, salt: str = "") -> random.Random:
    """The PRNG for the chance results of one action: seeded from the match seed and the
    action number, so ``(game, variant, options, seed, actions)`` reproduces a match."""
    return random.Random(f"{seed}:{action_number}:{salt}")


_T = TypeVar("_T")


_SCALARS = (str, int, float, bool, type(None))


def clone(state: _T) -> _T:
    """A deep copy of a state: a tree of dicts, lists and scalars (what the store keeps as JSON)
    copied by a walk of its own, faster than ``copy.deepcopy`` (no memo: a state shares no
    parts, as one read back from JSON cannot); anything else by ``deepcopy``."""
    return _copied(state)


def successor(state: dict, append_only: tuple[str, ...]) -> dict:
    """A copy of ``state`` for an action to change: deep (``clone``), except the lists named in
    ``append_only``, which are new lists holding the same entries. For a game's logs that an
    action only appends to and whose entries nothing edits once made (QTris's recent events and
    circuit, QuantumPoker's finished hands): copying their entries was most of a move's copy,
    and grew with the game."""
    return {key: list(value) if key in append_only else _copied(value) for key, value in state.items()}


def _copied(tree: Any) -> Any:
    kind = type(tree)
    if kind is dict:
        return {key: value if type(value) in _SCALARS else _copied(value) for key, value in tree.items()}
    if kind is list:
        return [value if type(value) in _SCALARS else _copied(value) for value in tree]
    if kind in _SCALARS:
        return tree
    return copy.deepcopy(tree)


FINISH_ACTION: Action = {"platform": "finish"}


def is_finish(action: object) -> bool:
    """Whether a logged action is the platform's "time is up" (see ``finish``)."""
    return isinstance(action, dict) and action.get("platform") == "finish"


def apply_logged(game: Game, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """One entry of a match log: a seat's action through ``apply``, the platform's
    ``FINISH_ACTION`` through ``finish``."""
    if is_finish(action):
        return game.finish(state)
    return game.apply(state, seat, action)


class RulesVersionUnsupported(LookupError):
    """A match recorded under a rules version that this engine no longer plays (nor ever did):
    refused, never re-run under other rules (see "Rules versions" in the module docstring)."""

    def __init__(self, slug: str, version: object, supported: tuple[int, ...]):
        self.slug = slug
        self.version = version
        self.supported = supported
        super().__init__(f"{slug}: rules version {version!r} is not played here "
                         f"(versions played: {', '.join(map(str, supported))})")


def rules_versions(game: Game) -> tuple[int, ...]:
    """The rules versions ``game`` plays: its current ``rules_version`` and the older ones it
    kept (``older_rules_versions``), newest first."""
    older = tuple(getattr(game, "older_rules_versions", ()))
    return (game.rules_version, *sorted(set(older) - {game.rules_version}, reverse=True))


def under_rules(game: Game, version: int | None) -> Game:
    """The engine that plays ``game`` under rules ``version`` (None: the current rules): the
    engine itself for its current version, ``game.with_rules(version)`` for an older version it
    kept; ``RulesVersionUnsupported`` for any other."""
    if version is None or (is_int(version) and version == game.rules_version):
        return game
    if not is_int(version) or version not in rules_versions(game):
        raise RulesVersionUnsupported(game.slug, version, rules_versions(game))
    engine = game.with_rules(version)  # type: ignore[attr-defined]
    if engine.rules_version != version or engine.slug != game.slug:
        raise TypeError(f"{game.slug}.with_rules({version}) returned rules "
                        f"{engine.rules_version} of {engine.slug}")
    return engine


def replay_steps(game: Game, players: int, variant: str, options: dict | None, seed: int,
                 actions: Iterable[tuple[int, Action]], *,
                 rules_version: int | None = None) -> Iterator[tuple[State, list[Event]]]:
    """Replay a match from its stored log, step by step: ``(state, events that led to it)``,
    from the set-up (with no events) through the last action. Lazy: a reader may stop early.
    ``rules_version``: the version the match was recorded under (``Match.rules_version``), played
    by ``under_rules`` (refused at once, before the first step, when the engine no longer
    plays it); None: the current rules."""
    game = under_rules(game, rules_version)
    return _replay_steps(game, players, variant, options, seed, actions)


def _replay_steps(game: Game, players: int, variant: str, options: dict | None, seed: int,
                  actions: Iterable[tuple[int, Action]]) -> Iterator[tuple[State, list[Event]]]:
    state = game.setup(players=players, variant=variant, seed=seed, options=options or {})
    yield state, []
    for seat, action in actions:
        state, events = apply_logged(game, state, seat, action)
        yield state, events


def replay(game: Game, players: int, variant: str, options: dict | None, seed: int,
           actions: Iterable[tuple[int, Action]], *, rules_version: int | None = None) -> list[State]:
    """Rebuild every state of a match from its stored log: [initial, after 1, after 2, ...]."""
    return [state for state, _ in replay_steps(game, players, variant, options, seed, actions,
                                               rules_version=rules_version)]

"""The engine contract (games/engines/base.py, games/engines/contract.py), checked once for
every game in ``list_games()`` and each of its variants over seeded random matches.

A new engine passes this suite without a line of its own; the per-game twin builders and option
samplers live in ``tests/support/engines.py``. The tests' toy game (``tests/toygame``: a game
outside the app, registered by one line) is checked too, registered for this module only.
"""
from __future__ import annotations

import functools
import importlib.util
import random

import pytest

from games.bots import bot_levels
from games.engines import (
    Abilities,
    Game,
    IllegalAction,
    NotScorable,
    abilities_of,
    clone,
    events_for,
    get_game,
    list_games,
    replay,
)
from games.engines.base import render_text
from tests import toygame
from tests.support.engines import (
    SPECS,
    GameSpec,
    Playout,
    canonical,
    junk_action,
    junk_seat,
    playout,
    random_setup,
    round_trip,
    spec_for,
)

MATCHES = 3            # seeded random matches per game and variant

SPECS.setdefault(toygame.SLUG, GameSpec(has_secrets=False))  # nothing secret in a coin's calls
with toygame.registered():
    GAMES = list_games()  # the app's games and the toy game (registered while this module runs)
SLUGS = [game.slug for game in GAMES]

CASES = [pytest.param(game.slug, variant, id=f"{game.slug}-{variant}")
         for game in GAMES for variant in game.variants]
SECRET_CASES = [case for case in CASES if SPECS.get(case.values[0]) is None
                or SPECS[case.values[0]].has_secrets]


@pytest.fixture(scope="module", autouse=True)
def toy_game_registered():
    with toygame.registered():
        yield


@functools.cache
def matches(slug: str, variant: str) -> tuple[Playout, ...]:
    return tuple(playout(get_game(slug), variant, seed) for seed in range(MATCHES))


def seats_of(match: Playout, rng: random.Random | None = None, k: int = 4) -> list[int | None]:
    """The spectator (None) and every seat, or ``k`` random seats with a ``rng``."""
    seats = list(range(match.players))
    return [None, *(rng.sample(seats, min(k, len(seats))) if rng else seats)]


def sample(states: list, k: int, rng: random.Random) -> list:
    """The first and last state and up to ``k`` others: keeps the slow checks short."""
    middle = states[1:-1]
    return [states[0], *rng.sample(middle, min(k, len(middle))), states[-1]]


# --- the registry ------------------------------------------------------------------------

def test_registry_lists_only_games_that_exist_with_the_contracts_attributes():
    games = list_games()
    assert {g.slug for g in games} >= {"qtris", "quantum-tictactoe", "quantum-poker"}
    assert len({g.slug for g in games}) == len(games)
    for game in games:
        assert isinstance(game, Game)
        assert get_game(game.slug) is game
        assert isinstance(game.name, str) and game.name
        assert isinstance(game.variants, tuple) and game.variants
        # every variant has its display name (a msgid), and only the variants do
        assert list(game.variant_names) == list(game.variants), game.slug
        assert all(isinstance(n, str) and n.strip() for n in game.variant_names.values()), game.slug
        assert 1 <= game.min_players <= game.max_players


def test_list_games_holds_exactly_the_registered_games_whose_engine_exists():
    from games import engines

    present = [slug for slug, entry in engines.GAMES.items()
               if importlib.util.find_spec(entry.engine) is not None]
    assert [g.slug for g in list_games()] == present
    assert toygame.SLUG in present  # one registry line made it a game
    for slug in set(engines.GAMES) - set(present):
        with pytest.raises(engines.UnknownGame):
            get_game(slug)
    with pytest.raises(engines.UnknownGame):
        get_game("chess")
    for slug, entry in engines.GAMES.items():  # a game's bots, when it has any, are found
        assert not entry.bots or importlib.util.find_spec(entry.bots) is not None, slug
        assert engines.board_path(slug).endswith(".js")


def test_a_game_registered_at_run_time_is_gone_once_unregistered():
    from games import engines

    engines.unregister_game(toygame.SLUG)
    try:
        with pytest.raises(engines.UnknownGame):
            get_game(toygame.SLUG)
        assert toygame.SLUG not in [g.slug for g in list_games()]
        assert bot_levels(toygame.SLUG) == {}
    finally:
        toygame.register()
    assert get_game(toygame.SLUG).slug == toygame.SLUG and list(bot_levels(toygame.SLUG)) == ["random"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_declares_its_secrets_or_has_none(slug):
    spec = spec_for(get_game(slug))
    assert spec.has_secrets == (spec.twin is not None)


# --- plain data --------------------------------------------------------------------------

@pytest.mark.parametrize("slug,variant", CASES)
def test_states_views_events_and_outcomes_round_trip_through_json(slug, variant):
    rng = random.Random(0)
    for match in matches(slug, variant):
        game = match.game
        for state in match.states:
            assert round_trip(state) == state
        for state in sample(match.states, 12, rng):
            for seat in seats_of(match, rng):
                view = game.view(state, seat)
                assert round_trip(view) == view
        for events in match.events:
            assert round_trip(events) == events
            for event in events:
                assert isinstance(event.get("type"), str) and event["type"]
                assert isinstance(event.get("text"), str) and event["text"]
        final = match.states[-1]
        outcome = game.outcome(final)
        if outcome is not None:
            assert round_trip(outcome) == outcome
            assert {"scores", "winners"} <= set(outcome)
            assert game.to_act(final) == []
        else:
            assert game.to_act(final)


@pytest.mark.parametrize("slug,variant", CASES)
def test_a_state_read_back_from_json_plays_on_the_same(slug, variant):
    rng = random.Random(1)
    for match in matches(slug, variant):
        game = match.game
        for i in rng.sample(range(len(match.log)), min(4, len(match.log))):
            seat, action = match.log[i]
            again, events = game.apply(round_trip(match.states[i]), seat, action)
            assert again == match.states[i + 1] and events == match.events[i]


# --- replay ------------------------------------------------------------------------------

@pytest.mark.parametrize("slug,variant", CASES)
def test_replay_from_the_stored_log_equals_the_live_states_and_events(slug, variant):
    for match in matches(slug, variant):
        game = match.game
        log = round_trip(match.log)              # as stored: JSON, tuples become lists
        states = replay(game, match.players, variant, round_trip(match.options), match.seed,
                        [(seat, action) for seat, action in log])
        assert states == match.states
        state = states[0]
        for (seat, action), events in zip(log, match.events, strict=True):
            state, again = game.apply(state, seat, action)
            assert again == events


# --- legal actions and junk --------------------------------------------------------------

@pytest.mark.parametrize("slug,variant", CASES)
def test_every_listed_legal_action_is_accepted_and_changes_nothing_in_place(slug, variant):
    rng = random.Random(2)
    checked = 0
    for match in matches(slug, variant):
        game = match.game
        for state in sample(match.states, 3, rng):
            before = canonical(state)
            to_act = game.to_act(state)
            assert len(set(to_act)) == len(to_act)
            assert all(type(s) is int and 0 <= s < match.players for s in to_act)
            for seat in range(match.players):
                legal = game.legal_actions(state, seat)
                if seat not in to_act:
                    assert legal == [], "a seat that is not to act has legal actions"
                    continue
                assert legal, "a seat to act has no legal action"
                assert len({canonical(a) for a in legal}) == len(legal)
                assert all(round_trip(a) == a for a in legal)
                for action in rng.sample(legal, min(25, len(legal))):
                    after, events = game.apply(state, seat, action)
                    assert after is not state and isinstance(events, list)
                    checked += 1
            assert canonical(state) == before, "apply changed its input"
    assert checked


def random_game(game: Game, state: dict, rng: random.Random, limit: int) -> tuple[list[dict], list[str]]:
    """The states of a game of random legal actions from ``state`` (at most ``limit``), and the
    text of each when it was made."""
    states, made = [state], [canonical(state)]
    while game.outcome(state) is None and len(states) < limit:
        seat = rng.choice(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
        made.append(canonical(state))
    return states, made


def changed_since(states: list[dict], made: list[str]) -> list[int]:
    """The indices of ``states`` whose text is no longer the one they were made with."""
    return [i for i, (state, text) in enumerate(zip(states, made, strict=True)) if canonical(state) != text]


@pytest.mark.parametrize("slug,variant", CASES)
def test_a_whole_game_leaves_every_earlier_state_as_it_was(slug, variant):
    """A state may share the parts that an action never edits (the map, the logs an action only
    appends to) with the states after it: no later action, ``finish`` or view may change them."""
    game = get_game(slug)
    for seed in range(3):
        rng = random.Random(f"{slug}:{variant}:shared:{seed}")
        state, players, _options, _seed = random_setup(game, variant, rng)
        states, made = random_game(game, state, rng, 150)
        for earlier in rng.sample(states, min(6, len(states))):
            game.finish(earlier)
            for seat in [None, *range(players)]:
                game.view(earlier, seat)
        assert not changed_since(states, made), f"states changed after they were made: {changed_since(states, made)[:10]}"


@pytest.mark.parametrize("slug,variant", CASES)
def test_what_the_server_sends_of_a_view_leaves_the_state_and_the_engine_as_they_were(slug, variant):
    """A view may hold parts of its state (logs, a board) and of the engine (a fixed board) as they
    are, not copies: whoever reads a view must not change it. The server's reading of views
    (``seat_payload``: localized in two languages, with the analysis a teacher sees, streamed as
    patches over a whole game to every seat and a spectator) changes no state, and a view of the
    first state made again at the end is the one made at the start."""
    from django.utils import translation

    from core.jsonpatch import StateStream
    from games.consumers import encode
    from games.selectors import seat_payload
    from games.snapshot import Snapshot

    game = get_game(slug)
    rng = random.Random(f"{slug}:{variant}:read:0")
    state, players, _options, seed = random_setup(game, variant, rng)
    first_views = {seat: canonical(game.view(state, seat)) for seat in [None, *range(players)]}
    states, made = random_game(game, state, rng, 120)
    streams = {(seat, language): StateStream(True, encode) for seat in [None, *range(players)] for language in ("en", "pl")}
    for seq, state in enumerate(states):
        snap = Snapshot(match=-1, seed=-seed - 1, game=slug, variant=variant, status="playing", seq=seq,
                        show_odds=True, seats=[], state=state)
        for (seat, language), stream in streams.items():
            with translation.override(language):
                stream.text(seat_payload(snap, seat, is_teacher=seat is None))
    assert not changed_since(states, made), f"states changed by the server's reading: {changed_since(states, made)[:10]}"
    assert {seat: canonical(game.view(states[0], seat)) for seat in first_views} == first_views


def test_clone_copies_a_state_through_and_through():
    state = {"board": [[{"bet": 1, "amps": [[0.5, 0.0]]}]], "events": [{"code": "x"}], "seat": None,
             "tuple": (1, [2])}
    copied = clone(state)
    assert copied == state
    copied["board"][0][0]["amps"][0][0] = 9
    copied["events"].append({})
    copied["tuple"][1].append(3)
    assert state == {"board": [[{"bet": 1, "amps": [[0.5, 0.0]]}]], "events": [{"code": "x"}], "seat": None,
                     "tuple": (1, [2])}


@pytest.mark.parametrize("slug,variant", CASES)
def test_junk_actions_and_seats_are_refused_with_illegal_action_and_change_nothing(
        slug, variant):
    rng = random.Random(3)
    tried = 0
    states = [(m, s) for m in matches(slug, variant) for s in m.states
              if m.game.outcome(s) is None]
    finals = [(m, m.states[-1]) for m in matches(slug, variant)]
    known: dict[tuple[int, int], list] = {}

    def legal_of(game, state, seat):
        key = (id(state), seat)
        if key not in known:
            known[key] = game.legal_actions(state, seat)
        return known[key]

    for _ in range(200):
        match, state = rng.choice(states) if rng.random() < 0.95 else rng.choice(finals)
        game = match.game
        seat = junk_seat(rng, state, game, match.players)
        is_seat = type(seat) is int and 0 <= seat < match.players
        legal = legal_of(game, state, seat) if is_seat else []
        listed = legal_of(game, state, rng.choice(game.to_act(state) or [0]))
        action = junk_action(rng, listed) if rng.random() < 0.85 else rng.choice(listed or [{}])
        if canonical(action) in {canonical(a) for a in legal}:
            continue
        before = canonical(state)
        with pytest.raises(IllegalAction) as err:
            game.apply(state, seat, action)
        assert isinstance(err.value.code, str) and err.value.code
        assert isinstance(err.value.message, str) and err.value.message
        assert canonical(state) == before
        tried += 1
    assert tried > 120


# --- views -------------------------------------------------------------------------------

@pytest.mark.parametrize("slug,variant", CASES)
def test_views_are_deterministic_and_leave_the_state_alone(slug, variant):
    rng = random.Random(4)
    for match in matches(slug, variant):
        game = match.game
        for state in sample(match.states, 10, rng):
            before = canonical(state)
            for seat in seats_of(match, rng):
                view = game.view(state, seat)
                assert game.view(state, seat) == view
                assert game.view(clone(state), seat) == view
            assert canonical(state) == before


@pytest.mark.parametrize("slug,variant", SECRET_CASES)
def test_a_twin_with_other_secrets_gives_every_seat_the_same_view(slug, variant):
    """Non-interference: changing what a seat may not know never changes its view — and the
    twin does change something (another seat sees the difference), so this can fail."""
    twin = spec_for(get_game(slug)).twin
    assert twin is not None
    rng = random.Random(5)
    noticed = 0
    for match in matches(slug, variant):
        game = match.game
        for state in sample(match.states, 15, rng):
            for seat in seats_of(match):
                other = twin(state, seat)
                assert game.view(other, seat) == game.view(state, seat), (seat, state)
                noticed += any(game.view(other, s) != game.view(state, s)
                               for s in range(match.players) if s != seat)
    assert noticed, "the twin changed nothing any seat can see: it proves nothing"


# --- declared abilities (the hidden-information policy) ----------------------------------

@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_declares_its_abilities(slug):
    game = get_game(slug)
    assert isinstance(game.abilities, Abilities), "declare abilities = Abilities(...)"
    assert abilities_of(game) is game.abilities
    declared = game.abilities
    assert callable(getattr(game, "preview", None)) == declared.preview
    assert callable(getattr(game, "teaching_moments", None)) == declared.teaching_moments
    assert callable(getattr(game, "concept_evidence", None)) == declared.concept_evidence
    assert bool(getattr(game, "evidence_texts", {})) == declared.concept_evidence
    assert callable(getattr(game, "public_circuit", None)) == declared.private_circuit
    assert callable(getattr(game, "luck", None)) == declared.luck
    if declared.cooperative:  # one result for the table: every seat wins or none does
        for variant in game.variants:
            for match in matches(slug, variant):
                outcome = game.outcome(match.states[-1])
                if outcome is not None:
                    assert set(outcome.get("winners") or []) in (set(), set(range(match.players)))
    if declared.luck:  # a number per seat, once the game is over
        for variant in game.variants:
            for match in matches(slug, variant):
                outcome = game.outcome(match.states[-1])
                luck = game.luck(match.states[-1], outcome) if outcome else None
                assert luck is None or (len(luck) == match.players and all(isinstance(x, float) for x in luck))
    assert declared.preview or not declared.preview_odds_keys
    if declared.live_odds:   # players follow the odds mid-game: nothing in them is secret
        assert declared.public_analysis_keys and not declared.teacher_only_analysis_keys


@pytest.mark.parametrize("slug", SLUGS)
def test_what_a_game_declares_about_itself_is_true_of_it(slug):
    """The facts the platform reads from the engine (base.py, "A game declares itself")."""
    game = get_game(slug)
    declared = abilities_of(game)
    assert callable(getattr(game, "summary", None)) == declared.summary
    assert callable(getattr(game, "side_odds", None)) == declared.side_odds
    assert callable(getattr(game, "scorer", None)) == declared.circuit
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in game.board_texts.items())
    assert isinstance(declared.partner_phrases, tuple) and all(isinstance(p, str) for p in declared.partner_phrases)
    assert isinstance(declared.session_extension, str)
    for variant in game.variants:
        for match in matches(slug, variant):
            final = match.states[-1]
            if declared.summary:  # plain data, its text made of the engine's registered texts
                summary = game.summary(game.view(final, None))
                assert round_trip(summary) == summary or round_trip(summary["facts"]) == summary["facts"]
                assert {"facts", "text", "rank"} <= set(summary) and summary["text"]
                for part in summary["text"]:
                    assert render_text(game.summary_texts, part["code"], part["params"])
            if declared.side_odds:  # a side per team, odds per side
                odds = game.side_odds(final)
                assert {"expected", "p_win", "first"} <= set(odds)
                sides = {declared.team_of(game, final, seat) for seat in range(match.players)}
                assert all(len(odds[k]) >= len(sides) for k in ("expected", "p_win") if odds[k] is not None)
    assert bool(game.exercise_examples) == declared.exercises
    for example in game.exercise_examples:  # every ready-made position sets up
        assert {"key", "name", "description", "variant", "options"} <= set(example)
        assert example["variant"] in game.variants
        game.setup(players=game.min_players, variant=example["variant"], seed=1, options=clone(example["options"]))
    assert not declared.exercises or not game.exercise_variant or game.exercise_variant in game.variants


@pytest.mark.parametrize("slug,variant", CASES)
def test_analysis_keys_are_all_declared_and_the_public_ones_hold_no_secret(slug, variant):
    """Every key ``analysis`` returns is declared public or teacher-only; the public part is
    the same for a twin with other secrets, whoever's secrets were changed (all players see it)."""
    game = get_game(slug)
    declared = game.abilities
    classified = set(declared.public_analysis_keys) | set(declared.teacher_only_analysis_keys)
    twin = spec_for(game).twin
    rng = random.Random(6)
    seen: set[str] = set()
    for match in matches(slug, variant):
        for state in sample(match.states, 6, rng):
            analysis = game.analysis(state)
            assert round_trip(analysis) == analysis
            assert set(analysis) <= classified, set(analysis) - classified
            seen |= set(analysis)
            public = declared.analysis_for(analysis, is_teacher=False, show_odds=True)
            if declared.public_analysis:  # computed alone: exactly the public keys, in order
                alone = game.public_analysis(state)
                assert alone == public and list(alone) == list(public)
            for seat in seats_of(match) if twin else []:
                other = declared.analysis_for(game.analysis(twin(state, seat)), is_teacher=False,
                                              show_odds=True)
                assert other == public, seat
                if declared.public_analysis:
                    assert game.public_analysis(twin(state, seat)) == public, seat
    assert seen & set(declared.public_analysis_keys) or not declared.public_analysis_keys
    assert not declared.public_analysis or hasattr(game, "public_analysis")


@pytest.mark.parametrize("slug,variant", CASES)
def test_a_declared_preview_works_and_changes_nothing(slug, variant):
    game = get_game(slug)
    if not game.abilities.preview:
        pytest.skip(f"{slug} declares no preview (checked by test_every_game_declares_its_abilities)")
    rng = random.Random(7)
    shown = 0
    for match in matches(slug, variant):
        for state in sample(match.states, 6, rng):
            before = canonical(state)
            for seat in game.to_act(state):
                legal = game.legal_actions(state, seat)
                for action in rng.sample(legal, min(3, len(legal))):
                    try:
                        result = game.preview(state, seat, action)
                    except IllegalAction as exc:     # e.g. a chance move cannot be previewed
                        assert exc.code and exc.message
                        continue
                    assert round_trip(result) == result
                    assert set(game.abilities.preview_odds_keys) <= set(result)
                    shown += 1
            with pytest.raises(IllegalAction):
                game.preview(state, match.players, {"zz": 1})
            assert canonical(state) == before
    assert shown


@pytest.mark.parametrize("slug,variant", CASES)
def test_declared_teaching_moments_are_plain_data_read_from_public_events_only(slug, variant):
    """Every moment has a registered code whose English rendering is its text; moments read
    only public events (the same without the private ones) and change nothing."""
    game = get_game(slug)
    if not game.abilities.teaching_moments:
        pytest.skip(f"{slug} declares no teaching moments (checked by test_every_game_declares_its_abilities)")
    texts = game.event_texts
    for match in matches(slug, variant):
        public_log = [events_for(events, None) for events in match.events]
        before = canonical(match.events)  # (every call is given a part of it: checked after them all)
        for i, events in enumerate(match.events):
            moments = game.teaching_moments(events, match.events[:i])
            assert round_trip(moments) == moments
            assert game.teaching_moments(public_log[i], public_log[:i]) == moments
            for m in moments:
                assert m["code"] in texts
                assert render_text(texts, m["code"], m["params"]) == m["text"]
        assert canonical(match.events) == before


@pytest.mark.parametrize("slug,variant", CASES)
def test_concept_evidence_is_plain_data_from_the_fixed_sets_with_registered_texts(slug, variant):
    """Every evidence is ``{"concept", "kind", "code", "params"}``: a concept and a kind of the
    fixed sets, a code registered in ``evidence_texts`` whose msgid its params fill exactly; the
    same for the same move (deterministic, from JSON too), the states left alone; an engine that
    declares no evidence gives none through ``Abilities.evidence_for``."""
    import re

    from games.engines.base import CONCEPTS, EVIDENCE_KINDS

    game = get_game(slug)
    declared = abilities_of(game)
    for match in matches(slug, variant):
        for i, (seat, action) in enumerate(match.log):
            before, after = match.states[i], match.states[i + 1]
            if not declared.concept_evidence:
                assert declared.evidence_for(game, before, seat, action, after) == []
                continue
            if i % 3 and i != len(match.log) - 1:   # every third move: keeps the suite short
                continue
            frozen = canonical([before, after])
            found = declared.evidence_for(game, before, seat, action, after)
            assert canonical([before, after]) == frozen, "concept_evidence changed a state"
            assert round_trip(found) == found
            assert game.concept_evidence(round_trip(before), seat, round_trip(action), round_trip(after)) == found
            for e in found:
                assert set(e) == {"concept", "kind", "code", "params"}, e
                assert e["concept"] in CONCEPTS and e["kind"] in EVIDENCE_KINDS, e
                msgid = game.evidence_texts[e["code"]]
                assert set(re.findall(r"%\((\w+)\)s", msgid)) == set(e["params"]), e
                assert render_text(game.evidence_texts, e["code"], e["params"])


@pytest.mark.parametrize("slug,variant", CASES)
def test_a_declared_circuit_is_a_quantum_circuit_and_an_undeclared_one_is_none(slug, variant):
    from qiskit import QuantumCircuit

    game = get_game(slug)
    rng = random.Random(8)
    for match in matches(slug, variant):
        expected = game.abilities.has_circuit(match.options)
        for state in sample(match.states[1:] or match.states, 3, rng):   # a started game
            circuit = game.circuit(state)
            if expected:
                assert isinstance(circuit, QuantumCircuit) and circuit.num_clbits
                try:  # the engine scores the circuit's outcomes (or says why not here)
                    scorer = game.scorer(state, circuit)
                except NotScorable as exc:
                    assert exc.msgid
                else:
                    key = "0" * circuit.cregs[0].size
                    assert len(scorer.score(key)) == len(scorer.sides)
                    assert all(isinstance(m, str) and isinstance(p, dict) for m, p in
                               scorer.verdict({"expected": [0.5] * len(scorer.sides), "table": [],
                                               "win": {side: 0.5 for side in scorer.sides}}, {}))
            else:
                assert circuit is None


# --- bots --------------------------------------------------------------------------------

@pytest.mark.parametrize("slug,variant", CASES)
def test_bots_only_ever_return_legal_actions(slug, variant):
    game = get_game(slug)
    bots = bot_levels(slug)
    for level, bot in bots.items():
        assert isinstance(bot.label, str) and bot.label, level
    levels = sorted(bots)
    for seed in range(1 if bots else 0):
        rng = random.Random(f"bots:{slug}:{variant}:{seed}")
        match = playout(game, variant, seed, max_actions=0)      # a random table
        state = match.states[0]
        chosen = {s: levels[s % len(levels)] for s in range(match.players)}
        for _ in range(150):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            legal = game.legal_actions(state, seat)
            before = canonical(state), canonical(legal)
            # (as the server does: the view itself, which may hold parts of the state)
            action = bots[chosen[seat]].choose(game.view(state, seat), legal, rng)
            assert (canonical(state), canonical(legal)) == before, f"{chosen[seat]} changed what it was given"
            assert action in legal, (chosen[seat], action)
            state, _ = game.apply(state, seat, action)


# --- time is up: finish ------------------------------------------------------------------

def unfinished_prefixes(match: Playout, rng: random.Random, k: int = 4) -> list[int]:
    """Lengths of log prefixes whose state is still running: the set-up and ``k`` others."""
    running = [i for i, state in enumerate(match.states) if match.game.outcome(state) is None]
    return [running[0], *rng.sample(running[1:], min(k, len(running) - 1))] if running else []


@pytest.mark.parametrize("slug,variant", CASES)
def test_finish_ends_the_game_reproducibly_with_coded_events_and_no_leak(slug, variant):
    """``finish`` (time is up) at any point: an outcome, nobody to act, events with registered
    codes, the input untouched, the same from JSON, and the log with the platform's finish
    replays to the same state; a finished game is left as it is; no secret in the views."""
    from games.engines import FINISH_ACTION
    from games.engines.base import render_text

    game = get_game(slug)
    assert isinstance(getattr(game, "finish_rule", None), str) and game.finish_rule
    twin = spec_for(game).twin
    rng = random.Random(8)
    checked = 0
    for match in matches(slug, variant):
        for upto in unfinished_prefixes(match, rng):
            state = match.states[upto]
            before = canonical(state)
            finished, events = game.finish(state)
            assert canonical(state) == before, "finish changed its input"
            outcome = game.outcome(finished)
            assert outcome is not None and {"scores", "winners"} <= set(outcome)
            assert game.to_act(finished) == []
            assert all(game.legal_actions(finished, s) == [] for s in range(match.players))
            assert round_trip(finished) == finished and round_trip(events) == events
            assert events, "finish says nothing"
            for e in events:
                assert e["code"] in game.event_texts
                assert render_text(game.event_texts, e["code"], e["params"]) == e["text"]
            assert game.finish(round_trip(state)) == (finished, events)
            log = round_trip([*match.log[:upto], (0, FINISH_ACTION)])
            replayed = replay(game, match.players, variant, round_trip(match.options), match.seed,
                              [(seat, action) for seat, action in log])
            assert replayed[-1] == finished
            assert game.finish(finished) == (finished, [])
            for seat in seats_of(match):
                view = game.view(finished, seat)
                assert round_trip(view) == view
                if twin is not None:
                    assert game.view(twin(finished, seat), seat) == view, (seat, upto)
            checked += 1
    assert checked

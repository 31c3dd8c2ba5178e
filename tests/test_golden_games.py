"""Stored games never change: the golden playthroughs of ``tests/golden/`` (recorded games per
game and variant, bots and chance included, every seat's and the spectator's view at every step,
the outcome) replayed by the current engines under the rules version they were recorded with.

An engine change that alters a stored game fails here unless the engine keeps the old behaviour
for that version (``older_rules_versions`` / ``with_rules``, games/engines/base.py "Rules
versions"). Only what the rules decide is compared — views, events' codes and params, legal
actions, outcome — never the English texts (an event's ``text``, an explanation's ``text``, a
``key`` beside its ``key_message``): a wording fix of a msgid does not touch these files. See
``tests/support/golden.py`` for the format and ``python -m tests.golden.record`` to record.
"""
from __future__ import annotations

import copy
import json

import pytest

from games.bots import bot_levels
from games.engines import (
    RulesVersionUnsupported,
    get_game,
    list_games,
    replay_steps,
    rules_versions,
)
from tests.golden import record as recorder
from tests.support import golden
from tests.support.golden import SCENARIOS, compare, golden_files, load

FILES = golden_files()
MAX_TOTAL_BYTES = 512 * 1024


@pytest.fixture
def fresh_engines():
    """Engines looked up again (``get_game`` remembers an engine per rules version)."""
    get_game.cache_clear()
    yield
    get_game.cache_clear()


def test_there_are_golden_files():
    assert len(FILES) >= 2 * sum(len(g.variants) for g in list_games()) - 2


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_a_golden_game_replays_as_recorded(path):
    golden_game = load(path)
    game = get_game(golden_game["game"])
    if golden_game["rules_version"] not in rules_versions(game):
        # rules the engine no longer plays: refused, never re-run under the new rules
        with pytest.raises(RulesVersionUnsupported):
            replay_steps(game, golden_game["players"], golden_game["variant"],
                         golden_game["options"], golden_game["seed"], golden_game["actions"],
                         rules_version=golden_game["rules_version"])
        return
    problem = compare(golden_game)
    assert problem is None, (
        f"{path.name} (rules version {golden_game['rules_version']}) no longer replays as "
        f"recorded: {problem}. Keep the old behaviour for that version, or bump the engine's "
        "rules_version and record the new version's files (python -m tests.golden.record).")


def test_every_game_and_variant_has_golden_games_of_its_current_rules():
    scenarios = {(s.game, s.variant) for s in SCENARIOS}
    for game in list_games():
        for variant in game.variants:
            assert (game.slug, variant) in scenarios, f"no golden scenario for {game.slug} {variant}"
    missing = [str(s.path(get_game(s.game).rules_version)) for s in SCENARIOS
               if not s.path(get_game(s.game).rules_version).exists()]
    assert not missing, f"record them: python -m tests.golden.record ({missing})"


def test_the_golden_games_have_bots_of_every_level_chance_and_the_platforms_finish():
    levels = {(s.game, level) for s in SCENARIOS for level in s.bots}
    for game in list_games():
        assert {(game.slug, level) for level in bot_levels(game.slug)} <= levels, game.slug
        finished = [s for s in SCENARIOS if s.game == game.slug and s.finish_at is not None]
        natural = [s for s in SCENARIOS if s.game == game.slug and s.finish_at is None]
        assert finished and natural or game.slug == "entanglion", game.slug
        assert finished, game.slug


def test_the_golden_files_are_small_and_compact():
    sizes = {p: p.stat().st_size for p in FILES}
    assert sum(sizes.values()) <= MAX_TOTAL_BYTES, sum(sizes.values())
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        document = json.loads(text)
        assert document["format"] == golden.FORMAT
        assert path.name.endswith(f".v{document['rules_version']}.json")
        assert '"text"' not in text  # the English is never recorded


# --- the comparison notices what the rules decide, and only that ------------------------------

TTT = "quantum-tictactoe"


def ttt_file():
    return next(p for p in FILES if p.parent.name == TTT and "strong-random" in p.name)


def test_a_changed_view_event_param_legal_action_or_outcome_is_noticed(monkeypatch, fresh_engines):
    game = get_game(TTT)
    golden_game = load(ttt_file())
    assert compare(golden_game) is None

    view = game.view
    monkeypatch.setattr(game, "view", lambda state, seat: {**view(state, seat), "to_act": [9]})
    assert "view of the spectator" in compare(golden_game)
    monkeypatch.undo()

    apply = game.apply

    def other_params(state, seat, action):
        state, events = apply(state, seat, action)
        return state, [{**e, "params": {**e["params"], **{k: "?" for k in list(e["params"])[:1]}}}
                       if e.get("params") else e for e in events]

    monkeypatch.setattr(game, "apply", other_params)
    assert "events" in compare(golden_game)
    monkeypatch.undo()

    legal = game.legal_actions
    monkeypatch.setattr(game, "legal_actions", lambda state, seat: legal(state, seat)[1:])
    assert "legal" in compare(golden_game)
    monkeypatch.undo()

    outcome = game.outcome
    monkeypatch.setattr(game, "outcome", lambda state: (
        None if outcome(state) is None else {**outcome(state), "winners": [7]}))
    assert "outcome" in compare(golden_game)


def test_a_wording_fix_or_a_new_view_key_is_not_a_rule_change(monkeypatch, fresh_engines):
    game = get_game(TTT)
    golden_game = load(ttt_file())
    texts = {code: "Reworded: " + text for code, text in game.event_texts.items()}
    monkeypatch.setattr(game, "event_texts", texts)
    apply = game.apply

    def reworded(state, seat, action):
        state, events = apply(state, seat, action)
        return state, [{**e, "text": "Reworded " + e.get("text", "")} for e in events]

    monkeypatch.setattr(game, "apply", reworded)
    view = game.view
    monkeypatch.setattr(game, "view", lambda state, seat: {**view(state, seat), "hint": "new"})
    assert compare(golden_game) is None


def test_a_rule_change_that_keeps_the_old_version_still_replays_the_old_games(
        monkeypatch, fresh_engines):
    """Version 2 of tic-tac-toe shows other views; its games recorded under version 1 replay on
    the engine it kept for version 1, while a game asked for under version 2 differs."""
    game = get_game(TTT)
    kept = copy.copy(game)  # the rules of version 1, as they were
    view = game.view
    monkeypatch.setattr(game, "rules_version", 2)
    monkeypatch.setattr(game, "older_rules_versions", (1,), raising=False)
    monkeypatch.setattr(game, "with_rules", lambda version: kept, raising=False)
    monkeypatch.setattr(game, "view", lambda state, seat: {**view(state, seat), "to_act": [9]})
    golden_game = load(ttt_file())
    assert golden_game["rules_version"] == 1
    assert compare(golden_game) is None
    assert "view" in compare({**golden_game, "rules_version": 2})


def test_an_engine_that_no_longer_plays_a_version_refuses_it(monkeypatch, fresh_engines):
    game = get_game(TTT)
    monkeypatch.setattr(game, "rules_version", 2)
    golden_game = load(ttt_file())
    with pytest.raises(RulesVersionUnsupported, match="rules version 1"):
        compare(golden_game)


# --- the recorder -------------------------------------------------------------------------------

def test_the_recorder_keeps_a_file_of_an_unchanged_version_and_refuses_to_overwrite_it(
        monkeypatch, fresh_engines, capsys):
    paths = [s.path(1) for s in SCENARIOS if s.game == TTT]
    before = {p: p.read_bytes() for p in paths}
    assert recorder.main(["--game", TTT]) == 0
    assert "kept" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in paths} == before

    game = get_game(TTT)
    legal = game.legal_actions
    monkeypatch.setattr(game, "legal_actions", lambda state, seat: list(reversed(legal(state, seat))))
    assert recorder.main(["--game", TTT]) == 1
    assert "REFUSED" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in paths} == before


def test_the_recorder_records_a_missing_file_that_replays(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(golden, "GOLDEN_DIR", tmp_path / "tests" / "golden")
    scenario = next(s for s in SCENARIOS if s.game == TTT)
    monkeypatch.setattr(recorder, "SCENARIOS", (scenario,))
    monkeypatch.setattr(recorder, "GOLDEN_DIR", golden.GOLDEN_DIR)
    assert recorder.main([]) == 0
    written = scenario.path(1)
    assert written.is_relative_to(tmp_path)
    assert written.read_bytes() == ttt_file().read_bytes()  # recording is reproducible
    assert compare(load(written)) is None

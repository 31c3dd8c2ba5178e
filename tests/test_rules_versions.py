"""Rules versions (games/engines/base.py "Rules versions"): every engine declares the version of
its rules, every match stores the version it was created under, and replays, statistics and live
play run the match's log under that version — or refuse it in words, never re-running it under
other rules. The golden games of ``tests/golden/`` (``tests/test_golden_games.py``) hold the
engines to their recorded versions."""
from __future__ import annotations

import copy

import pytest
from django.contrib.auth import get_user_model

from games import selectors, services, state_cache
from games.engines import (
    RulesVersionUnsupported,
    get_game,
    list_games,
    replay,
    replay_steps,
    rules_versions,
    under_rules,
)
from games.errors import AppError
from games.models import Match
from games.selectors import current_state, replay_frames

TTT = "quantum-tictactoe"


@pytest.fixture
def fresh_engines():
    """Engines looked up again (``get_game`` remembers an engine per rules version)."""
    get_game.cache_clear()
    yield
    get_game.cache_clear()


def test_every_engine_declares_the_version_of_its_rules_and_plays_each_it_keeps():
    for game in list_games():
        version = game.rules_version
        assert isinstance(version, int) and not isinstance(version, bool) and version >= 1, game.slug
        assert rules_versions(game)[0] == version
        assert under_rules(game, None) is game and under_rules(game, version) is game
        assert get_game(game.slug, version) is game
        for older in rules_versions(game)[1:]:
            engine = under_rules(game, older)
            assert engine.rules_version == older and engine.slug == game.slug
        for unknown in (version + 1, 0, "1", True):
            with pytest.raises(RulesVersionUnsupported):
                under_rules(game, unknown)


def test_a_replay_under_a_version_the_engine_no_longer_plays_is_refused_before_any_step():
    game = get_game(TTT)
    with pytest.raises(RulesVersionUnsupported) as refused:
        replay_steps(game, 2, "basic", {}, 1, [], rules_version=game.rules_version + 1)
    assert refused.value.slug == TTT and refused.value.supported == rules_versions(game)
    with pytest.raises(RulesVersionUnsupported):
        replay(game, 2, "basic", {}, 1, [], rules_version=99)
    assert len(replay(game, 2, "basic", {}, 1, [], rules_version=game.rules_version)) == 1


def bots_match(teacher=None) -> Match:
    holders = [services.SeatHolder("Bot X", bot="random"), services.SeatHolder("Bot O", bot="random")]
    match = services.create_match(TTT, holders, seed=5, teacher=teacher)
    services.start_match(match.pk)
    match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_a_match_stores_the_rules_version_it_was_created_under():
    match = bots_match()
    assert match.rules_version == get_game(TTT).rules_version
    assert match.status == Match.Status.FINISHED
    assert Match._meta.get_field("rules_version").has_default() is False  # always said, never assumed


@pytest.mark.django_db
def test_an_old_match_replays_and_plays_on_under_the_rules_the_engine_kept(monkeypatch, fresh_engines):
    """Version 2 changes the views; a match of version 1 is replayed (and continued) by the
    engine kept for version 1, a new match is created under version 2."""
    old = bots_match()
    people = services.create_match(TTT, [services.SeatHolder("Ada", participant_id=1),
                                         services.SeatHolder("Bo", participant_id=2)], seed=3)
    services.start_match(people.pk)
    game = get_game(TTT)
    kept = copy.copy(game)
    view = game.view
    monkeypatch.setattr(game, "rules_version", 2)
    monkeypatch.setattr(game, "older_rules_versions", (1,), raising=False)
    monkeypatch.setattr(game, "with_rules", lambda version: kept, raising=False)
    monkeypatch.setattr(game, "view", lambda state, seat: {**view(state, seat), "rules": 2})
    get_game.cache_clear()  # (a process never changes its engines' rules; this test does)
    state_cache._states.clear()

    assert old.rules_version == 1 and old.engine is kept
    assert all("rules" not in frame["view"] for frame in replay_frames(old, None))
    people.refresh_from_db()
    move = kept.legal_actions(current_state(people), 0)[0]
    applied = services.submit_action(people.pk, 0, 0, move, participant_ids=(1,))
    assert applied.seq == 1 and "rules" not in selectors.seat_payload(applied.snapshot, 1)["view"]

    new = bots_match()
    assert new.rules_version == 2 and new.engine is game
    assert all(frame["view"]["rules"] == 2 for frame in replay_frames(new, None))


@pytest.mark.django_db
def test_a_match_under_rules_no_longer_played_is_refused_in_words_by_pages_api_and_services(
        client, fresh_engines):
    teacher = get_user_model().objects.create_user("ruler", password="pw-for-tests-only")
    match = bots_match(teacher=teacher)
    Match.objects.filter(pk=match.pk).update(rules_version=match.rules_version + 7)
    match.refresh_from_db()
    state_cache._states.clear()

    with pytest.raises(AppError) as refused:
        current_state(match)
    assert refused.value.code == "rules_version" and refused.value.status == 410
    assert f"version {match.rules_version}" in refused.value.message

    client.force_login(teacher)
    page = client.get(f"/matches/{match.pk}/replay/")
    assert page.status_code == 410
    assert "played under other rules" in page.content.decode()
    assert f"version {match.rules_version} of the rules" in page.content.decode()
    api = client.get(f"/api/matches/{match.pk}/replay/")
    assert api.status_code == 410 and api.json()["code"] == "rules_version"

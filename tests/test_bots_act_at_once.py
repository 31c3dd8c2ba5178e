"""A bot acts at once on every decision that is its own, in every game and at every level, with
or without a clock, through the platform's own scheduling (``games.services``: a start, a
move, a seat handed to a bot, a time-out): bots alone at a table play their game to its end
without a time-out; beside a person deciding at the same moment (QTris's rolls and mulligans) a
bot makes its own decision and the person's is awaited; a bot never takes a decision from its
human teammate, and never "runs out of time"."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from classrooms import services
from classrooms.models import Participant
from games import services as match_services
from games.bots import bot_levels, get_bot
from games.engines import abilities_of, get_game, list_games
from games.models import Action, Match
from games.selectors import current_state


@pytest.fixture(autouse=True)
def in_memory_layer(settings):
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


LEVELS = [pytest.param(game.slug, level, id=f"{game.slug}-{level}")
          for game in list_games() for level in bot_levels(game.slug)]
CLOCKS = [pytest.param(None, id="no-clock"), pytest.param(15, id="clock")]


def size_of(slug: str) -> int:
    """Three seats where the game allows them (QTris: a side of two, a team), else its minimum."""
    game = get_game(slug)
    return max(game.min_players, min(3, game.max_players))


def table_of(classroom, slug: str, level: str, clock: int | None, names=("Ada",)) -> tuple:
    """A started table of ``names`` (seated first, in order) and bots of ``level``."""
    session = services.open_session(classroom, slug, bot_level=level, move_seconds=clock,
                                    options={"table_size": size_of(slug)})
    people = [Participant.objects.create(session=session, display_name=n) for n in names]
    table = services.seat_table(session, people, bots=size_of(slug) - len(people), in_order=True)
    services.start_all(session)
    return session, people, Match.objects.get(pk=table.match_id)


def bots_awaited_alone(match: Match) -> list[int]:
    """Bot seats awaited with no person of their team also awaited: a bot left waiting."""
    match.refresh_from_db()
    if match.status != Match.Status.PLAYING:
        return []
    game = get_game(match.game)
    state = current_state(match)
    bots = {s.index for s in match.seats.all() if s.bot}
    waiting = game.to_act(state)
    team = abilities_of(game).team_of
    people_teams = {team(game, state, s) for s in waiting if s not in bots}
    return [s for s in waiting if s in bots and team(game, state, s) not in people_teams]


def assert_no_time_out(match: Match) -> None:
    timed_out = list(Action.objects.filter(match=match, timed_out=True).values_list("events", flat=True))
    assert not timed_out, [e[0]["text"] for e in timed_out]


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("slug,level", LEVELS)
def test_bots_alone_at_a_table_play_the_game_to_its_end_at_once(classroom, transactional_db, slug, level, clock):
    """The student is removed: their seat goes to a bot, and the bots alone finish the game in
    that same command (a long one, e.g. Entanglion's random partners, in further batches after
    the commit), with no time-out."""
    session, (ada,), match = table_of(classroom, slug, level, clock)
    assert bots_awaited_alone(match) == []
    services.remove_participant(session, ada.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, (match.seq, get_game(slug).to_act(current_state(match)))
    assert match.outcome is not None and match.deadline is None
    assert_no_time_out(match)
    assert match.actions.filter(by_bot=False).count() == 0


@pytest.mark.parametrize("slug", [g.slug for g in list_games()])
def test_a_long_game_of_bots_alone_goes_on_after_each_batch(classroom, transactional_db, monkeypatch, slug):
    """More bot actions than one transaction takes (``MAX_BOT_ACTIONS_PER_CALL``): the rest are
    played in further transactions after the commit, each told to the match's pages."""
    monkeypatch.setattr(match_services, "MAX_BOT_ACTIONS_PER_CALL", 3)
    told = []
    monkeypatch.setattr(match_services, "announce_match_changed",
                        lambda match_id, snapshot=None, events=None: told.append(snapshot.seq))
    level = list(bot_levels(slug))[-1]
    session, (ada,), match = table_of(classroom, slug, level, 30)
    services.remove_participant(session, ada.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert_no_time_out(match)
    assert told and told == sorted(told) and told[-1] == match.seq


@pytest.mark.parametrize("slug,level", LEVELS)
def test_beside_a_person_a_bot_never_waits_and_never_runs_out_of_time(classroom, slug, level):
    """A person plays the whole game (as the game's best bot would, which keeps it short)
    against bots with a clock: after the start and after every one of their moves no bot is
    left waiting on a decision of its own."""
    session, (ada,), match = table_of(classroom, slug, level, 15)
    game = get_game(slug)
    rng = random.Random(7)
    person = get_bot(slug, list(bot_levels(slug))[-1])
    for _ in range(3000):
        assert bots_awaited_alone(match) == [], f"bots left waiting at move {match.seq}"
        if match.status != Match.Status.PLAYING:
            break
        state = current_state(match)
        assert 0 in game.to_act(state), "the person's decision is awaited"
        action = person.choose(game.view(state, 0), game.legal_actions(state, 0), rng)
        match_services.submit_action(match.pk, 0, match.seq, action, participant_ids=(ada.pk,))
    assert match.status == Match.Status.FINISHED
    assert_no_time_out(match)


@pytest.mark.parametrize("level", list(bot_levels("qtris")))
def test_qtris_rolls_and_mulligans_the_bot_decides_at_once_the_persons_decision_is_awaited(classroom, level):
    session = services.open_session(classroom, "qtris", bot_level=level, move_seconds=15)
    ada = Participant.objects.create(session=session, display_name="Ada")
    table = services.seat_table(session, [ada], bots=1, in_order=True)  # Ada seat 0, the bot seat 1
    services.start_all(session)
    match = Match.objects.get(pk=table.match_id)
    game = get_game("qtris")
    state = current_state(match)
    assert state["phase"] == "roll" and game.to_act(state) == [0]  # the bot rolled at once
    (bot_roll,) = match.actions.all()
    assert bot_roll.seat == 1 and bot_roll.by_bot and bot_roll.action == {"roll": True}
    assert match.deadline is not None  # Ada's clock runs
    phases = set()
    rng = random.Random(3)
    while state["phase"] in ("roll", "color", "mulligan"):
        phases.add(state["phase"])
        if state["phase"] == "mulligan":
            assert game.to_act(state) == [0], "the bot made its mulligan at once"
            assert match.actions.filter(seat=1, action__has_key="mulligan").exists()
        match_services.submit_action(match.pk, 0, match.seq, rng.choice(game.legal_actions(state, 0)),
                                     participant_ids=(ada.pk,))
        match.refresh_from_db()
        state = current_state(match)
        assert bots_awaited_alone(match) == []
    assert {"roll", "mulligan"} <= phases
    assert_no_time_out(match)


def test_a_time_out_on_a_teams_decision_is_the_persons_not_their_bot_teammates(classroom):
    """QTris, two sides of two: each side has a bot and a person. The rolls wait for the people
    (a bot never takes its teammate's decision); when the clock runs out the random bot moves
    for the people, named; no bot "runs out of time"."""
    holders = [match_services.SeatHolder("Bot 1 (strong)", bot="strong"),
               match_services.SeatHolder("Bo", participant_id=2),
               match_services.SeatHolder("Ada", participant_id=1),
               match_services.SeatHolder("Bot 2 (strong)", bot="strong")]
    match = match_services.create_match("qtris", holders, variant="basic")
    Match.objects.filter(pk=match.pk).update(move_seconds=15)
    match_services.start_match(match.pk)
    match.refresh_from_db()
    assert match.seq == 0 and match.deadline is not None
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(milliseconds=10))
    applied = match_services.enforce_time(match.pk, 0)
    timed_out = [e["text"] for e in applied.events if e.get("code") == "timed_out"]
    assert sorted(timed_out) == sorted(f"Time ran out for {name}: the random bot moved for them."
                                       for name in ("Ada", "Bo"))
    assert not Action.objects.filter(match=match, timed_out=True, seat__in=[0, 3]).exists()

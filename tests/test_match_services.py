"""Match services on the database: previews respect hidden odds; bots play their turns."""
from __future__ import annotations

import copy

import pytest

from games import services
from games.models import Match
from tests.engines.test_qtris_preview import OPTIONS

pytestmark = pytest.mark.django_db


def qtris_match(**fields) -> Match:
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("qtris", holders, variant="advanced", options=copy.deepcopy(OPTIONS), **fields)
    services.start_match(match.pk)
    return match


def test_a_preview_shows_the_odds_only_where_players_may_see_them():
    match = qtris_match()
    shown = services.preview_action(match.pk, 0, {"card": "X", "squares": [1]})
    assert shown["ok"] and "analysis" in shown["result"] and "delta" in shown["result"]
    Match.objects.filter(pk=match.pk).update(show_odds=False)
    hidden = services.preview_action(match.pk, 0, {"card": "X", "squares": [1]})
    assert hidden["ok"] and "analysis" not in hidden["result"] and "delta" not in hidden["result"]
    assert hidden["result"]["board"]
    assert Match.objects.get(pk=match.pk).seq == 0  # a preview applies nothing


def test_an_illegal_preview_says_why_and_a_game_without_previews_says_so():
    match = qtris_match()
    refused = services.preview_action(match.pk, 1, {"card": "Z", "squares": [1]})
    assert not refused["ok"] and refused["message"]
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    qttt = services.create_match("quantum-tictactoe", holders)
    assert services.preview_action(qttt.pk, 0, {"squares": [1, 2]})["code"] == "no_preview"


def test_bots_play_their_turns_inside_the_same_transaction():
    holders = [services.SeatHolder("Bot", bot="strong"), services.SeatHolder("Ada", participant_id=1)]
    match = services.create_match("quantum-tictactoe", holders)
    applied = services.start_match(match.pk)
    assert applied.seq == 1 and match.actions.get().by_bot  # X is the bot: it opened
    applied = services.submit_action(match.pk, 1, 1, {"squares": [4, 5]},
                                     participant_ids=(1,))
    assert applied.seq >= 3 or Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    with pytest.raises(services.ActionRejected) as stale:
        services.submit_action(match.pk, 1, 1, {"squares": [6, 7]}, participant_ids=(1,))
    assert stale.value.code == "stale"


def test_a_bot_on_a_team_leaves_the_decisions_to_its_human_teammate():
    options = copy.deepcopy(OPTIONS)
    options["hands"] = [["U", "CX", "X", "H"], ["Z", "Y", "I", "X"]]
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bot B", bot="random"),
               services.SeatHolder("Bot A", bot="random"), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("qtris", holders, variant="advanced", options=options)
    applied = services.start_match(match.pk)
    assert applied.seq == 0  # side A (seats 0 and 2) is to act: Ada decides, her bot waits
    applied = services.submit_action(match.pk, 0, 0, {"card": "X", "squares": [1]}, participant_ids=(1,))
    assert Match.objects.get(pk=match.pk).actions.filter(by_bot=True).count() == 0

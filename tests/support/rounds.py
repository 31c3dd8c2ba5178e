"""Play a class session's matches out on the server side, every seat by its game's bot."""
from __future__ import annotations

import random

from games import services as match_services
from games.bots import bot_levels, get_bot
from games.engines import get_game
from games.models import Match
from games.selectors import current_state


def play_out(match_id: int, *, seed: int = 0, max_actions: int = 2000) -> Match:
    """Every person's seat plays its game's first bot level's choice until the match is over."""
    match = Match.objects.get(pk=match_id)
    game = get_game(match.game)
    bot = get_bot(match.game, next(iter(bot_levels(match.game))))
    rng = random.Random(seed)
    for _ in range(max_actions):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        state = current_state(match)
        seat = game.to_act(state)[0]
        action = bot.choose(game.view(state, seat), game.legal_actions(state, seat), rng)
        match_services.submit_action(match_id, seat, match.seq, action)
    raise AssertionError(f"match {match_id} did not finish in {max_actions} actions")

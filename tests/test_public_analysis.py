"""A player's analysis computed alone (``Abilities.public_analysis``: Ticket-to-Ride's claimed
lengths, Entanglion's ships and detection, without the teacher's planning; QuantumPoker's odds
from what the table knows, without the exact odds) and remembered per
state and process (``games.selectors.analysis_seen``): every player's payload holds exactly the
public keys of the whole analysis, and the teacher's the whole of it, whichever reader's payload
of the state was built first in the process (a remembered analysis never crosses from the
teacher to a player, nor from one seat to another)."""
from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from games.engines import abilities_of, get_game
from games.event_text import localize_view
from games.selectors import seat_payload
from games.snapshot import Snapshot

GAMES = [slug for slug in ("quantum-ticket-to-ride", "entanglion", "quantum-poker") if abilities_of(get_game(slug)).public_analysis]
_ids = itertools.count(900_000)


def states(slug: str, moves: int = 14) -> list:
    """A few states of a random game, from the set-up on."""
    game = get_game(slug)
    rng = random.Random(slug)
    state = game.setup(players=game.min_players, variant=game.variants[0], seed=5)
    out = [state]
    for _ in range(moves):
        if game.outcome(state) is not None or not game.to_act(state):
            break
        seat = game.to_act(state)[0]
        state, _events = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        out.append(state)
    return out


def snap_of(slug: str, state, seq: int) -> Snapshot:
    return Snapshot(match=next(_ids), seed=5, game=slug, variant=get_game(slug).variants[0], status="playing",
                    seq=seq, show_odds=True, seats=[{"index": s, "name": f"P{s}", "bot": None}
                                                    for s in range(state["players"])], state=state)


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("readers", ["teacher_first", "players_first"])
def test_each_reader_gets_its_own_part_of_the_analysis_whoever_was_first(slug, readers):
    game = get_game(slug)
    declared = game.abilities
    for seq, state in enumerate(states(slug)):
        snap = snap_of(slug, state, seq)
        whole = game.analysis(state)
        public = localize_view(slug, declared.analysis_for(whole, is_teacher=False, show_odds=True))
        players = list(range(state["players"])) + [None]  # (None: a spectator's page)
        order = [("teacher", None), *(("player", s) for s in players)]
        if readers == "players_first":
            order.reverse()
        for _ in range(2):  # built again: the remembered analyses
            for who, seat in order:
                payload = seat_payload(snap, seat, is_teacher=who == "teacher")
                if who == "teacher":
                    assert payload["analysis"] == localize_view(slug, whole)
                else:
                    assert payload["analysis"] == public
                    assert not set(payload["analysis"]) & set(declared.teacher_only_analysis_keys)


@pytest.mark.parametrize("slug", GAMES)
def test_no_analysis_for_players_while_the_odds_are_hidden(slug):
    state = states(slug, 3)[-1]
    snap = snap_of(slug, state, 3)
    hidden = dataclasses.replace(snap, show_odds=False)
    assert "analysis" not in seat_payload(hidden, 0)
    assert seat_payload(hidden, 0, is_teacher=True)["analysis"] == localize_view(slug, get_game(slug).analysis(state))

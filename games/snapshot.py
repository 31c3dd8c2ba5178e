"""A snapshot of a match after a change: everything a consumer needs to build any seat's view
without touching the database. It travels only inside the server (through the channel layer);
browsers receive views built from it, never the snapshot itself."""
from __future__ import annotations

import re
from dataclasses import dataclass, fields

import orjson
from django.utils.translation import gettext as _

from games import pace, state_cache
from games.engines import State
from games.models import Match
from games.names import bot_level_name

# the name a class session gives a bot it seats ("Bot 2 (strong)", classrooms.services): stored in
# English, shown in each reader's language
BOT_NAME = re.compile(r"^Bot (\d+) \(([\w-]+)\)$")


def bot_name(number: int | str, level: str) -> str:
    """"Bot 2 (fuerte)": a seated bot's name in the active language, its level's name included."""
    return _("Bot %(number)s (%(level)s)") % {"number": number, "level": bot_level_name(level)}


@dataclass(frozen=True)
class Snapshot:
    match: int
    seed: int  # server-side only: keys the state cache; never put in a browser's payload
    game: str
    variant: str
    status: str
    seq: int
    show_odds: bool
    seats: list[dict]
    state: State
    clock: dict | None = None  # games.pace.clock_message: absolute times, server side
    rules_version: int | None = None  # the match's (``Match.rules_version``); None: the current rules

    def as_message(self) -> dict:
        """The snapshot as a channel-layer message: a shallow dict (the layer serializes it at
        once, or, in memory, copies it), not ``dataclasses.asdict``, whose deep copy of the state
        cost up to 2 ms a move (Ticket-to-Ride) for nothing. The state goes as its JSON text,
        made once: the layer packs those bytes as they are for each socket that receives the
        change (it packed and unpacked the whole state tree for each: a tenth of a poker
        server's CPU), and a process decodes them once (``from_message``)."""
        message = {f.name: getattr(self, f.name) for f in fields(self)}
        message["state"] = orjson.dumps(self.state, option=orjson.OPT_NON_STR_KEYS)
        return message

    @classmethod
    def from_message(cls, data: dict) -> Snapshot:
        """The snapshot a channel-layer message holds: its state the one this process holds for
        the match at that seq (``state_cache``: the same state, whichever socket decoded it
        first), else decoded from the message and kept there for the next socket."""
        key = (data["match"], data["seed"], data["seq"])
        state = state_cache.get(*key)
        if state is None:
            state = orjson.loads(data["state"])
            state_cache.put(*key, state)
        return cls(**{**data, "state": state})


def seat_name(seat) -> str:
    """The name shown for a seat: a student's seat handed to a bot says whose it was."""
    if seat.bot and seat.former_participant_id is not None:
        return _("Bot (was %(name)s)") % {"name": seat.name}
    if seat.bot and (m := BOT_NAME.match(seat.name or "")):
        return bot_name(m[1], m[2])
    return seat.name


def seats_summary(seats) -> list[dict]:
    """The seats as every page gets them. A student's seat handed to a bot keeps the student's
    name under ``was`` (``localized_seats`` says "Bot (was …)" in each reader's language: a
    snapshot is shared by readers of several languages)."""
    return [{"index": s.index, "name": seat_name(s), "bot": s.bot or None,
             **({"was": s.name} if s.bot and s.former_participant_id is not None else {}),
             **({"bot_name": [m[1], m[2]]} if s.bot and s.former_participant_id is None
                and (m := BOT_NAME.match(s.name or "")) else {})} for s in seats]


def localized_seats(seats: list[dict]) -> list[dict]:
    """``seats_summary`` rows with the names of bots (seated as bots, or handed a student's seat)
    in the active language."""
    return [{**s, "name": _("Bot (was %(name)s)") % {"name": s["was"]}} if s.get("was")
            else {**s, "name": bot_name(*s["bot_name"])} if s.get("bot_name") else s for s in seats]


def snapshot(match: Match, state: State, seats=None) -> Snapshot:
    seats = match.seats.all() if seats is None else seats
    return Snapshot(match=match.pk, seed=match.seed, game=match.game, variant=match.variant, status=match.status,
                    seq=match.seq, show_odds=match.show_odds, seats=seats_summary(seats), state=state,
                    clock=pace.clock_message(match), rules_version=match.rules_version)

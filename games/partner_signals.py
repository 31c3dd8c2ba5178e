"""Quick signals between partners of a co-operative game: predefined phrases only, no free text
(the players are minors).

A game's engine lists the phrase ids it offers (``Abilities.partner_phrases``); the texts live
here, through gettext, so every reader sees them in their own language. A player's socket sends
``{"type": "signal", "phrase": "<id>"}`` (nothing else); ``check_signal`` refuses an unknown id, a bad shape, a
game without signals, a spectator and a player who signals too often, with a code and a message
for the student; the consumer then passes the phrase to the partners at the same match (and the
match's teacher), never back to the sender's own seat.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines import UnknownGame, abilities_of, get_game
from games.errors import AppError

PHRASES = {
    "take_cnot": _("I'll take the CNOT"),
    "your_cnot": _("You play the CNOT"),
    "wait": _("Wait"),
    "go_ahead": _("Go ahead"),
    "retrieve_now": _("Retrieve now"),
    "exchange": _("Exchange a card"),
    "enter": _("Let's enter Entanglion"),
    "thanks": _("Thanks!"),
}


def offered(game_slug: str) -> tuple[str, ...]:
    """The phrase ids a game offers, in the order its page shows them (its engine declares
    them: ``Abilities.partner_phrases``; empty for a game without signals)."""
    try:
        return abilities_of(get_game(game_slug)).partner_phrases
    except UnknownGame:
        return ()

# at most SIGNALS_PER_WINDOW signals from one seat of a match within WINDOW_SECONDS
SIGNALS_PER_WINDOW = 4
WINDOW_SECONDS = 10


class SignalRefused(AppError):
    """A signal not sent, and why (the app's one error; a flood is a 429)."""

    def __init__(self, code: str, message: str):
        super().__init__(code, message, 429 if code == "slow_down" else None)


@dataclass(frozen=True)
class Signal:
    seat: int
    phrase: str

    def message(self) -> dict:
        """What a partner's (or the teacher's) socket is sent, in that reader's language."""
        return {"type": "signal", "seat": self.seat, "phrase": self.phrase, "text": phrase_text(self.phrase)}


def phrases_for(game_slug: str) -> list[dict]:
    """The phrases a game offers, as ``[{"id", "text"}]`` in the active language (empty: none)."""
    return [{"id": p, "text": phrase_text(p)} for p in offered(game_slug)]


def phrase_text(phrase: str) -> str:
    return gettext(str(PHRASES[phrase]))


def check_signal(game_slug: str, seats: tuple[int, ...], message: dict, *, match_id: int,
                 playing: bool) -> Signal:
    """The signal a player's socket message asks for, or ``SignalRefused`` saying why nothing is
    sent. The message is exactly ``{"type": "signal", "phrase": id}``: nothing rides along."""
    phrases = offered(game_slug)
    phrase = message.get("phrase")
    if not phrases:
        raise SignalRefused("no_signals", gettext("This game has no quick signals."))
    if not seats:
        raise SignalRefused("not_a_player", gettext("Only the players at this table send signals."))
    if set(message) - {"type", "phrase"}:
        raise SignalRefused("bad_signal", gettext("A signal is one of the phrases offered, nothing else (no text)."))
    if not isinstance(phrase, str) or phrase not in phrases:
        raise SignalRefused("bad_signal", gettext("Unknown signal: choose one of the phrases offered (%(ids)s).")
                            % {"ids": ", ".join(phrases)})
    if not playing:
        raise SignalRefused("not_playing", gettext("Signals are for a game in progress."))
    if not _within_rate(match_id, seats[0]):
        raise SignalRefused("slow_down", gettext("Too many signals: wait a few seconds."))
    return Signal(seats[0], phrase)


def _within_rate(match_id: int, seat: int) -> bool:
    """Counted in the cache (shared by the server processes with Redis), per seat of a match, over
    a sliding window: this window's count plus the last one's, weighted by how much of it is still
    inside the window (so a burst across a window's boundary gets no fresh count)."""
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    still_inside = 1 - (now % WINDOW_SECONDS) / WINDOW_SECONDS
    key, last = (f"signals:{match_id}:{seat}:{w}" for w in (window, window - 1))
    counts = cache.get_many([key, last])
    sent = int(counts.get(key, 0)) + math.ceil(int(counts.get(last, 0)) * still_inside)
    if sent >= SIGNALS_PER_WINDOW:
        return False
    if not cache.add(key, 1, WINDOW_SECONDS * 2):
        try:
            cache.incr(key)
        except ValueError:  # expired in between
            cache.set(key, 1, WINDOW_SECONDS * 2)
    return True

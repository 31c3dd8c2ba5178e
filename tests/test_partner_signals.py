"""Quick signals between partners (games/partner_signals.py): only the predefined phrases of a
co-operative game, from a player of a game in progress, a few at a time."""
from __future__ import annotations

import pytest
from django.utils import translation

from games import partner_signals
from games.partner_signals import SignalRefused, check_signal, phrases_for


def signal(phrase) -> dict:
    return {"type": "signal", "phrase": phrase}


def refused(code: str, *args, **kwargs) -> None:
    with pytest.raises(SignalRefused) as caught:
        check_signal(*args, **kwargs)
    assert caught.value.code == code
    assert caught.value.message  # a sentence for the student


def test_entanglion_offers_the_predefined_phrases_and_other_games_none():
    ids = [p["id"] for p in phrases_for("entanglion")]
    assert {"take_cnot", "wait", "retrieve_now", "go_ahead", "thanks"} <= set(ids)
    assert all(p["text"] for p in phrases_for("entanglion"))
    assert phrases_for("quantum-tictactoe") == []


def test_a_known_phrase_from_a_player_is_a_signal_from_their_seat():
    sent = check_signal("entanglion", (1,), signal("wait"), match_id=1, playing=True)
    assert (sent.seat, sent.phrase) == (1, "wait")
    assert sent.message() == {"type": "signal", "seat": 1, "phrase": "wait", "text": "Wait"}


@pytest.mark.parametrize("phrase", ["hello", "", None, 3, ["wait"], {"id": "wait"}, "WAIT", "wait "])
def test_anything_but_an_offered_phrase_id_is_refused(phrase):
    refused("bad_signal", "entanglion", (0,), signal(phrase), match_id=2, playing=True)


def test_a_signal_carries_nothing_but_its_phrase():
    refused("bad_signal", "entanglion", (0,), {"type": "signal", "phrase": "wait", "text": "see you at 5"},
            match_id=2, playing=True)
    refused("bad_signal", "entanglion", (0,), {"type": "signal", "text": "hi"}, match_id=2, playing=True)


def test_no_signals_in_a_game_without_phrases_from_a_spectator_or_after_the_game():
    refused("no_signals", "quantum-tictactoe", (0,), signal("wait"), match_id=3, playing=True)
    refused("not_a_player", "entanglion", (), signal("wait"), match_id=3, playing=True)
    refused("not_playing", "entanglion", (0,), signal("wait"), match_id=3, playing=False)


def test_a_seat_sending_too_many_signals_is_slowed_down_and_the_partner_is_not():
    for _ in range(partner_signals.SIGNALS_PER_WINDOW):
        check_signal("entanglion", (0,), signal("wait"), match_id=4, playing=True)
    refused("slow_down", "entanglion", (0,), signal("thanks"), match_id=4, playing=True)
    with pytest.raises(SignalRefused) as caught:
        check_signal("entanglion", (0,), signal("thanks"), match_id=4, playing=True)
    assert caught.value.status == 429 and caught.value.as_message()["code"] == "slow_down"
    assert check_signal("entanglion", (1,), signal("thanks"), match_id=4, playing=True).seat == 1
    assert check_signal("entanglion", (0,), signal("thanks"), match_id=5, playing=True).seat == 0  # another match


def test_phrases_are_translated_for_the_reader():
    with translation.override("en"):
        assert partner_signals.phrase_text("take_cnot") == "I'll take the CNOT"
    # the texts are lazy gettext strings (marked for translation), resolved per reader
    assert type(partner_signals.PHRASES["wait"]).__name__ == "__proxy__"

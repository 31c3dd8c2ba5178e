"""The read side of matches: states come from the engine's own ``replay`` of the stored log
(through the state cache), read by selectors that never import a service."""
from __future__ import annotations

import subprocess
import sys

import pytest

from games import services, state_cache
from games.engines import get_game, replay
from games.selectors import current_state, replayed, state_at, states_of


def test_the_read_modules_load_no_service():
    code = ("import sys, django; django.setup()\n"
            "import games.selectors, simulator.selectors, simulator.access, simulator.positions\n"
            "import classrooms.selectors\n"
            "loaded = sorted(m for m in sys.modules if m.endswith('.services'))\n"
            "assert not loaded, loaded\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"DJANGO_SETTINGS_MODULE": "config.settings_test", "PATH": ""},
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.django_db
def test_selectors_read_the_engines_replay_of_the_stored_log():
    holders = [services.SeatHolder("Bot X", bot="random"), services.SeatHolder("Bot O", bot="random")]
    match = services.create_match("quantum-tictactoe", holders, seed=11)
    services.start_match(match.pk)
    match.refresh_from_db()
    assert match.seq > 3
    log = list(match.actions.order_by("seq").values_list("seat", "action"))
    expected = replay(get_game(match.game), match.players, match.variant, match.options,
                      match.seed, log)
    assert states_of(match) == expected
    assert states_of(match, 2) == expected[:3] and state_at(match, 2) == expected[2]
    steps = list(replayed(match))
    assert [s for s, _ in steps] == expected and steps[0][1] == []
    assert [e for _, e in steps[1:]] == list(match.actions.order_by("seq").values_list("events", flat=True))

    state_cache._states.clear()   # a miss rebuilds from the log and fills the cache
    assert current_state(match) == expected[-1]
    assert state_cache.get(match.pk, match.seed, match.seq) == expected[-1]
    state_cache.put(match.pk, match.seed, match.seq, {"cached": True})
    assert current_state(match) == {"cached": True}      # a current entry is used as it is

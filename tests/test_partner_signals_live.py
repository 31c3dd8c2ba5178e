"""Quick signals over the match socket of a real server: a player's phrase reaches the partner
and the teacher, never the sender's own seat; junk, free text, a spectator's signal and a flood
are refused with a clear error and nothing is sent; the match's log is untouched."""
from __future__ import annotations

import asyncio
import json

import pytest

from games.models import Match
from games.partner_signals import SIGNALS_PER_WINDOW
from tests.support.clients import receive, run_async
from tests.support.entanglion_tables import FIRST_GAME
from tests.support.tables import open_table

pytestmark = pytest.mark.server


async def nothing_more(ws, timeout: float = 0.6) -> list[dict]:
    """Every message that arrives within ``timeout`` (pongs left out)."""
    got = []
    try:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            if message.get("type") != "pong":
                got.append(message)
    except TimeoutError:
        return got


def test_a_signal_reaches_the_partner_and_the_teacher_only_and_bad_ones_are_refused(server, teacher):
    table = open_table(server, game="entanglion", variant="easy", options=FIRST_GAME)
    path = f"/ws/matches/{table.match_id}/"

    async def scenario():
        merc, rub = await table.students[0].socket(path), await table.students[1].socket(path)
        merc_tab2 = await table.students[0].socket(path)  # the sender's second tab
        watcher = await table.teacher.socket(path)
        for ws in (merc, rub, merc_tab2, watcher):
            await receive(ws)

        # refused, nothing sent: unknown ids, free text, bad shapes
        for junk in ({"type": "signal", "phrase": "hello"}, {"type": "signal", "text": "meet me after school"},
                     {"type": "signal", "phrase": ["wait"]}, {"type": "signal", "phrase": None},
                     {"type": "signal", "phrase": "wait", "text": "free text riding along"}):
            await merc.send(json.dumps(junk))
            error = await receive(merc, "error")
            assert error["code"] == "bad_signal" and "phrase" in error["message"]
        # the teacher is no player
        await watcher.send(json.dumps({"type": "signal", "phrase": "wait"}))
        assert (await receive(watcher, "error"))["code"] == "not_a_player"

        # a good one: the partner and the teacher hear it, the sender's seat does not
        await merc.send(json.dumps({"type": "signal", "phrase": "take_cnot"}))
        sent = await receive(merc, "signal_sent")
        assert sent["phrase"] == "take_cnot" and sent["text"] == "I'll take the CNOT"
        heard = await receive(rub, "signal")
        assert heard == {"type": "signal", "seat": 0, "phrase": "take_cnot", "text": "I'll take the CNOT"}
        assert (await receive(watcher, "signal"))["phrase"] == "take_cnot"
        # nothing else reached anyone: the junk was never passed on, the second tab heard nothing
        assert [m for m in await nothing_more(rub) if m["type"] == "signal"] == []
        assert [m for m in await nothing_more(merc_tab2) if m["type"] == "signal"] == []
        assert [m for m in await nothing_more(watcher) if m["type"] == "signal"] == []

        # a flood is slowed down (the one sent above counts)
        for _ in range(SIGNALS_PER_WINDOW - 1):
            await merc.send(json.dumps({"type": "signal", "phrase": "wait"}))
            await receive(merc, "signal_sent")
        await merc.send(json.dumps({"type": "signal", "phrase": "wait"}))
        assert (await receive(merc, "error"))["code"] == "slow_down"
        heard = [m for m in await nothing_more(rub) if m["type"] == "signal"]
        assert len(heard) == SIGNALS_PER_WINDOW - 1
        # the partner's own signals are not held back by the flood
        await rub.send(json.dumps({"type": "signal", "phrase": "thanks"}))
        assert (await receive(merc, "signal"))["seat"] == 1
        for ws in (merc, rub, merc_tab2, watcher):
            await ws.close()

    run_async(scenario())
    assert Match.objects.get(pk=table.match_id).seq == 0  # signals are not moves


def test_no_signals_in_a_game_without_phrases(server, teacher):
    table = open_table(server)  # quantum tic-tac-toe: competitive, no signals

    async def scenario():
        x, o = await table.students[0].socket(f"/ws/matches/{table.match_id}/"), \
            await table.students[1].socket(f"/ws/matches/{table.match_id}/")
        await receive(x), await receive(o)
        await x.send(json.dumps({"type": "signal", "phrase": "wait"}))
        assert (await receive(x, "error"))["code"] == "no_signals"
        assert [m for m in await nothing_more(o) if m["type"] == "signal"] == []
        await x.close(), await o.close()

    run_async(scenario())
    page = table.students[0].http.get(f"{server.url}/matches/{table.match_id}/")
    assert page.status_code == 200 and 'id="signals"' not in page.text

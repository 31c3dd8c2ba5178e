"""Two dashboard commands seen on the sockets of a real server (no browser: seconds, not a page's
worth of waiting): removing a student closes that student's match sockets and no one else's;
resuming the tables clears "Paused" on every player's socket."""
from __future__ import annotations

import json

import pytest
import websockets

from classrooms.models import Participant
from tests.support.clients import class_at_one_table, receive, run_async

pytestmark = pytest.mark.server


async def command(dashboard, message: dict) -> None:
    """A dashboard command on the teacher's session socket (an answer comes only on a refusal)."""
    await dashboard.send(json.dumps(message))


async def still_open(ws) -> bool:
    """The socket answers a ping: it was not closed."""
    await ws.send(json.dumps({"type": "ping"}))
    return (await receive(ws, "pong"))["type"] == "pong"


def test_removing_a_student_closes_their_sockets_only(server, teacher):
    owner, session, match_id, seat_of = class_at_one_table(server)

    def name_of(client) -> str:
        state = client.api("GET", f"/api/matches/{match_id}/").json()
        return state["seats"][state["seat"]]["name"]

    ada, bo = sorted(seat_of.values(), key=name_of)
    gone_seat = next(seat for seat, client in seat_of.items() if client is ada)
    ada_id = Participant.objects.get(session_id=session["id"], display_name="Ada").pk
    path = f"/ws/matches/{match_id}/"

    async def scenario():
        ada_ws, ada_tab, bo_ws, watcher = (await ada.socket(path), await ada.socket(path),
                                           await bo.socket(path), await owner.socket(path))
        for ws in (ada_ws, ada_tab, bo_ws, watcher):
            await receive(ws)
        dashboard = await owner.socket(f"/ws/sessions/{session['id']}/")
        await receive(dashboard, "dashboard")
        await command(dashboard, {"type": "remove", "participant": ada_id})
        told = [await receive(ws, "error") for ws in (ada_ws, ada_tab)]
        closed = []
        for ws in (ada_ws, ada_tab):
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await ws.recv()
            closed.append(ws.close_code)
        bot_named = lambda m: any(s["name"] == "Bot (was Ada)" for s in m["seats"])  # noqa: E731
        bo_sees = await receive(bo_ws, where=bot_named)
        watcher_sees = await receive(watcher, where=bot_named)
        alive = [await still_open(ws) for ws in (bo_ws, watcher, dashboard)]
        for ws in (bo_ws, watcher, dashboard):
            await ws.close()
        return told, closed, bo_sees, watcher_sees, alive

    told, closed, bo_sees, watcher_sees, alive = run_async(scenario())
    assert [m["code"] for m in told] == ["removed", "removed"]
    assert closed == [4403, 4403]
    assert bo_sees["seat"] == 1 - gone_seat and watcher_sees["seat"] is None
    assert alive == [True, True, True]


def test_resuming_the_tables_clears_paused_on_every_players_socket(server, teacher):
    owner, session, match_id, seat_of = class_at_one_table(server, move_seconds=30)
    path = f"/ws/matches/{match_id}/"

    async def scenario():
        sockets = {seat: await client.socket(path) for seat, client in seat_of.items()}
        first = {seat: await receive(ws) for seat, ws in sockets.items()}
        dashboard = await owner.socket(f"/ws/sessions/{session['id']}/")
        await receive(dashboard, "dashboard")
        await command(dashboard, {"type": "pause_all"})
        paused = {seat: await receive(ws, where=lambda m: (m["clock"] or {}).get("paused"))
                  for seat, ws in sockets.items()}
        await command(dashboard, {"type": "resume_all"})
        resumed = {seat: await receive(ws, where=lambda m: not (m["clock"] or {}).get("paused"))
                   for seat, ws in sockets.items()}
        # and the game goes on: the player to act moves
        mover = first[0]["to_act"][0]
        await sockets[mover].send(json.dumps({"type": "act", "seq": resumed[mover]["seq"],
                                              "action": resumed[mover]["legal"][0]}))
        moved = await receive(sockets[mover], where=lambda m: m["seq"] == resumed[mover]["seq"] + 1)
        for ws in [*sockets.values(), dashboard]:
            await ws.close()
        return paused, resumed, moved

    paused, resumed, moved = run_async(scenario())
    for seat in seat_of:
        assert paused[seat]["clock"]["paused"] is True
        clock = resumed[seat]["clock"]
        assert clock["paused"] is False and 0 < clock["move_left_ms"] <= 30_000
    assert moved["clock"]["paused"] is False

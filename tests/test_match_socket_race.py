"""A match socket that opens while a move is being made does not miss the move.

The socket reads the match's state, then is in the match's group. A move committed and broadcast
between the two used to fall between them: the page stayed a move behind until the next one
(the Redis fault test caught it once, pages reconnecting while moves flowed). The socket now
joins the group before it reads, so the move's message reaches it. Here the move is made at
that very point: right after the socket's read, through a real service and broadcast."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

from config.routing import websocket_urlpatterns
from games import consumers, services
from games.broadcast import announce_match_changed

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_made_while_a_socket_opens_reaches_it(teacher, monkeypatch):
    holders = [services.SeatHolder("Ada", participant_id=1), services.SeatHolder("Bo", participant_id=2)]
    match = services.create_match("quantum-tictactoe", holders, teacher=teacher)
    services.start_match(match.pk)
    browser = Client()
    browser.force_login(teacher)  # the match's teacher watches it
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"

    read = consumers._opened

    def read_then_a_move_elsewhere(match_id, scope):
        opened = read(match_id, scope)
        applied = services.submit_action(match_id, 0, 0, {"squares": [1, 2]})  # another student's
        announce_match_changed(match_id, applied.snapshot, applied.events)     # as the REST view does
        return opened

    monkeypatch.setattr(consumers, "_opened", read_then_a_move_elsewhere)

    async def scenario():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(1))  # (one pool thread: its connection closed below)
        try:
            return await opened_while_a_move_is_made()
        finally:  # the threads' database connections, so that the test database can be dropped
            await loop.run_in_executor(None, connections.close_all)
            await sync_to_async(connections.close_all)()

    async def opened_while_a_move_is_made():
        app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        socket = WebsocketCommunicator(app, f"/ws/matches/{match.pk}/", headers=[(b"cookie", cookie.encode())])
        connected, _ = await socket.connect(timeout=10)
        assert connected
        first = await socket.receive_json_from(timeout=10)
        then = await socket.receive_json_from(timeout=10)
        await socket.disconnect()
        return first, then

    first, then = asyncio.run(scenario())
    assert first["type"] == "state" and first["seq"] == 0  # read before the move
    assert then["type"] == "state" and then["seq"] == 1 and then["events"]  # the move, not missed


def test_a_move_stored_whose_answer_fails_says_so_and_the_other_seat_still_hears_it(session, monkeypatch):
    """The move is committed before anyone hears of it: if building the mover's answer then fails,
    the mover is told the move was saved (never "nothing was applied") and gets the board again,
    and the other seat's page hears of the move as always."""
    from django.contrib.sessions.backends.db import SessionStore

    from classrooms import services as classes

    cookies = []
    students = []
    for name in ("Ada", "Bo"):  # two students, each in a browser of their own
        browser = SessionStore()
        students.append(classes.join(session, name, browser))
        browser.save()
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={browser.session_key}")
    table = classes.seat_table(session, students, in_order=True)
    services.start_match(table.match_id)
    match = table.match
    build = consumers.seat_payload
    failures = []

    def fails_once_after_the_move(snap, seat, **kwargs):
        if snap.seq == 1 and not failures:
            failures.append(seat)
            raise RuntimeError("a fault while the answer is built")
        return build(snap, seat, **kwargs)

    monkeypatch.setattr(consumers, "seat_payload", fails_once_after_the_move)

    async def scenario():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(1))
        try:
            return await a_move_whose_answer_fails()
        finally:
            await loop.run_in_executor(None, connections.close_all)
            await sync_to_async(connections.close_all)()

    async def a_move_whose_answer_fails():
        app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        mover, other = (WebsocketCommunicator(app, f"/ws/matches/{match.pk}/", headers=[(b"cookie", c.encode())])
                        for c in cookies)
        for socket in (mover, other):
            connected, _ = await socket.connect(timeout=10)
            assert connected
            assert (await socket.receive_json_from(timeout=10))["seq"] == 0
        await mover.send_json_to({"type": "act", "seq": 0, "action": {"squares": [1, 2]}})
        said = await mover.receive_json_from(timeout=10)
        board = await mover.receive_json_from(timeout=10)
        heard = await other.receive_json_from(timeout=10)
        for socket in (mover, other):
            await socket.disconnect()
        return said, board, heard

    said, board, heard = asyncio.run(scenario())
    assert failures, "the fault was not injected: the test proves nothing"
    assert said["type"] == "error" and said["code"] == "internal" and "saved" in said["message"]
    assert "nothing was applied" not in said["message"]
    assert board["type"] == "state" and board["seq"] == 1
    assert heard["type"] == "state" and heard["seq"] == 1
    match.refresh_from_db()
    assert match.seq == 1

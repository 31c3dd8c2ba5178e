"""Live play through a real server process: WebSockets, the action log, restarts, bad input."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from games.models import Action, Match
from tests.support.clients import Student, receive, run_async
from tests.support.tables import open_table

pytestmark = pytest.mark.server


async def connect_all(table, path):
    sockets = {seat: await s.socket(path) for seat, s in table.students.items()}
    first = {seat: await receive(ws) for seat, ws in sockets.items()}
    return sockets, first


async def play_to_end(sockets, state, rng, max_steps=40):
    """Whoever is to act plays a random legal action; every seat sees every new state."""
    for _ in range(max_steps):
        if state["outcome"]:
            return state
        seat = state["to_act"][0]
        ws = sockets[seat]
        await ws.send(json.dumps({"type": "act", "seq": state["seq"], "action": rng.choice(mine[seat]["legal"])}))
        new = {}
        for s, other in sockets.items():
            new[s] = await receive(other, where=lambda m, q=state["seq"]: m["seq"] > q)
        for s in new:
            mine[s] = new[s]
        state = new[seat]
    raise AssertionError("the game did not end")


mine: dict[int, dict] = {}


def test_full_game_over_websockets_with_spectating_teacher_and_replay(server, teacher):
    table = open_table(server)

    async def scenario():
        sockets, first = await connect_all(table, f"/ws/matches/{table.match_id}/")
        mine.clear()
        mine.update(first)
        watcher = await table.teacher.socket(f"/ws/matches/{table.match_id}/")
        spectator_view = await receive(watcher)
        assert spectator_view["seat"] is None and spectator_view["legal"] == []
        final = await play_to_end(sockets, first[0], random.Random(3))
        spectated = await receive(watcher, where=lambda m: m["seq"] == final["seq"])
        for ws in [*sockets.values(), watcher]:
            await ws.close()
        return final, spectated

    final, spectated = run_async(scenario())
    assert final["outcome"]["scores"] in ([1, 0], [0, 1], [0.5, 1], [1, 0.5], [1.5, 0], [0, 1.5], [2, 0], [0, 2], [0, 0])
    assert spectated["view"] == final["view"]
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.FINISHED and match.outcome["scores"] == final["outcome"]["scores"]
    assert Action.objects.filter(match=match).count() == final["seq"]
    replay = table.students[0].api("GET", f"/api/matches/{table.match_id}/replay/").json()
    assert len(replay["frames"]) == final["seq"] + 1
    assert replay["frames"][-1]["view"] == final["view"]
    page = table.students[1].http.get(f"{server.url}/matches/{table.match_id}/replay/")
    assert page.status_code == 200 and "Replay" in page.text


def test_two_sockets_sending_the_same_seq_apply_exactly_one(server, teacher):
    table = open_table(server)

    async def scenario():
        x = table.students[0]
        tab1, tab2 = await x.socket(f"/ws/matches/{table.match_id}/"), await x.socket(f"/ws/matches/{table.match_id}/")
        s1, _ = await receive(tab1), await receive(tab2)
        assert s1["seq"] == 0
        await asyncio.gather(
            tab1.send(json.dumps({"type": "act", "seq": 0, "action": {"squares": [1, 2]}})),
            tab2.send(json.dumps({"type": "act", "seq": 0, "action": {"squares": [5, 9]}})),
        )
        replies = []
        for ws in (tab1, tab2):
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] == "error" or message.get("seq") == 1:
                    replies.append(message)
                    if message["type"] == "error":
                        break
                    if sum(1 for r in replies if r["type"] == "state") >= 1 and message["type"] == "state":
                        break
        await tab1.close()
        await tab2.close()
        return replies

    replies = run_async(scenario())
    errors = [r for r in replies if r["type"] == "error"]
    assert len(errors) == 1 and errors[0]["code"] == "stale" and "not applied" in errors[0]["message"]
    assert list(Action.objects.filter(match_id=table.match_id).values_list("seq", flat=True)) == [0]


def test_restarting_the_server_mid_match_loses_no_acknowledged_move(server, teacher):
    table = open_table(server)
    path = f"/ws/matches/{table.match_id}/"
    rng = random.Random(11)

    async def first_half():
        sockets, first = await connect_all(table, path)
        state = first[0]
        views = dict(first)
        for _ in range(3):
            seat = state["to_act"][0]
            await sockets[seat].send(json.dumps({"type": "act", "seq": state["seq"], "action": rng.choice(views[seat]["legal"])}))
            for s, ws in sockets.items():
                views[s] = await receive(ws, where=lambda m, q=state["seq"]: m["seq"] > q)
            state = views[seat]
        return state

    acknowledged = run_async(first_half())
    server.restart()

    async def second_half():
        sockets, again = await connect_all(table, path)
        assert again[0]["seq"] == acknowledged["seq"]
        assert again[0]["view"] == acknowledged["view"]
        mine.clear()
        mine.update(again)
        final = await play_to_end(sockets, again[0], rng)
        for ws in sockets.values():
            await ws.close()
        return final

    final = run_async(second_half())
    assert final["outcome"] is not None


def test_malformed_messages_get_errors_and_change_nothing(server, teacher):
    table = open_table(server)
    rng = random.Random(5)
    junk_values = [None, True, False, 0, -1, 1.5, 10**30, "", "x", "act", [], [1, 2], {}, {"squares": "12"},
                   {"squares": [1]}, {"squares": [0, 10]}, {"squares": [1, 1]}, {"collapse": 3}, {"squares": [True, 2]},
                   {"squares": [1.0, 2.0]}, {"squares": [1, 2], "extra": 1}, "\x00", "💥" * 50]

    def junk() -> str:
        kind = rng.randrange(6)
        if kind == 0:
            return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(0, 40)))
        if kind == 1:
            return json.dumps(rng.choice(junk_values))
        if kind == 2:
            return json.dumps({"type": rng.choice(["act", "ACT", "move", None, 3]), "seq": rng.choice(junk_values),
                               "action": rng.choice(junk_values)})
        if kind == 3:
            return json.dumps({"type": "act", "seq": 0, "action": rng.choice(junk_values), "seat": rng.choice(junk_values)})
        if kind == 4:
            return "[" * rng.randrange(1, 5000)
        return json.dumps({"type": "act", "seq": rng.choice([1, 2, 99, -5]), "action": {"squares": [1, 2]}})

    async def scenario():
        ws = await table.students[0].socket(f"/ws/matches/{table.match_id}/")
        await receive(ws)
        for _ in range(1000):
            await ws.send(junk())
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert reply["type"] == "error" and reply["message"], reply
        await ws.send(json.dumps({"type": "ping"}))
        assert (await receive(ws, "pong"))["type"] == "pong"
        await ws.send(json.dumps({"type": "act", "seq": 0, "action": {"squares": [1, 2]}}))
        applied = await receive(ws, where=lambda m: m["seq"] == 1)
        await ws.close()
        return applied

    applied = run_async(scenario())
    assert applied["view"]["board"][0]["spooky"] == [{"player": "X", "move": 1}]
    assert Action.objects.filter(match_id=table.match_id).count() == 1


def test_a_student_acts_only_for_their_own_seat_in_their_own_session(server, teacher):
    table = open_table(server)
    other = open_table(server, names=("Cy", "Di"))
    x, o = table.students[0], table.students[1]

    async def scenario():
        ws = await o.socket(f"/ws/matches/{table.match_id}/")
        state = await receive(ws)
        assert state["seat"] == 1 and state["legal"] == []
        await ws.send(json.dumps({"type": "act", "seq": 0, "seat": 0, "action": {"squares": [1, 2]}}))
        refused = await receive(ws, "error")
        await ws.send(json.dumps({"type": "act", "seq": 0, "action": {"squares": [1, 2]}}))
        not_turn = await receive(ws, "error")
        await ws.close()
        try:
            intruder = await other.students[0].socket(f"/ws/matches/{table.match_id}/")
            await asyncio.wait_for(intruder.recv(), 5)
            return refused, not_turn, "accepted"
        except Exception as exc:  # the handshake is refused or the socket closed straight away
            return refused, not_turn, type(exc).__name__

    refused, not_turn, intruder = run_async(scenario())
    assert refused["code"] == "not_your_seat"
    assert not_turn["code"] == "not_your_turn"
    assert intruder != "accepted"
    api = o.api("POST", f"/api/matches/{table.match_id}/actions/", {"seq": 0, "seat": 0, "action": {"squares": [1, 2]}})
    assert api.status_code == 403 and api.json()["code"] == "not_your_seat"
    outsider = other.students[0].api("GET", f"/api/matches/{table.match_id}/")
    assert outsider.status_code == 404
    anonymous = Student(server).api("POST", f"/api/matches/{table.match_id}/actions/", {"seq": 0, "action": {"squares": [1, 2]}})
    assert anonymous.status_code == 404
    ok = x.api("POST", f"/api/matches/{table.match_id}/actions/", {"seq": 0, "action": {"squares": [1, 2]}})
    assert ok.status_code == 200 and ok.json()["seq"] == 1
    assert Action.objects.filter(match_id=table.match_id).count() == 1


def test_a_refusal_has_the_same_code_and_words_on_the_socket_and_the_api(server, teacher):
    """One error vocabulary: the socket's error message and the API's body carry the service's
    AppError (code, message), the API with its status; a preview is refused the same way."""
    table = open_table(server)
    x = table.students[0]
    assert x.api("POST", f"/api/matches/{table.match_id}/actions/",
                 {"seq": 0, "action": {"squares": [1, 2]}}).status_code == 200

    async def scenario():
        ws = await x.socket(f"/ws/matches/{table.match_id}/")
        await receive(ws)
        await ws.send(json.dumps({"type": "act", "seq": 0, "action": {"squares": [3, 4]}}))
        stale = await receive(ws, "error")
        await ws.send(json.dumps({"type": "preview", "action": {"squares": [3, 4]}}))
        no_preview = await receive(ws, "preview")
        await ws.send(json.dumps({"type": "preview", "action": [3, 4]}))
        junk = await receive(ws, "preview")
        await ws.close()
        return stale, no_preview, junk

    stale, no_preview, junk = run_async(scenario())
    api = x.api("POST", f"/api/matches/{table.match_id}/actions/", {"seq": 0, "action": {"squares": [3, 4]}})
    assert api.status_code == 409
    assert api.json() == {"code": "stale", "message": stale["message"]} and stale["seq"] == 0
    assert no_preview["ok"] is False and no_preview["code"] == "no_preview" and no_preview["message"]
    assert junk["ok"] is False and junk["code"] == "bad_message" and "result" not in junk
    assert Action.objects.filter(match_id=table.match_id).count() == 1

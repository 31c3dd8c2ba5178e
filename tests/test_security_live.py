"""Security against a real server process: caps on open sockets per browser, idle sockets closed,
and in Chromium: pages under the Content-Security-Policy run without a single violation and a
page whose socket was closed for idleness reconnects by itself and keeps updating live."""
from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from playwright.sync_api import expect

from tests.support.browser import student_joins
from tests.support.clients import Student, Teacher, receive, run_async
from tests.support.server import LiveServer

pytestmark = [pytest.mark.server]


@pytest.fixture
def strict_server(django_db_setup, transactional_db):
    """A server of its own with small socket limits: 2 sockets per browser, idle after 2 s."""
    server = LiveServer(extra_env={"SOCKETS_PER_BROWSER": "2", "SOCKET_IDLE_SECONDS": "2"})
    server.start()
    yield server
    server.stop()


def open_class(server, teacher_user) -> dict:
    t = Teacher(server)
    t.login("ms-curie", "radium-1898-Polonium")
    return t, t.open_session()


async def closed_with(ws, timeout: float = 10.0) -> int:
    async def wait():
        try:
            while True:
                await ws.recv()
        except websockets.ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
    return await asyncio.wait_for(wait(), timeout)


def test_a_browser_has_at_most_n_sockets_and_idle_ones_close(strict_server, teacher):
    _, session = open_class(strict_server, teacher)
    student = Student(strict_server)
    assert student.join(session["join_code"], "Ada").status_code == 302
    path = f"/ws/sessions/{session['id']}/"

    async def scenario():
        first, second = await student.socket(path), await student.socket(path)
        for ws in (first, second):
            assert (await receive(ws, "lobby"))["type"] == "lobby"
        third = await student.socket(path)
        refused = await receive(third, "error")
        assert refused["code"] == "too_many_sockets" and "too many" in refused["message"]
        assert await closed_with(third) == 4429
        # another browser is not affected by this one's count
        other = Student(strict_server)
        assert other.join(session["join_code"], "Bo").status_code == 302
        bo = await other.socket(path)
        assert (await receive(bo, "lobby"))["type"] == "lobby"
        # a page that pings stays; the silent ones close after 2 s, which frees their places (a
        # ping every 0.4 s: 1.6 s to spare on a machine busy with the rest of the suite)
        for _ in range(8):
            await asyncio.sleep(0.4)
            await first.send(json.dumps({"type": "ping"}))
            await receive(first, "pong")
        assert await closed_with(second) == 4408
        assert await closed_with(bo) == 4408
        again = await student.socket(path)
        assert (await receive(again, "lobby"))["type"] == "lobby"
        for ws in (first, again):
            await ws.close()

    run_async(scenario())


@pytest.mark.browser
def test_pages_run_under_the_csp_and_reconnect_after_an_idle_close(chromium, strict_server, teacher):
    """Teacher and two students in their own browsers on a server that closes idle sockets after
    2 s: no CSP violation on any page, the dashboard and lobbies keep updating live."""
    violations: list[str] = []

    def watch(page):
        page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        return page

    teacher_page = watch(chromium.new_context(viewport={"width": 1280, "height": 900}).new_page())
    teacher_page.goto(strict_server.url + "/accounts/login/")
    csp = teacher_page.request.get(strict_server.url + "/join/").headers["content-security-policy"]
    assert "script-src 'self';" in csp and "style-src 'self';" in csp and "unsafe-inline" not in csp
    teacher_page.fill("input[name=username]", "ms-curie")
    teacher_page.fill("input[name=password]", "radium-1898-Polonium")
    teacher_page.click("button[type=submit]")
    teacher_page.fill("input[name=name]", "Physics 9A")
    teacher_page.click("text=Create class")
    # the open-session form is filled by the class page's script (a file now, not inline)
    expect(teacher_page.locator("#id_variant option")).not_to_have_count(0)
    teacher_page.click("text=Open session")
    code = teacher_page.locator("[data-testid=join-code]").inner_text().strip()

    ada = watch(student_joins(chromium, strict_server, code, "Ada"))
    bo = watch(student_joins(chromium, strict_server, code, "Bo"))
    expect(teacher_page.locator("li.student")).to_have_count(2)
    teacher_page.wait_for_timeout(4500)  # every socket has gone idle, been closed and reopened
    teacher_page.click("button[data-cmd=auto_pair]")  # over the reopened dashboard socket
    expect(teacher_page.locator(".table-card")).to_have_count(1)
    teacher_page.click("button[data-cmd=start_all]")
    for page in (ada, bo):  # the lobbies, reconnected by themselves, take the students to the game
        page.wait_for_url("**/matches/**", timeout=15000)
        expect(page.locator("svg").first).to_be_visible()
    questions: list[str] = []
    teacher_page.on("dialog", lambda d: (questions.append(d.message), d.accept()))
    teacher_page.locator("form[data-confirm] button").click()  # the confirmation is a script file's now
    expect(teacher_page.locator("body")).to_contain_text("were deleted")
    assert questions and "Delete this session" in questions[0]
    assert violations == []

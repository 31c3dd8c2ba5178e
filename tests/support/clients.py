"""Browserless clients of a running server: a teacher and students, over real HTTP and WebSockets."""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re

import requests
import websockets


class WebClient:
    def __init__(self, server):
        self.server = server
        self.http = requests.Session()
        self.http.headers["Referer"] = server.url + "/"

    def csrf(self, path: str) -> str:
        page = self.http.get(self.server.url + path)
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        return match.group(1) if match else self.http.cookies.get("csrftoken", "")

    def post_form(self, path: str, data: dict) -> requests.Response:
        token = self.csrf(path)
        return self.http.post(self.server.url + path, data={**data, "csrfmiddlewaretoken": token},
                              allow_redirects=False)

    def api(self, method: str, path: str, body: dict | None = None) -> requests.Response:
        if not self.http.cookies.get("csrftoken"):
            self.csrf("/accounts/login/")
        headers = {"X-CSRFToken": self.http.cookies.get("csrftoken", "")}
        return self.http.request(method, self.server.url + path, json=body, headers=headers)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)

    async def socket(self, path: str):
        return await websockets.connect(self.server.ws_url + path, origin=self.server.url,
                                        additional_headers={"Cookie": self.cookie_header()},
                                        open_timeout=10)


class Teacher(WebClient):
    def login(self, username: str, password: str) -> None:
        response = self.post_form("/accounts/login/", {"username": username, "password": password})
        assert response.status_code == 302, response.text[:500]

    def open_session(self, game: str = "quantum-tictactoe", **extra) -> dict:
        classroom = self.api("POST", "/api/classes/", {"name": "Physics 9A"}).json()
        body = {"classroom": classroom["id"], "game": game, **extra}
        response = self.api("POST", "/api/sessions/", body)
        assert response.status_code == 201, response.text
        return response.json()


class Student(WebClient):
    def join(self, code: str, name: str) -> requests.Response:
        return self.post_form("/join/", {"code": code, "name": name})


def students_joined(server, code: str, names=("Ada", "Bo")) -> list[Student]:
    """Students who joined the session of ``code`` by name, one browser each."""
    students = [Student(server) for _ in names]
    for student, name in zip(students, names, strict=True):
        assert student.join(code, name).status_code == 302
    return students


async def receive(ws, kind: str = "state", timeout: float = 10.0, where=None) -> dict:
    """The next message of ``kind`` (optionally satisfying ``where``)."""
    async def wait():
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == kind and (where is None or where(message)):
                return message
    return await asyncio.wait_for(wait(), timeout)


def run_async(coro):
    """``asyncio.run`` in a thread of its own: Playwright's sync API (the session's browser) keeps
    an event loop running in the test thread, where ``asyncio.run`` would refuse to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def moved(student: Student, match_id: int) -> dict:
    """One move of ``student``'s seat (its first legal action); the match's state after it."""
    state = student.api("GET", f"/api/matches/{match_id}/").json()
    answer = student.api("POST", f"/api/matches/{match_id}/actions/", {"seq": state["seq"], "action": state["legal"][0]})
    assert answer.status_code == 200, answer.text
    return answer.json()


def played_to_end(seat: dict[int, Student], match_id: int) -> dict:
    """The match played on, the first legal action of the seat to act each time, until it is
    over; its last state."""
    while True:
        state = next(iter(seat.values())).api("GET", f"/api/matches/{match_id}/").json()
        if state["status"] != "playing":
            return state
        moved(seat[state["to_act"][0]], match_id)


def class_at_one_table(server, game: str = "quantum-tictactoe", **extra):
    """The demo teacher (logged in), a session of ``game`` (``extra``: its other fields) with two
    students paired at one table and started: (teacher, session, match id, {seat: student})."""
    from tests.support.tables import TEACHER

    owner = Teacher(server)
    owner.login(*TEACHER)
    session = owner.open_session(game, **extra)
    students = students_joined(server, session["join_code"])
    assert owner.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    match_id = owner.api("POST", f"/api/sessions/{session['id']}/start-all/").json()["tables"][0]["match"]
    return owner, session, match_id, {c.api("GET", f"/api/matches/{match_id}/").json()["seat"]: c for c in students}

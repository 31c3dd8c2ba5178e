"""The projector view: who may open it, what its payload holds in each phase (join
code, standings, teaching moments, podium), that it holds no secret (poker hole cards,
Ticket-to-Ride missions, private events) and that its socket is the teacher's and read-only."""
from __future__ import annotations

import asyncio
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from websockets.exceptions import ConnectionClosed, InvalidStatus

from classrooms import selectors, services
from classrooms.models import ClassSession, Participant
from games.models import Action, Match
from games.moments import recent_moments
from tests.support.clients import (
    Student,
    Teacher,
    played_to_end,
    receive,
    run_async,
    students_joined,
)
from tests.support.rounds import play_out
from tests.support.tables import TEACHER


def screen_url(session) -> str:
    return reverse("classrooms:screen", args=[session.pk])


def joined(session, *names) -> list[Participant]:
    out = []
    for name in names:
        browser = Client()
        browser.post(reverse("classrooms:join"), {"code": session.join_code, "name": name})
        out.append(Participant.objects.get(session=session, display_name=name))
    return out


def started(session, seed: int | None = None) -> None:
    """Tables paired and started; with ``seed`` every match deals from that seed."""
    services.auto_pair(ClassSession.objects.get(pk=session.pk))
    if seed is not None:
        Match.objects.filter(table__session=session).update(seed=seed)
    services.start_all(ClassSession.objects.get(pk=session.pk))


def keys_of(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


# every key a screen payload may hold: public facts only (no view, hand, mission, analysis, id)
SCREEN_KEYS = {"type", "session", "id", "game", "game_name", "status", "format", "round", "phase", "join_code",
               "joined", "students", "name", "place", "points", "played", "won", "drawn", "lost", "luck", "tables",
               "number", "seats", "bot", "winners", "teams", "names", "components", "turns", "moments", "table",
               "kind", "text", "podium"}


# --- access --------------------------------------------------------------------------------

def test_the_projector_view_is_the_owning_teachers_only(session, teacher_user, client):
    url = screen_url(session)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))

    User.objects.create_user("ms-meitner", password="fission-1938-Lise")
    other = Client()
    other.login(username="ms-meitner", password="fission-1938-Lise")
    assert other.get(url).status_code == 404

    student = Client()
    student.post(reverse("classrooms:join"), {"code": session.join_code, "name": "Ada"})
    assert student.get(url).status_code == 302  # to the login page: students are not teachers

    owner = Client()
    owner.login(username="mr-bohr", password="complementarity-1927")
    page = owner.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert session.join_code in html and 'data-testid="screen-code"' in html and "<svg" in html
    assert 'data-cmd' not in html  # no controls
    dashboard = owner.get(reverse("classrooms:dashboard", args=[session.pk])).content.decode()
    assert f'href="{url}" target="_blank"' in dashboard


# --- phases, standings, podium ----------------------------------------------------------------

def test_lobby_then_play_then_podium_with_the_standings(session):
    joined(session, "Ada", "Bo", "Cy", "Di")
    lobby = selectors.screen_payload(session)
    assert lobby["phase"] == "lobby" and lobby["join_code"] == session.join_code and lobby["joined"] == 4
    assert lobby["podium"] == [] and lobby["moments"] == []

    started(session)
    playing = selectors.screen_payload(session)
    assert playing["phase"] == "play" and playing["join_code"] is None
    assert [t["status"] for t in playing["tables"]] == ["playing", "playing"]

    for seed, match in enumerate(Match.objects.all()):
        play_out(match.pk, seed=seed)
    done = selectors.screen_payload(ClassSession.objects.get(pk=session.pk))
    assert done["phase"] == "podium"
    by_name = {s["name"]: s for s in done["students"]}
    assert set(by_name) == {"Ada", "Bo", "Cy", "Di"} and all(s["played"] == 1 for s in by_name.values())
    assert sum(s["points"] for s in by_name.values()) == 2  # one point shared out per two-seat game
    places = sorted(s["place"] for s in done["students"])
    assert done["podium"] == [{"place": s["place"], "name": s["name"], "points": s["points"]}
                              for s in done["students"] if s["place"] <= 3]
    assert [p["place"] for p in done["podium"]] == [p for p in places if p <= 3]
    assert keys_of(done) <= SCREEN_KEYS, keys_of(done) - SCREEN_KEYS


def test_ties_share_a_place_on_the_podium():
    standings = {"teams": [], "students": [
        {"name": "Ada", "place": 1, "points": 1, "played": 1}, {"name": "Bo", "place": 1, "points": 1, "played": 1},
        {"name": "Cy", "place": 3, "points": 0.5, "played": 1}, {"name": "Di", "place": 4, "points": 0, "played": 1},
        {"name": "Eve", "place": 5, "points": 0, "played": 0}]}
    assert [(p["place"], p["name"]) for p in selectors.podium(standings)] == [(1, "Ada"), (1, "Bo"), (3, "Cy")]


def test_an_ended_session_shows_the_podium_and_no_join_code(session):
    joined(session, "Ada", "Bo")
    services.set_status(session, ClassSession.Status.ENDED)
    payload = selectors.screen_payload(ClassSession.objects.get(pk=session.pk))
    assert payload["phase"] == "podium" and payload["join_code"] is None


# --- teaching moments ----------------------------------------------------------------------

def test_the_moments_of_bot_played_tables_come_newest_first_with_their_table(classroom):
    session = services.open_session(classroom, "quantum-tictactoe")
    joined(session, "Ada", "Bo", "Cy", "Di")
    started(session)
    for seed, match in enumerate(Match.objects.all()):
        play_out(match.pk, seed=seed)
    tables = [(t.number, t.match) for t in session.tables.select_related("match")]
    moments = recent_moments(tables, limit=50)
    assert moments, "two bot-played games of quantum tic-tac-toe without a collapse"
    assert {m["kind"] for m in moments} == {"cycle_collapse"}
    assert {m["table"] for m in moments} <= {1, 2}
    order = [(Action.objects.get(match__table__number=m["table"], seq=int(m["id"].split("-")[1])).created_at)
             for m in moments]
    assert order == sorted(order, reverse=True)
    assert selectors.screen_payload(session)["moments"] == moments[:6]


def test_a_moment_is_never_made_of_a_private_event(classroom):
    """A run that completes a mission is public; the same event addressed to one seat (as the
    run that misses is) must not reach the projector: the platform reads public events only."""
    session = services.open_session(classroom, "quantum-ticket-to-ride")
    joined(session, "Ada", "Bo")
    started(session)
    match = Match.objects.get()
    run = {"type": "run", "seat": 0, "match": True, "gates": ["X"], "fidelity": 1.0, "code": "mission_complete",
           "mission": {"id": "SECRET-MISSION", "start": "Berlin", "target": "Rome", "initial_state": "0",
                       "target_state": "1", "qubits": 1, "level": "basic"},
           "params": {"player": {"code": "player", "params": {"number": 1}}, "path": "Berlin → Rome", "gates": "X",
                      "initial": "|0⟩", "reached": "|1⟩", "ket": "|10⟩", "fidelity": "1", "goal": "|1⟩"},
           "text": "Player 1 runs Berlin → Rome"}
    Action.objects.create(match=match, seq=match.seq, seat=0, action={"run": ["Berlin", "Rome"]},
                          events=[{**run, "visible_to": [0]}])
    Match.objects.filter(pk=match.pk).update(seq=match.seq + 1)
    assert selectors.screen_payload(session)["moments"] == []
    Action.objects.create(match=match, seq=match.seq + 1, seat=0, action={"run": ["Berlin", "Rome"]}, events=[run])
    Match.objects.filter(pk=match.pk).update(seq=match.seq + 2)
    [told] = selectors.screen_payload(session)["moments"]
    assert told["kind"] == "mission" and "SECRET-MISSION" not in json.dumps(told)


# --- no secret on the screen ---------------------------------------------------------------------

def test_mid_game_the_screen_holds_no_mission_and_no_hidden_card(classroom):
    from games.engines import get_game
    from games.selectors import current_state

    for game in ("quantum-ticket-to-ride", "quantum-poker"):
        session = services.open_session(classroom, game)
        joined(session, "Ada", "Bo")
        started(session)
        match = session.tables.get().match
        state = current_state(match)
        payload = selectors.screen_payload(session)
        text = json.dumps(payload, ensure_ascii=False)
        assert keys_of(payload) <= SCREEN_KEYS, keys_of(payload) - SCREEN_KEYS
        if game == "quantum-ticket-to-ride":
            for mission in state["missions"]:
                assert mission["id"] not in text and f"{mission['start']}" not in text
        else:
            views = [get_game(game).view(state, seat) for seat in range(match.players)]
            assert all(json.dumps(v, ensure_ascii=False) not in text for v in views)
            assert "amps" not in text and "value" not in keys_of(payload)


# --- the socket --------------------------------------------------------------------------------

async def refused(client, path: str) -> bool:
    """The socket is refused at the handshake (HTTP 403) or closed with 4403 before any message."""
    try:
        ws = await client.socket(path)
    except InvalidStatus as exc:
        return exc.response.status_code == 403
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except ConnectionClosed:
        return ws.close_code == 4403
    return False


@pytest.mark.server
def test_the_screen_socket_is_the_teachers_read_only_and_follows_the_moves(server, teacher):
    owner = Teacher(server)
    owner.login(*TEACHER)
    session = owner.open_session("quantum-tictactoe")
    students = students_joined(server, session["join_code"])
    path = f"/ws/sessions/{session['id']}/screen/"

    async def scenario():
        for outsider in (students[0], Student(server)):   # a student of the session, a stranger
            assert await refused(outsider, path)
        ws = await owner.socket(path)
        first = await receive(ws, "screen")
        assert first["phase"] == "lobby" and first["join_code"] == session["join_code"]
        await ws.send(json.dumps({"type": "end"}))
        assert (await receive(ws, "error"))["code"] == "read_only"
        await ws.send("not json")
        assert (await receive(ws, "error"))["code"] == "read_only"
        assert owner.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
        match_id = owner.api("POST", f"/api/sessions/{session['id']}/start-all/").json()["tables"][0]["match"]
        assert (await receive(ws, "screen", where=lambda m: m["phase"] == "play"))["join_code"] is None
        seat = {c.api("GET", f"/api/matches/{match_id}/").json()["seat"]: c for c in students}
        seq = 0
        for who, action in ((0, {"squares": [1, 2]}), (1, {"squares": [1, 2]}), (0, {"collapse": 1})):
            moved = seat[who].api("POST", f"/api/matches/{match_id}/actions/", {"seq": seq, "action": action})
            assert moved.status_code == 200, moved.text
            seq += 1
        told = await receive(ws, "moments", where=lambda m: m["moments"])  # a move: only the moments
        assert told["moments"][0]["kind"] == "cycle_collapse" and told["moments"][0]["table"] == 1
        assert "A 2-cycle collapsed" in told["moments"][0]["text"]
        played_to_end(seat, match_id)  # its status changes: the whole payload comes
        done = await receive(ws, "screen", where=lambda m: m["phase"] == "podium", timeout=15)
        assert done["tables"][0]["status"] == "finished" and done["moments"]
        await ws.close()

    run_async(scenario())
    assert ClassSession.objects.get(pk=session["id"]).status == ClassSession.Status.OPEN


QTRIS_SEED = 4  # a deal whose last moves teach something (not every QTris game's end does)


def test_a_qtris_session_shows_each_students_luck_and_the_moments_of_its_boards(classroom):
    session = services.open_session(classroom, "qtris")
    joined(session, "Ada", "Bo")
    started(session, seed=QTRIS_SEED)
    match = session.tables.get().match
    play_out(match.pk, seed=3)
    payload = selectors.screen_payload(ClassSession.objects.get(pk=session.pk))
    assert payload["luck"] is True and payload["phase"] == "podium"
    lucks = [s["luck"] for s in payload["students"]]
    assert all(isinstance(x, float) for x in lucks)
    assert payload["moments"] and {m["kind"] for m in payload["moments"]} <= {"gate_sequence", "bell_pair", "against_odds"}
    owner = Client()
    owner.login(username="mr-bohr", password="complementarity-1927")
    assert ">Luck</th>" in owner.get(screen_url(session)).content.decode()


def test_moments_are_read_from_the_last_actions_once_per_move(classroom, django_assert_num_queries):
    from games.moments import RECENT, match_moments

    session = services.open_session(classroom, "quantum-tictactoe")
    joined(session, "Ada", "Bo")
    started(session)
    match = play_out(session.tables.get().match_id, seed=1)
    with django_assert_num_queries(1):   # one query of the last actions, no replay
        first = match_moments(match)
    with django_assert_num_queries(0):   # the same log length: from the cache
        assert match_moments(match) == first
    assert all(m["seq"] >= match.seq - RECENT for m in first)


def test_the_moments_of_many_tables_are_read_in_one_query_and_are_each_tables_own(classroom, django_assert_num_queries):
    """A projector follows the moves of many tables at once: their moments come from the cache in
    one round trip, the others from one query of their last actions, each table's the same as if
    read alone (at a log length before the newest too: a move's snapshot may be overtaken)."""
    from django.core.cache import cache

    from games.moments import moments_at, moments_of

    session = services.open_session(classroom, "quantum-tictactoe")
    joined(session, "Ada", "Bo", "Cy", "Di", "Ed", "Fay")
    started(session)
    matches = [play_out(table.match_id, seed=n) for n, table in enumerate(session.tables.order_by("number"))]
    asked = [(m.pk, m.game, m.seq) for m in matches] + [(matches[0].pk, matches[0].game, matches[0].seq - 3)]
    cache.clear()
    alone = {(match_id, seq): moments_at(match_id, game, seq) for match_id, game, seq in asked}
    assert all(alone.values()) and alone[asked[0][0], asked[0][2]] != alone[asked[-1][0], asked[-1][2]]

    def expected(some):
        return {match_id: alone[match_id, seq] for match_id, _game, seq in some}

    cache.clear()
    moments_at(*asked[1])  # one of them cached
    with django_assert_num_queries(1):
        assert moments_of(asked[:3]) == expected(asked[:3])
    cache.clear()
    with django_assert_num_queries(1):
        assert moments_of([asked[-1], asked[1]]) == expected([asked[-1], asked[1]])
    with django_assert_num_queries(0):  # all cached now
        assert moments_of([asked[-1], asked[1]]) == expected([asked[-1], asked[1]])


def test_every_landmark_of_the_projector_has_its_own_name(session, client):
    """A screen reader lists the landmarks by name: no two of the projector's share one (the
    standings' section and its scrolling table, the join section and the late-comers' corner)."""
    from html.parser import HTMLParser

    class Landmarks(HTMLParser):
        LANDMARK_TAGS = {"section", "aside", "nav", "main", "form"}

        def __init__(self):
            super().__init__()
            self.landmarks, self.texts, self.open = [], {}, []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag in self.LANDMARK_TAGS or a.get("role") in {"region", "complementary", "navigation", "main"}:
                if a.get("aria-label") or a.get("aria-labelledby"):
                    self.landmarks.append(a)
            if a.get("id"):
                self.open.append([a["id"], tag, 0])
            for held in self.open:
                held[2] += held[1] == tag

        def handle_endtag(self, tag):
            for held in self.open:
                held[2] -= held[1] == tag
            for held in [h for h in self.open if h[2] <= 0]:
                self.open.remove(held)

        def handle_data(self, data):
            for held in self.open:
                self.texts[held[0]] = self.texts.get(held[0], "") + data

    client.login(username="mr-bohr", password="complementarity-1927")
    for lang in ("en", "es", "pl"):
        parser = Landmarks()
        parser.feed(client.get(screen_url(session), HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        names = [" ".join((a.get("aria-label") or " ".join(parser.texts.get(i, "") for i in
                                                            a["aria-labelledby"].split())).split())
                 for a in parser.landmarks]
        assert len(names) >= 4 and all(names), names
        assert len(names) == len(set(names)), (lang, names)

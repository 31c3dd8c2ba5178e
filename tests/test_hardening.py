"""What an attacker-style probe of a production deployment got through, refused in-process:
request bodies at the ASGI layer, the admin's login, login lock-outs, replays and exports of
other seats' secrets, and the smaller holes (run cancelling, idle sessions, unbounded lists,
NaN, map validation, card codes in URLs, the Celery worker's key, encoded static paths)."""
from __future__ import annotations

import asyncio
import json

import pytest

from core.bodylimit import BodyLimit

MB = 1 << 20


# ----------------------------------------------------------------- request bodies (ASGI layer)

def _asgi(app, scope: dict, messages: list[dict]) -> tuple[list[dict], int]:
    """Run ``app`` with ``messages`` as the request; (what it sent, how many were read)."""
    sent: list[dict] = []
    read = 0

    async def receive():
        nonlocal read
        read += 1
        if read <= len(messages):
            return messages[read - 1]
        await asyncio.sleep(3600)  # the client waits for the answer (the app stops listening)

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent, read


def _scope(path="/accounts/login/", headers=()):
    return {"type": "http", "method": "POST", "path": path, "headers": list(headers)}


async def _never_called(scope, receive, send):
    raise AssertionError("the application was called")


def test_a_declared_body_over_the_limit_is_a_413_before_a_byte_is_read(settings):
    settings.REQUEST_BODY_MAX_BYTES = 1000
    sent, read = _asgi(BodyLimit(_never_called),
                       _scope("/api/sessions/", [(b"content-length", str(500 * MB).encode()),
                                                 (b"accept-language", b"pl")]), [])
    assert read == 0
    assert sent[0]["status"] == 413
    body = json.loads(sent[1]["body"])
    assert body["code"] == "too_large" and "kB" in body["message"] and "Żądanie" in body["message"]


def test_a_streamed_body_is_counted_and_refused_once_past_the_limit(settings):
    """A server that streams the body (uvicorn): the middleware stops reading at the limit."""
    settings.REQUEST_BODY_MAX_BYTES = 3 * MB
    chunks = [{"type": "http.request", "body": b"x" * MB, "more_body": True} for _ in range(200)]
    sent, read = _asgi(BodyLimit(_never_called), _scope(), chunks)
    assert read == 4 and sent[0]["status"] == 413
    assert b"Too much was sent" in sent[1]["body"]


def test_a_body_within_the_limit_reaches_the_app_whole(settings):
    settings.REQUEST_BODY_MAX_BYTES = 3 * MB
    got = []

    async def app(scope, receive, send):
        got.append(await receive())
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    chunks = [{"type": "http.request", "body": b"ab", "more_body": True},
              {"type": "http.request", "body": b"cd", "more_body": False}]
    sent, _read = _asgi(BodyLimit(app), _scope(), chunks)
    assert got == [{"type": "http.request", "body": b"abcd", "more_body": False}]
    assert sent[0]["status"] == 204


# ----------------------------------------------------------------- ?limit= is capped

@pytest.mark.django_db
def test_an_api_list_gives_at_most_200_rows_whatever_the_limit_asked(teacher_user):
    from django.test import Client

    from classrooms.models import Classroom

    Classroom.objects.bulk_create([Classroom(teacher=teacher_user, name=f"C{i}") for i in range(230)])
    client = Client()
    client.force_login(teacher_user)
    page = client.get("/api/classes/?limit=1000000").json()
    assert page["count"] == 230 and len(page["results"]) == 200 and page["next"]
    assert len(client.get("/api/classes/?limit=20").json()["results"]) == 20


# ----------------------------------------------------------------- logins: the admin's, lock-outs

@pytest.fixture
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _login(address: str, username: str, password: str, client=None, path: str = "/accounts/login/"):
    from django.test import Client

    client = client or Client(REMOTE_ADDR=address)
    return client, client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_the_admin_login_is_the_apps_throttled_login(fast_hasher):
    """30 wrong passwords on /admin/login/ then the right one logged the superuser in: nothing
    posted there is checked any more, and the one login form throttles them."""
    from django.contrib.auth.models import User
    from django.test import Client

    User.objects.create_superuser("root", password="the-right-one-1")
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(30):
        answer = attacker.post("/admin/login/?next=/admin/", {"username": "root", "password": "wrong"})
        assert answer.status_code == 302 and answer.url.startswith("/accounts/login/?next=")
    answer = attacker.post("/admin/login/?next=/admin/", {"username": "root", "password": "the-right-one-1"})
    assert answer.status_code == 302 and not _logged_in(attacker)
    assert attacker.get("/admin/").url == "/admin/login/?next=/admin/"  # (then the app's form)
    for _ in range(30):
        _login("203.0.113.7", "root", "wrong", attacker, "/accounts/login/?next=/admin/")
    _client, late = _login("203.0.113.7", "root", "the-right-one-1", attacker, "/accounts/login/?next=/admin/")
    assert late.status_code == 429 and not _logged_in(attacker)
    # the superuser, from the address they always use, through the one form: the admin opens
    admin, answer = _login("198.51.100.1", "root", "the-right-one-1", path="/accounts/login/?next=/admin/")
    assert answer.status_code == 302 and answer.url == "/admin/" and _logged_in(admin)
    assert admin.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_wrong_passwords_from_anywhere_never_lock_a_teacher_out_where_they_logged_in(fast_hasher):
    from django.contrib.auth.models import User

    User.objects.create_user("ms-curie", password="radium-1898-Polonium")
    assert _login("10.0.0.5", "ms-curie", "radium-1898-Polonium")[1].status_code == 302  # school
    # an attacker from one address: five guesses a minute, then "wait", password unchecked
    answers = [_login("203.0.113.9", "ms-curie", "guess")[1].status_code for _ in range(7)]
    assert answers == [200] * 5 + [429] * 2
    assert _login("203.0.113.9", "ms-curie", "radium-1898-Polonium")[1].status_code == 429
    # and from forty addresses: the username is throttled for strangers...
    for i in range(40):
        _login(f"198.18.0.{i}", "ms-curie", "guess")
    assert _login("192.0.2.77", "ms-curie", "radium-1898-Polonium")[1].status_code == 429
    # ...never for the teacher at school, in any browser
    teacher, answer = _login("10.0.0.5", "ms-curie", "radium-1898-Polonium")
    assert answer.status_code == 302 and _logged_in(teacher)


@pytest.mark.django_db
def test_a_known_address_gets_in_with_the_right_password_while_someone_there_guesses(fast_hasher, settings):
    """A school's shared address: a student guessing there cannot lock the teacher out, nor
    guess without limit (past ten times the limit only the teacher's own browser gets in)."""
    from django.contrib.auth.models import User
    from django.test import Client

    from classrooms.login_throttle import KNOWN_BROWSER_COOKIE

    settings.LOGIN_ATTEMPTS_PER_USERNAME_PER_ADDRESS_PER_MINUTE = 2
    User.objects.create_user("ms-curie", password="radium-1898-Polonium")
    first, answer = _login("10.0.0.5", "ms-curie", "radium-1898-Polonium")
    assert answer.status_code == 302
    browser = Client(REMOTE_ADDR="10.0.0.5")  # the teacher's browser, logged out since
    browser.cookies[KNOWN_BROWSER_COOKIE] = first.cookies[KNOWN_BROWSER_COOKIE].value
    answers = [_login("10.0.0.5", "ms-curie", "guess")[1].status_code for _ in range(4)]
    assert answers == [200, 200, 429, 429]
    assert _login("10.0.0.5", "ms-curie", "radium-1898-Polonium")[1].status_code == 302
    for _ in range(20):
        _login("10.0.0.5", "ms-curie", "guess")
    assert _login("10.0.0.5", "ms-curie", "radium-1898-Polonium")[1].status_code == 429
    assert _login("10.0.0.5", "ms-curie", "radium-1898-Polonium", browser)[1].status_code == 302
    assert _logged_in(browser)


@pytest.mark.django_db
def test_usernames_are_throttled_whatever_their_capitals(fast_hasher):
    from django.contrib.auth.models import User

    User.objects.create_user("Mr-Bohr", password="complementarity-1927")
    spellings = ["Mr-Bohr", "mr-bohr", "MR-BOHR", " mR-bOHR ", "mr-bohr"]
    answers = [_login("203.0.113.5", name, "guess")[1].status_code for name in spellings]
    assert answers == [200] * 5
    assert _login("203.0.113.5", "mr-bohr", "guess")[1].status_code == 429
    assert _login("203.0.113.5", "Mr-Bohr", "complementarity-1927")[1].status_code == 429
    for i in range(30):
        _login(f"198.18.1.{i}", ["Mr-Bohr", "mr-bohr", "MR-bohr"][i % 3], "guess")
    assert _login("192.0.2.8", "Mr-Bohr", "complementarity-1927")[1].status_code == 429


# ----------------------------------------------------------------- circuit runs: who may cancel

@pytest.mark.django_db
def test_a_student_cancels_only_their_own_runs_never_the_teachers(teacher_user):
    from django.test import Client

    from games.access import PARTICIPANT_IDS_KEY
    from simulator.models import QuantumPolicy, Run
    from tests.test_simulator_fixtures import class_table, finished_qtris, seat_people

    match = finished_qtris(teacher_user)
    session = class_table(teacher_user, match)
    QuantumPolicy.objects.create(classroom=session.classroom, students_may_run=True)
    ada, bo = seat_people(match)
    theirs = Run.objects.create(match=match, action_number=0, backend="aer", seed=1, request_key="t",
                                requested_by=teacher_user)
    own = Run.objects.create(match=match, action_number=0, backend="aer", seed=2, request_key="a",
                             requested_by_participant=ada)
    student = Client()
    store = student.session
    store[PARTICIPANT_IDS_KEY] = [ada]
    store.save()
    refused = student.post(f"/api/runs/{theirs.pk}/cancel/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_yours"
    theirs.refresh_from_db()
    assert theirs.status == Run.Status.QUEUED
    assert student.post(f"/api/runs/{own.pk}/cancel/").json()["status"] == Run.Status.CANCELLED
    teacher = Client()
    teacher.force_login(teacher_user)
    assert teacher.post(f"/api/runs/{theirs.pk}/cancel/").json()["status"] == Run.Status.CANCELLED


# ----------------------------------------------------------------- NaN and Infinity are not JSON

@pytest.mark.django_db
@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_refused_wherever_json_is_read(number, teacher_user):
    from django.test import Client

    from classrooms import exercises, ticket_maps
    from classrooms.models import Classroom
    from games.consumers import parse_message
    from games.errors import AppError

    client = Client()
    client.force_login(teacher_user)
    answer = client.post("/api/classes/", f'{{"name": "9A", "x": {number}}}', content_type="application/json")
    assert answer.status_code == 400 and "not finite" in answer.json()["message"]
    assert not Classroom.objects.exists()
    message, problem = parse_message(f'{{"type": "act", "seq": 0, "action": {{"square": {number}}}}}', None)
    assert message == {} and "not finite" in problem
    with pytest.raises(ticket_maps.MapError) as refused:
        ticket_maps.parse_map(f'{{"name": "M", "cities": [{{"name": "A", "x": {number}, "y": 1}}]}}')
    assert "not finite" in str(refused.value.problems)
    with pytest.raises(AppError, match="not finite"):
        exercises.parse_options(f'{{"board": [{number}]}}')


# ----------------------------------------------------------------- the Celery worker fails closed

def test_a_celery_worker_and_beat_refuse_the_built_in_key_with_debug_off(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from tests.support.server import fresh_shell_env

    env = fresh_shell_env(CELERY_BROKER_URL="memory://")  # (a worker that did start would serve this, not Redis)
    env.pop("REDIS_URL", None)
    root = Path(__file__).resolve().parents[1]
    started = [subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *command], cwd=root, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
               for command in (["worker", "--pool=solo"], ["beat", "-s", str(tmp_path / "schedule")])]
    for process in started:  # side by side: each takes seconds to load the project
        try:
            output, _ = process.communicate(timeout=40)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise AssertionError(f"{process.args[4]} started on the built-in key") from None
        assert process.returncode != 0
        assert "Refusing to start: SECRET_KEY is the built-in development key" in output


# ----------------------------------------------------------------- encoded dot-dot static paths

@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/static/../config/settings.py", "/static/../../etc/passwd", "/static/.."])
def test_a_static_path_out_of_the_static_files_is_the_apps_404_not_a_500(path, settings):
    """``/static/%2e%2e/…`` (the server unquotes it): Django's finders refused it with an error
    that the server answered as a bare 500, in production mode."""
    from django.core.asgi import get_asgi_application

    from core.staticfiles import StaticFiles

    settings.DEBUG = False
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"localhost")], "client": ["127.0.0.1", 5000], "server": ["127.0.0.1", 80]}
    sent, _read = _asgi(StaticFiles(get_asgi_application()), scope,
                        [{"type": "http.request", "body": b"", "more_body": False}])
    assert sent[0]["status"] == 404
    body = b"".join(m.get("body", b"") for m in sent[1:]).decode()
    assert 'data-status="404"' in body and "SECRET_KEY" not in body
    sent, _read = _asgi(StaticFiles(get_asgi_application()), {**scope, "path": "/static/css/app.css"},
                        [{"type": "http.request", "body": b"", "more_body": False}])
    assert sent[0]["status"] == 200


# ----------------------------------------------------------------- Ticket-to-Ride maps: size first, bounded check

# 13 cities, 42 routes: from C5 |1⟩ no simple path reaches C3 |Φ+⟩, and the planner's search
# takes its whole budget (20,000 steps) to find that out
HARD_ROUTES = [
    ("0", "2", "CNOT", 2), ("0", "3", "X", 3), ("0", "4", "X", 1), ("0", "5", "I", 1), ("0", "7", "I", 2),
    ("0", "11", "H", 1), ("0", "12", "I", 2), ("1", "2", "Z", 2), ("1", "3", "H", 2), ("1", "5", "H", 2),
    ("1", "6", "I", 3), ("1", "8", "H", 1), ("1", "10", "I", 2), ("1", "12", "X", 3), ("2", "4", "Z", 1),
    ("2", "6", "Y", 2), ("2", "7", "Y", 1), ("2", "11", "H", 1), ("2", "12", "H", 2), ("3", "4", "Z", 3),
    ("3", "6", "Z", 3), ("3", "11", "Z", 3), ("4", "5", "CNOT", 2), ("4", "7", "Z", 2), ("4", "8", "H", 3),
    ("4", "9", "Y", 1), ("4", "10", "H", 3), ("4", "12", "X", 1), ("5", "7", "CNOT", 1), ("5", "12", "I", 3),
    ("6", "9", "Z", 1), ("6", "10", "X", 3), ("7", "9", "X", 3), ("7", "10", "X", 2), ("7", "11", "Z", 1),
    ("8", "11", "Y", 1), ("8", "12", "H", 2), ("9", "10", "I", 3), ("9", "11", "I", 3), ("9", "12", "I", 3),
    ("10", "11", "X", 1), ("10", "12", "I", 1)]


def _hard_map(missions: int) -> dict:
    return {"name": "Hard to check", "cities": [{"name": f"C{i}", "x": 60 * i, "y": 300} for i in range(13)],
            "routes": [{"a": f"C{a}", "b": f"C{b}", "gate": g, "length": n} for a, b, g, n in HARD_ROUTES],
            "missions": [{"id": f"M{k}", "start": "C5", "target": "C3", "initial_state": "1",
                          "target_state": "Phi+", "qubits": 2, "level": "advanced"} for k in range(missions)]}


@pytest.mark.django_db
def test_a_map_over_the_size_cap_is_refused_before_any_check(monkeypatch):
    import games.engines.quantum_ticket_to_ride as ttr
    from classrooms import ticket_maps

    monkeypatch.setattr(ttr, "validate_map", lambda data: pytest.fail("checked a map that is too large"))
    big = _hard_map(200)  # about 35 kB as sent (pretty-printed), over the 16 kB of a game's options
    raw = json.dumps(big, indent=1)
    assert 30_000 < len(raw) < ticket_maps.MAX_MAP_BYTES
    with pytest.raises(ticket_maps.MapError) as refused:
        ticket_maps.check_map(ticket_maps.parse_map(raw))
    assert refused.value.code == "too_large"


@pytest.mark.django_db
def test_checking_a_map_is_bounded_however_hard_its_missions(teacher_user):
    """40 missions that each take the planner's whole budget to refuse (0.1–1 s each): the
    check stops at its bound and says what to change; nothing is stored."""
    import time

    from classrooms import ticket_maps
    from classrooms.models import Classroom, TicketMap

    classroom = Classroom.objects.create(teacher=teacher_user, name="9A")
    raw = json.dumps(_hard_map(40))
    started = time.process_time()
    with pytest.raises(ticket_maps.MapError) as refused:
        ticket_maps.upload_map(classroom, "Hard", raw)
    assert time.process_time() - started < 3  # CPU time: the machine may be busy with others
    assert any("too much searching" in p for p in refused.value.problems)
    assert not TicketMap.objects.exists()


# ----------------------------------------------------------------- sessions that were never ended

@pytest.mark.django_db
def test_a_session_idle_for_30_days_ends_by_itself_and_is_purged_a_retention_period_later(session, settings):
    from datetime import timedelta

    from django.utils import timezone

    from classrooms import services
    from classrooms.models import ClassSession, Participant, Table
    from classrooms.retention import purge_expired
    from games.models import Action, Match

    settings.SESSION_IDLE_DAYS, settings.RETENTION_DAYS = 30, 365
    busy = services.open_session(session.classroom, "quantum-tictactoe")
    for s in (session, busy):
        for name in ("Ada", "Bo"):
            Participant.objects.create(session=s, display_name=name)
        services.auto_pair(s)
        services.start_all(s)
    from games import services as match_services
    from games.engines import get_game
    from games.selectors import current_state

    def move(match):
        state = current_state(match)
        seat = get_game(match.game).to_act(state)[0]
        match_services.submit_action(match.pk, seat, match.seq, get_game(match.game).legal_actions(state, seat)[0])

    match = Table.objects.get(session=session).match
    move(match)
    long_ago = timezone.now() - timedelta(days=40)
    for s in (session, busy):  # both opened, joined and played 40 days ago...
        ClassSession.objects.filter(pk=s.pk).update(created_at=long_ago)
        Participant.objects.filter(session=s).update(joined_at=long_ago)
        Match.objects.filter(table__session=s).update(created_at=long_ago)
        Action.objects.filter(match__table__session=s).update(created_at=long_ago)
    busy_match = Table.objects.get(session=busy).match
    move(busy_match)  # ...and in one of them someone moved today

    assert purge_expired()["idle_sessions_ended"] == 1
    session.refresh_from_db()
    busy.refresh_from_db()
    assert session.status == ClassSession.Status.ENDED and busy.status != ClassSession.Status.ENDED
    assert timezone.now() - session.ended_at < timedelta(minutes=1)  # retention counts from now
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABANDONED
    almost = purge_expired(timezone.now() + timedelta(days=364))
    assert almost["class_sessions"] == 0 and almost["idle_sessions_ended"] == 1  # the busy one, idle since
    assert purge_expired(timezone.now() + timedelta(days=366))["class_sessions"] == 1
    assert not ClassSession.objects.filter(pk=session.pk).exists()
    assert ClassSession.objects.get(pk=busy.pk).status == ClassSession.Status.ENDED


# ----------------------------------------------------------------- class-card codes out of URLs

@pytest.mark.django_db
def test_card_codes_are_never_read_from_an_address_and_printed_cards_carry_them_in_the_fragment(
        teacher_user, monkeypatch, settings):
    from django.test import Client

    from classrooms import card_views, cards
    from classrooms.models import Classroom

    settings.LAN_ADDRESS = "192.0.2.10"  # (cards are printed only for an address phones reach)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.0.2.10"]
    classroom = Classroom.objects.create(teacher=teacher_user, name="9A", cards_enabled=True)
    ada, _bo = cards.add_members(classroom, "Ada\nBo")
    linked: list[str] = []
    monkeypatch.setattr(card_views, "qr_svg", lambda link: linked.append(link) or "<svg></svg>")
    teacher = Client()
    teacher.force_login(teacher_user)
    assert teacher.get(f"/teacher/classes/{classroom.pk}/cards/").status_code == 200
    assert len(linked) == 2 and all("#card=" in link and "?" not in link for link in linked)
    assert f"/join/#card={ada.card_code}" in " ".join(linked)

    student = Client()
    moved = student.get(f"/join/?code=ABC123&card={ada.card_code}")
    assert moved.status_code == 302 and moved.url == f"/join/?code=ABC123#card={ada.card_code}"
    moved = student.get(f"/homework/?card={ada.card_code}")
    assert moved.status_code == 302 and moved.url == f"/homework/#card={ada.card_code}"
    assert "Hello Ada" not in student.get("/homework/").content.decode()  # nothing was read from the URL
    page = student.post("/join/", {"code": "NOPE99", "card": ada.card_code}).content.decode()
    assert f"/homework/#card={ada.card_code}" in page and f"?card={ada.card_code}" not in page
    opened = student.post("/homework/", {"card": ada.card_code})
    assert opened.status_code == 302 and "Hello Ada" in student.get("/homework/").content.decode()

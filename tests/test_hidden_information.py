"""Non-interference past live play: two matches whose logs differ only in one seat's secrets —
which path its missed Ticket-to-Ride run took, which cards a QTris mulligan put face down —
must give another seat, and the teacher, the same replays (page and API), event log,
statistics pages and exports (the session's report and statistics CSVs, the progress CSVs).

The engine twins of ``tests/test_engine_conformance.py`` check one state's views; these twins
are whole matches in the database, read through every page and API that shows a finished
match. A replay used to show another seat's raw actions (``{"run": [start, …, target]}``, the
path of a secret mission) and the statistics pages the circuit of another seat's missed run."""
from __future__ import annotations

import csv
import io
import itertools
import json
import re

import pytest
from django.db import transaction
from django.test import Client

from games.engines import FINISH_ACTION, get_game, is_finish

pytestmark = pytest.mark.django_db

TTR = "quantum-ticket-to-ride"
TWIN_MAP = {
    "name": "Twin paths (test)", "description": "Two paths from A to D that both miss.",
    "cities": [{"name": n, "x": 100 + 120 * i, "y": 100 + 60 * (i % 3)} for i, n in enumerate("ABCDEFG")],
    "routes": [{"a": "A", "b": "B", "gate": "I", "length": 1}, {"a": "B", "b": "D", "gate": "I", "length": 1},
               {"a": "A", "b": "C", "gate": "Z", "length": 1}, {"a": "C", "b": "D", "gate": "Z", "length": 1},
               {"a": "A", "b": "G", "gate": "X", "length": 1}, {"a": "G", "b": "D", "gate": "I", "length": 1},
               {"a": "D", "b": "E", "gate": "Y", "length": 3}, {"a": "E", "b": "F", "gate": "X", "length": 2}],
    "missions": [{"id": "AD", "start": "A", "target": "D", "initial_state": "0", "target_state": "1",
                  "qubits": 1, "level": "basic"},
                 {"id": "EF", "start": "E", "target": "F", "initial_state": "0", "target_state": "0",
                  "qubits": 1, "level": "basic"}],
}
PATHS = (["A", "B", "D"], ["A", "C", "D"])  # I·I and Z·Z: both leave |0⟩, both miss |1⟩
_codes = itertools.count(1)


def ttr_twin_logs() -> tuple[int, int, list, list]:
    """(seed, runner, log A, log B): the runner claims both paths' routes, then runs one of them
    (A: by B, B: by C) and misses; the other seat draws; then time is up. Identical otherwise."""
    game = get_game(TTR)

    def script(seed: int, path: list[str]):
        state = game.setup(players=2, variant="basic", seed=seed, options={"map": TWIN_MAP})
        runner = next(s for s, m in enumerate(state["missions"]) if m["id"] == "AD")
        log = []
        while len(log) < 60 and not state["finished"]:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            if state["step"] == "run":
                both = all({"run": p} in legal for p in PATHS)
                action = {"run": path} if seat == runner and both else {"pass": True}
            elif seat == runner:
                mine = [a for a in legal if a.get("claim", 99) < 4]
                action = mine[0] if mine else {"draw": True}
            else:
                others = [a for a in legal if a.get("claim", -1) >= 4]
                action = {"draw": True} if {"draw": True} in legal else (others or [None])[0]
            if action not in legal:
                return None
            state, _ = game.apply(state, seat, action)
            log.append((seat, action))
            if "run" in action:
                assert not state["runs"][-1]["match"]
                return runner, [*log, (0, FINISH_ACTION)]
        return None

    for seed in range(200):
        a, b = script(seed, PATHS[0]), script(seed, PATHS[1])
        if a and b:
            return seed, a[0], a[1], b[1]
    raise AssertionError("no seed")


def qtris_twin_logs() -> tuple[int, int, list, list]:
    """(seed, seat, log A, log B): at the mulligan, seat 1 puts a different card face down (its
    first card in A, another one in B); seat 0 keeps its hand; then time is up."""
    game = get_game("qtris")
    for seed in range(50):
        state = game.setup(players=2, variant="basic", seed=seed, options={})
        log = []
        while state["phase"] != "mulligan":
            seat = game.to_act(state)[0]
            action = game.legal_actions(state, seat)[0]
            state, _ = game.apply(state, seat, action)
            log.append((seat, action))
        hand = state["hands"][1]
        other = next((i for i, c in enumerate(hand) if c != hand[0]), None)
        if other is None:
            continue
        twins = []
        for put_down in (0, other):
            s, rest = state, []
            for seat in (0, 1):
                action = {"mulligan": [] if seat == 0 else [put_down]}
                s, _ = game.apply(s, seat, action)
                rest.append((seat, action))
            twins.append([*log, *rest, (0, FINISH_ACTION)])
        return seed, 1, twins[0], twins[1]
    raise AssertionError("no seed")


def build(teacher, game: str, seed: int, options: dict, log: list) -> dict:
    """A class (with cards) of two members, a session, one table whose match plays ``log``."""
    from classrooms.models import ClassMember, Classroom, ClassSession, Participant, Table
    from games import services
    from games.models import Match
    from simulator.models import QuantumPolicy

    n = next(_codes)
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    QuantumPolicy.objects.create(classroom=classroom, students_may_run=True)
    session = ClassSession.objects.create(classroom=classroom, game=game, join_code=f"T{n:05d}")
    from django.utils import timezone

    members = [ClassMember.objects.create(classroom=classroom, nickname=name, card_code=f"CODE-{n}{i}",
                                          card_code_hash=f"{n}-{i}", issued_at=timezone.now())
               for i, name in enumerate(("Ada", "Bo"))]
    pids = [Participant.objects.create(session=session, display_name=m.nickname, member=m).pk for m in members]
    match = services.create_match(game, [services.SeatHolder(name, participant_id=pid)
                                         for name, pid in zip(("Ada", "Bo"), pids, strict=True)],
                                  seed=seed, options=options, teacher=teacher)
    Table.objects.create(session=session, number=1, match=match)
    services.start_match(match.pk)
    for seq, (seat, action) in enumerate(log):
        if is_finish(action):
            with transaction.atomic():
                locked = Match.objects.select_for_update().get(pk=match.pk)
                applied = services.Applied(locked.pk, locked.seq)
                state = services._finish_now(locked, services.current_state(locked), applied)
                services._finish_if_over(locked, state, applied)
                locked.save()
        else:
            services.submit_action(match.pk, seat, seq, action, participant_ids=(pids[seat],))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.seq == len(log)
    return {"classroom": classroom, "session": session, "match": match, "members": members, "pids": pids}


def student(pid: int) -> Client:
    from games.access import PARTICIPANT_IDS_KEY

    client = Client()
    store = client.session
    store[PARTICIPANT_IDS_KEY] = [pid]
    store.save()
    return client


ID_KEYS = {"match", "session", "url", "circuit_url", "replay_url", "participant", "member",
           "queued_at", "started_at", "finished_at", "date", "week"}


def strip_ids(value):
    """The data without the twins' own ids and times."""
    if isinstance(value, dict):
        return {k: strip_ids(v) for k, v in value.items() if k not in ID_KEYS and not k.endswith("_url")}
    if isinstance(value, list):
        return [strip_ids(v) for v in value]
    return value


def csv_rows(text: str, drop: set[str]) -> list[dict]:
    text = text.removeprefix("\ufeff")  # an export's UTF-8 BOM
    return [{k: v for k, v in row.items() if k not in drop} for row in csv.DictReader(io.StringIO(text))]


def frames_of_page(html: str) -> list:
    found = re.search(r'<script id="frames" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def seen_by(twin: dict, reader: Client, *, teacher: bool, stats: bool = True) -> dict:
    """Everything a reader of a finished match is shown, ids left out."""
    from games.selectors import event_history, replay_frames

    match = twin["match"]
    m = match.pk
    seat = None if teacher else twin["seat"]
    out = {
        "frames": replay_frames(match, seat),
        "events": event_history(match, seat),
        "replay_api": strip_ids(reader.get(f"/api/matches/{m}/replay/").json()),
        "replay_page": frames_of_page(reader.get(f"/matches/{m}/replay/").content.decode()),
        "live_api": strip_ids(reader.get(f"/api/matches/{m}/").json()),
    }
    assert out["frames"] == out["replay_api"]["frames"] == out["replay_page"]
    if stats:
        odds = reader.get(f"/api/matches/{m}/odds/")
        assert odds.status_code == 200, odds.content
        out["odds"] = strip_ids(odds.json())
        page = reader.get(f"/matches/{m}/stats/")
        out["stats_page"] = strip_ids({k: page.context[k] for k in ("odds", "side_rows", "board", "actual_label")})
        for at in range(match.seq + 1):
            circuit = reader.get(f"/api/matches/{m}/circuit/?at={at}")
            out[f"circuit {at}"] = strip_ids(circuit.json())
            out[f"qasm {at}"] = reader.get(f"/matches/{m}/circuit.qasm?at={at}").content.decode()
            if at >= match.seq - 1:  # the page draws the circuit (slow): the last positions
                page = reader.get(f"/matches/{m}/circuit/?at={at}")
                out[f"circuit page {at}"] = (page.status_code, page.context.get("text"), page.context.get("qasm"))
    return out


def exports(twin: dict, teacher_client: Client) -> dict:
    """The teacher's exports of the session and the class."""
    s, c = twin["session"].pk, twin["classroom"].pk
    report = teacher_client.get(f"/teacher/sessions/{s}/report/")
    out = {
        "report_csv": csv_rows(teacher_client.get(f"/teacher/sessions/{s}/report/?format=csv").content.decode(), set()),
        "report_page": strip_ids({k: report.context[k] for k in ("tables", "missions_completed", "standings")}),
        "stats_csv": csv_rows(teacher_client.get(f"/teacher/sessions/{s}/statistics/?format=csv").content.decode(),
                              {"match"}),
        "stats_api": strip_ids(teacher_client.get(f"/api/sessions/{s}/statistics/").json()),
        "class_progress_csv": csv_rows(
            teacher_client.get(f"/teacher/classes/{c}/progress/?format=csv").content.decode(),
            {"date", "week", "session", "replay"}),
    }
    for i, member in enumerate(twin["members"]):
        out[f"member {i} csv"] = csv_rows(
            teacher_client.get(f"/teacher/classes/{c}/members/{member.pk}/progress/?format=csv").content.decode(),
            {"date", "week", "session", "replay"})
    return out


def twins(teacher, game: str, seed: int, options: dict, secret_seat: int, logs: tuple[list, list]) -> list[dict]:
    built = [build(teacher, game, seed, options, log) for log in logs]
    for twin in built:
        twin["seat"] = 1 - secret_seat  # the other seat reads
    return built


@pytest.fixture
def teacher_client(teacher_user):
    client = Client()
    client.force_login(teacher_user)
    return client


def test_a_missed_runs_path_reaches_no_other_seat_nor_the_teachers_replays_and_exports(teacher_user, teacher_client):
    seed, runner, log_a, log_b = ttr_twin_logs()
    a, b = twins(teacher_user, TTR, seed, {"map": TWIN_MAP}, runner, (log_a, log_b))
    # the twins do differ: the runner's own replay shows its own run
    own = [[f["action"] for f in student(t["pids"][runner]).get(f"/api/matches/{t['match'].pk}/replay/").json()["frames"]]
           for t in (a, b)]
    assert own[0] != own[1] and {"run": PATHS[0]} in own[0] and {"run": PATHS[1]} in own[1]
    seen = [seen_by(t, student(t["pids"][t["seat"]]), teacher=False) for t in (a, b)]
    for key in seen[0]:
        assert seen[0][key] == seen[1][key], key
    assert "A → B → D" not in json.dumps(seen[0], ensure_ascii=False)
    # the teacher: replays and the event log (seat None) and every export
    watched = [seen_by(t, teacher_client, teacher=True, stats=False) for t in (a, b)]
    for key in watched[0]:
        assert watched[0][key] == watched[1][key], key
    exported = [exports(t, teacher_client) for t in (a, b)]
    for key in exported[0]:
        assert exported[0][key] == exported[1][key], key
    assert exported[0]["class_progress_csv"] and exported[0]["stats_csv"]


def test_cards_put_face_down_at_a_qtris_mulligan_reach_no_other_seat_nor_the_teachers_pages(
        teacher_user, teacher_client):
    seed, secret_seat, log_a, log_b = qtris_twin_logs()
    a, b = twins(teacher_user, "qtris", seed, {}, secret_seat, (log_a, log_b))
    own = [[f["action"] for f in student(t["pids"][secret_seat]).get(f"/api/matches/{t['match'].pk}/replay/")
            .json()["frames"]] for t in (a, b)]
    assert own[0] != own[1]
    seen = [seen_by(t, student(t["pids"][t["seat"]]), teacher=False) for t in (a, b)]
    for key in seen[0]:
        assert seen[0][key] == seen[1][key], key
    watched = [seen_by(t, teacher_client, teacher=True) for t in (a, b)]
    for key in watched[0]:
        assert watched[0][key] == watched[1][key], key
    exported = [exports(t, teacher_client) for t in (a, b)]
    for key in exported[0]:
        assert exported[0][key] == exported[1][key], key

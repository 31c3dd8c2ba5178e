"""What each student understood (classrooms/understanding.py): the students × concepts grid, the
students who may need help and the class's most common misconception, from matches played
through the platform with moves that trigger known quantum tic-tac-toe detectors; each move
judged once; the teacher's report, its CSV / JSON / printed page and the projector's debrief
(the owning teacher's only); a deleted member's evidence goes with them; progress over weeks.

The positions (tests/engines/test_concept_evidence.py): after ``GIFT`` the move O [7, 9] closes
a cycle that hands X the win (``cycle_gift``, a measurement misconception); after ``CHOICE`` O's
last move closed a cycle (``cycle_gift`` again) and X's collapse into 4 ends the game better for
X (``collapse_for_me``: measurement shown)."""
from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from classrooms import cards, progress, selectors, services, understanding
from classrooms.models import ClassMember
from games import services as match_services
from games.engines import get_game
from games.engines.quantum_tictactoe import actions_from_history
from games.models import Match

pytestmark = pytest.mark.django_db

GIFT = "X1+(8,9) O2+(1,2) X3+(6,7) O4+(7,8) X5+(3,8) O6+(7,9)"
CHOICE = "X1+(1,8) O2+(1,7) X3+(4,5) O4+(8,9) X5+(5,9) O6+(4,8) X@O6(4)"


@pytest.fixture(autouse=True)
def nothing_judged_yet():
    understanding.forget()
    yield
    understanding.forget()


def play(session, x, o, history: str, *, end: bool = True) -> Match:
    """``x`` and ``o`` (participants) sit at a new table and play ``history``; the game is then
    over (``end``) so that they may sit again."""
    table = services.seat_table(session, [x, o], in_order=True)
    match_services.start_match(table.match_id)
    for seat, action in actions_from_history(history.split()):
        match = Match.objects.get(pk=table.match_id)
        match_services.submit_action(match.pk, seat, match.seq, action)
    if end:
        Match.objects.filter(pk=table.match_id).update(status=Match.Status.FINISHED)
    return Match.objects.get(pk=table.match_id)


@pytest.fixture
def lesson(session):
    """Ada–Bo and Cy–Di play; then Bo–Ada. Bo's misconception is answered by a later move of his
    that shows measurement; Ada's and Di's are not. Cy shows measurement."""
    ada, bo, cy, di = (services.join(session, n, {}) for n in ("Ada", "Bo", "Cy", "Di"))
    first = play(session, ada, bo, GIFT)          # Bo: cycle_gift
    second = play(session, cy, di, CHOICE)        # Di: cycle_gift; Cy: collapse_for_me
    third = play(session, bo, ada, CHOICE)        # Ada: cycle_gift; Bo: collapse_for_me
    return {"session": session, "ada": ada, "bo": bo, "cy": cy, "di": di,
            "matches": [first, second, third]}


def cell(found, name, concept):
    row = next(r for r in found["grid"] if r["name"] == name)
    return next(c for c in row["cells"] if c["concept"] == concept)


# --- the computation ------------------------------------------------------------------------

def test_the_grid_counts_each_students_evidence_per_concept_from_the_played_moves(lesson):
    found = understanding.session_understanding(lesson["session"])
    assert [r["name"] for r in found["grid"]] == ["Ada", "Bo", "Cy", "Di"]  # the roster's order
    assert (cell(found, "Bo", "measurement")["shows"], cell(found, "Bo", "measurement")["misconception"]) == (1, 1)
    assert (cell(found, "Ada", "measurement")["shows"], cell(found, "Ada", "measurement")["misconception"]) == (0, 1)
    assert (cell(found, "Cy", "measurement")["shows"], cell(found, "Cy", "measurement")["misconception"]) == (1, 0)
    assert cell(found, "Di", "superposition") == {**cell(found, "Di", "superposition"), "shows": 0, "misconception": 0}
    gift = cell(found, "Ada", "measurement")["moves"][0]
    third = lesson["matches"][2]
    assert (gift["code"], gift["match"], gift["seq"], gift["table"]) == ("cycle_gift", third.pk, 5, 3)
    assert gift["replay_url"] == f"/matches/{third.pk}/replay/?step=6"  # the board just after the move
    assert "closed a cycle" in gift["text"].lower()


def test_students_who_may_need_help_have_a_misconception_no_later_move_answered(lesson):
    found = understanding.session_understanding(lesson["session"])
    helped = [(h["name"], h["concept"]) for h in found["need_help"]]
    assert helped == [("Ada", "measurement"), ("Di", "measurement")]  # Bo showed it later: not him
    assert [m["code"] for m in found["need_help"][0]["moves"]] == ["cycle_gift"]


def test_the_most_common_misconception_has_two_example_moves_of_two_students(lesson):
    common = understanding.session_understanding(lesson["session"])["common"]
    assert (common["code"], common["concept"], common["students"], common["count"]) == ("cycle_gift", "measurement", 3, 3)
    assert len(common["examples"]) == 2
    assert len({m["student"] for m in common["examples"]}) == 2


def test_a_seat_handed_to_a_bot_keeps_the_students_earlier_evidence_and_bot_moves_are_none(session):
    ada, bo = services.join(session, "Ada", {}), services.join(session, "Bo", {})
    match = play(session, ada, bo, GIFT, end=False)
    services.remove_participant(session, bo.pk)  # a bot takes Bo's seat
    found = understanding.session_understanding(session)
    assert cell(found, "Bo", "measurement")["misconception"] == 1
    assert {m["seat"] for m in understanding.match_evidence(understanding.MatchRef.of(match))} == {1}


def test_each_move_is_judged_once_a_new_move_judges_only_itself(session, monkeypatch):
    game = type(get_game("quantum-tictactoe"))
    judged = []
    original = game.concept_evidence
    monkeypatch.setattr(game, "concept_evidence", lambda self, *a: judged.append(a[2]) or original(self, *a))
    ada, bo = services.join(session, "Ada", {}), services.join(session, "Bo", {})
    moves = actions_from_history(GIFT.split())
    match = play(session, ada, bo, " ".join(GIFT.split()[:5]), end=False)
    seating = understanding.session_seating(session)
    first = understanding.compact(seating)
    measurement = [c["key"] for c in first["concepts"]].index("measurement")
    assert all(row["cells"][measurement] == [0, 0, False] for row in first["students"])  # no cycle yet
    assert len(judged) == 5
    understanding.compact(seating)  # again: nothing judged again
    assert len(judged) == 5
    match_services.submit_action(match.pk, 1, 5, moves[5][1])
    match.refresh_from_db()
    grid = understanding.live_compact(seating, [understanding.MatchRef.of(match)])
    assert judged[5:] == [moves[5][1]]  # the new move only, from the state before it
    bo_row = next(r for r in grid["students"] if r["name"] == "Bo")
    concepts = [c["key"] for c in grid["concepts"]]
    assert bo_row["cells"][concepts.index("measurement")] == [0, 1, True]  # and he may need help


def test_the_dashboard_payload_carries_the_compact_grid(lesson):
    grid = selectors.dashboard_payload(lesson["session"])["understanding"]
    concepts = [c["key"] for c in grid["concepts"]]
    rows = {r["name"]: r["cells"][concepts.index("measurement")] for r in grid["students"]}
    assert rows == {"Ada": [0, 1, True], "Bo": [1, 1, False], "Cy": [1, 0, False], "Di": [0, 1, True]}


# --- the teacher's pages --------------------------------------------------------------------

@pytest.fixture
def teacher_client(client, teacher_user):
    client.force_login(teacher_user)
    return client


def test_the_report_shows_the_grid_each_cell_opening_its_moves_with_links_to_the_replay_step(lesson, teacher_client):
    page = teacher_client.get(reverse("classrooms:report", args=[lesson["session"].pk])).content.decode()
    third = lesson["matches"][2]
    assert 'id="evidence-grid"' in page
    assert "not a grade" in page
    assert "<details class=\"ev-cell\">" in page
    assert f'href="/matches/{third.pk}/replay/?step=6"' in page
    assert 'id="need-help"' in page and 'data-concept="measurement"' in page
    assert 'id="common-misconception" data-code="cycle_gift"' in page


def test_another_teacher_and_a_student_get_nothing(lesson):
    other = User.objects.create_user("ms-meitner", password="fission-1938-Lise")
    outsider = Client()
    outsider.force_login(other)
    student = Client()
    services.join(lesson["session"], "Eve", student.session)
    pk = lesson["session"].pk
    for url in (reverse("classrooms:report", args=[pk]) + "?format=evidence-csv",
                reverse("classrooms:report", args=[pk]) + "?format=evidence-json",
                reverse("classrooms:report-print", args=[pk]), reverse("classrooms:debrief", args=[pk]),
                reverse("classrooms:debrief", args=[pk]) + "?moment=1&names=1"):
        assert outsider.get(url).status_code == 404
        answer = student.get(url)
        assert answer.status_code == 302 and "/login" in answer["Location"]
        assert b"cycle" not in answer.content


def test_the_evidence_csv_has_translated_headers_safe_cells_and_every_move(lesson, teacher_client):
    """Like the other exports: a UTF-8 BOM, the headers in the reader's language and, in Spanish,
    ";" between cells (a Spanish spreadsheet's decimal mark is the comma)."""
    pk = lesson["session"].pk
    answer = teacher_client.get(reverse("classrooms:report", args=[pk]) + "?format=evidence-csv",
                                HTTP_ACCEPT_LANGUAGE="es")
    text = answer.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows[0][0] == "Alumno" and "Concepto" in rows[0]
    # the five measurement moves, and Bo's and Cy's spooky marks that linked two entangled groups
    assert len(rows) - 1 == len(understanding.session_understanding(lesson["session"])["moves"]) == 8
    ada = [r for r in rows[1:] if r[0] == "Ada"]
    assert ada[0][3] == "medición" and ada[0][4] == "idea equivocada"
    assert ada[0][6].endswith(f"/matches/{lesson['matches'][2].pk}/replay/?step=6")


def test_a_name_that_reads_as_a_formula_is_made_safe_in_the_csv(session, teacher_client):
    ada, bo = services.join(session, "=HYPERLINK(1)", {}), services.join(session, "Bo", {})
    play(session, bo, ada, GIFT)
    answer = teacher_client.get(reverse("classrooms:report", args=[session.pk]) + "?format=evidence-csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[1][0] == "'=HYPERLINK(1)"


def test_the_evidence_json_has_plain_keys_and_texts(lesson, teacher_client):
    answer = teacher_client.get(reverse("classrooms:report", args=[lesson["session"].pk]) + "?format=evidence-json")
    data = json.loads(answer.content)
    assert "not a grade" in data["note"]
    assert {(e["student"], e["concept"], e["kind"], e["code"]) for e in data["evidence"]} == {
        ("Bo", "measurement", "misconception", "cycle_gift"), ("Di", "measurement", "misconception", "cycle_gift"),
        ("Cy", "measurement", "shows", "collapse_for_me"), ("Ada", "measurement", "misconception", "cycle_gift"),
        ("Bo", "measurement", "shows", "collapse_for_me"), ("Bo", "entanglement", "shows", "links_groups"),
        ("Cy", "entanglement", "shows", "links_groups")}


def test_the_printed_report_is_one_a4_page_without_disclosures(lesson, teacher_client):
    page = teacher_client.get(reverse("classrooms:report-print", args=[lesson["session"].pk])).content.decode()
    assert 'id="evidence-grid"' in page and "<details" not in page
    assert "understanding.css" in page
    css = (understanding.__file__.rsplit("/classrooms/", 1)[0] + "/static/css/understanding.css")
    assert "size: A4" in open(css).read()


def test_deleting_a_member_deletes_their_evidence(session, teacher_client, classroom):
    cards.set_cards_enabled(classroom, True)
    (member,) = cards.add_members(classroom, "Zoe")
    zoe = cards.join_with_card(session, member.card_code, {})
    bo = services.join(session, "Bo", {})
    play(session, bo, zoe, GIFT)  # Zoe: cycle_gift
    assert [h["name"] for h in understanding.session_understanding(session)["need_help"]] == ["Zoe"]
    cards.delete_member(ClassMember.objects.get(pk=member.pk))
    found = understanding.session_understanding(session)
    assert found["grid"] == [] and found["need_help"] == [] and found["common"] is None
    csv_text = teacher_client.get(reverse("classrooms:report", args=[session.pk]) + "?format=evidence-csv").content
    assert b"Zoe" not in csv_text and len(csv_text.decode().strip().splitlines()) == 1


# --- the projector's debrief ----------------------------------------------------------------

def test_the_debrief_names_nobody_unless_the_teacher_chooses_and_replays_before_and_after(lesson, teacher_client):
    url = reverse("classrooms:debrief", args=[lesson["session"].pk])
    moments = understanding.debrief(lesson["session"])
    assert 1 <= len(moments) <= understanding.DEBRIEF_MOMENTS
    assert (moments[0]["kind"], moments[0]["code"]) == ("misconception", "cycle_gift")  # the most shared first
    page = teacher_client.get(url).content.decode()
    assert 'id="debrief-moments"' in page
    for name in ("Ada", "Bo", "Cy", "Di"):
        assert f"<strong>{name}</strong>" not in page
    named = teacher_client.get(url + "?names=1").content.decode()
    assert f"<strong>{moments[0]['name']}</strong>" in named
    replay = teacher_client.get(url + "?moment=1")
    frames = replay.context["frames"]
    seq = moments[0]["seq"]
    assert [f["seq"] for f in frames][-2:] == [seq, seq + 1]  # the state before the move, then after it
    assert {s["name"] for s in replay.context["seats"]} == {"Player 1", "Player 2"}
    assert f'"moment": {seq}' in replay.content.decode()


# --- over weeks -----------------------------------------------------------------------------

def test_a_members_progress_lists_their_evidence_per_concept_and_the_class_per_week(session, classroom, teacher_client):
    cards.set_cards_enabled(classroom, True)
    (member,) = cards.add_members(classroom, "Zoe")
    zoe = cards.join_with_card(session, member.card_code, {})
    bo = services.join(session, "Bo", {})
    match = play(session, bo, zoe, GIFT)
    moves = understanding.members_evidence([zoe])
    assert [(m["code"], m["member"]) for m in moves] == [("links_groups", member.pk), ("cycle_gift", member.pk)]
    weeks = understanding.weekly_grid(moves, progress._week_of)
    measurement = next(c for c in weeks[0]["cells"] if c["concept"] == "measurement")
    assert (measurement["misconception"], measurement["members"]) == (1, 1)
    page = teacher_client.get(reverse("classrooms:member-progress", args=[classroom.pk, member.pk])).content.decode()
    assert 'id="member-evidence"' in page and f"/matches/{match.pk}/replay/?step=6" in page
    page = teacher_client.get(reverse("classrooms:class-progress", args=[classroom.pk])).content.decode()
    assert 'id="progress-concepts"' in page and 'data-misconception="1"' in page

"""Homework (self-paced): the completion rule, "done by two students and missed by one" through
the views with real bot games, the assign form's and the card's bad input, the teacher's
ownership, and a member's data rights (deletion, retention) over their homework."""
from __future__ import annotations

import datetime
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classrooms import cards, homework, services
from classrooms.models import Assignment, ClassMember, ClassSession, Exercise, Participant
from classrooms.retention import purge_expired
from games import services as match_services
from games.bots import get_bot
from games.engines import get_game
from games.models import Action, Match, Seat
from games.selectors import current_state

# committed transactions: the match state cache is written on commit (as in tests/test_progress.py)
pytestmark = pytest.mark.django_db(transaction=True)

DAY = datetime.timedelta(days=1)


@pytest.fixture
def carded(classroom):
    cards.set_cards_enabled(classroom, True)
    return classroom


@pytest.fixture
def teacher_client(teacher_user):
    client = Client()
    client.force_login(teacher_user)
    return client


def _assign(teacher_client, classroom, **fields) -> Assignment:
    due = (timezone.localtime() + 2 * DAY).strftime("%Y-%m-%dT%H:%M")
    data = {"source": "game:quantum-tictactoe:basic", "bot_level": "random", "games_required": "2",
            "due_at": due} | fields
    before = Assignment.objects.count()
    response = teacher_client.post(reverse("classrooms:assignment-new", args=[classroom.pk]), data)
    assert response.status_code == 302 and Assignment.objects.count() == before + 1
    return Assignment.objects.latest("id")


def _student(member: ClassMember) -> Client:
    """A student's browser that opened homework with the member's card."""
    client = Client()
    response = client.post(reverse("classrooms:homework"), {"card": member.card_code.lower().replace("-", " ")})
    assert response.status_code == 302
    return client


def _play_one(client: Client, assignment: Assignment, seed: int, level: str = "random") -> Match:
    """The student presses "Start a game" and plays their seat (as their browser would: only
    their own seat; the bots answer on the server) until the game is over."""
    response = client.post(reverse("classrooms:homework-play", args=[assignment.pk]))
    assert response.status_code == 302
    match_id = int(response.url.rstrip("/").split("/")[-1])
    assert response.url == reverse("games:play", args=[match_id])
    assert client.get(response.url).status_code == 200  # the student's own seat
    match = Match.objects.get(pk=match_id)
    seat = Seat.objects.get(match=match, participant_id__isnull=False)
    assert Seat.objects.filter(match=match, bot=assignment.bot_level).count() == len(match.seats.all()) - 1
    game, bot, rng = get_game(match.game), get_bot(match.game, level), random.Random(seed)
    for _ in range(300):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        state = current_state(match)
        assert game.to_act(state) == [seat.index]  # the bots moved already: the student's turn
        action = bot.choose(game.view(state, seat.index), game.legal_actions(state, seat.index), rng)
        match_services.submit_action(match.pk, seat.index, match.seq, action)
    raise AssertionError("the game did not end")


def _row(report, member):
    return next(r for r in report if r["member"].pk == member.pk)


# --- the completion rule ---------------------------------------------------------------------

def _game(result: str, when: datetime.datetime) -> dict:
    return {"result": result, "date": when}


def test_the_completion_rule_with_a_fixed_now(carded):
    now = timezone.now()
    due = now + DAY
    exercise = Assignment(kind=Assignment.Kind.EXERCISE, games_required=1, due_at=due)
    games = Assignment(kind=Assignment.Kind.GAME, games_required=3, due_at=due)
    before, after = due - datetime.timedelta(hours=1), due + datetime.timedelta(hours=1)
    # an exercise: won once by the due date = done; lost or drawn only = not yet, then missed
    assert homework.completion(exercise, [_game("lost", before), _game("won", before)], now)["state"] == "done"
    lost = [_game("lost", before), _game("drawn", before)]
    assert homework.completion(exercise, lost, now)["state"] == "not_yet"
    assert homework.completion(exercise, lost, due + DAY)["state"] == "missed"
    assert homework.completion(exercise, [], now)["state"] == "not_yet"
    # won only after the due date: late, not done
    late = homework.completion(exercise, [_game("won", after)], due + DAY)
    assert (late["state"], late["late"], late["count"]) == ("missed", 1, 0)
    # games: N finished games by the due date (any result)
    two = [_game("lost", before), _game("won", before)]
    assert homework.completion(games, two, now)["state"] == "not_yet"
    assert homework.completion(games, two, now)["count"] == 2
    three = [*two, _game("drawn", before)]
    done = homework.completion(games, three, due + DAY)
    assert (done["state"], done["count"], done["required"], done["won"], done["drawn"], done["lost"]) == \
        ("done", 3, 3, 1, 1, 1)
    # the third game finished after the due date: missed, one game late
    missed = homework.completion(games, [*two, _game("won", after)], due + DAY)
    assert (missed["state"], missed["count"], missed["late"]) == ("missed", 2, 1)
    # a game exactly at the due date is in time
    assert homework.completion(games, [*two, _game("lost", due)], due + DAY)["state"] == "done"


# --- end to end through the views ------------------------------------------------------------

def test_homework_done_by_two_students_and_missed_by_one(carded, teacher_client):
    ada, bo, cy = cards.add_members(carded, "Ada\nBo\nCy")
    assignment = _assign(teacher_client, carded, title="Two games against the bot")
    assert (assignment.kind, assignment.games_required, assignment.bot_level) == ("game", 2, "random")
    assert assignment.session.format == ClassSession.Format.HOMEWORK
    # its join code opens nothing (only the cards do) and is shown nowhere: its dashboard and
    # screen are the assignment's page
    assert services.find_joinable(assignment.session.join_code) is None
    assert Client().post(reverse("classrooms:join"), {"code": assignment.session.join_code, "name": "Eve"}
                         ).status_code == 404
    for name in ("classrooms:dashboard", "classrooms:screen"):
        response = teacher_client.get(reverse(name, args=[assignment.session_id]))
        assert response.url == reverse("classrooms:assignment", args=[carded.pk, assignment.pk])
    assert assignment.session.join_code not in teacher_client.get(
        reverse("classrooms:classroom", args=[carded.pk])).content.decode()
    students = {m.nickname: _student(m) for m in (ada, bo, cy)}
    page = students["Ada"].get(reverse("classrooms:homework")).content.decode()
    assert "Two games against the bot" in page and 'data-state="not_yet"' in page
    for seed, name in enumerate(["Ada", "Ada", "Bo", "Bo", "Cy"]):
        assert _play_one(students[name], assignment, seed).status == Match.Status.FINISHED
    # a student acts only for their own seat: Bo's browser cannot open Ada's game
    ada_match = Match.objects.filter(seats__participant_id__in=Participant.objects.filter(member=ada)).first()
    assert students["Bo"].get(reverse("games:play", args=[ada_match.pk])).status_code == 404
    page = students["Cy"].get(reverse("classrooms:homework")).content.decode()
    assert 'data-state="not_yet"' in page and "games 1/2" in page
    url = reverse("classrooms:assignment", args=[carded.pk, assignment.pk])
    html = teacher_client.get(url).content.decode()
    assert 'data-state="done"' in html and html.count('data-state="done"') == 2 and 'data-state="not_yet"' in html
    # the due date passes (clock moved past it): Cy missed it; a game Cy plays now is late
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now())
    _play_one(students["Cy"], assignment, 9)
    report = homework.class_report(Assignment.objects.get(pk=assignment.pk))
    assert [(r["member"].nickname, r["state"], r["count"], r["played"], r["late"]) for r in report] == [
        ("Ada", "done", 2, 2, 0), ("Bo", "done", 2, 2, 0), ("Cy", "missed", 1, 2, 1)]
    html = teacher_client.get(url).content.decode()
    assert html.count('data-state="done"') == 2 and html.count('data-state="missed"') == 1
    for r in report:  # every game with its replay link, results W/D/L
        assert r["won"] + r["drawn"] + r["lost"] == r["played"]
        for g in r["games"]:
            assert f'data-replay="{g["match"]}"' in html
    # the student's page says it too, and the replay opens for them
    page = students["Cy"].get(reverse("classrooms:homework")).content.decode()
    assert 'data-state="missed"' in page
    assert students["Cy"].get(report[2]["games"][0]["replay_url"]).status_code == 200


def test_an_exercise_is_done_only_once_won(carded, teacher_client):
    (ada,) = cards.add_members(carded, "Ada")
    assignment = _assign(teacher_client, carded, source="example:2.3.1", bot_level="random")
    assert assignment.kind == "exercise" and assignment.games_required == 1
    assert Exercise.objects.filter(classroom=carded, pk=assignment.exercise_id).exists()
    assert assignment.session.exercise_id == assignment.exercise_id
    student = _student(ada)
    results = []
    for seed in range(20):
        match = _play_one(student, assignment, seed, level="strong")
        seat = Seat.objects.get(match=match, participant_id__isnull=False)
        results.append("won" if seat.index in match.outcome["winners"] else "not won")
        state = _row(homework.class_report(assignment), ada)["state"]
        assert state == ("done" if "won" in results else "not_yet")
        if "won" in results and "not won" in results:
            break
    assert "won" in results and "not won" in results, results


def test_starting_again_continues_the_game_in_progress(carded, teacher_client):
    (ada,) = cards.add_members(carded, "Ada")
    assignment = _assign(teacher_client, carded)
    student = _student(ada)
    first = student.post(reverse("classrooms:homework-play", args=[assignment.pk])).url
    assert "Continue the game" in student.get(reverse("classrooms:homework")).content.decode()
    assert student.post(reverse("classrooms:homework-play", args=[assignment.pk])).url == first
    # the session's lobby (a link of the match page) is the homework page
    assert student.get(reverse("classrooms:lobby", args=[assignment.session_id])).url == reverse("classrooms:homework")
    assert assignment.session.tables.count() == 1


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("fields, message", [
    ({"due_at": "2001-01-01T10:00"}, "The due date must be in the future."),
    ({"due_at": "tomorrow"}, "Give a due date and time."),
    ({"due_at": ""}, "Give a due date and time."),
    ({"games_required": "0"}, "The number of games must be a whole number from 1 to 10."),
    ({"games_required": "11"}, "The number of games must be a whole number from 1 to 10."),
    ({"games_required": "two"}, "The number of games must be a whole number from 1 to 10."),
    ({"source": "game:chess:basic"}, "Choose an exercise or a game to assign."),
    ({"source": "game:qtris:nope"}, "Choose an exercise or a game to assign."),
    ({"source": "exercise:999999"}, "Choose an exercise or a game to assign."),
    ({"source": "example:9.9.9"}, "Choose an exercise or a game to assign."),
    ({"source": ""}, "Choose an exercise or a game to assign."),
    ({"bot_level": "godlike"}, "No bot called"),
    ({"title": "x" * 81}, "The name is too long"),
])
def test_a_bad_assignment_is_refused_with_a_clear_message_and_nothing_made(carded, teacher_client, fields, message):
    due = (timezone.localtime() + DAY).strftime("%Y-%m-%dT%H:%M")
    data = {"source": "game:quantum-tictactoe:basic", "games_required": "3", "due_at": due} | fields
    sessions = ClassSession.objects.count()
    response = teacher_client.post(reverse("classrooms:assignment-new", args=[carded.pk]), data, follow=True)
    assert response.status_code == 200 and message in response.content.decode()
    assert Assignment.objects.count() == 0 and ClassSession.objects.count() == sessions
    assert Exercise.objects.count() == 0


def test_another_classs_exercise_cannot_be_assigned(carded, teacher_client, teacher_user):
    from classrooms import exercises
    from classrooms.models import Classroom
    other = Classroom.objects.create(teacher=teacher_user, name="9B")
    theirs = exercises.create_exercise(other, "Theirs", "qtris", "basic", exercises.EXAMPLES[1]["options"])
    with pytest.raises(Exception) as info:
        homework.create_assignment(carded, f"exercise:{theirs.pk}", due_at=timezone.now() + DAY)
    assert getattr(info.value, "code", "") == "bad_source"


def test_a_wrong_or_replaced_card_is_refused_and_nothing_changes(carded, teacher_client):
    (ada,) = cards.add_members(carded, "Ada")
    assignment = _assign(teacher_client, carded)
    old = ada.card_code
    cards.reissue(ada)
    for typed in ("ZZZZ-ZZZZ", old, "", "x" * 500):
        client = Client()
        response = client.post(reverse("classrooms:homework"), {"card": typed})
        assert response.status_code == 403 and "This card code is not valid" in response.content.decode()
        assert client.post(reverse("classrooms:homework-play", args=[assignment.pk])).status_code == 302
        assert homework.BROWSER_CARD_KEY not in client.session
    assert Participant.objects.count() == 0 and assignment.session.tables.count() == 0
    # a browser that opened homework with the card before it was re-issued is asked again
    client = _student(ada)
    cards.reissue(ada)
    page = client.get(reverse("classrooms:homework")).content.decode()
    assert 'name="card"' in page and assignment.title not in page
    client.post(reverse("classrooms:homework-play", args=[assignment.pk]))
    assert assignment.session.tables.count() == 0


def test_a_student_cannot_start_another_classs_homework(carded, teacher_client, teacher_user):
    from classrooms.models import Classroom
    other = Classroom.objects.create(teacher=teacher_user, name="9B", cards_enabled=True)
    (zed,) = cards.add_members(other, "Zed")
    (ada,) = cards.add_members(carded, "Ada")
    assignment = _assign(teacher_client, carded)
    assert _student(zed).post(reverse("classrooms:homework-play", args=[assignment.pk])).status_code == 404
    assert Participant.objects.count() == 0
    assert assignment.title not in _student(zed).get(reverse("classrooms:homework")).content.decode()
    assert assignment.title in _student(ada).get(reverse("classrooms:homework")).content.decode()


def test_homework_pages_are_the_owning_teachers_only(carded, teacher_client, django_user_model):
    assignment = _assign(teacher_client, carded)
    intruder = Client()
    intruder.force_login(django_user_model.objects.create_user("eve", password="x-Very-long-1"))
    due = (timezone.localtime() + DAY).strftime("%Y-%m-%dT%H:%M")
    assert intruder.get(reverse("classrooms:assignment", args=[carded.pk, assignment.pk])).status_code == 404
    assert intruder.post(reverse("classrooms:assignment-delete", args=[carded.pk, assignment.pk])).status_code == 404
    assert intruder.post(reverse("classrooms:assignment-new", args=[carded.pk]),
                         {"source": "game:qtris:basic", "due_at": due}).status_code == 404
    assert Client().get(reverse("classrooms:assignment", args=[carded.pk, assignment.pk])).status_code == 302
    assert Assignment.objects.count() == 1
    assert teacher_client.post(reverse("classrooms:assignment-delete", args=[carded.pk, assignment.pk])).status_code == 302
    assert not Assignment.objects.exists() and not ClassSession.objects.filter(pk=assignment.session_id).exists()


# --- data rights -------------------------------------------------------------------------------

def test_deleting_a_member_deletes_their_homework_data(carded, teacher_client):
    ada, bo = cards.add_members(carded, "Ada\nBo")
    assignment = _assign(teacher_client, carded)
    ada_browser = _student(ada)
    finished = _play_one(ada_browser, assignment, 1)
    ada_browser.post(reverse("classrooms:homework-play", args=[assignment.pk]))  # a game in progress too
    _play_one(_student(bo), assignment, 2)
    ids = set(Participant.objects.filter(member=ada).values_list("pk", flat=True))
    assert ids
    teacher_client.post(reverse("classrooms:member-delete", args=[carded.pk, ada.pk]))
    assert not ClassMember.objects.filter(pk=ada.pk).exists()
    assert not Participant.objects.filter(pk__in=ids).exists()
    assert not Seat.objects.filter(participant_id__in=ids).exists()
    assert not Seat.objects.filter(former_participant_id__in=ids).exists()
    assert not Seat.objects.filter(name="Ada").exists()
    assert not any("Ada" in str(a.events) for a in Action.objects.filter(match=finished))
    report = homework.class_report(assignment)
    assert [r["member"].nickname for r in report] == ["Bo"] and report[0]["played"] == 1
    # her browser no longer opens homework
    assert 'name="card"' in ada_browser.get(reverse("classrooms:homework")).content.decode()


def test_retention_purges_inactive_members_homework_and_long_overdue_assignments(carded, teacher_client, settings):
    settings.RETENTION_DAYS = 30
    ada, bo = cards.add_members(carded, "Ada\nBo")
    old = _assign(teacher_client, carded, title="Old")
    recent = _assign(teacher_client, carded, title="Recent")
    _play_one(_student(ada), old, 1)
    _play_one(_student(bo), recent, 2)
    now = timezone.now()
    purge_at = now + datetime.timedelta(days=30, hours=12)  # the purge runs a month later: cutoff now + 12 h
    Assignment.objects.filter(pk=old.pk).update(due_at=now - datetime.timedelta(hours=1))  # overdue > 30 days
    ClassMember.objects.filter(pk=ada.pk).update(last_seen_at=now - datetime.timedelta(days=1))  # idle > 30 days
    ClassMember.objects.filter(pk=bo.pk).update(last_seen_at=now + DAY)  # Bo played again later
    done = purge_expired(purge_at)
    assert done["assignments"] == 1 and done["class_members"] == 1
    assert list(Assignment.objects.values_list("title", flat=True)) == ["Recent"]
    assert not ClassSession.objects.filter(pk=old.session_id).exists()
    assert not Match.objects.filter(table__session_id=old.session_id).exists()
    assert list(ClassMember.objects.values_list("nickname", flat=True)) == ["Bo"]
    assert set(Participant.objects.values_list("member__nickname", flat=True)) == {"Bo"}

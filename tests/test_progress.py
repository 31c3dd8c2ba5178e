"""A class member's progress over weeks: two sessions a week apart (the first session's rows moved
a week back in the database: created_at, joined_at, started_at/finished_at), results, points and
QTris luck as the standings count them, exercises solved, the CSV (formula-safe), access and the
plots in the reader's language."""
from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.formats import date_format

from classrooms import cards, exercises, progress, services
from classrooms.models import ClassMember, ClassSession, Participant
from classrooms.standings import session_standings
from games.models import Match
from tests.support.rounds import play_out

# committed transactions: the match state cache is written on commit (as in tests/test_rounds.py)
pytestmark = pytest.mark.django_db(transaction=True)

WEEK = datetime.timedelta(days=7)


def _member(classroom, nickname: str) -> ClassMember:
    """A class member with a card, added as the teacher adds them (class cards turned on)."""
    cards.set_cards_enabled(classroom, True)
    return cards.add_members(classroom, nickname)[0]


def _play_session(session, players: list[str | ClassMember], seed: int) -> Match:
    """The players join (a member with their card, a guest by name) and play out their table."""
    seated = [cards.join_with_card(session, p.card_code, {}) if isinstance(p, ClassMember)
              else services.join(session, p, {}) for p in players]
    services.seat_table(session, seated, in_order=True)  # in this order: a deterministic game
    Match.objects.filter(table__session=session).update(seed=seed)  # and the same deal every run
    services.start_all(session)
    match = Match.objects.get(table__session=session)
    return play_out(match.pk, seed=seed)


def _move_back(session, delta):
    """The session happened ``delta`` earlier: its rows' timestamps moved back."""
    s = ClassSession.objects.get(pk=session.pk)
    ClassSession.objects.filter(pk=s.pk).update(created_at=s.created_at - delta)
    for p in Participant.objects.filter(session=s):
        Participant.objects.filter(pk=p.pk).update(joined_at=p.joined_at - delta)
    for m in Match.objects.filter(table__session=s):
        Match.objects.filter(pk=m.pk).update(created_at=m.created_at - delta, started_at=m.started_at - delta,
                                             finished_at=m.finished_at - delta)


@pytest.fixture
def two_weeks(classroom):
    """Ada (a member) plays QTris with Bo a week ago, then an exercise session with Cy today."""
    ada = _member(classroom, "Ada")
    first = services.open_session(classroom, "qtris")
    qtris = _play_session(first, [ada, "Bo"], seed=1)  # Bo wins, 2 lines to 0
    _move_back(first, WEEK)
    exercise = exercises.create_exercise(classroom, "2.3.1", "qtris", "basic", exercises.EXAMPLES[1]["options"])
    second = exercises.open_session_from(exercise)
    puzzle = _play_session(second, [ada, "Cy"], seed=2)  # Ada wins the puzzle
    return {"ada": ada, "first": first, "second": second, "qtris": qtris, "puzzle": puzzle, "exercise": exercise}


@pytest.fixture
def client_in(client, teacher_user):
    client.force_login(teacher_user)
    return client


def _standing(session, name):
    return next(r for r in session_standings(session)["students"] if r["name"] == name)


def test_the_progress_shows_both_sessions_a_week_apart_with_the_standings_results_and_luck(two_weeks, classroom):
    # a guest who joins by name as "Ada" (no card) is somebody else: not in the member's progress
    _play_session(services.open_session(classroom, "quantum-tictactoe"), ["Ada", "Bo"], seed=3)
    data = progress.member_progress(two_weeks["ada"])
    games = data["games"]
    assert [g["session"] for g in games] == [two_weeks["first"].pk, two_weeks["second"].pk]
    assert games[1]["week"] - games[0]["week"] == datetime.timedelta(days=7)
    assert games[1]["date"] - games[0]["date"] > datetime.timedelta(days=6)
    assert games[0]["opponents"] == ["Bo"] and games[1]["opponents"] == ["Cy"]
    for g, session, name in ((games[0], two_weeks["first"], "Ada"), (games[1], two_weeks["second"], "Ada")):
        row = _standing(session, name)  # the standings' own points, result and luck
        assert g["points"] == row["points"]
        assert {"won": row["won"], "drawn": row["drawn"], "lost": row["lost"]}[g["result"]] == 1
        assert g["luck"] == pytest.approx(row["luck"], abs=1e-3) and g["luck"] is not None
        assert g["replay_url"] == reverse("games:replay", args=[g["match"]])
    totals = data["totals"]
    assert totals["played"] == 2 and totals["sessions"] == 2
    assert totals["points"] == pytest.approx(games[0]["points"] + games[1]["points"])
    assert totals["luck"] == pytest.approx(games[0]["luck"] + games[1]["luck"], abs=1e-3)
    assert totals["won"] + totals["drawn"] + totals["lost"] == 2
    assert [g["result"] for g in games] == ["lost", "won"] and [g["points"] for g in games] == [0.0, 1.0]
    assert (totals["won"], totals["drawn"], totals["lost"]) == (1, 0, 1)
    # she won the game of the session opened from the exercise: solved
    assert games[1]["exercise"] == two_weeks["exercise"].pk and games[0]["exercise"] is None
    assert games[1]["solved"] and not games[0]["solved"]
    assert totals["exercises_solved"] == 1 and data["exercises"] == [two_weeks["exercise"].name]
    assert [w["played"] for w in data["weeks"]] == [1, 1]


def test_an_exercise_session_remembers_its_exercise_and_forgets_it_when_deleted(classroom):
    exercise = exercises.create_exercise(classroom, "2.3.1", "qtris", "basic", exercises.EXAMPLES[1]["options"])
    session = exercises.open_session_from(exercise)
    assert ClassSession.objects.get(pk=session.pk).exercise == exercise
    exercise.delete()
    assert ClassSession.objects.get(pk=session.pk).exercise is None


def test_solved_counts_each_exercise_once_and_only_wins():
    row = {"result": "won", "points": 1.0, "luck": None, "exercise": 7, "solved": True, "session": 1, "member": 1}
    rows = [row, {**row, "session": 2}, {**row, "exercise": 8, "result": "lost", "points": 0.0, "solved": False},
            {**row, "exercise": None, "solved": False}]
    totals = progress.totals(rows)
    assert totals["exercises_solved"] == 1 and totals["won"] == 3 and totals["lost"] == 1
    assert totals["luck"] is None and totals["points"] == 3.0


def test_the_pages_show_both_sessions_and_link_every_replay(two_weeks, client_in, classroom):
    ada = two_weeks["ada"]
    page = client_in.get(reverse("classrooms:member-progress", args=[classroom.pk, ada.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for match in (two_weeks["qtris"], two_weeks["puzzle"]):
        assert f'href="{reverse("games:replay", args=[match.pk])}"' in html
    assert html.index(f'data-match="{two_weeks["puzzle"].pk}"') < html.index(f'data-match="{two_weeks["qtris"].pk}"')
    assert "<svg" in html and "2.3.1" in html

    klass = client_in.get(reverse("classrooms:class-progress", args=[classroom.pk]))
    assert klass.status_code == 200
    text = klass.content.decode()
    assert f'href="{reverse("classrooms:member-progress", args=[classroom.pk, ada.pk])}"' in text
    assert text.count('<th scope="row">', text.index('id="progress-weeks"')) == 2  # two weeks
    assert "<svg" in text
    home = client_in.get(reverse("classrooms:classroom", args=[classroom.pk])).content.decode()
    assert reverse("classrooms:class-progress", args=[classroom.pk]) in home
    assert reverse("classrooms:member-progress", args=[classroom.pk, ada.pk]) in home


def _csv_rows(response):
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # a UTF-8 BOM: a spreadsheet reads the names as UTF-8
    return list(csv.reader(io.StringIO(text[1:])))


def test_csv_has_every_game_row_and_is_formula_safe(two_weeks, client_in, classroom):
    ada = two_weeks["ada"]
    ClassMember.objects.filter(pk=ada.pk).update(nickname="=HYPERLINK(\"x\")")
    Participant.objects.filter(display_name="Bo").update(display_name="@SUM(A1)")
    two_weeks["qtris"].seats.filter(name="Bo").update(name="@SUM(A1)")
    rows = _csv_rows(client_in.get(reverse("classrooms:class-progress", args=[classroom.pk]) + "?format=csv"))
    header, body = rows[0], rows[1:]
    assert header == progress_views_header()
    assert len(body) == 2
    col = {name: i for i, name in enumerate(header)}
    assert [r[col["session"]] for r in body] == [str(two_weeks["first"].pk), str(two_weeks["second"].pk)]
    assert all(r[col["member"]] == "'=HYPERLINK(\"x\")" for r in body)
    assert body[0][col["opponents"]] == "'@SUM(A1)"
    assert body[0][col["replay"]].endswith(reverse("games:replay", args=[two_weeks["qtris"].pk]))
    luck = float(body[0][col["luck"]])  # a negative luck stays a number (no apostrophe)
    assert luck < 0 and luck == pytest.approx(progress.member_progress(ada)["games"][0]["luck"])
    one = _csv_rows(client_in.get(reverse("classrooms:member-progress", args=[classroom.pk, ada.pk]) + "?format=csv"))
    assert len(one) == 3 and one[0] == header


def progress_views_header():
    from classrooms.progress_views import CSV_HEADER

    return CSV_HEADER


def test_access_owner_only(two_weeks, client, classroom):
    ada = two_weeks["ada"]
    urls = [reverse("classrooms:class-progress", args=[classroom.pk]),
            reverse("classrooms:member-progress", args=[classroom.pk, ada.pk])]
    for url in urls:  # anonymous: to the login page
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
        assert client.get(url + "?format=csv").status_code == 302
    # a student who joined a session of the class (their browser's session) is refused the same way
    session = ClassSession.objects.get(pk=two_weeks["second"].pk)
    joined = client.post(reverse("classrooms:join"), {"code": session.join_code, "name": "Dee"})
    assert joined.status_code == 302 and Participant.objects.filter(session=session, display_name="Dee").exists()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
    other = User.objects.create_user("mr-heisenberg", password="uncertainty-1927")
    client.force_login(other)
    for url in urls:
        assert client.get(url).status_code == 404
        assert client.get(url + "?format=csv").status_code == 404
    # a member of another class under this class's URL: 404 for its owner too
    client.force_login(classroom.teacher)
    from classrooms.models import Classroom

    elsewhere = Classroom.objects.create(teacher=classroom.teacher, name="9B")
    assert client.get(reverse("classrooms:member-progress", args=[elsewhere.pk, ada.pk])).status_code == 404


@pytest.mark.parametrize("language", ["en", "es", "pl"])
def test_plots_are_svg_with_the_readers_language(two_weeks, client_in, classroom, language):
    """Drawn per request: the words (as <text>, ``svg.fonttype: none`` as in tests/test_i18n.py)
    and the dates along the axes are the reader's language's."""
    import matplotlib
    from django.utils import translation

    from tests.test_i18n import svg_texts

    ada = two_weeks["ada"]
    data = progress.member_progress(ada)
    urls = {"class": reverse("classrooms:class-progress", args=[classroom.pk]),
            "member": reverse("classrooms:member-progress", args=[classroom.pk, ada.pk])}
    with translation.override(language):
        expected = {"class": [translation.gettext("Games and points per week"), translation.gettext("games played"),
                              translation.gettext("points won"), translation.gettext("week of"),
                              date_format(data["weeks"][0]["week"], "SHORT_DATE_FORMAT")],
                    "member": [translation.gettext("Points and luck over time"),
                               translation.gettext("points (running total)"),
                               translation.gettext("QTris luck (running total)"),
                               date_format(data["games"][0]["date"], "SHORT_DATE_FORMAT")]}
    for key, url in urls.items():
        with matplotlib.rc_context({"svg.fonttype": "none"}):
            html = client_in.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<html lang="{language}">' in html
        plot = html[html.index('id="progress-plot"'):]
        assert plot.index("<svg") < plot.index("</svg>")
        words = svg_texts(plot[:plot.index("</svg>")])
        for word in expected[key]:
            assert word in words, (key, language, word, words)

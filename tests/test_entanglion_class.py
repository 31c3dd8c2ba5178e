"""Entanglion in a class session: the teacher's dashboard shows each table's components found,
detection rate and the ships' state; the session report ranks the tables by components found,
then by fewest turns (CSV too)."""
from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from classrooms import selectors, services
from classrooms.models import ClassSession
from games import services as match_services
from games.engines import get_game
from games.models import Match
from games.selectors import current_state
from tests.support.entanglion_tables import FIRST_GAME, OPENING, calm_seed

pytestmark = pytest.mark.django_db
GAME = get_game("entanglion")

# the same component, two turns later: both players exchange first
SLOW_OPENING = [(0, {"exchange": "X"}), (1, {"exchange": "X"}), *OPENING]


def join(code: str, name: str) -> None:
    response = Client().post(reverse("classrooms:join"), {"code": code, "name": name})
    assert response.status_code == 302


def play(match: Match, actions) -> None:
    for seq, (seat, action) in enumerate(actions):
        match_services.submit_action(match.pk, seat, seq, action)


@pytest.fixture
def entanglion_session(classroom):
    return services.open_session(classroom, "entanglion", variant="easy", options=FIRST_GAME)


def three_tables(session):
    for name in ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]:
        join(session.join_code, name)
    tables = services.auto_pair(session)
    assert [t.number for t in tables] == [1, 2, 3]
    seeds = {1: calm_seed(actions=SLOW_OPENING), 2: calm_seed(), 3: 7}
    for t in tables:
        Match.objects.filter(pk=t.match_id).update(seed=seeds[t.number])
    services.start_all(session)
    matches = {t.number: Match.objects.get(pk=t.match_id) for t in tables}
    play(matches[1], SLOW_OPENING)  # 1 component, turn 6
    play(matches[2], OPENING)       # 1 component, turn 4
    return matches                  # table 3: no move yet


def test_the_dashboard_card_shows_components_detection_and_the_ships(entanglion_session):
    three_tables(entanglion_session)
    cards = {t["number"]: t for t in selectors.dashboard_payload(entanglion_session)["tables"]}
    fast = cards[2]["summary"]
    assert fast["facts"]["components"] == 1 and fast["facts"]["detection_rate"] == 1
    assert fast["facts"]["ships"] == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}
    assert fast["facts"]["ket"] == "(|00⟩+|11⟩)/√2"
    assert "1 of 8 components" in fast["text"] and "detection rate 1" in fast["text"]
    assert "both ships on PHI PLUS" in fast["text"]
    assert fast["facts"]["turns"] == 4 and "turn 4" in fast["text"]
    assert cards[1]["summary"]["facts"]["turns"] == 6
    idle = cards[3]["summary"]
    assert idle["facts"]["components"] == 0
    assert idle["facts"]["ships"] == {"mercurial": "ZERO", "rubicon": "ZERO"}
    assert "Mercurial on ZERO, Rubicon on ZERO" in idle["text"]


def test_the_report_ranks_tables_by_components_then_turns(client, entanglion_session):
    three_tables(entanglion_session)
    client.force_login(entanglion_session.classroom.teacher)
    url = reverse("classrooms:report", args=[entanglion_session.pk])
    page = client.get(url).content.decode()
    assert "ranked by components found" in page
    rows = [page.index(f'<tr data-table="{n}">') for n in (2, 1, 3)]
    assert rows == sorted(rows), "table 2 (1 component, fewer turns) first, table 3 (none) last"
    assert "Ada" in page and " &amp; " in page  # partners, not opponents
    lines = list(csv.DictReader(io.StringIO(client.get(url + "?format=csv").content.decode("utf-8-sig"))))
    places = {(row["table"], row["place"]) for row in lines}
    assert places == {("2", "1"), ("1", "2"), ("3", "3")}
    assert all("components" in row["summary"] for row in lines)


def test_tables_with_the_same_components_and_turns_share_a_place():
    tables = [{"number": n, "summary": {"rank": rank}} for n, rank in ((1, [-1, 6]), (2, [-1, 6]), (3, [0, 1]))]
    ranked = selectors.ranked_tables(tables)
    assert [(t["number"], t["place"]) for t in ranked] == [(1, 1), (2, 1), (3, 3)]


def test_games_without_a_summary_keep_the_table_order(session):
    for name in ["Ada", "Bo", "Cy", "Di"]:
        join(session.join_code, name)
    services.auto_pair(session)
    tables = selectors.tables_summary(session)
    assert all(t["summary"] is None for t in tables)
    assert [t["number"] for t in selectors.ranked_tables(tables)] == [1, 2]
    assert all("place" not in t for t in tables)


def test_a_student_alone_plays_with_the_partner_bot(classroom):
    session = services.open_session(classroom, "entanglion", variant="easy")  # the default bot level
    assert session.bot_level == "partner"  # "strong" stands for the game's best bot
    join(session.join_code, "Solo")
    [table] = services.auto_pair(session)
    seats = list(table.match.seats.order_by("index"))
    assert sorted(bool(s.bot) for s in seats) == [False, True]
    bot_seat = next(s for s in seats if s.bot)
    assert bot_seat.bot == "partner" and "Bot" in bot_seat.name
    student = next(s.index for s in seats if not s.bot)
    services.start_all(session)
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.PLAYING
    for _ in range(3):  # the student plays; the bot answers at once in the same request
        state = current_state(match)
        assert GAME.to_act(state) == [student]
        action = GAME.legal_actions(state, student)[0]
        applied = match_services.submit_action(match.pk, student, match.seq, action)
        match.refresh_from_db()
        assert applied.seq == match.seq
        if match.status != Match.Status.PLAYING:
            break
        assert any(a.by_bot for a in match.actions.all()) or GAME.to_act(current_state(match)) == [student]
    assert match.actions.filter(by_bot=True).exists()


def test_an_unknown_bot_level_is_refused_and_random_is_offered(classroom):
    with pytest.raises(services.SessionError) as caught:
        services.open_session(classroom, "entanglion", bot_level="genius")
    assert caught.value.code == "bad_bot" and "partner" in caught.value.message
    assert services.open_session(classroom, "entanglion", bot_level="random").bot_level == "random"


def test_the_teacher_picks_entanglion_on_the_class_page_with_its_partner_bot(client, classroom):
    client.force_login(classroom.teacher)
    url = reverse("classrooms:classroom", args=[classroom.pk])
    page = client.get(url).content.decode()
    assert '<option value="entanglion">Entanglion</option>' in page and '"partner"' in page
    response = client.post(url, {"game": "entanglion", "variant": "hard", "table_size": 2,
                                 "bot_level": "strong", "show_odds": "on", "options": ""})
    assert response.status_code == 302
    session = ClassSession.objects.get()
    assert (session.game, session.variant, session.bot_level) == ("entanglion", "hard", "partner")
    bad = client.post(url, {"game": "entanglion", "variant": "easy", "table_size": 3, "bot_level": "partner",
                            "options": ""})
    assert bad.status_code == 200 and "seat 2 to 2" in bad.content.decode()
    assert ClassSession.objects.count() == 1

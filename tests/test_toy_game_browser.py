"""A sixth game plugs in with one registry line: the tests' toy coin (``tests/toygame``: an
engine, a bot and a board script, none of it in the app) is offered on the class page of a
server that registered it, a teacher opens a session of it, and a student plays a move in
Chromium on the toy's own board (loaded from where the registry says it is)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Action, Match
from tests import toygame
from tests.support.browser import log_in_teacher, student_joins
from tests.support.server import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture(scope="module")
def toy_server_process(django_db_setup, django_db_blocker):
    """A server whose settings register the toy coin (``tests/toygame/settings.py``)."""
    server = LiveServer(extra_env={"DJANGO_SETTINGS_MODULE": "tests.toygame.settings"})
    server.start()
    yield server
    server.stop()


@pytest.fixture
def toy_server(toy_server_process, transactional_db):
    with toygame.registered():  # this process reads the toy's matches too
        yield toy_server_process


def test_a_teacher_opens_a_toy_coin_session_and_a_student_plays_a_move(chromium, toy_server, teacher):
    server = toy_server
    page = log_in_teacher(chromium, server)
    page.fill("input[name=name]", "Coins 1")
    page.click("text=Create class")
    expect(page.locator("h1")).to_have_text("Coins 1")
    page.select_option("#id_game", toygame.SLUG)
    expect(page.locator("#id_bot_level")).to_have_value("random")  # the toy's one bot
    expect(page.locator("#ticket-options")).to_be_hidden()  # no session extension
    page.click("text=Open session")
    code = page.locator("[data-testid=join-code]").inner_text().strip()

    student = student_joins(chromium, server, code, "Ada")
    expect(page.locator("li.student")).to_have_count(1)
    page.click("button[data-cmd=auto_pair]")
    expect(page.locator(".table-card")).to_have_count(1)
    page.click("button[data-cmd=start_all]")

    expect(student.locator(".toy-coin")).to_be_visible(timeout=15_000)  # the toy's own board
    expect(student.locator("#turn")).to_contain_text("Your turn", timeout=15_000)
    match = Match.objects.get()
    assert match.game == toygame.SLUG
    mine = match.seats.get(participant_id__isnull=False).index
    student.click("button[data-call=heads]")
    # the student's call is on the board (the bot's, when it played first, is there already)
    expect(student.locator(".toy-call", has_text=f"{mine + 1}: heads")).to_be_visible()
    assert Action.objects.filter(match=match, seat=mine, action={"call": "heads"}, by_bot=False).exists()

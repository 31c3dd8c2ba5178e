"""The whole path of a class in a real browser: a teacher opens a session, two students join by
code in their own browsers, play Quantum tic-tac-toe to a result and open the replay."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.support.browser import shot, student_joins

pytestmark = [pytest.mark.browser, pytest.mark.server]


def play_one_turn(page) -> bool:
    """If it is this student's turn, make a legal play by clicking the board. True if played,
    once the page has drawn the state its move made (the next call then sees that state, not the
    one before it with its choices, which vanish under the pointer as the answer arrives)."""
    if not page.locator("#turn.mine").count():
        return False
    seen = page.evaluate("() => window.matchState().seq")
    collapse = page.locator("button[data-collapse]")
    if collapse.count():
        collapse.first.hover()  # the outcome is previewed on the board before choosing
        expect(page.locator(".mark.ghost").first).to_be_visible()
        collapse.first.click()
    else:
        playable = page.locator("g.cell.playable")
        squares = [playable.nth(i).get_attribute("data-square") for i in range(playable.count())]
        page.click(f"g.cell[data-square='{squares[0]}']")
        if len(squares) > 1:
            page.click(f"g.cell[data-square='{squares[-1]}']")
    page.wait_for_function("(seen) => window.matchState().seq > seen", arg=seen)
    return True


def test_teacher_and_two_students_play_a_full_game_and_open_the_replay(chromium, server):
    teacher = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    teacher.goto(server.url + "/accounts/signup/")
    teacher.fill("input[name=username]", "mrs-meitner")
    teacher.fill("input[name=password1]", "fission-1938-Lise")
    teacher.fill("input[name=password2]", "fission-1938-Lise")
    teacher.click("button[type=submit]")
    teacher.fill("input[name=name]", "Physics 9A")
    teacher.click("text=Create class")
    expect(teacher.locator("h1")).to_have_text("Physics 9A")
    teacher.select_option("#id_game", "quantum-tictactoe")
    teacher.click("text=Open session")
    code = teacher.locator("[data-testid=join-code]").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    expect(teacher.locator(".qr svg")).to_be_visible()
    shot(teacher, "dashboard.png")

    ada = student_joins(chromium, server, code, "Ada")
    bo = student_joins(chromium, server, code, "Bo")
    expect(teacher.locator("li.student")).to_have_count(2)
    teacher.click("button[data-cmd=auto_pair]")
    expect(teacher.locator(".table-card")).to_have_count(1)
    teacher.click("button[data-cmd=start_all]")
    for page in (ada, bo):
        expect(page.locator(".qttt-board")).to_be_visible(timeout=10_000)
    expect(ada.locator("#conn")).to_have_text("live")

    for _ in range(60):
        if ada.locator("#result:not(.hidden)").count() and bo.locator("#result:not(.hidden)").count():
            break
        played = play_one_turn(ada) or play_one_turn(bo)
        if not played:
            ada.wait_for_timeout(100)
        else:
            ada.wait_for_timeout(250)
        if ada.locator(".link.cycle").count():
            shot(ada, "cycle.png")
    expect(ada.locator("#result")).to_be_visible()
    expect(bo.locator("#result")).to_be_visible()
    shot(ada, "result.png")
    verdict = ada.locator("#result h2").inner_text()
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    winners = match.outcome["winners"]
    assert ("draw" in verdict.lower()) == (winners == [])

    ada.click("text=Open the replay")
    expect(ada.locator("#step")).to_have_text(f"step 0 / {match.seq}")
    ada.click("#next")
    expect(ada.locator("#step")).to_have_text(f"step 1 / {match.seq}")
    expect(ada.locator("#step-text")).to_contain_text("X1")
    ada.click("#last")
    expect(ada.locator("#step")).to_have_text(f"step {match.seq} / {match.seq}")
    expect(ada.locator("#step-text")).to_contain_text(re.compile(r"(Ada|Bo)( and (Ada|Bo))? won|A draw"))
    ada.click("#prev")
    expect(ada.locator("#step")).to_have_text(f"step {match.seq - 1} / {match.seq}")
    shot(ada, "replay.png")

    teacher.goto(server.url + teacher.url.replace(server.url, "").rstrip("/") + "/report/")
    expect(teacher.locator("#report-table")).to_contain_text("Ada")
    expect(teacher.locator("#report-table")).to_contain_text("replay")


def test_a_student_plays_a_bot_and_a_reload_lands_back_in_the_match(chromium, server, teacher):
    from tests.support.clients import Teacher
    from tests.support.tables import TEACHER

    t = Teacher(server)
    t.login(*TEACHER)
    session = t.open_session("quantum-tictactoe", bot_level="strong")
    page = student_joins(chromium, server, session["join_code"], "Solo")
    assert t.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    assert t.api("POST", f"/api/sessions/{session['id']}/start-all/").status_code == 200
    expect(page.locator(".qttt-board")).to_be_visible(timeout=10_000)
    expect(page.locator(".player", has_text="Bot")).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("Your turn", timeout=15_000)
    before = Match.objects.get().seq
    play_one_turn(page)
    for _ in range(150):  # the move is stored and the bot has answered it
        if Match.objects.get().seq >= before + 2:
            break
        page.wait_for_timeout(100)
    assert Match.objects.get().seq >= before + 2 and Match.objects.get().status == Match.Status.PLAYING
    expect(page.locator("#turn")).to_contain_text("Your turn")
    url = page.url
    page.goto(server.url + f"/join/?code={session['join_code']}")
    page.wait_for_url(url)  # the same browser is the same participant, back in its match
    expect(page.locator(".qttt-board")).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.reload()
    expect(page.locator("#turn")).to_contain_text("Your turn")

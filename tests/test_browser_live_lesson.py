"""The first real lesson in real browsers: a teacher's dashboard follows the
tables live, removing a student tells them at once, the event log is complete on reload and for a
late watcher, and the sides (X/O) carry the students' names."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from classrooms.models import ClassSession, Participant
from games.models import Action, Match, Seat
from tests.support.browser import log_in, student_joins
from tests.support.clients import Teacher
from tests.support.tables import TEACHER
from tests.test_browser_classroom import play_one_turn

pytestmark = [pytest.mark.browser, pytest.mark.server]


def teacher_dashboard(chromium, server, game="quantum-tictactoe"):
    """A session opened by the teacher, and the teacher's dashboard in a browser of its own."""
    client = Teacher(server)
    client.login(*TEACHER)
    session = client.open_session(game)
    page = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # confirm() of remove / end
    log_in(page, server.url, then=f"/teacher/sessions/{session['id']}/")
    expect(page.locator("[data-testid=join-code]")).to_have_text(session["join_code"])
    return session, page


def seat_together(dashboard, *names):
    for name in names:
        dashboard.check(f"input[aria-label='select {name}']")
    dashboard.click("#seat-selected")


def card(dashboard, number=1):
    return dashboard.locator(f".table-card[data-table='{number}']")


def roster(dashboard, name):
    return dashboard.locator("li.student", has=dashboard.locator(".name", has_text=re.compile(f"^{name}$")))


def test_the_dashboard_follows_the_game_live_and_the_end_of_the_session_reaches_every_page(
        chromium, server, teacher):
    session, dashboard = teacher_dashboard(chromium, server)
    ada = student_joins(chromium, server, session["join_code"], "Ada")
    bo = student_joins(chromium, server, session["join_code"], "Bo")
    expect(roster(dashboard, "Ada")).to_have_attribute("data-state", "joined")
    dashboard.click("button[data-cmd=auto_pair]")
    expect(roster(dashboard, "Bo")).to_have_attribute("data-state", "seated")
    dashboard.click("button[data-cmd=start_all]")
    for page in (ada, bo):
        expect(page.locator(".qttt-board")).to_be_visible(timeout=10_000)
    expect(card(dashboard)).to_have_attribute("data-status", "playing")
    expect(roster(dashboard, "Ada")).to_have_attribute("data-state", "playing")
    match = Match.objects.get()
    x_name = Seat.objects.get(match=match, index=0).name
    o_name = Seat.objects.get(match=match, index=1).name
    expect(card(dashboard).locator(".to-act")).to_have_text(f"to act: {x_name}")
    expect(card(dashboard).locator(".moves")).to_have_text("0 moves")

    # the sides carry the students' names, for both players
    for page in (ada, bo):
        expect(page.locator(".player[data-seat='0']")).to_contain_text(f"X — {x_name}")
        expect(page.locator(".player[data-seat='1']")).to_contain_text(f"O — {o_name}")

    first = ada if x_name == "Ada" else bo
    assert play_one_turn(first)
    expect(card(dashboard).locator(".moves")).to_have_text("1 move")  # no reload: the socket told it
    expect(card(dashboard).locator(".to-act")).to_have_text(f"to act: {o_name}")

    for _ in range(80):
        if Match.objects.get().status == Match.Status.FINISHED:
            break
        if not (play_one_turn(ada) or play_one_turn(bo)):
            ada.wait_for_timeout(100)
        else:
            ada.wait_for_timeout(200)
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    scores = match.outcome["scores"]
    # the finished game shows finished, with its score, the moment it ends
    expect(card(dashboard)).to_have_attribute("data-status", "finished")
    expect(card(dashboard).locator(".moves")).to_have_text(f"{match.seq} move" + ("" if match.seq == 1 else "s"))
    expect(card(dashboard).locator("li.seat[data-seat='0']")).to_have_text(f"{x_name} — {scores[0]}")
    expect(card(dashboard).locator("li.seat[data-seat='1']")).to_have_text(f"{o_name} — {scores[1]}")
    expect(card(dashboard).locator(".to-act")).to_have_count(0)
    expect(roster(dashboard, "Ada")).to_have_attribute("data-state", "finished")

    # Ada goes back to her lobby; Bo stays on his game page; the teacher ends the session
    ada.click("text=Back to the lobby (next game)")
    expect(ada.locator("#lobby-status")).to_contain_text("Your game is over")
    expect(dashboard.locator(".qr svg")).to_be_visible()
    dashboard.click("button[data-cmd=end]")
    expect(dashboard.locator("[data-testid=join-code]")).to_have_count(0)
    expect(dashboard.locator(".qr")).to_have_count(0)
    expect(dashboard.locator(".join-box")).to_contain_text("Session ended")
    expect(dashboard.locator("#session-status")).to_have_text("ended")
    expect(ada.locator("#lobby-status")).to_contain_text("The class session has ended")
    expect(ada.locator("a.replay-link")).to_have_attribute("href", f"/matches/{match.pk}/replay/")
    expect(bo.locator("#session-notice")).to_contain_text("The class session has ended")
    expect(bo.locator("#session-notice a", has_text="Replay of this game")).to_be_visible()

    # the replay names the sides with the students too
    ada.click("a.replay-link")
    expect(ada.locator("#replay-players .player[data-seat='0']")).to_have_text(f"X — {x_name}")
    expect(ada.locator("#replay-players .player[data-seat='1']")).to_have_text(f"O — {o_name}")


def two_students_playing(chromium, server):
    """The teacher's dashboard, and Ada and Bo seated together by auto-pair, their boards up."""
    session, dashboard = teacher_dashboard(chromium, server)
    ada = student_joins(chromium, server, session["join_code"], "Ada")
    bo = student_joins(chromium, server, session["join_code"], "Bo")
    dashboard.click("button[data-cmd=auto_pair]")
    expect(card(dashboard)).to_be_visible()
    dashboard.click("button[data-cmd=start_all]")
    expect(ada.locator(".qttt-board")).to_be_visible(timeout=10_000)
    expect(bo.locator(".qttt-board")).to_be_visible(timeout=10_000)
    return session, dashboard, ada, bo


def test_a_game_page_says_so_the_moment_the_teacher_ends_the_session(chromium, server, teacher):
    session, dashboard, ada, bo = two_students_playing(chromium, server)
    dashboard.click("button[data-cmd=end]")
    for page in (ada, bo):  # mid-game: the match stops and the page says why
        expect(page.locator("#session-notice")).to_contain_text("The class session has ended")
        expect(page.locator("#turn")).to_have_text("This match was stopped by the teacher.")
    expect(card(dashboard)).to_have_attribute("data-status", "abandoned")
    ada.locator("#session-notice a", has_text="Replay of this game").click()
    expect(ada.locator("#step")).to_have_text("step 0 / 0")


def test_removing_a_student_tells_them_at_once_and_a_bot_plays_on_under_their_name(chromium, server, teacher):
    session, dashboard = teacher_dashboard(chromium, server)
    ada = student_joins(chromium, server, session["join_code"], "Ada")
    bo = student_joins(chromium, server, session["join_code"], "Bo")
    cy = student_joins(chromium, server, session["join_code"], "Cy")
    expect(dashboard.locator("li.student")).to_have_count(3)
    seat_together(dashboard, "Ada", "Bo")
    expect(card(dashboard)).to_be_visible()
    dashboard.click("button[data-cmd=start_all]")
    expect(ada.locator(".qttt-board")).to_be_visible(timeout=10_000)
    expect(bo.locator(".qttt-board")).to_be_visible(timeout=10_000)
    ada_second_tab = ada.context.new_page()  # the same student, a second tab on the game
    ada_second_tab.goto(ada.url)
    expect(ada_second_tab.locator(".qttt-board")).to_be_visible()
    expect(cy.locator("#lobby-status")).to_contain_text("Waiting for your teacher to seat you")

    roster(dashboard, "Ada").locator("button", has_text="remove").click()
    for page in (ada, ada_second_tab):
        expect(page.locator("#session-notice")).to_have_text("Your teacher removed you from this session.")
        expect(page.locator("#board")).to_be_hidden()
    expect(bo.locator(".player", has_text="Bot (was Ada)")).to_be_visible()
    expect(card(dashboard).locator("li.seat", has_text="Bot (was Ada)")).to_be_visible()
    expect(roster(dashboard, "Ada")).to_have_attribute("data-state", "removed")

    roster(dashboard, "Cy").locator("button", has_text="remove").click()
    expect(cy.locator("#lobby-status")).to_have_text("Your teacher removed you from this session.")

    # a reload shows the app's own clear page, not an error
    for page in (ada, cy):
        response = page.reload()
        assert response.status == 403
        expect(page.locator("h1")).to_have_text("Your teacher removed you from this session.")
    # joining again from the same browser under another name is refused
    ada.goto(server.url + "/join/")
    ada.fill("input[name=code]", session["join_code"])
    ada.fill("input[name=name]", "Ada again")
    ada.click("button[type=submit]")
    expect(ada.locator("body")).to_contain_text("Your teacher removed you from this session.")

    # a new student is paired; the removed ones are never seated again
    student_joins(chromium, server, session["join_code"], "Dee")
    expect(roster(dashboard, "Dee")).to_have_attribute("data-state", "joined")
    dashboard.click("button[data-cmd=auto_pair]")
    expect(card(dashboard, 2)).to_be_visible()
    expect(roster(dashboard, "Dee")).to_have_attribute("data-state", "seated")
    expect(card(dashboard, 2).locator("li.seat")).to_have_count(2)
    removed = set(Participant.objects.filter(removed=True).values_list("pk", flat=True))
    assert len(removed) == 2
    assert not Seat.objects.filter(participant_id__in=removed).exists()
    expect(dashboard.locator("#dash-error")).to_be_hidden()
    dashboard.click("button[data-cmd=auto_pair]")  # only removed students left unseated: nobody waits
    expect(dashboard.locator("#dash-error")).to_have_text("Every student already has a table.")

    # the teacher lets Cy back in from the dashboard: the same browser joins again as Cy
    roster(dashboard, "Cy").locator("button", has_text="let back in").click()
    expect(roster(dashboard, "Cy")).to_have_attribute("data-state", "joined")
    cy.goto(server.url + "/join/")
    cy.fill("input[name=code]", session["join_code"])
    cy.fill("input[name=name]", "Cy")
    cy.click("button[type=submit]")
    expect(cy.locator("#lobby-status")).to_contain_text("Waiting for your teacher to seat you")
    assert Participant.objects.filter(display_name="Cy").count() == 1

    # and the cap on students who may join is set from the dashboard too
    dashboard.fill("#participant-cap", "4")
    dashboard.locator("#participant-cap").press("Enter")
    dashboard.locator("#participant-cap").blur()
    for _ in range(50):
        if ClassSession.objects.get(pk=session["id"]).max_participants == 4:
            break
        dashboard.wait_for_timeout(100)
    assert ClassSession.objects.get(pk=session["id"]).max_participants == 4


def play_next_turn(*pages, timeout_ms: int = 10_000) -> bool:
    """Whichever student's page shows it is their turn plays; waits for the turn to arrive
    (under load the last move's broadcast may still be on its way)."""
    for _ in range(timeout_ms // 100):
        if any(play_one_turn(page) for page in pages):
            return True
        pages[0].wait_for_timeout(100)
    return False


def test_the_event_log_survives_a_reload_and_is_complete_for_a_late_watcher(chromium, server, teacher):
    session, dashboard, ada, bo = two_students_playing(chromium, server)
    for moves in range(1, 5):
        assert play_next_turn(ada, bo)
        expect(card(dashboard).locator(".moves")).to_have_text(f"{moves} move" + ("" if moves == 1 else "s"))
    match = Match.objects.get()
    said = [e["text"] for a in Action.objects.filter(match=match).order_by("seq") for e in a.events
            if e.get("text") and "visible_to" not in e]
    assert len(said) >= 4
    expected = list(reversed(said))  # the newest line first
    expect(ada.locator("#log .log-line")).to_have_count(len(said))

    ada.reload()
    expect(ada.locator(".qttt-board")).to_be_visible()
    expect(ada.locator("#log .log-line")).to_have_count(len(said))

    with dashboard.context.expect_page() as opened:  # the teacher opens "Watch" late
        card(dashboard).locator("a", has_text="Watch").click()
    watch = opened.value
    expect(watch.locator("#log .log-line")).to_have_count(len(said))
    lines = watch.locator("#log .log-line").all_inner_texts()
    names = {s.index: s.name for s in Seat.objects.filter(match=match)}
    assert lines == [re.sub(r"\bPlayer (\d)\b", lambda m: names[int(m[1]) - 1], t) for t in expected]
    assert ada.locator("#log .log-line").all_inner_texts() == lines

    # and it goes on live from there
    assert play_next_turn(ada, bo)
    for _ in range(100):
        if Match.objects.get().seq == 5:
            break
        watch.wait_for_timeout(100)
    assert Match.objects.get().seq == 5
    expect(watch.locator("#log .log-line")).to_have_count(
        sum(1 for a in Action.objects.filter(match=match) for e in a.events if e.get("text")))


def test_qtris_sides_carry_the_students_names_on_the_board(chromium, server, teacher):
    from tests.support.tables import open_table
    from tests.test_qtris_board_browser import OPTIONS, open_page

    table = open_table(server, game="qtris", variant="advanced", options=OPTIONS)
    names = {s.index: s.name for s in Seat.objects.filter(match_id=table.match_id)}
    alice = open_page(chromium, server, table.students[0], table.match_id)
    bob = open_page(chromium, server, table.students[1], table.match_id)
    for page in (alice, bob):
        expect(page.locator(".player[data-seat='0']")).to_contain_text(f"Alice — {names[0]}")
        expect(page.locator(".player[data-seat='1']")).to_contain_text(f"Bob — {names[1]}")
        expect(page.locator(".qtris-status")).to_contain_text(f"Alice — {names[0]}: ○ White")
        expect(page.locator(".qtris-status")).to_contain_text(f"Bob — {names[1]}: ● Black")
    expect(alice.locator(".qtris-hand-box h2")).to_have_text(f"Your hand (Alice — {names[0]})")
    expect(bob.locator(".qtris-hand-box h2")).to_have_text(f"Your hand (Bob — {names[1]})")

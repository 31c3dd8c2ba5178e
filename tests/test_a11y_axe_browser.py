"""Accessibility: axe-core (WCAG 2.2 AA) finds no serious or critical violation on any
page of a full class session: the public pages, every teacher page (classes, the live dashboard
with students and tables, report, exercises, statistics), the student lobby, each game in play
with a preview on the board, the replays and the statistics pages.

Every page is checked and the failures of all pages are listed together. A new game gets a test
like the QTris and QuantumPoker one: its page in play with a preview shown, its replay, its
statistics, each through `Sweep.check` (tests/support/axe.py); Entanglion and Quantum
Ticket-to-Ride are set up with a seed (`open_table(seed=...)`) and their match finished by
`play_out`, then `sweep_after_the_game` checks the replay, statistics and circuit pages."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines import get_game
from games.models import Match
from games.selectors import current_state
from tests.support.axe import Sweep, assert_no_serious_violations
from tests.support.browser import log_in, log_in_teacher
from tests.support.entanglion_tables import FIRST_GAME, calm_seed
from tests.support.tables import Table, open_table
from tests.support.ticket_to_ride import RUNNER_PATH, quick_seed, scripted_action, small_map
from tests.test_board_phone_keyboard_browser import api_act, page_for, poker_table
from tests.test_qtris_board_browser import OPTIONS as QTRIS_OPTIONS
from tests.test_simulator_fixtures import class_table, finished_qtris

pytestmark = [pytest.mark.browser, pytest.mark.server]
TTR = "quantum-ticket-to-ride"


def test_every_page_of_a_quantum_tictactoe_session_passes_axe(chromium, server, teacher):
    sweep = Sweep()
    visitor = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    for path, name in (("/", "home"), ("/join/", "join"), ("/accounts/login/", "login"),
                       ("/accounts/signup/", "sign-up"), ("/no-such-page/", "not found (404)")):
        visitor.goto(server.url + path)
        sweep.check(visitor, name)

    table = open_table(server, game="quantum-tictactoe")
    session_id, class_id = table.session["id"], table.session["classroom"]
    mid = table.match_id

    # the lobby of a student who has joined but is not seated yet
    late = chromium.new_context(viewport={"width": 375, "height": 812}).new_page()
    late.goto(server.url + "/join/")
    late.fill("input[name=code]", table.session["join_code"])
    late.fill("input[name=name]", "Cy")
    late.click("button[type=submit]")
    expect(late.locator("#lobby-status")).to_be_visible()
    expect(late.locator("#lobby-status")).to_have_attribute("aria-live", "polite")  # news is heard
    sweep.check(late, "student lobby")

    # quantum tic-tac-toe in play: a half-made move, then a collapse choice with its preview shown
    ada = page_for(chromium, server, table.students[0], mid)
    expect(ada.locator("#turn")).to_have_class("turn mine")
    ada.locator("g.cell[data-square='4']").click()
    expect(ada.locator("g.cell.picked")).to_have_count(1)
    sweep.check(ada, "quantum tic-tac-toe, first square picked")
    ada.locator("g.cell[data-square='4']").click()
    api_act(table.students[0], mid, {"squares": [1, 2]})
    api_act(table.students[1], mid, {"squares": [1, 2]})
    expect(ada.locator("g.cell.choice")).to_have_count(2)
    ada.locator("g.cell[data-square='1']").focus()
    expect(ada.locator("g.cell[data-square='1'] .mark.ghost")).to_have_count(1)
    sweep.check(ada, "quantum tic-tac-toe, collapse preview")
    bo = page_for(chromium, server, table.students[1], mid, phone=True)  # the other player, on a phone
    expect(bo.locator("g.cell.in-cycle")).to_have_count(2)
    sweep.check(bo, "quantum tic-tac-toe on a 375 px phone, waiting for the collapse")

    # the teacher's pages, with the session running
    teacher_page = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    log_in(teacher_page, server.url)
    sweep.check(teacher_page, "teacher home")
    for path, name, ready in (
            (f"/teacher/classes/{class_id}/", "class page", "main h1"),
            (f"/teacher/sessions/{session_id}/", "session dashboard", ".table-card"),
            (f"/teacher/sessions/{session_id}/report/", "session report", "main h1"),
            (f"/teacher/classes/{class_id}/exercises/new/", "exercise editor", "#board .qtris-board"),
            (f"/teacher/sessions/{session_id}/statistics/", "session statistics", "main h1"),
            (f"/teacher/classes/{class_id}/quantum/", "class quantum settings", "main h1"),
            (f"/matches/{mid}/", "teacher watching a table", ".qttt-board")):
        teacher_page.goto(server.url + path)
        expect(teacher_page.locator(ready).first).to_be_visible()
        sweep.check(teacher_page, name)

    # the game to its end (collapse, then random legal moves), its result, replay and statistics
    play_out(table, lambda seat, legal: legal[0])
    expect(ada.locator("#result")).to_be_visible(timeout=10_000)
    sweep.check(ada, "quantum tic-tac-toe, result")
    for page, who in ((ada, "student"), (teacher_page, "teacher")):
        for path, name in ((f"/matches/{mid}/replay/", "quantum tic-tac-toe replay"),
                           (f"/matches/{mid}/stats/", "match statistics"),
                           (f"/matches/{mid}/circuit/", "match circuit")):
            page.goto(server.url + path)
            expect(page.locator("main h1").first).to_be_visible()
            sweep.check(page, f"{name} ({who})")
    ada.goto(server.url + f"/lobby/{session_id}/")
    expect(ada.locator("#lobby-status")).to_be_visible()
    sweep.check(ada, "student lobby after a game (replays)")
    ada.goto(server.url + f"/matches/{mid}/replay/")
    ada.locator("#next").click()
    expect(ada.locator("#step-text[aria-live=polite]")).to_contain_text("X1 on 1 and 2")  # each step is heard
    sweep.check(ada, "quantum tic-tac-toe replay, step 1")
    teacher_page.goto(server.url + f"/teacher/sessions/{session_id}/")
    expect(teacher_page.locator(".table-card[data-status=finished]")).to_be_visible()
    sweep.check(teacher_page, "session dashboard, table finished")
    teacher_page.goto(server.url + f"/teacher/sessions/{session_id}/statistics/")
    sweep.check(teacher_page, "session statistics, a table finished")
    sweep.verdict()


def test_qtris_and_quantum_poker_in_play_and_replayed_pass_axe(chromium, server, teacher):
    sweep = Sweep()
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    alice = page_for(chromium, server, table.students[0], table.match_id)
    expect(alice.locator("#turn")).to_have_class("turn mine")
    sweep.check(alice, "QTris, start")
    alice.locator(".qcard[data-card=U]").click()
    alice.locator("g.sq.target").first.hover()
    expect(alice.locator("[data-testid=preview-result]")).to_be_visible()
    sweep.check(alice, "QTris, a card's preview")

    poker = poker_table(server, community_cards=2)
    mid = poker.match_id
    pages = [page_for(chromium, server, poker.students[s], mid) for s in (0, 1)]
    actor = next(p for p in pages if p.locator("#turn.mine").count())
    sweep.check(actor, "QuantumPoker, start")
    actor.locator(".qp-pauli.playable").first.click()
    expect(actor.locator(".qp-qubit.target").first).to_be_visible()
    actor.locator(".qp-qubit.target").first.hover()
    sweep.check(actor, "QuantumPoker, a card picked with its targets")
    actor.keyboard.press("Escape")
    play_out(poker, lambda seat, legal: legal[0])
    expect(actor.locator("#result")).to_be_visible(timeout=15_000)
    sweep.check(actor, "QuantumPoker, showdown and result")
    actor.goto(server.url + f"/matches/{mid}/replay/")
    expect(actor.locator(".qp-table")).to_be_visible()
    actor.locator("#last").click()
    sweep.check(actor, "QuantumPoker replay, last step")
    actor.goto(server.url + f"/matches/{mid}/stats/")
    sweep.check(actor, "QuantumPoker statistics")

    # a finished QTris game of the teacher's class: its replay and statistics, the final board drawn
    finished = finished_qtris(teacher)
    class_table(teacher, finished)
    teacher_page = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    log_in(teacher_page, server.url)
    teacher_page.goto(server.url + f"/matches/{finished.pk}/replay/")
    expect(teacher_page.locator(".qtris-board")).to_be_visible()
    sweep.check(teacher_page, "QTris replay, start")
    teacher_page.locator("#last").click()
    sweep.check(teacher_page, "QTris replay, measured")
    teacher_page.goto(server.url + f"/matches/{finished.pk}/stats/")
    expect(teacher_page.locator("#stats-board svg.qtris-board")).to_be_visible()
    sweep.check(teacher_page, "QTris statistics (teacher)")
    teacher_page.goto(server.url + f"/matches/{finished.pk}/circuit/")
    sweep.check(teacher_page, "QTris circuit (teacher)")
    sweep.verdict()


def test_the_axe_check_fails_on_a_serious_violation_and_names_it(chromium):
    page = chromium.new_context().new_page()
    page.set_content('<html lang="en"><head><title>t</title></head><body><main><h1>Board</h1>'
                     '<p style="color:#aaa;background:#fff">faint text</p><img src="board.png">'
                     '<div role="button" aria-label="square 1" aria-checked="maybe">1</div></main></body></html>')
    with pytest.raises(AssertionError) as failure:
        assert_no_serious_violations(page, "a bad page")
    message = str(failure.value)
    for rule in ("image-alt", "color-contrast", "a bad page"):
        assert rule in message, message
    page.set_content('<html lang="en"><head><title>t</title></head><body><main><h1>Board</h1>'
                     '<p>clear text</p><img src="board.png" alt="the board"></main></body></html>')
    assert_no_serious_violations(page, "a good page")
    chromium.give_back(page.context)


def play_out(table: Table, choose) -> None:
    """Every seat's move by the API until the match is over: ``choose(seat, legal)`` picks it among
    the legal actions (read from the stored state, as the API's ``legal`` is), and the seat's
    student posts it, so that the open pages follow the game live."""
    mid = table.match_id
    game = get_game(Match.objects.get(pk=mid).game)
    while (match := Match.objects.get(pk=mid)).status != Match.Status.FINISHED:
        state = current_state(match)
        seat = game.to_act(state)[0]
        action = choose(seat, game.legal_actions(state, seat))
        response = table.students[seat].api("POST", f"/api/matches/{mid}/actions/",
                                            {"seq": match.seq, "action": action})
        assert response.status_code == 200, response.text


def retrieve_first(seat, legal):
    """Entanglion's quick end: retrieve whenever the rules allow it, else the first legal action
    (from the calm opening, 61 moves to the end instead of about 1,000 by the first action alone)."""
    return next((a for a in legal if "retrieve" in a), legal[0])


def sweep_after_the_game(sweep: Sweep, page, server, mid: int, game: str, board: str) -> None:
    """The replay (first and last step), the statistics and the circuit pages of a finished match."""
    page.goto(server.url + f"/matches/{mid}/replay/")
    expect(page.locator(board).first).to_be_visible()
    sweep.check(page, f"{game} replay, start")
    page.locator("#last").click()
    sweep.check(page, f"{game} replay, last step")
    for path, name in ((f"/matches/{mid}/stats/", "statistics"), (f"/matches/{mid}/circuit/", "circuit")):
        page.goto(server.url + path)
        expect(page.locator("main h1").first).to_be_visible()
        sweep.check(page, f"{game} {name}")


def test_entanglion_in_play_watched_and_replayed_passes_axe(chromium, server, teacher):
    sweep = Sweep()
    table = open_table(server, game="entanglion", variant="easy", options=FIRST_GAME, seed=calm_seed())
    mid = table.match_id
    merc = page_for(chromium, server, table.students[0], mid)
    rub = page_for(chromium, server, table.students[1], mid, phone=True)
    expect(merc.locator("#turn")).to_contain_text("Your turn")
    merc.locator("button.ent-card[data-card='H']").first.hover()  # the preview: the ghost ship on PLUS
    expect(merc.locator(".ent-preview-layer .ent-ship.ghost.mercurial")).to_have_count(1)
    sweep.check(merc, "Entanglion, H previewed by hovering")
    sweep.check(rub, "Entanglion on a 375 px phone, waiting")
    api_act(table.students[0], mid, {"play": "H"})
    expect(rub.locator("#turn")).to_contain_text("Your turn")
    rub.locator("button.ent-card[data-card='CNOT']").focus()  # the same preview by keyboard
    expect(rub.locator(".ent-preview")).to_contain_text("PHI PLUS")
    sweep.check(rub, "Entanglion on a phone, CNOT previewed by keyboard focus")
    api_act(table.students[1], mid, {"play": "CNOT"})
    expect(merc.locator(".ent-act[data-kind='retrieve']").first).to_be_visible()
    sweep.check(merc, "Entanglion, a component to retrieve")

    watcher = log_in_teacher(chromium, server)
    watcher.goto(server.url + f"/matches/{mid}/")
    expect(watcher.locator(".ent-analysis")).to_be_visible(timeout=10_000)
    sweep.check(watcher, "Entanglion watched by the teacher (analysis)")

    # the game played out (61 moves) followed live by the first student's page alone: the others
    # were checked, and drawing every move on three pages cost about 5 s more of the machine's CPU
    rub.close()
    watcher.goto("about:blank")
    play_out(table, retrieve_first)
    expect(merc.locator("#result")).to_be_visible(timeout=15_000)
    sweep.check(merc, "Entanglion, result")
    sweep_after_the_game(sweep, watcher, server, mid, "Entanglion", ".ent-galaxy")
    sweep.verdict()


def test_quantum_ticket_to_ride_in_play_watched_replayed_and_its_maps_pass_axe(chromium, server, teacher):
    sweep = Sweep()
    table = open_table(server, game=TTR, variant="basic", options={"map": small_map()}, seed=quick_seed())
    mid, class_id = table.match_id, table.session["classroom"]
    pages = {seat: page_for(chromium, server, student, mid, phone=seat == 1)
             for seat, student in table.students.items()}
    for page in pages.values():
        expect(page.locator(".ttr-route")).to_have_count(6)
    sweep.check(pages[1], "Quantum Ticket-to-Ride on a 375 px phone")
    watcher = log_in_teacher(chromium, server)
    watcher.goto(server.url + f"/matches/{mid}/")
    expect(watcher.locator(".ttr-teacher li")).to_have_count(2, timeout=10_000)
    sweep.check(watcher, "Quantum Ticket-to-Ride watched by the teacher (missions' progress)")

    # the script until the runner may plan its run: each claim first selected and previewed in its page
    game, planned, claimed = get_game(TTR), False, False
    for _ in range(30):
        state = current_state(Match.objects.get(pk=mid))
        if state["finished"]:
            break
        seat = game.to_act(state)[0]
        page, action = pages[seat], scripted_action(state, seat)
        expect(page.locator("#board")).to_have_attribute("data-seq", str(Match.objects.get(pk=mid).seq))
        if "claim" in action and not claimed:
            route = page.locator(f".ttr-route[data-route='{action['claim']}']")
            route.focus()
            page.keyboard.press("Enter")
            expect(route).to_have_attribute("aria-pressed", "true")
            expect(page.locator(".ttr-live")).to_contain_text("Claim")
            sweep.check(page, "Quantum Ticket-to-Ride, a route selected with its cost")
            claimed = True
        if "run" in action and not planned:
            page.locator("[data-plan]").click()
            expect(page.locator(".ttr-picker")).to_be_visible()
            for city in RUNNER_PATH[1:]:
                page.locator(f".ttr-city[data-city='{city}']").focus()
                page.keyboard.press("Enter")
            expect(page.locator(".ttr-verdict")).to_contain_text("this run completes the mission")
            sweep.check(page, "Quantum Ticket-to-Ride, a run planned with its circuit and Bloch vectors")
            planned = True
        api_act(table.students[seat], mid, action)
    assert planned and claimed and Match.objects.get(pk=mid).status == Match.Status.FINISHED
    for page in pages.values():
        expect(page.locator("#result")).to_be_visible(timeout=10_000)
    sweep.check(pages[0], "Quantum Ticket-to-Ride, result and missions revealed")
    sweep.check(watcher, "Quantum Ticket-to-Ride watched by the teacher, finished")
    sweep_after_the_game(sweep, watcher, server, mid, "Quantum Ticket-to-Ride", ".ttr-svg")
    watcher.goto(server.url + f"/teacher/classes/{class_id}/maps/")
    expect(watcher.locator("main h1").first).to_be_visible()
    sweep.check(watcher, "Quantum Ticket-to-Ride map upload")
    sweep.verdict()

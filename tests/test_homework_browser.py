"""Homework in a browser: the teacher assigns the rulebook's exercise 2.3.1 against the random
bot; a student with a class card opens homework on a 375 px phone (the card's link), starts the
game, plays it to the end on the normal match page (H, Z, H on square 5, then passes), goes back
and sees it counted; the teacher's assignment page shows the student done or not yet (as the
game's result says) and the other member not yet. Axe on the three pages."""
from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from classrooms import cards
from classrooms.models import Assignment, Classroom
from games.models import Match, Seat
from tests.support.axe import assert_no_serious_violations
from tests.support.browser import log_in_teacher
from tests.support.phone import phone_context

pytestmark = [pytest.mark.browser, pytest.mark.server]


def _fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def _play(page, card: str, square: int) -> None:
    expect(page.locator("#turn")).to_have_class("turn mine", timeout=10_000)
    seq = page.locator(".qtris").get_attribute("data-seq")
    page.locator(f".qcard[data-card={card}]").first.click()
    page.locator(f"g.sq[data-square='{square}']").click()
    expect(page.locator(".qtris")).not_to_have_attribute("data-seq", seq)


def test_a_student_does_homework_on_a_phone_and_the_teacher_sees_it(chromium, server, teacher):
    classroom = Classroom.objects.create(teacher=teacher, name="9A", cards_enabled=True)
    ada, _bo = cards.add_members(classroom, "Ada\nBo")
    page = log_in_teacher(chromium, server)
    page.goto(server.url + f"/teacher/classes/{classroom.pk}/#homework")
    form = page.locator("#assign-homework")
    form.get_by_label("Exercise or game").select_option(label="Exercise 2.3.1 — Card play mechanics (two H and one Z)")
    form.get_by_label("Bot").select_option("random")
    due = timezone.localtime() + datetime.timedelta(days=2)
    form.get_by_label("Due").fill(due.strftime("%Y-%m-%dT%H:%M"))
    form.get_by_role("button", name="Assign").click()
    page.wait_for_url("**/homework/*/")
    assignment = Assignment.objects.get()
    assert (assignment.kind, assignment.bot_level, assignment.game) == ("exercise", "random", "qtris")
    expect(page.locator("#assignment-members tbody tr")).to_have_count(2)
    expect(page.locator(f"tr[data-member='{ada.pk}']")).to_have_attribute("data-state", "not_yet")
    assert_no_serious_violations(page, "homework assignment page")

    phone = phone_context(chromium, {"width": 375, "height": 740}).new_page()
    phone.goto(server.url + "/homework/?card=WRONG-CODE")
    expect(phone.get_by_test_id("homework-error")).to_contain_text("not valid")
    phone.goto(server.url + f"/homework/?card={ada.card_code}")
    item = phone.locator(f"[data-assignment='{assignment.pk}']")
    expect(item).to_have_attribute("data-state", "not_yet")
    expect(item.get_by_test_id("homework-count")).to_have_text("solved 0/1")
    _fits(phone)
    assert_no_serious_violations(phone, "student's homework page")
    phone.goto(server.url + "/homework/")  # the browser remembers the card
    item.get_by_role("button", name="Start a game").focus()
    phone.keyboard.press("Enter")
    phone.wait_for_url("**/matches/*/")
    expect(phone.locator(".qtris-board")).to_be_visible(timeout=10_000)
    expect(phone.locator("#turn")).to_have_class("turn mine")
    _fits(phone)
    for card in ("H", "Z", "H"):  # the exercise's solution on square 5
        _play(phone, card, 5)
    for _ in range(20):
        # the bot answers: then it is the student's turn again, or the game is over
        expect(phone.locator("[data-testid=final-score], #turn.mine").first).to_be_visible(timeout=10_000)
        if phone.locator("[data-testid=final-score]").count():
            break
        seq = phone.locator(".qtris").get_attribute("data-seq")
        phone.locator("[data-action=pass]").click()
        expect(phone.locator(".qtris")).not_to_have_attribute("data-seq", seq)
    expect(phone.locator("[data-testid=final-score]")).to_be_visible(timeout=10_000)
    match = Match.objects.get(table__session=assignment.session)
    assert match.status == Match.Status.FINISHED
    seat = Seat.objects.get(match=match, participant_id__isnull=False)
    won = seat.index in match.outcome["winners"]
    state = "done" if won else "not_yet"

    phone.goto(server.url + "/homework/")
    expect(item).to_have_attribute("data-state", state)
    expect(item.get_by_test_id("homework-count")).to_have_text(f"solved {int(won)}/1")
    expect(item.locator(f"li[data-match='{match.pk}']")).to_be_visible()
    _fits(phone)

    # the teacher's page was left open: it updates itself (no reload)
    expect(page.locator(f"tr[data-member='{ada.pk}']")).to_have_attribute("data-state", state, timeout=15_000)
    expect(page.locator(f"tr[data-member='{_bo.pk}']")).to_have_attribute("data-state", "not_yet")
    expect(page.locator(f"[data-replay='{match.pk}']")).to_be_visible()
    expect(page.get_by_test_id("assignment-summary")).to_have_text(f"Done: {int(won)} of 2")
    assert_no_serious_violations(page, "homework assignment page with a game")

"""Phones (375 and 320 px, touch, no hover) in English, Spanish and Polish, after the game: for
each of the five games, a student's finished board (result, scores, showdown), the teacher's
watch page of that table (the "Watch" link of the dashboard), its replay at the first step of
each kind and the last, and the game's "How to play" page with its example boards: no text
under 12 CSS px (SVG text counted at its size on screen), every tap target at least 24 × 24 CSS
px, nothing pushing the page sideways (``tests.support.phone.assert_phone_friendly``).

The matches are played to their end by bots in the database (``create_match``: a few tenths of a
second), then a student's seat is handed to a participant, so each page is loaded once. Their
seeds give the boards these tests were written against: QTris's noise variant leaves mixtures on
the board (stacked tiles with their weights, "(2+√3)/4"), Entanglion's hard game fills the
engine control with SWAP and CNOT cards, and every Entanglion page has the amplitudes table
whose Polish heading is one long word; its detection track, drawn anew at each step of the
replay, is measured as soon as it is drawn."""
from __future__ import annotations

from importlib import import_module

import pytest
from django.conf import settings
from playwright.sync_api import expect

from classrooms import services
from classrooms.models import Classroom, Participant, Table
from games.access import PARTICIPANT_IDS_KEY
from games.services import SeatHolder, create_match, start_match
from tests.support.browser import log_in, wait_for_boot
from tests.support.phone import (
    MIN_TEXT,
    PHONE,
    SHOWN_TEXTS,
    SMALL_PHONE,
    assert_phone_friendly,
    phone_context,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]
LOCALES = {"en": "en-GB", "es": "es-ES", "pl": "pl-PL"}

# game, variant, options, seed; the student's language and phone (finished board, rules page),
# the teacher's (watch page, replay)
CASES = [
    ("quantum-tictactoe", "basic", {}, 7, ("es", SMALL_PHONE), ("pl", PHONE)),
    ("qtris", "noise", {}, 11, ("pl", SMALL_PHONE), ("en", PHONE)),
    ("quantum-poker", "classic", {"physics_mode": True}, 7, ("es", SMALL_PHONE), ("pl", SMALL_PHONE)),
    ("entanglion", "hard", {}, 11, ("pl", SMALL_PHONE), ("es", SMALL_PHONE)),
    ("quantum-ticket-to-ride", "basic", {}, 7, ("pl", SMALL_PHONE), ("es", PHONE)),
]

# the replay shown at the first step of each kind (its first event's code: a card played, a
# route claimed, a roll, an exchange, a measurement...) and at the last, as its slider shows them:
# text under 12 CSS px and a page wider than the phone, with the step where they were found (the
# targets are the same at every step: the whole check runs at the first and the last step)
# until the page has been painted twice: a board's scale, which its SVG text follows
# (``readableText`` in static/js/svg.js), is measured as it is first laid out, before it is shown
PAINTED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
EVERY_KIND_OF_STEP = """([minText, width]) => {
  SHOWN_TEXTS
  const frames = JSON.parse(document.getElementById("frames").textContent);
  const kinds = new Map();
  frames.forEach((f, i) => {
    const kind = (f.events[0] && (f.events[0].code || f.events[0].type)) || "start";
    if (!kinds.has(kind)) kinds.set(kind, i);
  });
  const steps = [...new Set([...kinds.values(), frames.length - 1])];
  const scrub = document.getElementById("scrub");
  const found = new Set();
  for (const i of steps) {
    scrub.value = i;
    scrub.dispatchEvent(new Event("input"));
    for (const { el, text, px } of shownTexts(document.getElementById("replay"))) {
      if (px < minText - 0.05) found.add(`step ${i}: text under ${minText} px: ${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""} "${text.slice(0, 30)}" (${px} px)`);
    }
    const over = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - width;
    if (over > 0) found.add(`step ${i}: the page is ${over} px wider than the ${width} px screen`);
  }
  return { steps: steps.length, found: [...found].slice(0, 40) };
}""".replace("SHOWN_TEXTS", SHOWN_TEXTS)


def finished_match(teacher, game: str, variant: str, options: dict, seed: int):
    """A match of a class session played to its end by bots; its seat 1 then handed to a
    student, who joined the session (the participant) and whose browser session holds it."""
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    session = services.open_session(classroom, game, variant=variant, options=options)
    student = Participant.objects.create(session=session, display_name="Zofia Wiśniewska")
    match = create_match(game, [SeatHolder("Maximiliano", bot="random"), SeatHolder("Zoë", bot="random")],
                         seed=seed, teacher=teacher, variant=variant, options=options, label="Table 1")
    start_match(match.pk)
    match.refresh_from_db()
    assert match.status == match.Status.FINISHED, game
    match.seats.filter(index=1).update(participant_id=student.pk, bot="", name=student.display_name)
    Table.objects.create(session=session, number=1, match=match)
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[PARTICIPANT_IDS_KEY] = [student.pk]
    store.create()
    return match, store.session_key


@pytest.mark.parametrize(("game", "variant", "options", "seed", "student_phone", "teacher_phone"), CASES,
                         ids=[case[0] for case in CASES])
def test_after_the_game_a_phone_reads_at_12_px_and_taps_at_24(chromium, server, teacher, game, variant,
                                                               options, seed, student_phone, teacher_phone):
    match, student_session = finished_match(teacher, game, variant, options, seed)
    errors: list[str] = []

    lang, size = student_phone
    student = phone_context(chromium, size, locale=LOCALES[lang])
    student.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": student_session, "url": server.url}])
    page = student.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/matches/{match.pk}/")
    expect(page.locator("#result")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == lang
    assert_phone_friendly(page, f"{game}: the student's finished board ({lang})")
    page.goto(f"{server.url}/games/{game}/rules/")
    expect(page.locator("#rules[data-drawn]")).to_be_attached()
    assert page.locator(".rules-example .board-area > *").count() > 0, "no example board drawn"
    assert_phone_friendly(page, f"{game}: How to play ({lang})")

    # the same phone, now the teacher's (a browser of its own costs a second): the teacher's
    # cookies, language (picked in the page header) and size
    lang, size = teacher_phone
    student.clear_cookies()
    student.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": server.url}])  # as if picked
    page.set_viewport_size(size)
    log_in(page, server.url, f"/matches/{match.pk}/")
    expect(page.locator("#result")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == lang
    assert_phone_friendly(page, f"{game}: the teacher watching the finished table ({lang})")
    page.goto(f"{server.url}/matches/{match.pk}/replay/")
    wait_for_boot(page)
    page.evaluate(PAINTED)
    checked = page.evaluate(EVERY_KIND_OF_STEP, [MIN_TEXT, size["width"]])
    assert checked["steps"] >= 3, checked
    assert not checked["found"], f"{game}: the replay on a {size['width']} px phone ({lang}):\n" + "\n".join(checked["found"])
    assert_phone_friendly(page, f"{game}: the replay at its last step ({lang})")  # where the slider left it
    assert not errors, errors

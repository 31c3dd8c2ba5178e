"""Entanglion in real browsers: two students join a class session, are seated at an Entanglion
table and play the rulebook's first game (sheet §15) from setup into Entanglion: Mercurial's H
(previewed by hovering the card) takes it to PLUS, Rubicon's CNOT (previewed by keyboard focus,
played with Enter) takes both ships to PHI PLUS, the side panel shows the Bell state, Rubicon
signals "Retrieve now" and Mercurial retrieves Quantum Gates. The teacher's dashboard shows the
table's components found and detection rate. A second test plays on a 375 px phone by keyboard."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.support.axe import Sweep
from tests.support.browser import log_in, shot, student_joins
from tests.support.clients import Teacher, students_joined
from tests.support.entanglion_tables import FIRST_GAME, calm_seed
from tests.support.phone import PHONE as PHONE_SE
from tests.support.phone import assert_phone_friendly, phone_context
from tests.support.tables import TEACHER

pytestmark = [pytest.mark.browser, pytest.mark.server]
PHONE = {"width": 375, "height": 812}
NO_SIDEWAYS = f"() => Math.max(document.documentElement.scrollWidth, innerWidth) - {PHONE['width']}"


def seated_pair(chromium, server, viewports=((1280, 900), (1280, 900))):
    """Ada and Bo at a started Entanglion table; returns (teacher client, session, pages by seat)."""
    t = Teacher(server)
    t.login(*TEACHER)
    session = t.open_session("entanglion", variant="easy", options=FIRST_GAME)
    pages = [student_joins(chromium, server, session["join_code"], name, viewport=vp)
             for name, vp in zip(("Ada", "Bo"), viewports, strict=True)]
    assert t.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    match = Match.objects.get()
    Match.objects.filter(pk=match.pk).update(seed=calm_seed())  # dice that let the opening through
    assert t.api("POST", f"/api/sessions/{session['id']}/start-all/").status_code == 200
    for page in pages:
        expect(page.locator(".ent-galaxy")).to_be_visible(timeout=10_000)
        # the board is drawn from the page's initial data before its socket is live; a move made
        # before that is refused with "try again" (static/js/play.js), as for a student
        expect(page.locator("#conn")).to_have_text("live")
    by_seat = {}
    for page in pages:
        me = page.locator(".player.me").get_attribute("data-seat")
        by_seat[int(me)] = page
    assert sorted(by_seat) == [0, 1]
    return t, session, by_seat


def ships_of(page) -> dict:
    return page.evaluate("() => JSON.parse(document.querySelector('#board').dataset.ships)")


def wait_seq(page, seq: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.seq) >= {seq}", timeout=20_000)


def test_two_students_fly_into_entanglion_and_retrieve_a_component(chromium, server, teacher):
    t, session, seats = seated_pair(chromium, server)
    merc, rub = seats[0], seats[1]
    for page in (merc, rub):
        assert ships_of(page) == {"mercurial": "ZERO", "rubicon": "ZERO"}
        expect(page.locator(".ent-ship.mercurial:not(.ghost)")).to_have_count(1)
        expect(page.locator(".ent-ship.rubicon:not(.ghost)")).to_have_count(1)
        expect(page.locator(".ent-planet")).to_have_count(12)
        expect(page.locator(".ent-path.mercurial")).not_to_have_count(0)
        expect(page.locator(".ent-path.rubicon")).not_to_have_count(0)
        expect(page.locator(".ent-component-token")).to_have_count(8)
        expect(page.locator(".ent-track-space.current")).to_have_attribute("data-index", "0")
        expect(page.locator(".ent-slot")).to_have_count(6)
        expect(page.locator(".ent-ket")).to_have_attribute("data-ket", "|00⟩")
    expect(merc.locator("#turn")).to_contain_text("Your turn")
    expect(rub.locator("button.ent-card")).to_have_count(0)  # not Rubicon's turn: nothing to play

    # 1. Mercurial hovers H: the server's preview draws the ghost ship on PLUS; then plays it
    h_card = merc.locator("button.ent-card[data-card='H']").first
    h_card.hover()
    expect(merc.locator(".ent-preview")).to_contain_text("PLUS")
    expect(merc.locator(".ent-preview-layer .ent-ship.ghost.mercurial")).to_have_count(1)
    shot(merc, "entanglion-preview.png")
    h_card.click()
    wait_seq(rub, 1)
    assert ships_of(rub) == {"mercurial": "PLUS", "rubicon": "ZERO"}
    expect(rub.locator(".ent-slot.full.mercurial")).to_have_count(1)

    # 2. Rubicon by keyboard: Tab onto CNOT (the preview says both ships enter PHI PLUS), Enter
    expect(rub.locator("#turn")).to_contain_text("Your turn")
    cnot = rub.locator("button.ent-card[data-card='CNOT']")
    for _ in range(60):
        rub.keyboard.press("Tab")
        if rub.evaluate("() => document.activeElement.dataset.card") == "CNOT":
            break
    else:
        raise AssertionError("Tab never reached the CNOT card")
    expect(cnot).to_be_focused()
    expect(rub.locator(".ent-preview")).to_contain_text("PHI PLUS")
    expect(rub.locator(".ent-preview")).to_contain_text("(|00⟩+|11⟩)/√2")
    rub.keyboard.press("Enter")
    for page in (merc, rub):
        wait_seq(page, 2)
        assert ships_of(page) == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}
        expect(page.locator(".ent-ket")).to_have_attribute("data-ket", "(|00⟩+|11⟩)/√2")
        expect(page.locator(".ent-amps tr[data-basis='|11⟩']")).to_contain_text("1/√2")
    shot(rub, "entanglion-entered.png", full_page=True)
    # Mercurial's screen reader hears the partner's move, where the ships are and whose turn it is
    expect(merc.locator("#announce")).to_contain_text(
        "Rubicon played CNOT. Both ships orbit PHI PLUS, state (|00⟩+|11⟩)/√2. Your turn.")

    # 3. a quick signal: Rubicon says "Retrieve now"; Mercurial (only) hears it
    rub.locator("[data-phrase='retrieve_now']").click()
    expect(merc.locator("#signal-log")).to_contain_text("Retrieve now")
    expect(rub.locator("#signal-log .signal-line.mine")).to_contain_text("Retrieve now")

    # 4. Mercurial retrieves the component on PHI PLUS
    expect(merc.locator("#turn")).to_contain_text("Your turn")
    merc.locator(".ent-act[data-kind='retrieve']").first.click()
    for page in (merc, rub):
        expect(page.locator(".ent-components")).to_have_attribute("data-found", "1")
        expect(page.locator(".ent-held.mercurial")).to_contain_text("Quantum Gates")
        expect(page.locator(".ent-component-token")).to_have_count(7)
    shot(merc, "entanglion-retrieved.png", full_page=True)
    sweep = Sweep()  # accessibility: no serious axe-core violation on the board, in play
    sweep.check(merc, "Entanglion in play (Mercurial)")
    sweep.check(rub, "Entanglion in play (Rubicon, waiting)")

    # the teacher's dashboard card of the table: components found, detection rate, state
    teacher_page = chromium.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    log_in(teacher_page, server.url)
    teacher_page.goto(f"{server.url}/teacher/sessions/{session['id']}/")
    card = teacher_page.locator(".table-card[data-table='1']")
    expect(card.locator(".summary")).to_contain_text("1 of 8")
    expect(card.locator(".summary")).to_contain_text("detection rate 1")
    expect(card.locator(".summary")).to_contain_text("PHI PLUS")

    # watching the table, the teacher has the analysis: routes to the components, detection odds
    match_id = Match.objects.get().pk
    teacher_page.goto(f"{server.url}/matches/{match_id}/")
    expect(teacher_page.locator(".ent-analysis")).to_contain_text("Chance of detection on the next arrival")
    expect(teacher_page.locator(".ent-routes li")).to_have_count(7)
    expect(teacher_page.locator(".ent-hand-row")).to_have_count(0)  # a spectator plays nothing
    sweep.check(teacher_page, "Entanglion watched by the teacher (analysis)")
    expect(merc.locator(".ent-routes")).to_have_count(0)  # the routes are the teacher's only
    # the replay draws every frame with the same board
    teacher_page.goto(f"{server.url}/matches/{match_id}/replay/")
    expect(teacher_page.locator(".ent-galaxy")).to_be_visible()
    assert ships_of(teacher_page) == {"mercurial": "ZERO", "rubicon": "ZERO"}
    teacher_page.click("#last")
    expect(teacher_page.locator(".ent-held.mercurial")).to_contain_text("Quantum Gates")
    assert ships_of(teacher_page) == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}
    teacher_page.click("#prev")
    teacher_page.click("#prev")
    assert ships_of(teacher_page) == {"mercurial": "PLUS", "rubicon": "ZERO"}
    sweep.check(teacher_page, "Entanglion replay (teacher)")
    sweep.verdict()


def test_entanglion_fits_a_phone_and_plays_by_keyboard(chromium, server, teacher):
    _, _, seats = seated_pair(chromium, server, viewports=((PHONE["width"], PHONE["height"]),) * 2)
    merc = seats[0]
    assert merc.evaluate(NO_SIDEWAYS) <= 0, "the board scrolls sideways on a phone"
    box = merc.locator(".ent-galaxy").bounding_box()
    assert box["width"] <= PHONE["width"] and box["width"] > 300
    shot(merc, "entanglion-phone.png", full_page=True)
    # the cards are reachable by Tab, focus shows the preview, Enter plays
    for _ in range(60):
        merc.keyboard.press("Tab")
        if merc.evaluate("() => document.activeElement.dataset.card") == "H":
            break
    else:
        raise AssertionError("Tab never reached the H card")
    expect(merc.locator(".ent-preview")).to_contain_text("PLUS")
    # the arrow keys walk the hand (X, H, H) and back, each focus with its own preview
    merc.keyboard.press("ArrowLeft")
    assert merc.evaluate("() => document.activeElement.dataset.card") == "X"
    expect(merc.locator(".ent-preview")).to_contain_text("ONE")
    merc.keyboard.press("ArrowRight")
    assert merc.evaluate("() => document.activeElement.dataset.card") == "H"
    expect(merc.locator(".ent-preview")).to_contain_text("PLUS")
    merc.keyboard.press("Enter")
    wait_seq(merc, 1)
    assert ships_of(merc) == {"mercurial": "PLUS", "rubicon": "ZERO"}
    # screen readers: the galaxy, planets and track are labelled; changes are announced
    assert merc.locator(".ent-galaxy title").first.text_content()
    expect(merc.locator(".ent-planet[data-planet='PLUS']")).to_have_attribute("aria-label", "PLUS |+⟩; Mercurial is here")
    # reachable in the accessibility tree (inside the galaxy's labelled group)
    expect(merc.get_by_role("group", name="The Entanglion galaxy")).to_have_count(1)
    expect(merc.get_by_role("img", name="PLUS |+⟩; Mercurial is here")).to_have_count(1)
    expect(merc.locator("#announce")).to_contain_text("Mercurial played H. Mercurial is on PLUS, Rubicon on ZERO. Waiting for")
    assert merc.evaluate(NO_SIDEWAYS) <= 0
    # the partner moves; at Mercurial's next turn the keyboard focus is back on the hand
    seats[1].locator("button.ent-card[data-card='CNOT']").click()
    wait_seq(merc, 2)
    expect(merc.locator("#turn")).to_contain_text("Your turn")
    expect(merc.locator("button.ent-card").first).to_be_focused()


def test_every_frame_of_a_whole_bot_game_draws_without_an_error(chromium, server, teacher):
    """Two partner bots play a whole game (every kind of decision, event and defense can come
    up); the teacher's replay draws each frame with the board, with no script error."""
    from games import services as match_services

    match = match_services.create_match("entanglion", [match_services.SeatHolder("Bot A", bot="partner"),
                                                       match_services.SeatHolder("Bot B", bot="partner")],
                                        variant="easy", seed=11, teacher=teacher)
    match_services.start_match(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.seq > 20
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, server.url)
    page.goto(f"{server.url}/matches/{match.pk}/replay/")
    expect(page.locator(".ent-galaxy")).to_be_visible()
    drawn = page.evaluate("""() => {
      const scrub = document.getElementById('scrub');
      const seen = [];
      for (let i = 0; i <= Number(scrub.max); i++) {
        scrub.value = i; scrub.dispatchEvent(new Event('input'));
        seen.push(document.querySelectorAll('.ent-ship:not(.ghost)').length);
      }
      return seen;
    }""")
    assert len(drawn) == match.seq + 1 and set(drawn) == {2}
    assert not errors, errors
    expect(page.locator(".ent-banner")).to_be_visible()  # the last frame: won or caught
    expect(page.locator("#step-text")).to_contain_text("together")
    shot(page, "entanglion-replay-end.png", full_page=True)


def test_a_student_alone_flies_with_the_partner_bot(chromium, server, teacher):
    t = Teacher(server)
    t.login(*TEACHER)
    session = t.open_session("entanglion", variant="easy", options=FIRST_GAME)  # default bot: the partner
    page = student_joins(chromium, server, session["join_code"], "Solo")
    assert t.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    assert t.api("POST", f"/api/sessions/{session['id']}/start-all/").status_code == 200
    expect(page.locator(".ent-galaxy")).to_be_visible(timeout=10_000)
    expect(page.locator(".player", has_text="Bot")).to_be_visible()
    assert Match.objects.get().seats.get(bot__gt="").bot == "partner"
    expect(page.locator("#turn")).to_contain_text("Your turn", timeout=15_000)
    before = Match.objects.get().seq
    page.locator("button.ent-card").first.click()
    for _ in range(150):  # stored, and the bot has answered in the same request
        if Match.objects.get().seq >= before + 2:
            break
        page.wait_for_timeout(100)
    match = Match.objects.get()
    assert match.seq >= before + 2 and match.actions.filter(by_bot=True).exists()
    wait_seq(page, match.seq)
    if match.status == Match.Status.PLAYING:
        expect(page.locator("#turn")).to_contain_text("Your turn")


def mechanic_position():
    """A real position (partner bots, seed 3) where Mercurial is in The Mechanic."""
    from games.bots import get_bot
    from games.engines import chance, get_game

    game, bot = get_game("entanglion"), get_bot("entanglion", "partner")
    state = game.setup(players=2, variant="easy", seed=3, options={})
    for n in range(300):
        pending = game.view(state, None)["pending"]
        if pending and pending["kind"] == "mechanic":
            seat = pending["seat"]
            return game, state, seat
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, bot.choose(game.view(state, seat), game.legal_actions(state, seat),
                                                      chance(3, n, "bot")))
    raise AssertionError("no Mechanic in this game")


def test_the_mechanic_decision_offers_its_drawn_cards_and_shows_the_hand_aside(chromium, server):
    """The board module alone, fed the engine's own view and legal actions of a Mechanic."""
    import json

    game, state, seat = mechanic_position()
    msg = {"view": game.view(state, seat), "legal": game.legal_actions(state, seat), "seat": seat,
           "to_act": game.to_act(state), "events": [], "seq": 1, "seats": []}
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    played = page.evaluate("""async (msg) => {
      const { createBoard } = await import('/static/games/entanglion.js');
      const root = document.createElement('div'); root.id = 'board'; document.body.append(root);
      window.__acts = [];
      const board = createBoard(root, { act: (a) => window.__acts.push(a) });
      board.render(msg, { animate: false });
      document.querySelector('button.ent-card').click();
      return window.__acts;
    }""", json.loads(json.dumps(msg)))
    pending = msg["view"]["pending"]
    cards = page.locator(".ent-hand-row .ent-card")
    assert [cards.nth(i).get_attribute("data-card") for i in range(cards.count())] == pending["cards"]
    expect(page.locator(".ent-aside")).to_contain_text(" ".join(pending["aside"]).split(" ")[0])
    expect(page.locator(".ent-act[data-kind='stop']")).to_have_count(1)
    assert played == [{"mechanic": pending["cards"][0]}]
    assert not errors, errors


# the visible words of the galaxy whose boxes overlap another's by more than 2 px either way
OVERLAPS = """() => {
  const texts = [...document.querySelectorAll(".ent-galaxy text")].filter((t) => t.checkVisibility() && t.textContent.trim());
  const boxes = texts.map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left), h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    if (w > 2 && h > 2) out.push(`${a} × ${b}`);
  }));
  return out;
}"""


def test_entanglion_on_a_touch_phone_reads_and_previews_on_the_first_tap(chromium, server, teacher):
    """On a 375 × 667 touch phone: the galaxy's words are 12 CSS px or more and none overlaps
    another (each planet named by its ket; its name in its label); a card's first tap previews
    where it takes the ships (ghost ship, sentence, a Play button), the second tap or the
    button plays it. The page passes the phone check (targets, covered, sideways, text)."""
    t = Teacher(server)
    t.login(*TEACHER)
    session = t.open_session("entanglion", variant="easy", options=FIRST_GAME)
    students = students_joined(server, session["join_code"])
    assert t.api("POST", f"/api/sessions/{session['id']}/auto-pair/").status_code == 200
    match = Match.objects.get()
    Match.objects.filter(pk=match.pk).update(seed=calm_seed())
    assert t.api("POST", f"/api/sessions/{session['id']}/start-all/").status_code == 200
    seats = {}
    for student in students:
        context = phone_context(chromium, PHONE_SE)
        context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in student.http.cookies])
        page = context.new_page()
        page.goto(f"{server.url}/matches/{match.pk}/")
        expect(page.locator(".ent-galaxy")).to_be_visible(timeout=10_000)
        seats[int(page.locator(".player.me").get_attribute("data-seat"))] = page
    merc, rub = seats[0], seats[1]
    expect(merc.locator("button.ent-card")).not_to_have_count(0)
    assert_phone_friendly(merc, "Entanglion on a phone (Mercurial to play)")
    assert merc.evaluate(OVERLAPS) == []
    expect(merc.locator(".ent-planet-ket")).to_have_count(12)
    expect(merc.locator(".ent-planet[data-planet='PHI PLUS']")).to_have_attribute("aria-label", re.compile(r"^PHI PLUS \|Φ\+⟩"))

    # Mercurial taps X: a preview (to ONE), nothing played; H instead: PLUS; H again: played
    merc.locator("button.ent-card[data-card='X']").tap()
    expect(merc.locator(".ent-preview")).to_contain_text("ONE")
    expect(merc.locator(".ent-preview-layer .ent-ship.ghost.mercurial")).to_have_count(1)
    expect(merc.locator(".ent-confirm button")).to_have_text("Play X")
    merc.locator("button.ent-card[data-card='H']").first.tap()
    expect(merc.locator(".ent-preview")).to_contain_text("PLUS")
    expect(merc.locator(".ent-confirm button")).to_have_text("Play H")
    assert_phone_friendly(merc, "Entanglion, a tapped card's preview", within=".ent-main")
    shot(merc, "entanglion-phone-tap-preview.png")
    assert Match.objects.get().seq == 0 and ships_of(merc) == {"mercurial": "ZERO", "rubicon": "ZERO"}
    merc.locator("button.ent-card[data-card='H']").first.tap()
    wait_seq(rub, 1)
    assert ships_of(rub) == {"mercurial": "PLUS", "rubicon": "ZERO"}
    expect(merc.locator(".ent-confirm")).to_be_empty()

    # Rubicon taps CNOT (the preview: both ships into PHI PLUS), then its Play button
    cnot = rub.locator("button.ent-card[data-card='CNOT']")
    cnot.tap()
    expect(rub.locator(".ent-preview")).to_contain_text("PHI PLUS")
    assert Match.objects.get().seq == 1
    rub.locator(".ent-confirm button").tap()
    wait_seq(merc, 2)
    assert ships_of(merc) == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}
    shot(merc, "entanglion-phone-entered.png")

"""Languages in the browser: under Spanish and Polish, no page of a whole class session
shows an English string of the app — home, join, lobby, each game's page with its events and
result, each replay and rules page (all five games), the CSV exports, the teacher's dashboard,
report and statistics.

A page "shows English" when a visible text node is, or contains, an English msgid of the
catalogs (locale/*/django.po, djangojs.po) whose translation differs: names, numbers, kets and
words that read the same in both languages (QTris, bot, CX) are not msgids, or translate to
themselves, and so never count.
"""
from __future__ import annotations

import csv
import io
import re
import time
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from classrooms import services
from classrooms.models import Classroom, Participant, Table
from games.bots import bot_levels
from games.engines import get_game
from games.models import Match
from games.names import bot_level_name, variant_name
from games.selectors import current_state
from games.services import SeatHolder, create_match, start_match
from tests.support.browser import log_in
from tests.support.entanglion_tables import FIRST_GAME, calm_seed
from tests.support.tables import open_table
from tests.support.ticket_to_ride import RUNNER_PATH, quick_seed, scripted_action, small_map
from tests.test_board_phone_keyboard_browser import api_act

pytestmark = [pytest.mark.browser, pytest.mark.server]

GAMES = [("qtris", "basic", {}), ("quantum-tictactoe", "basic", {}),
         ("quantum-poker", "classic", {"physics_mode": True}), ("entanglion", "easy", {}),
         ("quantum-ticket-to-ride", "basic", {"map": small_map()})]
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdrf]|%[sd]")
LOCALES = {"es": "es-ES", "pl": "pl-PL"}
RULES_DRAWN = "#rules[data-drawn=true]"  # a rules page whose examples are drawn

VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    const el = n.parentElement;
    if (!text || !el || el.closest("script, style, template, [hidden], .hidden")) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    if (!el.getClientRects().length) continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const a of ["aria-label", "title", "placeholder"]) if (el.getAttribute(a)) out.push(el.getAttribute(a).trim());
  }
  return out;
}"""


@cache  # the catalogs do not change during a run; read once per language, not once per page
def english_patterns(lang: str) -> tuple[set[str], list[tuple[str, str]]]:
    """Whole strings that are English msgids, and (msgid, longest literal part) for finding a
    long English sentence inside a text node, for the msgids ``lang`` translates differently."""
    whole: set[str] = set()
    parts: list[tuple[str, str]] = []
    for domain in ("django", "djangojs"):
        po = polib.pofile(str(Path(settings.BASE_DIR) / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"))
        for e in po:
            translated = list(e.msgstr_plural.values()) if e.msgid_plural else [e.msgstr]
            for english in filter(None, (e.msgid, e.msgid_plural)):
                if english in translated:
                    continue
                literal = max(PLACEHOLDER.split(english), key=len).strip(" .:;,()")
                if not PLACEHOLDER.search(english) and "<" not in english:
                    whole.add(english.strip())
                # a literal the translation keeps (a component's name: "Qubit Interconnect") is a name
                if len(literal) >= 14 and "<" not in literal and not any(literal in x for x in translated):
                    parts.append((english, literal))
    return whole, parts


def english_on(page, lang: str) -> list[str]:
    return english_in(page.evaluate(VISIBLE_TEXTS), lang)


def english_in(texts, lang: str) -> list[str]:
    """The texts (a page's, a CSV's cells) that are or hold an English msgid ``lang`` translates."""
    whole, parts = english_patterns(lang)
    found = []
    for text in texts:
        if text in whole:
            found.append(text)
            continue
        for msgid, literal in parts:
            if literal in text:
                found.append(f"{text!r} (msgid {msgid!r})")
                break
    return sorted(set(found))


# the statistics' neutral keys of sides and verdicts (the API's and the CSV's), never shown as such
STATISTICS_KEYS = re.compile(r"^(white|black|tie|draw|lost together|first player|second player|success|failure"
                             r"|seat \d+( ?/ ?seat \d+)*)$|\((white|black|seat \d+)[,)]|\b(queued|running|done)\b")


def statistics_keys_on(page) -> list[str]:
    return sorted({text for text in page.evaluate(VISIBLE_TEXTS) if STATISTICS_KEYS.search(text)})


def finished_match_of(session, teacher, participant: Participant, game: str, variant: str, options: dict,
                      number: int):
    """A match of ``game`` played to its end by bots at table ``number``; the student holds seat 1."""
    match = create_match(game, [SeatHolder("Bot", bot="random"), SeatHolder("Zoë", bot="random")],
                         seed=7, teacher=teacher, variant=variant, options=options, label=f"Table {number}")
    start_match(match.pk)
    seat = match.seats.get(index=1)
    seat.participant_id, seat.bot, seat.name = participant.pk, "", participant.display_name
    seat.save()
    Table.objects.create(session=session, number=number, match=match)
    match.refresh_from_db()
    assert match.status == match.Status.FINISHED
    return match


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_no_page_of_a_class_session_shows_english(chromium, server, teacher, lang):
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    student = chromium.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    student.on("pageerror", lambda exc: errors.append(str(exc)))
    pages: dict[str, list[str]] = {}

    def check(page, name: str) -> None:
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == lang, name
        pages[name] = english_on(page, lang)

    student.goto(server.url + "/")
    check(student, "home")
    student.goto(server.url + "/join/")
    check(student, "join")

    matches, sessions = {}, {}
    session = None
    for number, (game, variant, options) in enumerate(GAMES, start=1):
        session = sessions[game] = services.open_session(classroom, game, variant=variant, options=options)
        student.goto(server.url + f"/join/?code={session.join_code}")
        student.fill("input[name=name]", "Zoë")
        student.click("button[type=submit]")
        expect(student.locator("#lobby-status")).to_be_visible()
        check(student, f"lobby ({game})")
        participant = Participant.objects.get(session=session)
        matches[game] = finished_match_of(session, teacher, participant, game, variant, options, number)

    for game, match in matches.items():
        student.goto(server.url + f"/matches/{match.pk}/")
        student.wait_for_selector("#result:not(.hidden)", timeout=15_000)
        assert student.locator("#log .log-line").count() > 0, game  # the events, in the reader's language
        check(student, f"game page ({game})")
        student.goto(server.url + f"/matches/{match.pk}/replay/")
        student.click("#last")
        expect(student.locator("#step-text")).not_to_be_empty()
        check(student, f"replay ({game})")
        student.goto(server.url + f"/games/{game}/rules/")
        expect(student.locator(RULES_DRAWN)).to_have_count(1, timeout=10_000)
        check(student, f"rules ({game})")

    teacher_page = chromium.new_context(locale=LOCALES[lang], viewport={"width": 1400, "height": 1000}).new_page()
    teacher_page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(teacher_page, server.url)
    check(teacher_page, "teacher home")
    teacher_page.goto(server.url + f"/teacher/classes/{classroom.pk}/")
    check(teacher_page, "class")
    # the open-session form's variants (filled by classroom.js) read as names of the language
    for slug in ("entanglion", "qtris"):
        teacher_page.select_option("#id_game", slug)
        with translation.override(lang):
            wanted = [variant_name(slug, v) for v in get_game(slug).variants]
        expect(teacher_page.locator("#id_variant option")).to_have_text(wanted)
        assert teacher_page.locator("#id_variant option").first.get_attribute("value") == get_game(slug).variants[0]
        with translation.override(lang):
            wanted = [bot_level_name(level) for level in bot_levels(slug)]
        expect(teacher_page.locator("#id_bot_level option")).to_have_text(wanted)
    # the CSV exports of every game's session and the class's progress: no English cell
    exports = {f"{game}: {kind}": f"/teacher/sessions/{s.pk}/{page}/?format={fmt}" for game, s in sessions.items()
               for kind, page, fmt in (("results CSV", "report", "csv"), ("evidence CSV", "report", "evidence-csv"),
                                       ("statistics CSV", "statistics", "csv"))}
    exports["class progress CSV"] = f"/teacher/classes/{classroom.pk}/progress/?format=csv"
    for name, url in exports.items():
        response = teacher_page.request.get(server.url + url, headers={"Accept-Language": lang})
        assert response.ok and response.text().startswith("\ufeff"), name
        rows = list(csv.reader(io.StringIO(response.text()[1:]), delimiter=";"))
        cells = [c for row in rows for c in row]
        pages[name] = english_in([c.strip() for c in cells if c.strip()], lang)
    teacher_page.goto(server.url + f"/teacher/sessions/{session.pk}/")
    expect(teacher_page.locator("#tables .table-card")).to_have_count(1)
    check(teacher_page, "dashboard")
    teacher_page.goto(server.url + f"/teacher/sessions/{session.pk}/report/")
    check(teacher_page, "report")
    teacher_page.goto(server.url + f"/teacher/sessions/{session.pk}/statistics/")
    check(teacher_page, "class statistics")
    pages["class statistics: sides"] = statistics_keys_on(teacher_page)
    teacher_page.goto(server.url + f"/matches/{matches['qtris'].pk}/stats/")
    check(teacher_page, "this game vs the odds")
    pages["this game vs the odds: sides"] = statistics_keys_on(teacher_page)
    teacher_page.goto(server.url + f"/matches/{matches['quantum-tictactoe'].pk}/")
    teacher_page.wait_for_selector("#result:not(.hidden)", timeout=15_000)
    check(teacher_page, "game page (teacher)")

    english = {name: found for name, found in pages.items() if found}
    assert not english, "\n".join(f"{name}: {found}" for name, found in english.items())
    assert not errors, errors


def test_the_switcher_changes_the_language_and_remembers_it(chromium, server, teacher):
    page = chromium.new_context(locale="en-GB").new_page()
    page.goto(server.url + "/join/")
    expect(page.locator("h1")).to_have_text("Join your class")
    page.select_option("#language-switcher select", "pl")
    page.click("#language-switcher [type=submit]")
    page.wait_for_url("**/join/")
    expect(page.locator("h1")).to_have_text("Dołącz do swojej klasy")
    page.goto(server.url + "/")
    expect(page.locator("h1")).to_have_text("Kwantowe gry planszowe dla twojej klasy")
    assert page.evaluate("document.documentElement.lang") == "pl"


def test_a_class_session_in_spanish_reaches_the_students_board_and_events(chromium, server, teacher):
    classroom = Classroom.objects.create(teacher=teacher, name="Física 4B")
    session = services.open_session(classroom, "quantum-tictactoe", language="es")
    page = chromium.new_context(locale="en-GB").new_page()  # an English browser
    page.goto(server.url + f"/join/?code={session.join_code}")
    page.fill("input[name=name]", "Ada")
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text("¡Hola, Ada!")
    participant = Participant.objects.get(session=session)
    match = finished_match_of(session, teacher, participant, "quantum-tictactoe", "basic", {}, 1)
    page.goto(server.url + f"/matches/{match.pk}/")
    page.wait_for_selector("#result:not(.hidden)", timeout=15_000)
    expect(page.locator("#conn")).to_have_text("en directo")
    expect(page.locator("#log .log-line").last).to_contain_text(" en ")  # "X1 en 1 y 9"
    expect(page.locator("#log")).to_contain_text("Fin de la partida")


def in_play_page(chromium, server, lang: str, client, match_id: int):
    """A seated student's game page, in ``lang``, while the match is being played."""
    context = chromium.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in client.http.cookies])
    page = context.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    expect(page.locator("#board")).to_have_attribute("data-seq", str(Match.objects.get(pk=match_id).seq),
                                                     timeout=10_000)
    return page


def teacher_watching(chromium, server, lang: str, match_id: int):
    page = chromium.new_context(locale=LOCALES[lang], viewport={"width": 1400, "height": 1000}).new_page()
    log_in(page, server.url)
    page.goto(f"{server.url}/matches/{match_id}/")
    return page


def test_the_new_games_in_play_show_no_english(chromium, server, teacher):
    """Entanglion and Quantum Ticket-to-Ride while they are played: the boards, their previews,
    controls and the teacher's watch page are all in the reader's language. Each game is played
    once; every moment of it is opened in Spanish and in Polish (the failure names both)."""
    pages: dict[str, list[str]] = {}

    def check(page, lang: str, name: str) -> None:
        assert page.evaluate("document.documentElement.lang") == lang, f"{name} ({lang})"
        pages[f"{name} ({lang})"] = english_on(page, lang)
        chromium.give_back(page.context)  # kept for the next page (a cold context costs ~1 s of CPU)

    table = open_table(server, game="entanglion", variant="easy", options=FIRST_GAME, seed=calm_seed())
    mid = table.match_id
    for lang in LOCALES:
        merc = in_play_page(chromium, server, lang, table.students[0], mid)
        merc.locator("button.ent-card[data-card='H']").first.hover()
        expect(merc.locator(".ent-preview-layer .ent-ship.ghost.mercurial")).to_have_count(1)
        check(merc, lang, "Entanglion, a card previewed")
    api_act(table.students[0], mid, {"play": "H"})
    for lang in LOCALES:
        rub = in_play_page(chromium, server, lang, table.students[1], mid)
        rub.locator("button.ent-card[data-card='CNOT']").focus()
        expect(rub.locator(".ent-preview")).not_to_be_empty()
        check(rub, lang, "Entanglion, the other seat's turn")
        watcher = teacher_watching(chromium, server, lang, mid)
        expect(watcher.locator(".ent-analysis")).to_be_visible(timeout=10_000)
        check(watcher, lang, "Entanglion watched by the teacher")

    table = open_table(server, game="quantum-ticket-to-ride", variant="basic", options={"map": small_map()},
                       seed=quick_seed())
    mid = table.match_id
    game, planned, claimed = get_game("quantum-ticket-to-ride"), False, False
    for _ in range(30):
        state = current_state(Match.objects.get(pk=mid))
        if state["finished"]:
            break
        seat = game.to_act(state)[0]
        action = scripted_action(state, seat)
        if ("claim" in action and not claimed) or ("run" in action and not planned):
            for lang in LOCALES:
                page = in_play_page(chromium, server, lang, table.students[seat], mid)
                if "claim" in action:
                    route = page.locator(f".ttr-route[data-route='{action['claim']}']")
                    route.focus()
                    page.keyboard.press("Enter")
                    expect(route).to_have_attribute("aria-pressed", "true")
                    check(page, lang, "Quantum Ticket-to-Ride, a route selected")
                else:
                    page.locator("[data-plan]").click()
                    for city in RUNNER_PATH[1:]:
                        page.locator(f".ttr-city[data-city='{city}']").focus()
                        page.keyboard.press("Enter")
                    expect(page.locator(".ttr-verdict")).not_to_be_empty()
                    check(page, lang, "Quantum Ticket-to-Ride, a run planned")
            claimed = claimed or "claim" in action
            planned = planned or "run" in action
        api_act(table.students[seat], mid, action)
    assert planned and claimed
    for lang in LOCALES:
        page = in_play_page(chromium, server, lang, table.students[0], mid)
        expect(page.locator("#result")).to_be_visible(timeout=10_000)
        check(page, lang, "Quantum Ticket-to-Ride, result")
        watcher = teacher_watching(chromium, server, lang, mid)
        expect(watcher.locator(".ttr-teacher li")).to_have_count(2, timeout=10_000)
        check(watcher, lang, "Quantum Ticket-to-Ride watched by the teacher")

    assert len(pages) == 2 * 7, sorted(pages)  # every moment, in both languages
    english = {name: found for name, found in pages.items() if found}
    assert not english, "\n".join(f"{name}: {found}" for name, found in english.items())


TILE_CODES = re.compile(r"\b(W|B|R|L|UP|DOWN)\b")


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_qtris_tiles_read_as_words_of_the_language_never_as_codes(chromium, server, teacher, lang):
    """The exercise editor draws the real QTris board beside its tile palette: under es / pl the
    tiles are named in the language (the board's own catalog words: "kitten up"), in the palette,
    the squares' and the board's screen-reader names and its visible text, never as the codes
    W B R L UP DOWN (the engine's options keep those, in the JSON only)."""
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    page = chromium.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900}).new_page()
    log_in(page, server.url)
    page.goto(server.url + f"/teacher/classes/{classroom.pk}/exercises/new/")
    expect(page.locator(".ex-result.ok")).to_be_visible(timeout=10_000)  # validated, the board drawn
    expect(page.locator("#board g.sq")).to_have_count(9)
    words = page.evaluate("""() => ["white", "black", "kitten right", "kitten left", "kitten up", "kitten down"]
      .map((w) => window.django.gettext(w))""")
    assert words[4] != "kitten up"  # the catalog of the page's language is loaded
    palette = page.locator("#ex-palette .ex-tile")
    expect(palette).to_have_count(12)
    names = palette.evaluate_all("(bs) => bs.map((b) => [b.textContent, b.getAttribute('aria-label')])")
    for (text, name), word in zip(names, words * 2, strict=True):
        assert word in name and (word in text or text.startswith("U·")), (text, name)
    squares = page.locator("#ex-grid .ex-sq").evaluate_all("(bs) => bs.map((b) => b.getAttribute('aria-label'))")
    assert len(squares) == 9 and all(any(w in s for w in words) for s in squares), squares
    shown = [t for t in page.evaluate(VISIBLE_TEXTS) if TILE_CODES.search(t)]
    assert not shown, f"tile codes shown under {lang}: {shown}"


EDITOR_ENGLISH = re.compile(r"mixture, 1/\d+ each|\bsquare \d\b|\b(Alice|Bob), card \d\b|\bpair \d–\d\b|click: set the palette"
                            r"|shift-click|Exercise \d\.\d\.\d —|Square 5 holds|Turn the black circle|Kittens and circles")


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_the_exercise_editor_shows_no_english(chromium, server, teacher, lang):
    """The QTris exercise editor under es / pl with a rulebook example loaded, a mixture on a
    square and a pair: no English msgid of the catalogs on the page (english_on), and none of
    the editor's own words that were once English literals: "mixture, 1/2 each", "square 3",
    "Alice, card 1", "pair 8–9", the squares' click/shift-click tooltip, the examples' texts."""
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    page = chromium.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900}).new_page()
    log_in(page, server.url)
    page.goto(server.url + f"/teacher/classes/{classroom.pk}/exercises/new/")
    expect(page.locator(".ex-result.ok")).to_be_visible(timeout=10_000)
    page.select_option("#ex-example", "2")  # 2.3.2: a pair on squares 8-9
    expect(page.locator("#ex-example-text")).not_to_be_empty()
    expect(page.locator(".ex-sq.pair")).to_have_count(2)
    page.locator(".ex-sq[data-square='1']").click(modifiers=["Shift"])  # a mixture on square 1
    expect(page.locator(".ex-sq[data-square='1'] small")).to_be_visible()
    expect(page.locator(".ex-result.ok")).to_be_visible(timeout=10_000)
    texts = page.evaluate(VISIBLE_TEXTS) + page.evaluate(
        "() => [...document.querySelectorAll('#ex-pairs option, #ex-hands select')].map((e) => e.textContent + ' '"
        " + (e.getAttribute('aria-label') || ''))")
    english = sorted({t for t in texts if EDITOR_ENGLISH.search(t)})
    assert not english, f"English in the exercise editor under {lang}: {english}"
    assert not english_on(page, lang)


# English words a page once built from literals or codes, which english_on (whole msgids and
# long literals) cannot see: "square 1" in a translated sentence, "(s)", a variant's or a bot
# level's slug, a screen-reader suffix
PLAY_ENGLISH = re.compile(r"\bsquares? \d|\((s)\)|card\(s\)|play\(s\)|\bclassic\b|, picked\b"
                          r"|\bBot \d+ \((strong|random|medium|partner)\)|\(was |\bhas no legal target\b"
                          r"|is now white with probability|\bDice of the last move\b")


def play_english_on(page) -> list[str]:
    texts = page.evaluate(VISIBLE_TEXTS) + page.evaluate(
        "() => [...document.querySelectorAll('#board [aria-label], #announce')].map((e) => e.getAttribute('aria-label') || e.textContent)")
    return sorted({t for t in texts if t and PLAY_ENGLISH.search(t)})


def playing_page(chromium, server, lang: str, client, match_id: int):
    """A seated student's game page in ``lang``, its first state drawn."""
    context = chromium.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in client.http.cookies])
    page = context.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    page.wait_for_function("() => window.matchState && window.matchState()", timeout=10_000)
    return page


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_the_games_mid_game_show_no_english(chromium, server, teacher, lang):
    """QTris, quantum tic-tac-toe and QuantumPoker while they are played (a move made, its news
    said, its explanation shown), with a bot seated by the class session: no English msgid of
    the catalogs and none of the words once built from literals (PLAY_ENGLISH); Entanglion's
    dice panel. (The exports and the rules pages: test_no_page_of_a_class_session_shows_english.)"""
    from tests.test_qtris_board_browser import OPTIONS as QTRIS_OPTIONS

    pages: dict[str, list[str]] = {}
    games = [("qtris", {"variant": "advanced", "options": QTRIS_OPTIONS}, {"card": "U", "squares": [5]}),
             ("quantum-tictactoe", {}, {"squares": [1, 2]}),
             ("quantum-poker", {"variant": "classic", "options": {"table_size": 2, "hands": 1, "community_cards": 6}},
              None)]
    for game, extra, first_move in games:
        table = open_table(server, game=game, **extra)
        mid = table.match_id
        seat = next(s for s, st in table.students.items()
                    if st.api("GET", f"/api/matches/{mid}/").json()["legal"])
        page = playing_page(chromium, server, lang, table.students[seat], mid)
        legal = table.students[seat].api("GET", f"/api/matches/{mid}/").json()["legal"]
        move = first_move or next(a for a in legal if a.get("card") is not None)
        before = Match.objects.get(pk=mid).seq
        if game == "qtris":  # played on the page: its explanation panel shows the kets of the squares
            page.locator(".qcard[data-card=U]").click()
            page.locator("g.sq.target[data-square='5']").click()
        elif game == "quantum-tictactoe":  # the first square picked: its screen-reader name says so
            page.locator("g.cell[data-square='1']").click()
            expect(page.locator("g.cell.picked[data-square='1']")).to_have_count(1)
            pages[f"{game}, a square picked: English words"] = play_english_on(page)
            page.locator("g.cell[data-square='2']").click()
        else:
            api_act(table.students[seat], mid, move)
        # the move stored (a click sends it: read the log only once it has grown), then the page has it
        deadline = time.monotonic() + 10
        while Match.objects.get(pk=mid).seq == before and time.monotonic() < deadline:
            time.sleep(0.05)
        page.wait_for_function("(seq) => window.matchState() && window.matchState().seq >= seq",
                               arg=Match.objects.get(pk=mid).seq, timeout=10_000)
        if game == "qtris":
            expect(page.locator(".ex-kets")).to_be_visible()
        pages[f"{game}, mid-game"] = english_on(page, lang)
        pages[f"{game}, mid-game: English words"] = play_english_on(page)
        chromium.give_back(page.context)

    # a class session seats a bot: its name in the language, on the student's page
    classroom = Classroom.objects.create(teacher=teacher, name="Physics 9A")
    session = services.open_session(classroom, "quantum-tictactoe", bot_level="strong")
    student = chromium.new_context(locale=LOCALES[lang]).new_page()
    student.goto(server.url + f"/join/?code={session.join_code}")
    student.fill("input[name=name]", "Zoë")
    student.click("button[type=submit]")
    expect(student.locator("#lobby-status")).to_be_visible()
    participant = Participant.objects.get(session=session)
    table = services.seat_table(session, [participant], bots=1)
    student.goto(server.url + f"/matches/{table.match_id}/")
    expect(student.locator("#players .player")).to_have_count(2)
    pages["a table with a bot: English words"] = play_english_on(student)
    with translation.override(lang):
        assert any(bot_level_name("strong") in t for t in student.locator("#players .player").all_text_contents())

    # Entanglion's dice of the last move, on the play page and its replay
    table = open_table(server, game="entanglion", variant="easy", options=FIRST_GAME, seed=calm_seed())
    page = playing_page(chromium, server, lang, table.students[0], table.match_id)
    if page.locator(".ent-dice").count():
        pages["Entanglion, dice"] = english_on(page, lang) + play_english_on(page)
    chromium.give_back(page.context)

    english = {name: found for name, found in pages.items() if found}
    assert not english, "\n".join(f"{name}: {found}" for name, found in english.items())

"""Languages: the catalogs are complete, every msgid of the code is in them, engine
events render in the reader's language, and the language is chosen per browser (Accept-Language,
the header's switcher) and per class session by the teacher.

The browser half (no English on any page under es / pl) is tests/test_i18n_browser.py.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classrooms import services
from classrooms.models import Classroom, ClassSession
from games.engines import list_games
from games.engines.base import render_text
from games.errors import AppError
from games.event_text import localize
from tests.support.engines import playout

ROOT = Path(settings.BASE_DIR)
LANGS = ("es", "pl")
DOMAINS = ("django", "djangojs")
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdrf]")


def catalog(lang: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"))


def msgids(po: polib.POFile) -> set[str]:
    return {e.msgid for e in po if not e.obsolete}


# ------------------------------------------------------------------ the catalogs

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_catalog_has_no_untranslated_fuzzy_or_obsolete_entry(lang, domain):
    po = catalog(lang, domain)
    assert len(po) > 50
    assert not po.metadata_is_fuzzy, "the catalog header is still marked fuzzy"
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    obsolete = [e.msgid for e in po.obsolete_entries()]
    assert not untranslated, f"untranslated in {lang}/{domain}: {untranslated[:10]}"
    assert not fuzzy, f"fuzzy in {lang}/{domain}: {fuzzy[:10]}"
    assert not obsolete, f"obsolete in {lang}/{domain}: {obsolete[:10]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_every_placeholder(lang, domain):
    """A translation that drops or renames %(name)s would crash or lose a value at run time."""
    bad = []
    for e in catalog(lang, domain):
        wanted = sorted(PLACEHOLDER.findall(e.msgid))
        strings = list(e.msgstr_plural.values()) if e.msgid_plural else [e.msgstr]
        for text in strings:
            if not text:  # untranslated: the test above reports it
                continue
            # a plural form may leave out the number ("in the last minute") or say it where
            # only the English plural does
            if sorted(PLACEHOLDER.findall(text)) != wanted and not (
                    e.msgid_plural and set(PLACEHOLDER.findall(text)) <= set(wanted) | set(
                        PLACEHOLDER.findall(e.msgid_plural))):
                bad.append((e.msgid, text))
    assert not bad, bad[:5]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_plural_entries_have_every_form_of_the_language(lang, domain):
    """GNU msgfmt (Django's compilemessages) refuses a catalog whose plural entry has fewer forms
    than its Plural-Forms header counts (Polish: 4, Spanish: 3)."""
    po = catalog(lang, domain)
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"])[1])
    short = [e.msgid for e in po if e.msgid_plural and sorted(e.msgstr_plural) != list(range(forms))]
    assert not short, f"{lang}/{domain}: plural entries without {forms} forms: {short[:5]}"


def test_pure_python_compile_writes_mo_files_that_django_reads(tmp_path):
    """make install / make test compile the catalogs with polib (no GNU gettext)."""
    from core.management.commands.compile_catalogs import compile_catalog

    po_path = tmp_path / "django.po"
    shutil.copy(ROOT / "locale" / "pl" / "LC_MESSAGES" / "django.po", po_path)
    assert compile_catalog(po_path, force=True)
    mo = polib.mofile(str(po_path.with_suffix(".mo")))
    assert {e.msgid: e.msgstr for e in mo}["Join a game"] == "Dołącz do gry"
    assert not compile_catalog(po_path)  # already current
    with translation.override("pl"):
        assert translation.gettext("Join a game") == "Dołącz do gry"
    with translation.override("es"):
        assert translation.gettext("Join a game") == "Unirse a una partida"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="extraction needs GNU gettext (make gettext-tools)")
def test_every_msgid_in_the_code_is_in_the_catalogs(tmp_path, monkeypatch, settings):
    """Extraction (the same `makemessages` as `make messages`, in this process) over a copy of the
    code into an empty locale/: every msgid it finds must already be in locale/es and locale/pl."""
    from django.core.management import call_command

    for name in ("config", "core", "classrooms", "games", "simulator", "quantum", "templates", "static"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [str(tmp_path / "locale")]
    monkeypatch.chdir(tmp_path)
    for domain in DOMAINS:
        call_command("makemessages", locale=["es"], domain=domain, verbosity=0)
        found = msgids(polib.pofile(str(tmp_path / "locale" / "es" / "LC_MESSAGES" / f"{domain}.po")))
        assert len(found) > 50
        for lang in LANGS:
            missing = sorted(found - msgids(catalog(lang, domain)))
            assert not missing, (f"{len(missing)} msgids of the code are not in locale/{lang}/{domain}.po "
                                 f"(run `make messages` and translate them): {missing[:10]}")


# ------------------------------------------------------------------ engine events

@pytest.mark.parametrize("game", list_games(), ids=lambda g: g.slug)
def test_every_event_has_a_registered_code_whose_english_is_its_text(game):
    texts = getattr(game, "event_texts", None)
    assert texts, f"{game.slug} registers no event_texts (see games/engines/base.py)"
    seen = set()
    for variant in game.variants:
        for seed in range(3):
            for events in playout(game, variant, seed, max_actions=150).events:
                for e in events:
                    assert e.get("code") in texts, (game.slug, e)
                    assert render_text(texts, e["code"], e["params"]) == e["text"], e
                    seen.add(e["code"])
    assert len(seen) >= 5


@pytest.mark.parametrize("game", list_games(), ids=lambda g: g.slug)
@pytest.mark.parametrize("lang", LANGS)
def test_events_render_in_the_readers_language(game, lang):
    """Every event of random matches renders in es / pl without error, and most of them read
    differently from English (what stays the same are names and numbers only)."""
    changed = total = 0
    for variant in game.variants:
        match = playout(game, variant, 1, max_actions=120)
        events = [e for step in match.events for e in step]
        with translation.override(lang):
            local = localize(game.slug, events)
        for english, translated in zip(events, local, strict=True):
            total += 1
            changed += translated["text"] != english["text"]
            assert {k: v for k, v in translated.items() if k not in ("text", "explain")} == \
                   {k: v for k, v in english.items() if k not in ("text", "explain")}
            if "explain" in english:  # QTris: the explanation of the play is translated too
                assert translated["explain"]["text"] != english["explain"]["text"]
    assert total and changed / total > 0.6, (changed, total)


def test_a_known_event_in_spanish_and_polish():
    game = next(g for g in list_games() if g.slug == "quantum-tictactoe")
    state = game.setup(players=2)
    _, events = game.apply(state, 0, {"squares": [1, 9]})
    assert events[0]["text"] == "X1 on 1 and 9"
    with translation.override("es"):
        assert localize(game.slug, events)[0]["text"] == "X1 en 1 y 9"
    with translation.override("pl"):
        assert localize(game.slug, events)[0]["text"] == "X1 na 1 i 9"


# ------------------------------------------------------------------ choosing the language

def test_accept_language_picks_the_page_language(db):
    page = Client(HTTP_ACCEPT_LANGUAGE="pl-PL,pl;q=0.9,en;q=0.5").get(reverse("home"))
    html = page.content.decode()
    assert '<html lang="pl">' in html and "Kwantowe gry planszowe dla twojej klasy" in html
    page = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").get(reverse("home"))
    assert "Juegos de mesa cuánticos para tu clase" in page.content.decode()
    page = Client(HTTP_ACCEPT_LANGUAGE="de-DE").get(reverse("home"))
    assert "Quantum board games for your class" in page.content.decode()


def test_the_switcher_remembers_the_choice_over_accept_language(db):
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    response = client.post(reverse("set_language"), {"language": "pl", "next": "/join/"})
    assert response.status_code == 302 and response["Location"] == "/join/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"
    assert "Dołącz do swojej klasy" in client.get(reverse("classrooms:join")).content.decode()
    # a language that is not offered changes nothing
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"


def test_the_header_offers_every_language_with_the_current_one_selected(db):
    html = Client(HTTP_ACCEPT_LANGUAGE="es").get(reverse("home")).content.decode()
    assert 'action="/i18n/setlang/"' in html
    for code, name in settings.LANGUAGES:
        assert f'value="{code}"' in html and name in html
    assert re.search(r'<option value="es" lang="es" selected>', html)


def test_the_javascript_catalog_is_served_same_origin_in_the_pages_language(db):
    js = Client(HTTP_ACCEPT_LANGUAGE="pl").get(reverse("javascript-catalog"))
    assert js.status_code == 200 and '"Your turn.": "Tw\\u00f3j ruch."' in js.content.decode()
    assert "script-src 'self'" in js["Content-Security-Policy"]


def test_a_session_in_polish_shows_students_pages_in_polish_unless_they_switched(classroom):
    session = services.open_session(classroom, "quantum-tictactoe", language="pl")
    student = Client(HTTP_ACCEPT_LANGUAGE="es")
    student.post(reverse("classrooms:join"), {"code": session.join_code, "name": "Ada"})
    lobby = student.get(reverse("classrooms:lobby", args=[session.pk])).content.decode()
    assert "Cześć, Ada!" in lobby and '<html lang="pl">' in lobby
    # the teacher changes nothing for a browser that picked its language in the header
    student.post(reverse("set_language"), {"language": "es", "next": "/"})
    lobby = student.get(reverse("classrooms:lobby", args=[session.pk])).content.decode()
    assert "¡Hola, Ada!" in lobby
    # a session without a language leaves every browser its own
    other = services.open_session(classroom, "quantum-tictactoe")
    english = Client()
    english.post(reverse("classrooms:join"), {"code": other.join_code, "name": "Bo"})
    assert "Hi Bo!" in english.get(reverse("classrooms:lobby", args=[other.pk])).content.decode()


def test_the_teacher_sets_the_session_language_in_the_form_and_bad_values_change_nothing(
        client, teacher_user, classroom):
    client.force_login(teacher_user)
    url = reverse("classrooms:classroom", args=[classroom.pk])
    response = client.post(url, {"game": "quantum-tictactoe", "variant": "basic", "bot_level": "strong",
                                 "show_odds": "on", "language": "es", "options": ""})
    assert response.status_code == 302
    assert ClassSession.objects.get(classroom=classroom).language == "es"
    response = client.post(url, {"game": "quantum-tictactoe", "variant": "basic", "bot_level": "strong",
                                 "language": "xx", "options": ""})
    assert response.status_code == 200 and ClassSession.objects.filter(classroom=classroom).count() == 1
    with pytest.raises(AppError):
        services.open_session(classroom, "quantum-tictactoe", language="klingon")


def test_the_api_sets_the_session_language(client, teacher_user, classroom):
    client.force_login(teacher_user)
    response = client.post("/api/sessions/", {"classroom": classroom.pk, "game": "quantum-tictactoe",
                                              "language": "pl"}, content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["language"] == "pl"
    response = client.post("/api/sessions/", {"classroom": classroom.pk, "game": "quantum-tictactoe",
                                              "language": "xx"}, content_type="application/json")
    assert response.status_code == 400


def test_an_engines_refusal_reaches_the_reader_in_their_language():
    from games.engines import IllegalAction
    from games.errors import from_illegal

    game = next(g for g in list_games() if g.slug == "quantum-tictactoe")
    state, _ = game.apply(game.setup(players=2), 0, {"squares": [1, 2]})
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, 0, {"squares": [3, 4]})
    assert refused.value.message == "it is O's turn to move (seat 1)"
    with translation.override("es"):
        assert from_illegal(refused.value).message == "le toca jugar a O (asiento 1)"  # seat: asiento (locale/glossary.json)
    with translation.override("pl"):
        assert from_illegal(refused.value).message == "teraz ruch O (miejsce 1)"
    with translation.override("pl"):  # a fixed message is translated as well
        refused = IllegalAction("game_over", "The game is over.")  # (the contract's, engines/contract.py)
        assert from_illegal(refused).message == "Gra się skończyła."


def test_a_physics_note_of_quantumpoker_reads_in_the_readers_language():
    """A text of a view with a message beside it (``note`` / ``note_message``) is rendered again."""
    from games.engines.quantum_poker import physics_counterfactual
    from games.event_text import localize_view
    from tests.engines.test_quantum_poker import new, play, rig

    s = rig(new(2, community_cards=3), cards=["H", "X", "H"], values={1: [1, 0, 0, 0]})
    for card, (seat, q) in enumerate([(1, 0), (0, 0), (1, 0)]):
        s, _ = play(s, card, seat, q)
    analysis = physics_counterfactual(s)
    note = analysis["seats"][1]["cards"][0]["note"]
    assert "H·H = I" in note and "would be 1 for sure" in note
    with translation.override("es"):
        local = localize_view("quantum-poker", analysis)["seats"][1]["cards"][0]["note"]
    assert "H·H = I" in local and "sería 1 con seguridad" in local


def test_a_views_events_and_texts_with_a_message_read_in_the_readers_language_once_for_both_places():
    """A QTris view's events (their texts, their explanations' squares before and after) render in
    the reader's language exactly as the move's own events beside the view do, and a text with a
    ``<key>_message`` beside it renders wherever it is: inside an event as outside."""
    from games.engines import get_game
    from games.event_text import localize_view
    from tests.support.engines import playout

    game = get_game("qtris")
    match = playout(game, "advanced", 3, max_actions=40)
    state = match.states[-1]
    view = game.view(state, 0)
    assert any(ch.get("before_message") for e in view["events"] for ch in (e.get("explain") or {}).get("changes", []))
    note = {"type": "note", "text": "White", "label": "White", "label_message": {"code": "tile_W", "params": {}}}
    view = {**view, "events": [*view["events"], note], "legend": {"label": "White", "label_message": {"code": "tile_W", "params": {}}},
            "title": "White", "title_message": {"code": "tile_W", "params": {}}}
    with translation.override("es"):
        local = localize_view("qtris", view)
        assert local["events"] == localize("qtris", view["events"])
        white = translation.gettext(game.event_texts["tile_W"])
    assert white != "White"
    assert local["events"][-1]["label"] == white and local["legend"]["label"] == white and local["title"] == white
    # the reader is given the texts, not the messages they were rendered from, at any depth
    assert "_message" not in json.dumps(local)
    assert list(local) == [key for key in view if key != "title_message"]
    for english, spanish in zip(view["events"], local["events"], strict=True):
        for before, after in zip((english.get("explain") or {}).get("changes", []),
                                 (spanish.get("explain") or {}).get("changes", []), strict=True):
            assert after["before"] != before["before"] and after["after"] != before["after"]


TILE_CODES = re.compile(r"\b(W|B|R|L|UP|DOWN)\b")


@pytest.mark.parametrize("basis, tile", [("color", "W"), ("left-right", "R"), ("up-down", "R")])
def test_qtris_eve_says_her_measurement_in_the_readers_words_never_the_tiles_codes(basis, tile):
    """The outcome of Eve's measurement is a tile's name through the catalog (white circle,
    kitten up...), in English and under es / pl; the tiles' codes W B R L UP DOWN stay in the
    event's language-neutral ``result`` field only."""
    from games.engines.qtris.texts import EVENT_TEXTS
    from tests.engines.test_qtris_eve_noise_d100 import GAME, eve_table

    state = eve_table([tile] * 9)
    state, _ = GAME.apply(state, 0, {"card": "I"})
    _, events = GAME.apply(state, 1, {"eve_measure": {"squares": [5], "basis": basis}, "discard": ["X", "H"]})
    measured = events[0]
    code = measured["result"][0]
    assert code in {"color": ("W", "B"), "left-right": ("R", "L"), "up-down": ("UP", "DOWN")}[basis]
    assert measured["params"]["result"] == [{"code": f"tile_{code}", "params": {}}]
    outcome = measured["text"].rsplit("→", 1)[1].strip()
    assert outcome == EVENT_TEXTS[f"tile_{code}"] and not TILE_CODES.search(outcome), measured["text"]
    for lang in LANGS:
        with translation.override(lang):
            said = localize("qtris", [measured])[0]["text"].rsplit("→", 1)[1].strip()
            assert said == translation.gettext(EVENT_TEXTS[f"tile_{code}"]) != outcome, (lang, said)
        assert not TILE_CODES.search(said), (lang, said)


SCORE_CONTEXT, SCORE_MSGID = "QTris score: W = white, B = black", "W%(white)s B%(black)s"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_a_qtris_score_shows_the_colours_initials_of_the_readers_language(lang):
    """"W3 B1" (the score's language-neutral key: the API's, the stored runs') reaches a reader
    through the catalog (msgctxt ``SCORE_CONTEXT``): on the match's statistics page under es / pl
    the real score is written with that language's initials of white and black, never W / B."""
    from django.contrib.auth.models import User

    from simulator.scoring import score_label, score_words
    from tests.test_simulator_fixtures import class_table, finished_qtris

    with translation.override(lang):
        said = score_words("W3 B1")
        assert said == translation.pgettext(SCORE_CONTEXT, SCORE_MSGID) % {"white": 3, "black": 1}
    with translation.override("en"):
        assert score_words("W3 B1") == "W3 B1" and score_words("1:3 2:0") == "1:3 2:0"
    assert not re.fullmatch(r"W\d+ B\d+", said), f"the {lang} catalog has no {SCORE_MSGID!r} ({SCORE_CONTEXT})"

    teacher = User.objects.create_user("ms-curie", password="radium-1898-Polonium")
    match = finished_qtris(teacher)
    class_table(teacher, match)
    client = Client(HTTP_ACCEPT_LANGUAGE=f"{lang}-{lang.upper()},{lang};q=0.9")
    client.force_login(teacher)
    html = client.get(f"/matches/{match.pk}/stats/").content.decode()
    white, black = match.outcome["lines"]["white"], match.outcome["lines"]["black"]
    with translation.override(lang):
        assert f"<b>{score_words(score_label(['white', 'black'], [white, black]))}</b>" in html
    assert f"<b>W{white} B{black}</b>" not in html


# ------------------------------------------------------------------ the statistics pages' keys and charts

STATISTICS_KEYS = ["white", "black", "tie", "draw", "lost together", "first player", "second player",
                   "success", "failure", "seat 2", "seat 1/seat 2"]
ENGLISH_KEY_CELL = re.compile(r"<td>(white|black|tie|draw|lost together|first player|second player|success|"
                              r"failure|seat \d+(/seat \d+)*)</td>|\((white|black|seat \d+)[,)]")


@pytest.mark.parametrize("lang", LANGS)
def test_the_statistics_keys_read_in_the_readers_language(lang):
    """The sides and verdicts of the statistics keep their neutral keys in the API and the CSV
    (``white``, ``tie``, ``lost together``, ``first player``, ``seat 2``); a reader sees words of
    their language, and so do the score labels built of them (Ticket-to-Ride's success/failure)."""
    from simulator.scoring import score_words, side_words

    with translation.override("en"):
        english = {key: side_words(key) for key in STATISTICS_KEYS}
        assert english["tie"] == english["draw"] == "draw" and english["seat 1/seat 2"] == "seat 1 / seat 2"
        assert score_words("success:1 failure:0") == "success:1 failure:0"
    assert side_words("mercurial") == "Mercurial" and side_words("1") == "1"  # names and numbers stay
    with translation.override(lang):
        local = {key: side_words(key) for key in STATISTICS_KEYS}
        untranslated = [key for key in STATISTICS_KEYS if local[key] == english[key]]
        assert not untranslated, f"no {lang} words for {untranslated}"
        assert score_words("success:1 failure:0") == f"{local['success']}:1 {local['failure']}:0"
        assert score_words("1:3 2:0") == "1:3 2:0"


def svg_texts(html: str) -> list[str]:
    """The words of the page's matplotlib charts drawn with ``svg.fonttype: none`` (as <text>)."""
    return [re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r"<text\b[^>]*>(.*?)</text>", html, re.S)]


CHART_ENGLISH = ["probability / fraction of shots", "exact odds", "Scores: exact odds and shots",
                 "Final scores over all tables", "tables", "Expected vs actual score", "expected score (exact odds)",
                 "actual score", "actual = expected", "white", "black"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_statistics_pages_show_sides_and_charts_in_the_readers_language(lang):
    """The class statistics page and a match's "vs the odds" page under es / pl: the tables name
    the sides and verdicts in the language (never the keys ``white``, ``tie``, ``first player``),
    and the matplotlib charts are drawn with the language's words (title, axes, legend), at each
    request (nothing cached across languages: the same page read in English right after is English)."""
    import matplotlib
    from django.contrib.auth.models import User

    from simulator.selectors import session_statistics
    from tests.test_simulator_fixtures import class_table, finished_qtris

    teacher = User.objects.create_user("ms-curie", password="radium-1898-Polonium")
    first = finished_qtris(teacher, seed=5)
    session = class_table(teacher, first)
    class_table(teacher, finished_qtris(teacher, seed=8), number=2, session=session)
    stats = session_statistics(session)
    assert stats["win_rate_by_start"] and {"white", "black"} <= set(stats["mean_scores"])

    def page(url: str, accept: str) -> str:
        client = Client(HTTP_ACCEPT_LANGUAGE=accept)
        client.force_login(teacher)
        with matplotlib.rc_context({"svg.fonttype": "none"}):
            response = client.get(url)
        assert response.status_code == 200, url
        return response.content.decode()

    stats_url, odds_url = f"/teacher/sessions/{session.pk}/statistics/", f"/matches/{first.pk}/stats/"
    for url in (stats_url, odds_url):
        html = page(url, f"{lang}-{lang.upper()},{lang};q=0.9")
        assert f'<html lang="{lang}">' in html
        assert not ENGLISH_KEY_CELL.search(html), ENGLISH_KEY_CELL.search(html)[0]
        words = svg_texts(html)
        assert words, "no chart drawn with svg.fonttype none"
        english = [w for w in words if w in CHART_ENGLISH]
        assert not english, f"English words in a chart of {url} under {lang}: {english}"
        with translation.override(lang):
            if url == stats_url:
                assert translation.gettext("Expected vs actual score") in words
                assert translation.gettext("white") in html and translation.gettext("first player") in html
            else:
                assert translation.gettext("probability / fraction of shots") in words
        english_words = svg_texts(page(url, "en"))
        assert ("Expected vs actual score" if url == stats_url else "probability / fraction of shots") in english_words


# ------------------------------------------------------------------ game and variant names

GAME_SLUGS = [g.slug for g in list_games()]
VARIANT_SLUGS = sorted({v for g in list_games() for v in g.variants})
# a slug shown as a word ("qtris (basic)", "eve", "quantum-tictactoe"); case matters: "Eve" is a name;
# a slug in an address the page prints (the projector's "/games/qtris/rules/") is no word
RAW_SLUG = re.compile(r"(?<![\w/-])(" + "|".join(re.escape(s) for s in GAME_SLUGS + VARIANT_SLUGS) + r")(?![\w-])")


def page_words(html: str) -> str:
    """What a person reads on a page: its text and labels, without the scripts' data, the tags
    and their attributes (option values keep the slugs on purpose)."""
    import html as html_lib

    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(html_lib.unescape(text).split())


def test_every_game_and_variant_has_a_name_in_the_readers_language():
    """``games.names``: the engines' ``variant_names`` in the reader's language; an unknown slug
    stays as it is (a session of a game that was removed still shows something)."""
    from games.bots import LEVEL_NAMES, bot_levels
    from games.names import bot_level_name, game_name, variant_choices, variant_name

    es = catalog("es", "django")
    for game in list_games():
        assert [v for v, _name in variant_choices(game.slug)] == list(game.variants)
        assert set(bot_levels(game.slug)) <= set(LEVEL_NAMES), f"a bot level of {game.slug} has no name"
        for msgid in game.variant_names.values():  # the words are msgids of the catalogs
            assert es.find(msgid) is not None, f"{game.slug}: {msgid!r} is not in the catalogs"
    with translation.override("en"):
        assert variant_name("qtris", "eve") == "Eve listens in" and game_name("quantum-tictactoe") == "Quantum tic-tac-toe"
        assert variant_name("chess", "blitz") == "blitz" and game_name("chess") == "chess"
        assert variant_name("qtris", "blitz") == "blitz"
    for lang in LANGS:
        with translation.override(lang):
            assert game_name("quantum-tictactoe") != "Quantum tic-tac-toe" and game_name("qtris") == "QTris"
            same = [(g.slug, v) for g in list_games() for v in g.variants if variant_name(g.slug, v) == g.variant_names[v]]
            assert not same, f"variants without a {lang} name: {same}"
            same = [level for level, msgid in LEVEL_NAMES.items() if bot_level_name(level) == msgid]
            assert not same, f"bot levels without a {lang} name: {same}"


@pytest.mark.parametrize("lang", LANGS)
def test_teacher_pages_name_games_and_variants_in_the_readers_language_never_by_slug(lang, classroom):
    """A session of every game and variant, read under es / pl: the class page (its session list,
    exercises and the open-session form's variant and bot names), each game's dashboard, report, class
    statistics and projector, the exercise editor and the home page show the games' and the
    variants' names in the language: no slug (``qtris``, ``basic``, ``eve``, ``s-expansion``) and
    no English name that has a translation ("Quantum tic-tac-toe")."""
    import json

    from classrooms.models import Exercise
    from games.engines import get_game
    from games.names import bot_level_name, game_name, variant_name

    teacher = classroom.teacher
    sessions = {}
    for game in list_games():
        for variant in game.variants:
            size = 3 if variant == "eve" else game.min_players
            sessions[game.slug, variant] = services.open_session(classroom, game.slug, variant=variant,
                                                                 options={"table_size": size})
    Exercise.objects.create(classroom=classroom, name="Puzzle", game="qtris", variant="s-expansion")
    client = Client(HTTP_ACCEPT_LANGUAGE=f"{lang}-{lang.upper()},{lang};q=0.9")
    client.force_login(teacher)
    english_names = [g.name for g in list_games() if catalog(lang, "django").find(g.name) is not None]
    assert "Quantum tic-tac-toe" in english_names

    def read(url: str) -> tuple[str, str]:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html, url
        words = page_words(html)
        raw = RAW_SLUG.search(words)
        assert raw is None, f"{url} under {lang} shows the slug {raw[0]!r}: …{words[max(0, raw.start() - 60):raw.end() + 60]}…"
        english = [name for name in english_names if name in words]
        assert not english, f"{url} under {lang} shows the English {english}"
        return html, words

    html, words = read(reverse("classrooms:classroom", args=[classroom.pk]))
    with translation.override(lang):
        for (slug, variant) in sessions:
            assert f"{game_name(slug)} ({variant_name(slug, variant)})" in words
        assert variant_name("qtris", "s-expansion") in words  # the exercise
        # the open-session form's variant select is filled by classroom.js from these names
        games_json = json.loads(re.search(r'<script id="games-data" type="application/json">(.*?)</script>', html, re.S)[1])
        for game in games_json:
            assert game["variant_names"] == {v: variant_name(game["slug"], v) for v in game["variants"]}
            assert game["name"] == game_name(game["slug"])
            assert game["bot_names"] == {level: bot_level_name(level) for level in ["none", *game["bots"]]}
    for game in list_games():
        variant = game.variants[-1]
        session = sessions[game.slug, variant]
        with translation.override(lang):
            label = f"{game_name(game.slug)} ({variant_name(game.slug, variant)})"
        for url in (reverse("classrooms:dashboard", args=[session.pk]), reverse("classrooms:report", args=[session.pk]),
                    reverse("simulator:session-stats", args=[session.pk])):
            assert label in read(url)[1], url
        with translation.override(lang):
            assert game_name(game.slug) in read(reverse("classrooms:screen", args=[session.pk]))[1]
    with translation.override(lang):
        editor = read(reverse("classrooms:exercise-new", args=[classroom.pk]))[1]
        assert all(variant_name("qtris", v) in editor for v in get_game("qtris").variants)
        home = read("/")[1]
        assert variant_name("entanglion", "hard") in home and game_name("quantum-tictactoe") in home


def test_the_teacher_pages_show_the_english_names_under_english(classroom):
    """The same pages in English read the engines' English words ("QTris (Eve listens in)")."""
    session = services.open_session(classroom, "qtris", variant="eve", options={"table_size": 3})
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(classroom.teacher)
    for url in (reverse("classrooms:classroom", args=[classroom.pk]), reverse("classrooms:dashboard", args=[session.pk]),
                reverse("classrooms:report", args=[session.pk]), reverse("simulator:session-stats", args=[session.pk])):
        words = page_words(client.get(url).content.decode())
        assert "QTris (Eve listens in)" in words, url


# ----------------------------------------------------------------------------- plurals, names, exports

@pytest.mark.parametrize("lang, counts", [
    ("es", {1: "roba 1 carta", 2: "roba 2 cartas", 5: "roba 5 cartas"}),
    ("pl", {1: "dobiera 1 kartę", 2: "dobiera 2 karty", 5: "dobiera 5 kart", 22: "dobiera 22 karty"}),
    ("en", {1: "draws 1 card", 2: "draws 2 cards"}),
])
def test_a_count_of_cards_takes_the_plural_form_of_the_language_never_s(lang, counts):
    """QTris's "draws 2 cards" is a text with plural forms (``ngettext_lazy``): Polish has three
    (kartę, karty, kart), never "card(s)"."""
    from django.utils.translation import gettext, ngettext

    from games.engines.qtris.texts import EVENT_TEXTS

    with translation.override(lang):
        for n, words in counts.items():
            event = {"type": "draw", "code": "draw", "params": {"side": "Alice", "count": n}, "text": ""}
            assert words in localize("qtris", [event])[0]["text"]
            assert words in render_text(EVENT_TEXTS, "draw", {"side": "Alice", "count": n}, gettext, ngettext)


def test_no_text_a_student_reads_in_play_counts_with_s():
    """A count is said with ngettext / npgettext, never "card(s)": the boards' scripts and the
    QTris event texts have no "(s)" msgid."""
    from games.engines.qtris.texts import EVENT_TEXTS

    shown = ("draw", "draw_deck_empty", "mulligan", "turn", "discard", "play")
    assert not [c for c in shown if "(s)" in EVENT_TEXTS[c]]
    call = re.compile(r"""\b(?:_|t|tr|gettext)\(\s*["'`]([^"'`]*\(s\)[^"'`]*)""")
    found = {p.name: call.findall(p.read_text()) for p in (ROOT / "static").rglob("*.js")}
    assert not {k: v for k, v in found.items() if v}


@pytest.mark.django_db
@pytest.mark.parametrize("lang, strong, was", [("es", "Bot 1 (fuerte)", "Bot (antes Zoë)"),
                                               ("pl", "Bot 1 (silny)", "Bot (wcześniej Zoë)")])
def test_bots_seats_are_named_in_the_readers_language(lang, strong, was, teacher_user):
    """A bot a class session seats is stored as "Bot 1 (strong)" and shown, like a student's seat
    handed to a bot ("Bot (was Zoë)"), in each reader's language (a snapshot is shared by readers
    of several languages)."""
    from classrooms.models import Participant
    from games.services import SeatHolder, create_match
    from games.snapshot import localized_seats, seat_name, seats_summary

    session = services.open_session(Classroom.objects.create(teacher=teacher_user, name="9A"), "quantum-tictactoe")
    zoe = Participant.objects.create(session=session, display_name="Zoë")
    match = create_match("quantum-tictactoe", [SeatHolder("Bot 1 (strong)", bot="strong"), SeatHolder("Zoë", bot="random")],
                         seed=1, teacher=teacher_user)
    match.seats.filter(index=1).update(former_participant_id=zoe.pk)
    summary = seats_summary(match.seats.order_by("index"))
    with translation.override(lang):
        assert [s["name"] for s in localized_seats(summary)] == [strong, was]
        assert [seat_name(s) for s in match.seats.order_by("index")] == [strong, was]
    with translation.override("en"):
        assert [s["name"] for s in localized_seats(summary)] == ["Bot 1 (strong)", "Bot (was Zoë)"]


@pytest.mark.parametrize("lang", LANGS)
def test_entanglions_dice_read_in_the_readers_language(lang):
    """The view's ``dice`` (the last move's rolls, the board's "Dice of the last move" panel)
    render like its events."""
    from games.engines.entanglion import texts as T
    from games.event_text import localize_view

    roll = {"type": "roll", "code": "centarious_die", "params": {"face": 3}, "text": T.render("centarious_die", {"face": 3})}
    with translation.override(lang):
        view = localize_view("entanglion", {"dice": [roll], "events": [roll]})
        assert view["dice"][0]["text"] == view["events"][0]["text"] != roll["text"]


@pytest.mark.django_db
def test_a_saved_rulebook_exercise_is_named_in_the_readers_language(classroom):
    """A rulebook example saved under its offered name (English, or Spanish on a Spanish page)
    is listed in the reader's language; a teacher's own name stays as it is."""
    from classrooms.exercises import EXAMPLES
    from classrooms.models import Exercise

    english = EXAMPLES[0]["name"]
    with translation.override("es"):
        spanish = translation.gettext(english)
    with translation.override("pl"):
        polish = translation.gettext(english)
    assert len({english, spanish, polish}) == 3
    for saved in (english, spanish):
        exercise = Exercise.objects.create(classroom=classroom, game="qtris", name=saved)
        with translation.override("pl"):
            assert exercise.display_name == polish
        with translation.override("en"):
            assert exercise.display_name == english
    own = Exercise.objects.create(classroom=classroom, game="qtris", name="Kittens on Friday")
    with translation.override("pl"):
        assert own.display_name == "Kittens on Friday"


def test_csv_cells_take_the_readers_decimal_mark_and_stay_formula_safe():
    from core.csvcells import csv_format, csv_text, local_cell

    assert csv_format("es") == csv_format("pl-PL") == (";", ",") and csv_format("en") == (",", ".")
    assert [local_cell(v, ",") for v in ("-0.5000", 0.25, 3, "=SUM(A1)", "2026-11-27T10:00", "Zoë")] == \
        ["-0,5000", "0,25", 3, "'=SUM(A1)", "2026-11-27T10:00", "Zoë"]
    assert [local_cell(v, ".") for v in ("-0.5000", 0.25, "@x")] == ["-0.5000", 0.25, "'@x"]
    text = csv_text(["mesa", "suerte"], [[1, "-0.5000"]], "es")
    assert text == "\ufeffmesa;suerte\r\n1;-0,5000\r\n"


@pytest.mark.django_db
@pytest.mark.parametrize("lang, header, sep", [
    ("es", ["fecha", "semana", "miembro", "sesión", "juego", "variante", "mesa", "rivales", "resultado", "puntos",
            "suerte", "ejercicio", "resuelto", "repetición"], ";"),
    ("pl", ["data", "tydzień", "uczestnik", "sesja", "gra", "wariant", "stolik", "przeciwnicy", "wynik", "punkty",
            "szczęście", "ćwiczenie", "rozwiązane", "powtórka"], ";"),
    ("en", ["date", "week", "member", "session", "game", "variant", "table", "opponents", "result", "points",
            "luck", "exercise", "solved", "replay"], ","),
])
def test_exports_read_in_the_readers_language_and_spreadsheet(lang, header, sep, client, teacher_user, classroom):
    """The class's progress CSV and a session's statistics CSV: a UTF-8 BOM, the headers in the
    reader's language, and for es / pl ";" between cells (their spreadsheets' decimal mark is
    the comma)."""
    import csv
    import io

    client.force_login(teacher_user)
    session = services.open_session(classroom, "qtris")
    response = client.get(reverse("classrooms:class-progress", args=[classroom.pk]) + "?format=csv",
                          HTTP_ACCEPT_LANGUAGE=lang)
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff"), text[:20]
    assert next(csv.reader(io.StringIO(text[1:]), delimiter=sep)) == header
    stats = client.get(f"/teacher/sessions/{session.pk}/statistics/?format=csv", HTTP_ACCEPT_LANGUAGE=lang)
    text = stats.content.decode("utf-8")
    assert text.startswith("\ufeff")
    first = next(csv.reader(io.StringIO(text[1:]), delimiter=sep))
    assert len(first) == 11 and (first[0] == "table") == (lang == "en"), first


@pytest.mark.parametrize("lang, one, two", [
    ("pl", "mierzy pole 7 w bazie", "mierzy pola 3, 7 w bazie"),
    ("es", "mide la casilla 7 en la base", "mide las casillas 3, 7 en la base"),
    ("en", "measures square 7 in the", "measures squares 3, 7 in the"),
])
def test_eves_measurement_and_its_evidence_count_squares_with_plural_forms(lang, one, two):
    """Eve's "square(s)" and the evidence's "Measured square(s)": forms picked by how many squares
    the text names (``ngettext_lazy(..., "#squares")``), never "(s)"."""
    from django.utils.translation import gettext, ngettext

    from games.engines.qtris.evidence import EVIDENCE_TEXTS
    from games.engines.qtris.texts import EVENT_TEXTS

    params = {"basis": "colour", "how": "certain", "result": "white"}
    with translation.override(lang):
        assert one in render_text(EVENT_TEXTS, "eve_measure", {**params, "squares": "7"}, gettext, ngettext)
        assert two in render_text(EVENT_TEXTS, "eve_measure", {**params, "squares": "3, 7"}, gettext, ngettext)
        evidence = {"squares": "3, 7", "basis": "|0⟩, |1⟩", "ket": "|0⟩"}
        assert "(s)" not in render_text(EVIDENCE_TEXTS, "certain_measurement", evidence, gettext, ngettext)
    assert not [c for c, t in {**EVENT_TEXTS, **EVIDENCE_TEXTS}.items() if "(s)" in t]


@pytest.mark.parametrize("lang, forms", [
    ("pl", {1: "kosztuje 1 kartę", 2: "kosztuje 2 karty", 5: "kosztuje 5 kart", 22: "kosztuje 22 karty"}),
    ("es", {1: "necesita 1 carta", 2: "necesita 2 cartas", 5: "necesita 5 cartas"}),
    ("en", {1: "needs 1 ", 2: "needs 2 "}),
])
def test_an_engines_refusal_that_counts_takes_the_plural_form_of_the_language(lang, forms):
    """A refusal that says a number is a text with plural forms (``ngettext_lazy(..., "length")``,
    as the event texts): a Ticket-to-Ride claim without enough cards says "2 karty", "5 kart",
    never "kart w liczbie 5"."""
    from games.engines import IllegalAction, get_game
    from games.errors import from_illegal

    game = get_game("quantum-ticket-to-ride")
    state = game.setup(players=2, seed=3)
    state["hands"] = [[] for _ in state["hands"]]
    refusals = []
    for seat in range(2):  # the seat to act is refused for want of cards, the other for its turn
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, seat, {"claim": 0})
        refusals.append(refused.value)
    exc = next(r for r in refusals if r.code == "not_enough_cards")
    with translation.override(lang):
        for n, words in forms.items():
            again = IllegalAction(exc.code, exc.msgid, {**exc.params, "length": n, "have": 0})
            assert words in from_illegal(again).message, (n, from_illegal(again).message)


@pytest.mark.django_db
@pytest.mark.parametrize("lang, forms", [
    ("pl", {1: "ostatniej minuty", 2: "ostatnich 2 minut", 5: "ostatnich 5 minut"}),
    ("es", {1: "el último minuto", 2: "los últimos 2 minutos", 5: "los últimos 5 minutos"}),
])
def test_a_teachers_refusal_that_counts_takes_the_plural_form_of_the_language(lang, forms, classroom):
    """The app's refusals count with ngettext: "nobody joined in the last minute / 2 minutes", a
    table "ma 2 miejsca / 5 miejsc", a full session "(1 osoba / 2 osoby / 5 osób)"."""
    from django.utils.translation import ngettext

    session = services.open_session(classroom, "quantum-tictactoe")
    with translation.override(lang):
        for n, words in forms.items():
            with pytest.raises(AppError) as refused:
                services.remove_recent(session, n)
            assert words in refused.value.message, refused.value.message
        with pytest.raises(AppError) as refused:
            services.seat_table(session, [], bots=3)
        assert refused.value.message == {"pl": "Stół tej gry ma 2 miejsca.",
                                         "es": "Una mesa de este juego tiene 2 asientos."}[lang]
    full = ("This class session is full (%(n)d student): ask your teacher.",
            "This class session is full (%(n)d students): ask your teacher.")
    with translation.override("pl"):
        assert [ngettext(*full, n) % {"n": n} for n in (1, 2, 5)] == [
            f"Ta sesja zajęć jest pełna ({w}): zapytaj nauczyciela." for w in ("1 osoba", "2 osoby", "5 osób")]


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_the_statistics_csv_names_sides_and_bots_in_the_readers_language(lang):
    """The statistics CSV is read by a teacher in a spreadsheet: its side and bot cells are words
    of their language ("blancas", "aleatorio"), not the API's neutral keys ("white", "random")."""
    import csv
    import io

    from simulator.selectors import session_csv

    player = {"name": "Ada", "bot": "random", "side": "white", "started": True, "score": 1,
              "expected": 0.5, "p_win": 0.5, "won": True, "tie": False}
    stats = {"tables": [{"table": 1, "match": 7, "players": [player, dict(player, name="Bo", bot=None, side="seat 2")]}]}
    with translation.override("en"):
        english = next(csv.reader(io.StringIO(session_csv(stats)[1:].splitlines()[1])))
    with translation.override(lang):
        rows = list(csv.reader(io.StringIO(session_csv(stats)[1:]), delimiter=";"))
    assert english[3:5] == ["random", "white"]
    bot, side = rows[1][3:5]
    assert bot and bot != "random" and side and side != "white", rows[1]
    assert rows[2][3] == "" and rows[2][4] not in ("", "seat 2"), rows[2]

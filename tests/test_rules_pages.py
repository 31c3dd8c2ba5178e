"""How to play: every game's rules page (``/games/<slug>/rules/``, public) answers in en / es / pl
with no English msgid of its guide left under es / pl; each worked example's two boards are
real engine states (the after is ``apply(before, action)`` of the engine, the before the set-up
with the example's moves); the guide's words are in the catalogs; the play page, the lobby and
the projector point to it. The browser half is tests/test_rules_pages_browser.py."""
from __future__ import annotations

import json
import re

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engines import get_game, list_games
from games.engines.guide import Guide, example_before
from games.event_text import localize_view
from games.how_to_play import rules_page

pytestmark = pytest.mark.django_db

LANGS = ("es", "pl")
GAMES = [g.slug for g in list_games()]


def catalog(lang: str) -> polib.POFile:
    return polib.pofile(str(settings.BASE_DIR / "locale" / lang / "LC_MESSAGES" / "django.po"))


def page_words(html: str) -> str:
    import html as html_lib

    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(html_lib.unescape(text).split())


def read(slug: str, lang: str, query: str = "") -> tuple[object, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE=f"{lang}-{lang.upper()},{lang};q=0.9")
    response = client.get(reverse("games:rules", args=[slug]) + query)
    return response, response.content.decode()


def test_every_game_declares_a_rules_page():
    for game in list_games():
        assert isinstance(game.how_to_play, Guide), game.slug
        headings = [s.heading for s in game.how_to_play.sections]
        assert headings[0] == "Goal" and "Variants" in headings, (game.slug, headings)
        assert list(game.how_to_play.examples()), f"{game.slug} has no worked example"


@pytest.mark.parametrize("slug", GAMES)
def test_the_rules_page_answers_in_english_with_every_section_and_example(slug):
    game = get_game(slug)
    response, html = read(slug, "en")
    assert response.status_code == 200 and '<html lang="en">' in html
    words = page_words(html)
    for msgid in game.how_to_play.msgids():
        assert " ".join(msgid.split()) in words, f"{slug}: {msgid!r} not on the page"
    headings = [int(h) for h in re.findall(r"<h([1-6])[ >]", html)]
    assert headings[0] == 1 and headings.count(1) == 1
    assert all(b - a <= 1 for a, b in zip(headings, headings[1:], strict=False)), f"{slug}: a heading skips a level: {headings}"
    examples = json.loads(re.search(r'<script id="rules-examples" type="application/json">(.*?)</script>', html, re.S)[1])
    assert len(examples) == len(list(game.how_to_play.examples())) == html.count('class="rules-example"')
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]  # framed only embedded


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_the_rules_page_reads_in_spanish_and_polish_with_no_english_left(slug, lang):
    game = get_game(slug)
    po = catalog(lang)
    response, html = read(slug, lang)
    assert response.status_code == 200 and f'<html lang="{lang}">' in html
    words = page_words(html)
    left = []
    for msgid in game.how_to_play.msgids():
        entry = po.find(msgid)
        if entry is None:
            if not re.search(r"[a-z]{3}", msgid):  # a gate's or a card's name: the same in every language
                continue
            left.append(msgid)
            continue
        assert entry.msgstr and entry.msgstr != msgid or len(msgid) < 12, f"{lang}: {msgid!r} not translated"
        if len(msgid) >= 12:
            assert " ".join(msgid.split()) not in words, f"{lang}: English {msgid!r} on the page"
            assert " ".join(entry.msgstr.split()) in words, f"{lang}: {entry.msgstr!r} not on the page"
    assert not left, f"{lang}: msgids of the {slug} guide not in the catalog: {left}"
    with translation.override(lang):
        title = translation.gettext("How to play %(name)s") % {"name": translation.gettext(game.name)}
    assert f"<h1>{title}</h1>" in html


@pytest.mark.parametrize("slug", GAMES)
def test_each_examples_boards_are_the_engines_states_before_and_after_the_action(slug):
    game = get_game(slug)
    with translation.override("en"):
        page = rules_page(game)
    for example, frames in zip(game.how_to_play.examples(), page["examples"], strict=True):
        # the before: the engine's set-up with the example's moves, each one through ``apply``
        state = game.setup(players=example.players, variant=example.variant, seed=example.seed,
                           options=dict(example.options))
        for seat, action in example.moves:
            assert seat in game.to_act(state), (slug, example.title, action)
            state, _ = game.apply(state, seat, action)
        assert state == example_before(game, example)
        # the after: apply(before, action) by the seat whose turn it is
        assert example.seat in game.to_act(state), (slug, example.title)
        after, events = game.apply(state, example.seat, example.action)
        assert after != state, f"{slug}: {example.title!r} changes nothing"
        with translation.override("en"):
            assert frames["before"] == localize_view(slug, game.view(state, example.view_seat))
            assert frames["after"] == localize_view(slug, game.view(after, example.view_seat))
        assert frames["events"], f"{slug}: {example.title!r} says nothing happened"


def test_an_unknown_game_has_no_rules_page():
    response, html = read("chess", "en")
    assert response.status_code == 404


def test_the_embedded_page_may_be_framed_by_the_app_only():
    response, html = read("qtris", "en", "?embed=1")
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in response["Content-Security-Policy"]
    assert 'class="wide rules-page embedded"' in html


def test_the_play_page_lobby_and_projector_point_to_the_rules(teacher_user):
    from classrooms import services
    from classrooms.models import Classroom, Participant

    classroom = Classroom.objects.create(teacher=teacher_user, name="9A")
    session = services.open_session(classroom, "qtris")
    ada, bo = (Participant.objects.create(session=session, display_name=n) for n in ("Ada", "Bo"))
    table = services.seat_table(session, [ada, bo])
    rules_url = reverse("games:rules", args=["qtris"])
    teacher = Client()
    teacher.force_login(teacher_user)
    play = teacher.get(reverse("games:play", args=[table.match_id])).content.decode()
    assert f'data-rules="{rules_url}?embed=1"' in play and 'id="rules-dialog"' in play
    screen = teacher.get(reverse("classrooms:screen", args=[session.pk])).content.decode()
    assert rules_url in screen
    lobby_template = (settings.BASE_DIR / "templates" / "classrooms" / "lobby.html").read_text()
    assert "games:rules" in lobby_template

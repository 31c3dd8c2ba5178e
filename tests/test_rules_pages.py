"""How to play: every game's rules page (``/games/<slug>/rules/``, public) answers in en / es / pl
with no English msgid of its guide left under es / pl; each worked example's two boards are
real engine states (the after is ``apply(before, action)`` of the engine, the before the set-up
with the example's moves); the guide's words are in the catalogs; the play page, the lobby and
the projector point to it. The browser half is tests/test_rules_pages_browser.py."""
from __future__ import annotations

import json
import re

import numpy as np
import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engines import get_game, list_games
from games.engines.guide import Guide, example_before, example_states
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


# --------------------------------------------------------------------------- Ticket-to-Ride's gates
# Every gate card has a worked example (a run along one route of that gate) whose text says what
# the gate did to the state, exactly, global phase included: checked against the engine's run and
# against an independent numpy sum (these matrices, q0 leftmost, CNOT q0 → q1).

TTR = "quantum-ticket-to-ride"
R2 = 1 / np.sqrt(2)
ONE_QUBIT = {"0": np.array([1, 0], complex), "1": np.array([0, 1], complex),
             "+": np.array([R2, R2], complex), "−": np.array([R2, -R2], complex)}
TWO_QUBIT = {"Φ+": np.array([R2, 0, 0, R2], complex)}
GATES = {"I": np.eye(2), "X": np.array([[0, 1], [1, 0]]), "Y": np.array([[0, -1j], [1j, 0]]),
         "Z": np.array([[1, 0], [0, -1]]), "H": np.array([[1, 1], [1, -1]]) * R2}
CNOT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])  # |q0 q1⟩, q0 controls
COEFFICIENTS = {"": 1, "−": -1, "i": 1j, "−i": -1j}


def ket_vector(text: str) -> np.ndarray:
    """A ket as the guide writes it: ``−i|−⟩``, ``|1⟩``, ``|+0⟩`` (q0 first), ``|Φ+⟩``,
    ``(|00⟩+|11⟩)/√2``; a one-qubit ket is q0 alone."""
    m = re.fullmatch(r"\((.+)\)/√2", text)
    if m:
        terms = re.findall(r"([+−]?i?)\|([01]{2})⟩", m[1])
        assert "".join(f"{c}|{b}⟩" for c, b in terms) == m[1], text
        psi = np.zeros(4, complex)
        for coef, bits in terms:
            psi[int(bits, 2)] += COEFFICIENTS[coef.lstrip("+")] * R2
        return psi
    m = re.fullmatch(r"(−?i?)\|([^⟩]+)⟩", text)
    assert m, f"not a ket: {text!r}"
    coef, name = COEFFICIENTS[m[1]], m[2]
    if name in TWO_QUBIT:
        return coef * TWO_QUBIT[name]
    if len(name) == 2:
        return coef * np.kron(ONE_QUBIT[name[0]], ONE_QUBIT[name[1]])
    return coef * ONE_QUBIT[name]


def gate_examples() -> dict:
    """``{gate: example}``: the examples whose map is one route of that gate."""
    out = {}
    for e in get_game(TTR).how_to_play.examples():
        routes = e.options["map"]["routes"]
        if len(routes) == 1 and "run" in e.action:
            assert routes[0]["gate"] not in out, routes[0]["gate"]
            out[routes[0]["gate"]] = e
    return out


def claims(gate: str, text: str) -> tuple[str, list[str]]:
    """``("+", ["−i|−⟩"])`` from ``... Y|+⟩ = −i|−⟩, ...``: the state the gate acts on and
    every value the text gives the result (``= a = b``)."""
    m = re.search(rf"\b{gate}\|([^⟩]+)⟩((?: = [^ ,]+)+)", text)
    assert m, f"{gate}: the text names no '{gate}|ψ⟩ = ...': {text!r}"
    return m[1], [v.rstrip(".") for v in m[2].split(" = ")[1:]]


def test_every_gate_card_of_ticket_to_ride_has_a_worked_example():
    from games.engines.quantum_ticket_to_ride.register import GATE_NAMES

    assert sorted(gate_examples()) == sorted(GATE_NAMES)
    assert set(GATES) | {"CNOT"} == set(GATE_NAMES)


@pytest.mark.parametrize("gate", ["I", "X", "Y", "Z", "H", "CNOT"])
def test_a_gate_examples_text_says_exactly_what_the_engine_did(gate):
    game = get_game(TTR)
    example = gate_examples()[gate]
    before, after, events = example_states(game, example)
    # the after is the engine's own: the run applied to the before
    assert after == game.apply(before, example.seat, example.action)[0]
    assert before["owners"] == [example.seat] and before["step"] == "run" and not before["runs"]
    mission = before["missions"][example.seat]
    assert [mission["start"], mission["target"]] == example.action["run"]
    run = after["runs"][-1]
    assert run["gates"] == [gate] and run["match"] is True
    engine = np.array([complex(re_, im) for re_, im in run["amplitudes"]])
    # independently: the mission's initial state (q1 in |0⟩), then the gate
    initial = np.kron(ONE_QUBIT[mission["initial_state"].replace("-", "−")], ONE_QUBIT["0"])
    expected = (CNOT if gate == "CNOT" else np.kron(GATES[gate], np.eye(2))) @ initial
    assert np.allclose(engine, expected, atol=1e-9), (gate, engine, expected)
    # the text: the gate acts on the mission's initial state and gives exactly that, phase and all
    text = example.text
    acted_on, values = claims(gate, text)
    given = ket_vector(f"|{acted_on}⟩")
    if given.size == 2:
        given = np.kron(given, ONE_QUBIT["0"])
    assert np.allclose(given, initial), (gate, acted_on)
    for value in values:
        psi = ket_vector(value)
        if psi.size == 2:
            psi = np.kron(psi, ONE_QUBIT["0"])
        assert np.allclose(psi, expected, atol=1e-9), f"{gate}: the text says {value}, the state is {expected}"
    assert not re.search(r"(?<![\d/√.])1i\||−1\|", text), text
    # the first seat's own view of the after shows the run's state (the board draws it)
    view = game.view(after, example.view_seat)
    assert view["runs"][-1]["ket"] == run["ket"] and view["winning_run"]["gates"] == [gate]
    assert any(e.get("type") == "run" for e in events)


def test_y_on_plus_is_minus_i_minus_not_minus():
    """The phase the brief insists on: Y|+⟩ = −i|−⟩ (a |−⟩ only up to a global phase)."""
    _acted_on, values = claims("Y", gate_examples()["Y"].text)
    assert values == ["−i|−⟩"]
    assert not np.allclose(ket_vector("|−⟩"), GATES["Y"] @ ONE_QUBIT["+"])
    assert np.allclose(ket_vector("−i|−⟩"), GATES["Y"] @ ONE_QUBIT["+"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_gate_examples_keep_their_exact_states_in_spanish_and_polish(lang):
    po = catalog(lang)
    for gate, example in gate_examples().items():
        entry = po.find(example.text)
        assert entry is not None and entry.msgstr, (lang, gate)
        assert claims(gate, entry.msgstr) == claims(gate, example.text), (lang, gate, entry.msgstr)


def test_ticket_to_ride_states_the_order_of_a_gate_sequence_once():
    _response, html = read(TTR, "en")
    words = page_words(html)
    assert words.count("X → H means X first, then H") == 1

"""The Entanglion board script against the rules and gettext: it draws exactly the engine's paths
and layout, and every word it shows comes from the engine's ``board_texts`` (games/board_texts.py
puts them) onto the pages that draw it."""
from __future__ import annotations

import re
from pathlib import Path

from django.template import Context, Template
from django.utils import translation

from games.board_texts import board_texts
from games.engines import get_game

SCRIPT = Path(__file__).resolve().parent.parent / "static" / "games" / "entanglion.js"


def test_every_key_the_entanglion_board_asks_for_has_a_text():
    source = SCRIPT.read_text()
    asked = set()
    for call in re.findall(r"\bbt\(([^{)]*)", source):  # the key part of every bt(...) call
        call = re.sub(r'===\s*"[^"]*"', "", call)  # a value compared in a choice of keys is no key
        asked |= set(re.findall(r'"([A-Za-z_]+)"', call))
    asked |= {f"help_{card}" for card in ("H", "X", "CNOT", "SWAP")}
    assert len(asked) > 40
    declared = set(get_game("entanglion").board_texts)
    assert asked <= declared, sorted(asked - declared)


def test_the_texts_are_translated_strings_and_reach_the_page_as_json():
    with translation.override("en"):
        texts = board_texts("entanglion")
    assert texts["track_title"] == "Detection rate: {rate}"
    assert board_texts("qtris") == {}
    html = Template("{% load board %}{% board_texts 'entanglion' %}").render(Context({}))
    assert html.startswith('<script id="board-texts" type="application/json">')
    assert "Detection rate: {rate}" in html and "<script>" not in html


def test_the_board_draws_exactly_the_engines_paths_and_layout():
    """The drawing's path list (colour = who may use a path) and planet positions are the rules'
    own (sheet §3.2, §3.5): a path drawn for the wrong ship would mislead the players."""
    from games.engines.entanglion.planets import LAYOUT, PATHS

    source = SCRIPT.read_text()
    drawn = {(frozenset((a, b)), cards, who) for a, b, cards, who in
             re.findall(r'\["([A-Z ]+)", "([A-Z ]+)", "([A-Z/]+)", "(both|mercurial|rubicon)"', source)}
    rules = {(frozenset((a, b)), "/".join(cards), "both" if len(ships) == 2 else ships[0])
             for a, b, cards, ships in PATHS}
    assert drawn == rules
    layout = {name: (float(x), float(y)) for name, x, y in
              re.findall(r'"([A-Z ]+)": \[([0-9.]+), ([0-9.]+)\]', source)}
    assert layout == LAYOUT

"""A board's words come from gettext (games/board_texts.py) onto the pages that draw it: every
key the Entanglion board script asks for has a text, and the play page carries them."""
from __future__ import annotations

import re
from pathlib import Path

from django.template import Context, Template
from django.utils import translation

from games.board_texts import BOARD_TEXTS, board_texts

SCRIPT = Path(__file__).resolve().parent.parent / "static" / "games" / "entanglion.js"


def test_every_key_the_entanglion_board_asks_for_has_a_text():
    source = SCRIPT.read_text()
    asked = set()
    for call in re.findall(r"\bt\(([^{)]*)", source):  # the key part of every t(...) call
        asked |= set(re.findall(r'"([A-Za-z_]+)"', call))
    asked |= {f"help_{card}" for card in ("H", "X", "CNOT", "SWAP")}
    assert len(asked) > 40
    assert asked <= set(BOARD_TEXTS["entanglion"]), sorted(asked - set(BOARD_TEXTS["entanglion"]))


def test_the_texts_are_translated_strings_and_reach_the_page_as_json():
    with translation.override("en"):
        texts = board_texts("entanglion")
    assert texts["track_title"] == "Detection rate: {rate}"
    assert board_texts("qtris") == {}
    html = Template("{% load board %}{% board_texts 'entanglion' %}").render(Context({}))
    assert html.startswith('<script id="board-texts" type="application/json">')
    assert "Detection rate: {rate}" in html and "<script>" not in html

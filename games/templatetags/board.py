"""``{% board_texts game_slug %}``: a board script's words in the reader's language, as the
JSON block ``<script type="application/json" id="board-texts">`` (data, never run);
``{% board_url game_slug %}``: the URL of the game's board script (the registry says where it is,
``games.engines.board_path``)."""
from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import json_script

from games.board_texts import board_texts as texts_of
from games.engines import board_path

register = template.Library()


@register.simple_tag
def board_texts(game_slug: str) -> str:
    return json_script(texts_of(game_slug), "board-texts")


@register.simple_tag
def board_url(game_slug: str) -> str:
    return static(board_path(game_slug))

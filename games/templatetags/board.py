"""``{% board_texts game_slug %}``: a board script's words in the reader's language, as the
JSON block ``<script type="application/json" id="board-texts">`` (data, never run)."""
from __future__ import annotations

from django import template
from django.utils.html import json_script

from games.board_texts import board_texts as texts_of

register = template.Library()


@register.simple_tag
def board_texts(game_slug: str) -> str:
    return json_script(texts_of(game_slug), "board-texts")

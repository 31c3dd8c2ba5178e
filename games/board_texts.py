"""The words a game's board script shows, through gettext, so a board speaks the reader's
language. The engine declares them (``board_texts``: ``{key: gettext_noop("words")}``); a page
that draws a board puts them in a JSON block (``{% board_texts game %}``,
``games/templatetags/board.py``); the script reads them by key and fills ``{name}`` fields.
"""
from __future__ import annotations

from django.utils.translation import gettext

from games.engines import UnknownGame, get_game


def board_texts(game_slug: str) -> dict[str, str]:
    """A board's words in the active language (empty for a board that has none here)."""
    try:
        texts = get_game(game_slug).board_texts  # type: ignore[attr-defined]
    except (UnknownGame, AttributeError):
        return {}
    return {key: gettext(text) for key, text in texts.items()}

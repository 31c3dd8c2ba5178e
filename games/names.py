"""A game's and a variant's name in the reader's language: the one place the platform turns
the slugs (``qtris``, ``eve``, ``quantum-tictactoe``) into what a person reads. The engines
declare the English words (``name``, ``variant_names``, see games/engines/base.py); the API,
the database and the match options keep the slugs."""
from __future__ import annotations

from django.utils.translation import gettext

from games.bots import LEVEL_NAMES
from games.engines import UnknownGame, get_game


def game_name(slug: str) -> str:
    """"QTris", "Tres en raya cuántico": the game's name (a slug no engine knows, as it is)."""
    try:
        return gettext(get_game(slug).name)
    except UnknownGame:
        return slug


def variant_name(slug: str, variant: str) -> str:
    """"básico", "Eve escucha": the variant's name in the game ``slug`` (as it is when unknown)."""
    try:
        names = get_game(slug).variant_names
    except UnknownGame:
        return variant
    return gettext(names[variant]) if variant in names else variant


def bot_level_name(level: str) -> str:
    """"fuerte": a bot level's name (``games.bots.LEVEL_NAMES``; an unknown level as it is)."""
    return gettext(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def variant_choices(slug: str) -> list[tuple[str, str]]:
    """The game's variants as ``(slug, name)`` pairs, in the engine's order (for a select)."""
    return [(v, variant_name(slug, v)) for v in get_game(slug).variants]


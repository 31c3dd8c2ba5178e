"""``{{ session.game|game_name }}``, ``{{ session.variant|variant_name:session.game }}``: the
names of a game and a variant in the reader's language (``games.names``), never the slugs."""
from __future__ import annotations

from django import template

from games import names

register = template.Library()


@register.filter
def game_name(slug: str) -> str:
    return names.game_name(slug)


@register.filter
def variant_name(variant: str, game_slug: str) -> str:
    return names.variant_name(game_slug, variant)


@register.filter
def bot_level_name(level: str) -> str:
    return names.bot_level_name(level)

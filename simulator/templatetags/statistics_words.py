"""``{{ key|side_words }}`` and ``{{ label|score_words }}``: the statistics' neutral keys (the API's
and the CSV's: ``white``, ``tie``, ``lost together``, ``seat 2``, ``W3 B1``) in the reader's language."""
from __future__ import annotations

from django import template

from simulator import scoring

register = template.Library()


@register.filter
def side_words(key) -> str:
    return scoring.side_words(key)


@register.filter
def score_words(label) -> str:
    return scoring.score_words(str(label))

"""``{% statistics_links match %}``: the buttons to a match's "vs the odds" and circuit pages,
shown only to a reader who may open them, for a game that has them."""
from __future__ import annotations

from django import template

from simulator.access import statistics_pages_open

register = template.Library()


@register.inclusion_tag("simulator/_links.html", takes_context=True)
def statistics_links(context, match, small: bool = False, odds_label: str = "") -> dict:
    request = context["request"]
    return {"match": match, "small": small, "odds_label": odds_label,
            "show": statistics_pages_open(match, request.user, request.session)}

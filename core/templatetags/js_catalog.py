"""``{% javascript_catalog_url %}``: the URL of the JavaScript catalog in the page's language,
versioned by the catalogs' contents (``core.jscatalog``): browsers keep it for a year."""
from __future__ import annotations

from django import template

from core.jscatalog import javascript_catalog_url as url_of

register = template.Library()


@register.simple_tag
def javascript_catalog_url() -> str:
    return url_of()

"""The JavaScript catalog (core/jscatalog.py): the pages load it by a URL of its language and
version, kept for a year; ``/jsi18n/`` revalidates by its ETag; one per language."""
from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

YEAR = 365 * 24 * 60 * 60


def test_the_javascript_catalog_is_cached_per_language(db):
    es, pl = Client(HTTP_ACCEPT_LANGUAGE="es"), Client(HTTP_ACCEPT_LANGUAGE="pl")
    first = es.get(reverse("javascript-catalog"))
    assert first.status_code == 200 and "no-cache" in first["Cache-Control"] and first["ETag"]
    again = es.get(reverse("javascript-catalog"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    other = pl.get(reverse("javascript-catalog"), HTTP_IF_NONE_MATCH=first["ETag"])  # another language
    assert other.status_code == 200 and other["ETag"] != first["ETag"] and other.content != first.content
    # the pages load it by a URL of its language and catalogs' version, kept for a year
    page = pl.get(reverse("classrooms:join")).content.decode()
    url = re.search(r'<script src="(/jsi18n/pl/[0-9a-f]{12}\.js)"></script>', page).group(1)
    kept = Client().get(url)  # (the URL says the language: not the browser's)
    assert kept.status_code == 200 and kept.content == other.content
    assert "immutable" in kept["Cache-Control"] and f"max-age={YEAR}" in kept["Cache-Control"]
    assert "Tw\\u00f3j ruch." in kept.content.decode()
    assert Client().get(url, HTTP_IF_NONE_MATCH=kept["ETag"]).status_code == 304
    assert url.replace("/pl/", "/es/") in es.get(reverse("classrooms:join")).content.decode()
    stale = Client().get(url.replace(url.rsplit("/", 1)[1], "000000000000.js"))  # a page from before
    assert stale.status_code == 200 and "immutable" not in stale["Cache-Control"]
    assert Client().get(url.replace("/pl/", "/xx/")).status_code == 404

"""Django's JavaScript catalog (the scripts' translated strings), built once per language and
cached by the browsers.

The pages load it from ``/jsi18n/<language>/<version>.js`` (``{% javascript_catalog_url %}``):
the version is a hash of the compiled ``djangojs`` catalogs and Django's version, so that URL's
content never changes and is kept for a year (a class of thirty phones asks for it once, not on
every page); new catalogs, a new URL. ``/jsi18n/`` (the reader's language) answers with an ETag
and ``no-cache``: a browser revalidates and gets a 304. Either way the catalog is rendered once
per process and language."""
from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import django
from django.apps import apps
from django.conf import settings
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.i18n import JavaScriptCatalog

YEAR = 365 * 24 * 60 * 60


def _locale_dirs() -> list[Path]:
    """Where JavaScriptCatalog reads catalogs from: LOCALE_PATHS, every app's and Django's own."""
    dirs = [Path(p) for p in settings.LOCALE_PATHS]
    dirs += [Path(app.path) / "locale" for app in apps.get_app_configs()]
    dirs.append(Path(django.__file__).parent / "conf" / "locale")
    return dirs


@cache
def catalog_version() -> str:
    """A hash of what the catalogs are made of (compiled .mo files change with a new
    translation: the process reads them once, as Django's translations do)."""
    digest = hashlib.sha256(f"django {django.get_version()} {settings.LANGUAGE_CODE}".encode())
    for directory in _locale_dirs():
        for mo in sorted(directory.glob("*/LC_MESSAGES/djangojs.mo")):
            digest.update(str(mo.relative_to(directory)).encode() + b"\0" + mo.read_bytes())
    return digest.hexdigest()[:12]


_rendered: dict[tuple[str, str], tuple[bytes, str]] = {}  # (language, version): content, type


def _response(request, language: str) -> HttpResponse:
    """The catalog of ``language`` with its ETag (a 304 for a browser that has it), rendered
    once: it depends on nothing else."""
    version = catalog_version()
    etag = f'"{language}-{version}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        if (language, version) not in _rendered:
            with translation.override(language):
                built = JavaScriptCatalog.as_view()(request)
            _rendered[language, version] = (built.content, built["Content-Type"])
        content, content_type = _rendered[language, version]
        response = HttpResponse(content, content_type=content_type)
    response["ETag"] = etag
    return response


def javascript_catalog(request):
    """``/jsi18n/``: the reader's language, revalidated by its ETag on every use."""
    response = _response(request, translation.get_language())
    patch_cache_control(response, no_cache=True)
    return response


def versioned_javascript_catalog(request, language: str, version: str):
    """``/jsi18n/<language>/<version>.js``: kept for a year when the version is the current one
    (a page from before new catalogs gets the current ones, not kept). It varies with the
    cookies too (the middleware's ``Vary``: the language could come from them): a browser whose
    cookies changed revalidates it, a 304."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    response = _response(request, language)
    if version == catalog_version():
        patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
    else:
        patch_cache_control(response, no_cache=True)
    return response


def javascript_catalog_url(language: str | None = None) -> str:
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    return reverse("javascript-catalog-versioned", args=[language, catalog_version()])

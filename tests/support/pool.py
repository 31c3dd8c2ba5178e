"""Browser contexts kept from one test to the next: what a test opens, cleaned, serves a later test.

A new context with a new page and its first load costs about 1.2 s of CPU (the context, a new
renderer, every script and stylesheet fetched and compiled cold); the same page loaded again in
a context that has loaded it before costs about 0.3 s. The suite opens hundreds of contexts, so
the run's Chromium (``tests/conftest.py``: the ``chromium`` fixture) hands out contexts through
this pool:

* ``new_context(**options)`` gives a context kept by an earlier test with the same options, but
  perhaps another viewport or ``reduced_motion`` (its page on ``about:blank``, no cookies, none
  of that test's listeners; its pages are given the size and the motion setting asked for, as a
  window is resized or a phone's setting changed), or a new one (the browser tests of a run made
  108 new contexts when each size was a kind of its own, 56 now: 57 s less CPU);
* at the end of a test each context it opened and left open is cleaned and kept: listeners and
  init scripts the test added are removed, pages beyond the first are closed, the first goes to ``about:blank``
  (its sockets close, as when a student leaves) and every cookie is cleared;
* a context the test is done with before its end can be given back (``give_back``): cleaned
  and kept at once, as at the end of a test;
* a context or page the test changed in a way the cleaning cannot undo (a route, an exposed
  function, a viewport, emulated media, offline mode, default timeouts…) is closed
  instead, as is any context the test closed itself: closing keeps Playwright's own meaning.

The app keeps nothing in web storage (cookies only), so a cleaned context is a new visitor to
the server; what it keeps is the browser's cache of the hashed, year-long static files, as a
student's phone does between two lessons."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

# calls after which a context or page is not given to another test
CHANGES_KEPT = ("route", "route_from_har", "route_web_socket", "expose_binding",
                "expose_function", "set_offline", "grant_permissions", "set_geolocation",
                "set_extra_http_headers", "set_default_timeout", "set_default_navigation_timeout",
                "set_viewport_size", "emulate_media", "add_locator_handler")
KEPT_PER_KIND = 8


# what a kept context's pages are set to, when a test asks for it (by option, default): the
# size of the page and the system's motion setting (Playwright's own defaults)
PAGE_SETTINGS = {"viewport": {"width": 1280, "height": 720}, "reduced_motion": "no-preference"}


def _set(page, settings: dict) -> None:
    """``page`` given ``settings`` (through the class's methods: the page's own are watched as
    changes not to keep)."""
    current = getattr(page, "_qc_settings", {})
    if current.get("viewport") != settings["viewport"]:
        type(page).set_viewport_size(page, settings["viewport"])
    if current.get("reduced_motion") != settings["reduced_motion"]:
        type(page).emulate_media(page, reduced_motion=settings["reduced_motion"])
    page._qc_settings = dict(settings)


@dataclass
class Lent:
    """A context lent to the running test: what the test did to it."""
    context: object
    kind: str
    made_with: dict | None = None  # the page settings it was made with (None: not adjustable)
    settings: dict | None = None  # the page settings the test asked for
    changed: bool = False
    listeners: list = field(default_factory=list)  # (context or page, event, handler)
    scripts: list = field(default_factory=list)  # the init scripts added (removable)
    idle_page: object | None = None  # the kept page, handed out by the next new_page()


class ContextPool:
    def __init__(self, browser):
        self.browser = browser
        self.idle: dict[str, list[Lent]] = {}
        self.lent: list[Lent] = []

    # -- what a test sees: the Browser's own methods ----------------------------------------

    def new_context(self, **options):
        # the page settings are no part of a context's kind: a kept one's pages are set instead
        # (no_viewport and a None viewport, the window's own size, make a kind of their own)
        settings = {name: options.get(name, default) for name, default in PAGE_SETTINGS.items()}
        adjustable = isinstance(settings["viewport"], dict) and not options.get("no_viewport")
        kind = json.dumps({k: v for k, v in options.items() if not (adjustable and k in PAGE_SETTINGS)}
                          | {"adjustable": adjustable}, sort_keys=True, default=str)
        kept = self.idle.get(kind)
        lent = kept.pop() if kept and "storage_state" not in options else None
        if lent is None:
            lent = Lent(self.browser.new_context(**options), kind, made_with=settings if adjustable else None)
            self._watch(lent.context, lent)
        lent.settings = settings if adjustable else None
        self.lent.append(lent)
        return lent.context

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def fresh_context(self, **options):
        """A context no test has used (a cold cache: every file fetched), closed after the test."""
        lent = Lent(self.browser.new_context(**options), "", changed=True)
        self.lent.append(lent)
        return lent.context

    def __getattr__(self, name):
        return getattr(self.browser, name)

    # -- between tests ----------------------------------------------------------------------

    def take_back(self) -> None:
        """After a test: every context it was lent is cleaned and kept, or closed."""
        lent, self.lent = self.lent, []
        for item in lent:
            self._keep_or_close(item)

    def give_back(self, context) -> None:
        """A context the test has done with, before its end: cleaned and kept at once (the next
        ``new_context`` with the same options, of this test or a later one, gets it), or
        closed. Where a test would close a context to free its page, this frees it as well and
        spares the next one a cold start."""
        item = next(item for item in self.lent if item.context is context)
        self.lent.remove(item)
        self._keep_or_close(item)

    def _keep_or_close(self, item: Lent) -> None:
        try:
            kept = self._clean(item)
        except Exception:  # a page that would not leave: not given to anyone again
            kept = False
        if kept and len(self.idle.setdefault(item.kind, [])) < KEPT_PER_KIND:
            self.idle[item.kind].append(item)
        else:
            self._close(item.context)

    def close(self) -> None:
        for kept in self.idle.values():
            for item in kept:
                self._close(item.context)
        self.idle.clear()

    def _clean(self, item: Lent) -> bool:
        context = item.context
        if item.changed or getattr(context, "_qc_closed", False):
            return False
        for target, event, handler in item.listeners:
            try:
                target.remove_listener(event, handler)
            except KeyError:  # a ``once`` listener that has run
                pass
        item.listeners.clear()
        for script in item.scripts:
            script.close()
        item.scripts.clear()
        pages = [page for page in context.pages if not page.is_closed()]
        keep = next((page for page in pages if getattr(page, "_qc_lent", None) is item), None)
        for page in pages:
            if page is not keep:
                page.close()
        if keep is not None:
            keep.goto("about:blank")
        context.clear_cookies()
        item.idle_page = keep
        return True

    @staticmethod
    def _close(context) -> None:
        try:
            context.close()
        except Exception:
            pass

    # -- watching what a test does to a context and its pages -----------------------------

    def _watch(self, target, item: Lent) -> None:
        """``target`` (the context, or a page of it) reports to ``item``: listeners are noted,
        changes that cleaning cannot undo mark it changed, and (for the context) ``new_page``
        hands out the kept page first and ``close`` marks it closed."""
        on, once = target.on, target.once

        def listen(event, handler, _register=on):
            item.listeners.append((target, event, handler))
            return _register(event, handler)

        target.on = listen
        add_init_script = target.add_init_script

        def init_script(*args, **kwargs):
            script = add_init_script(*args, **kwargs)
            item.scripts.append(script)
            return script

        target.add_init_script = init_script
        target.once = lambda event, handler: listen(event, handler, _register=once)
        for name in CHANGES_KEPT:
            real = getattr(target, name, None)
            if real is not None:
                setattr(target, name, _marking(item, real))
        if target is item.context:
            new_page, close = target.new_page, target.close

            def lend_page():
                page, item.idle_page = item.idle_page, None
                if page is None or page.is_closed():
                    page = new_page()
                    page._qc_lent = item
                    page._qc_settings = dict(item.made_with or {})
                    self._watch(page, item)
                if item.settings is not None:
                    _set(page, item.settings)
                return page

            def closing(*args, **kwargs):
                target._qc_closed = True
                return close(*args, **kwargs)

            target.new_page = lend_page
            target.close = closing


def _marking(item: Lent, real):
    def call(*args, **kwargs):
        item.changed = True
        return real(*args, **kwargs)
    return call

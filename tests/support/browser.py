"""Chromium driven by Playwright: Debian's Chromium (Playwright's own download does not work
here), headless, with background networking off (the machine has no outside network).

The suite runs Debian's headless shell of Chromium (package ``chromium-headless-shell``, which
``make test`` installs beside ``chromium``): the same engine and version, built without the
browser's window and its services, as Playwright's own headless runs use. Measured the same hour,
it took a third less CPU on three browser test files and a fifth less over the whole run (the
suite is CPU-bound on two cores).
``CHROMIUM_PATH=/usr/bin/chromium`` runs the whole browser instead."""
from __future__ import annotations

import os
import shutil

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"


def chromium_path() -> str | None:
    """``CHROMIUM_PATH`` when set; else the headless shell when installed; else the browser."""
    path = os.environ.get("CHROMIUM_PATH") or (HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium")
    return path if os.path.exists(path) else shutil.which("chromium")


def launch(playwright):
    path = chromium_path()
    if path is None:
        raise RuntimeError("Chromium is missing: `apt-get install -y chromium chromium-headless-shell` "
                           "(make test does it).")
    return playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)


# resolves once the page's own script has started: boot.js imports the module named in #page-boot
# and calls its function, which draws the page from its initial data (links included) at once;
# importing the same module here resolves after boot.js's import, and a task later its call is done
BOOTED = """async () => {
  const boot = document.getElementById("page-boot");
  if (!boot) return;
  await import(JSON.parse(boot.textContent).module);
  await new Promise((resolve) => setTimeout(resolve));
}"""


# the browser tests' screenshots, for a person to look at (no test reads them): written only when
# QC_SHOTS names a folder (``QC_SHOTS=/tmp/qc-shots make test``). A full-page one costs Chromium
# about 0.9 s of CPU, a run of the suite took dozens.
SHOTS = os.environ.get("QC_SHOTS", "")


def shot(page, name: str, **options) -> None:
    """``page``'s screenshot as ``name`` in ``QC_SHOTS`` (``options``: Playwright's, e.g.
    ``full_page=True``), when set."""
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name), **options)


def wait_for_boot(page) -> None:
    """Until the page is loaded and its script (#page-boot: lobby, dashboard, game, replay…) has
    drawn it from its initial data: a condition, where a fixed pause would guess."""
    page.wait_for_load_state("load")
    page.evaluate(BOOTED)


def student_joins(chromium, server, code: str, name: str, viewport=(1280, 900)):
    """A student in a browser of their own: /join, the code (typed in lower case) and a name."""
    from playwright.sync_api import expect

    page = chromium.new_context(viewport={"width": viewport[0], "height": viewport[1]}).new_page()
    page.goto(server.url + "/join/")
    page.fill("input[name=code]", code.lower())
    page.fill("input[name=name]", name)
    page.click("button[type=submit]")
    expect(page.locator("#lobby-status")).to_contain_text("Waiting")
    return page


def log_in(page, base: str, then: str = "/teacher/") -> None:
    """The demo test teacher (``tests.support.tables.TEACHER``) is logged in on ``page``, which
    then opens ``then`` (their home page): a session made on the test database, its cookie given
    to the page's browser (as Django's test client's ``force_login`` does; the server reads the
    same database). The login form itself is filled in a browser by tests/test_security_live.py."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from tests.support.tables import TEACHER

    client = Client()
    client.force_login(User.objects.get(username=TEACHER[0]))
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
    page.goto(base + then)


def log_in_teacher(chromium, server, viewport=(1400, 1000)):
    """The teacher in a browser of their own, logged in."""
    page = chromium.new_context(viewport={"width": viewport[0], "height": viewport[1]}).new_page()
    log_in(page, server.url)
    return page

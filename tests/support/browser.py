"""Chromium driven by Playwright: Debian's /usr/bin/chromium (Playwright's own download does not
work here), headless, with background networking off (the machine has no outside network)."""
from __future__ import annotations

import os
import shutil

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
    return path if os.path.exists(path) else shutil.which("chromium")


def launch(playwright):
    path = chromium_path()
    if path is None:
        raise RuntimeError("Chromium is missing: `apt-get install -y chromium` (make test does it).")
    return playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)

"""Production's static files (core/staticfiles.py): collected under hashed names whose every
reference resolves, served with a year's cache, a page's board loading them in Chromium; the
app refusing to start without ``collectstatic``."""
from __future__ import annotations

import json
import posixpath
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from core.staticfiles import HashedStaticFilesStorage
from games.engines import GAMES, board_path
from tests.support.server import LiveServer, collected_static_root, fresh_shell_env
from tests.support.tables import open_table

ROOT = Path(__file__).resolve().parents[1]
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")
YEAR = 365 * 24 * 60 * 60

# the references between the scripts and stylesheets, as a browser reads them
JS_REFERENCES = [
    re.compile(r"""\bfrom\s*["']([^"']+)["']"""),  # import … from / export … from
    re.compile(r"""\bimport\s*["']([^"']+)["']"""),  # import "…" (for its effects)
    re.compile(r"""\bimport\(\s*["']([^"']+)["']\s*\)"""),  # import("…")
    re.compile(r"""\bnew\s+URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url"""),
]
CSS_REFERENCES = [re.compile(r"""url\(\s*["']?([^"')]+?)["']?\s*\)"""), re.compile(r"""@import\s*["']([^"']+)["']""")]
COMMENTS = [re.compile(r"/\*.*?\*/", re.DOTALL), re.compile(r"^\s*//.*$", re.MULTILINE)]


def manifest(root: Path) -> dict[str, str]:
    return json.loads((root / "staticfiles.json").read_text())["paths"]


def references(text: str, patterns) -> list[str]:
    for comments in COMMENTS:
        text = comments.sub("", text)
    return [m.group(1) for pattern in patterns for m in pattern.finditer(text)
            if not m.group(1).startswith(("data:", "#"))]


def test_every_reference_in_the_collected_scripts_and_stylesheets_is_a_collected_hashed_file():
    root = collected_static_root()
    paths = manifest(root)
    hashed = set(paths.values())
    ours = [name for name in paths if (ROOT / "static" / name).is_file()]
    assert {"js/play.js", "js/i18n.js", "games/qtris.js", "css/app.css"} <= set(ours)
    checked = 0
    for name in ours:
        if not name.endswith((".js", ".css")):
            continue
        served = paths[name]
        patterns = JS_REFERENCES if name.endswith(".js") else CSS_REFERENCES
        for reference in references((root / served).read_text(), patterns):
            assert reference.startswith(("./", "../", "/static/")), f"{served}: {reference} (a bare specifier)"
            target = (reference.removeprefix("/static/") if reference.startswith("/")
                      else posixpath.normpath(posixpath.join(posixpath.dirname(served), reference)))
            assert target in hashed and (root / target).is_file(), f"{served}: {reference} is not a collected hashed file"
            checked += 1
    assert checked >= 30  # (the boards' and pages' imports and the boards' stylesheets)


def test_the_pages_static_urls_are_hashed_collected_files():
    root = collected_static_root()
    storage = HashedStaticFilesStorage(location=str(root), base_url="/static/")
    names = set()
    for template in [*(ROOT / "templates").rglob("*.html"), *ROOT.glob("*/templates/**/*.html")]:
        names |= set(re.findall(r"""{%\s*static\s+["']([^"']+)["']""", template.read_text()))
    names |= {board_path(slug) for slug in GAMES}  # {% board_url %}: the registry's boards
    assert {"css/app.css", "js/boot.js", "games/qtris.js"} <= names
    for name in sorted(names):
        url = storage.url(name)  # (strict: a name missing from the manifest raises)
        assert HASHED.search(url) and (root / url.removeprefix("/static/")).is_file(), (name, url)


# ----------------------------------------------------------------- a server in production mode

PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "k" * 60, "SECURE_SSL_REDIRECT": "0",
              "DJANGO_SETTINGS_MODULE": "config.settings"}


@pytest.fixture
def production_server(django_db_setup, transactional_db):
    # (the test settings' collection: the same static files)
    server = LiveServer(extra_env={**PRODUCTION, "STATIC_ROOT": str(collected_static_root())})
    server.start()
    yield server
    server.stop()


def test_production_serves_hashed_static_files_for_a_year_and_no_path_out_of_them(production_server):
    base = production_server.url
    home = requests.get(base + "/", timeout=10)
    assert home.status_code == 200
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', home.text).group(1)
    catalog = re.search(r'src="(/jsi18n/en/[0-9a-f]{12}\.js)"', home.text).group(1)
    answer = requests.get(base + css, headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/css")
    cache_control = answer.headers["Cache-Control"]
    assert "immutable" in cache_control and int(re.search(r"max-age=(\d+)", cache_control).group(1)) >= YEAR
    assert answer.headers.get("Content-Encoding") == "gzip" and answer.headers["X-Content-Type-Options"] == "nosniff"
    assert ".topbar" in answer.text
    module = requests.get(base + "/static/js/play.js", timeout=10)  # the name as it is: served, not kept
    assert module.status_code == 200 and "immutable" not in module.headers["Cache-Control"]
    script = requests.get(base + catalog, timeout=10)
    assert script.status_code == 200 and "immutable" in script.headers["Cache-Control"]
    for path in ("/static/%2e%2e/config/settings.py", "/static/%2e%2e/%2e%2e/etc/passwd", "/static/no-such.js"):
        missing = requests.get(base + path, timeout=10)
        assert missing.status_code == 404 and 'data-status="404"' in missing.text, path
        assert "SECRET_KEY" not in missing.text


@pytest.mark.browser
def test_a_board_loads_from_the_hashed_files_in_chromium_without_an_error(chromium, server, teacher):
    """The tests' servers serve the collected files as production does (tests/support/server.py)."""
    table = open_table(server, game="qtris")
    context = chromium.fresh_context(viewport={"width": 1200, "height": 900})  # every file fetched
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in table.students[0].http.cookies])
    page = context.new_page()
    errors, loaded = [], []
    page.on("console", lambda message: message.type in {"error", "warning"} and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda response: loaded.append((response.url, response.status)))
    page.goto(f"{server.url}/matches/{table.match_id}/")
    expect(page.locator(".qtris-board")).to_be_visible()
    expect(page.locator("#conn")).to_have_text("live")
    static = [(url, status) for url, status in loaded if "/static/" in url]
    assert {url.rsplit("/", 1)[-1].split(".")[0] for url, _ in static} >= {"boot", "play", "i18n", "live", "qtris", "app"}
    for url, status in static:  # every script and stylesheet by its hashed name: one copy of each module
        assert status == 200 and HASHED.search(url), url
    assert errors == []


# ----------------------------------------------------------------- no collectstatic: no start

def production_env(**extra) -> dict:
    return fresh_shell_env(SECRET_KEY="k" * 60, ALLOWED_HOSTS="classroom.example.org", **extra)


def test_production_refuses_to_start_without_collectstatic(tmp_path):
    empty = production_env(STATIC_ROOT=str(tmp_path / "never-collected"))
    refused = subprocess.run([sys.executable, "-c", "import config.asgi"], cwd=ROOT, env=empty,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "run manage.py collectstatic" in refused.stderr
    served = subprocess.run([sys.executable, "manage.py", "serve", "--no-demo", "--port", "1"], cwd=ROOT,
                            env=empty, capture_output=True, text=True, timeout=120)
    assert served.returncode != 0 and "run manage.py collectstatic" in served.stderr
    assert "Traceback" not in served.stderr
    checked = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=empty,
                             capture_output=True, text=True, timeout=120)
    assert "qc.E002" in checked.stdout + checked.stderr and "collectstatic" in checked.stdout + checked.stderr
    collected = subprocess.run([sys.executable, "-c", "import config.asgi"], cwd=ROOT, timeout=120,
                               env=production_env(STATIC_ROOT=str(collected_static_root())),
                               capture_output=True, text=True)
    assert collected.returncode == 0, collected.stderr

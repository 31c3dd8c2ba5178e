"""After the first state a game page is sent patches (what changed since the state before,
``core.jsonpatch`` and ``static/js/patch.js``): for every game, after moves made by both seats the
page holds exactly the state a fresh load of the page is sent."""
from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.support.tables import open_table

pytestmark = [pytest.mark.browser, pytest.mark.server]

GAMES = ["quantum-tictactoe", "qtris", "quantum-poker", "entanglion", "quantum-ticket-to-ride"]
MOVES = 8
# what differs between two loads of the same state: the socket's own numbering, the log so far
# (a new socket's first state carries the history instead of the last move's events), the time left
VOLATILE = {"n", "history", "events", "clock"}

# every message of the match socket: its type and length, as the page received it
TRACE = """(() => {
  const Native = window.WebSocket;
  window.__received = [];
  class Traced extends Native {
    constructor(...args) {
      super(...args);
      if (String(args[0]).includes("/ws/matches/")) this.addEventListener("message", (e) => {
        try { const m = JSON.parse(e.data); window.__received.push([m.type, e.data.length, m.seq]); } catch (err) { /* not JSON */ }
      });
    }
  }
  window.WebSocket = Traced;
})();"""


def open_page(chromium, server, student, match_id):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(TRACE)
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in student.http.cookies])
    page = context.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    expect(page.locator("#conn")).to_have_text("live", timeout=15_000)
    return page


def held(page, seq: int) -> dict:
    page.wait_for_function(f"() => window.matchState() && window.matchState().seq >= {seq}", timeout=15_000)
    state = page.evaluate("() => window.matchState()")
    return {k: v for k, v in state.items() if k not in VOLATILE}


@pytest.mark.parametrize("game", GAMES)
def test_a_page_fed_patches_holds_what_a_fresh_load_is_sent(chromium, server, teacher, game):
    table = open_table(server, game=game)
    pages = {seat: open_page(chromium, server, student, table.match_id) for seat, student in table.students.items()}
    rng = random.Random(7)
    seq = 0
    for _ in range(MOVES):
        states = {seat: s.api("GET", f"/api/matches/{table.match_id}/").json() for seat, s in table.students.items()}
        movers = [seat for seat, st in states.items() if st["legal"] and st["status"] == "playing"]
        if not movers:
            break
        seat = movers[0]
        state = states[seat]
        answer = table.students[seat].api("POST", f"/api/matches/{table.match_id}/actions/",
                                          {"seq": state["seq"], "action": rng.choice(state["legal"])})
        assert answer.status_code == 200, answer.text
        seq = answer.json()["seq"]
    assert seq >= 3, f"{game}: only {seq} moves made"

    for seat, page in pages.items():
        patched = held(page, seq)
        fresh = open_page(chromium, server, table.students[seat], table.match_id)
        assert patched == held(fresh, seq), f"{game}, seat {seat}: the patched state differs from a fresh load"
        received = page.evaluate("() => window.__received")
        patches = [length for kind, length, _ in received if kind == "patch"]
        wholes = [length for kind, length, _ in received if kind == "state"]
        assert len(patches) >= 2, f"{game}: {received}"
        # the whole state once when the page opened (before any move): its socket's first message,
        # not asked for again (each whole state is a view built on the server and a board drawn)
        assert [s for kind, _, s in received if kind == "state" and s == 0] == [0], f"{game}: {received}"
        # (a patch is sent only when it is the shorter text: tests/test_jsonpatch.py)
        print(f"\n{game} seat {seat}: whole states {wholes} B, patches {patches} B")

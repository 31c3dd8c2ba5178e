"""After a move, by keyboard, in a real browser: the focus stays where the student acts next (never
dropped to the page's body), a screen reader hears each opponent move once, in the page's one
live region (#announce), in sentences joined with one full stop; a reader who asks for less
motion waits for no animation before the result; the game pages' headings go h1, h2, h3 in
order."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.support.entanglion_tables import FIRST_GAME, calm_seed
from tests.support.tables import open_table
from tests.test_board_phone_keyboard_browser import WATCH_RESULT, api_act, poker_table
from tests.test_qtris_board_browser import OPTIONS as QTRIS_OPTIONS

pytestmark = [pytest.mark.browser, pytest.mark.server]

# where the focus is: on the page's body (lost), on the board area itself, or on a control
FOCUS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return { where: "body" };
  const board = document.getElementById("board");
  return { where: a === board ? "board" : board.contains(a) ? "control" : "elsewhere",
           html: a.outerHTML.slice(0, 120) };
}"""
# every text the page's live regions take from now on, one entry per task that changed them (a
# screen reader speaks a region once its task is done: two writes in one task are one announcement)
LISTEN = """() => {
  window.__said = [];
  const regions = [...document.querySelectorAll("[aria-live]:not([aria-live=off]), [role=status], [role=log]:not([aria-live=off])")];
  for (const r of regions) new MutationObserver(() => { if (r.textContent.trim()) __said.push(r.textContent.trim()); })
    .observe(r, { childList: true, subtree: true, characterData: true });
}"""
# the polite live regions of the page (errors and the teacher's notices are alerts: not counted)
LIVE_REGIONS = """() => [...document.querySelectorAll("[aria-live]:not([aria-live=off]), [role=status], [role=log]:not([aria-live=off])")]
  .map((n) => n.id || n.className)"""


def page_of(chromium, server, client, match_id, **context):
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, **context)
    ctx.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in client.http.cookies])
    page = ctx.new_page()
    page.goto(f"{server.url}/matches/{match_id}/")
    expect(page.locator("#conn")).to_have_text("live", timeout=10_000)
    return page


def wait_seq(page, match_id):
    """Until the board has drawn the match's latest move (its root or wrapper holds data-seq)."""
    page.wait_for_function("""(seq) => { const n = document.querySelector("#board[data-seq], #board [data-seq]");
      return n && n.dataset.seq === String(seq); }""", arg=Match.objects.get(pk=match_id).seq, timeout=10_000)


def seq_of(page):
    return int(page.evaluate("""() => document.querySelector("#board[data-seq], #board [data-seq]").dataset.seq"""))


def wait_past(page, seq):
    """Until the board has drawn a move after ``seq`` (a move sent by keyboard is on its way)."""
    page.wait_for_function("""(seq) => { const n = document.querySelector("#board[data-seq], #board [data-seq]");
      return n && Number(n.dataset.seq) > seq; }""", arg=seq, timeout=10_000)


def press_and_wait(page, key="Enter"):
    seq = seq_of(page)
    page.keyboard.press(key)
    wait_past(page, seq)


def state_of(client, match_id):
    return client.api("GET", f"/api/matches/{match_id}/").json()


def others_play_until_my_turn(table, match_id, me, choose=lambda legal: legal[0]):
    """The other seats act (their first legal action, or ``choose``'s) until seat ``me`` is to
    act; returns how many moves they made."""
    moves = 0
    for _ in range(20):
        states = {seat: state_of(st, match_id) for seat, st in table.students.items()}
        if states[me]["legal"] or states[me].get("outcome"):
            return moves
        seat = next(s for s, p in states.items() if p["legal"])
        api_act(table.students[seat], match_id, choose(states[seat]["legal"]))
        moves += 1
    raise AssertionError("seat never got its turn back")


def assert_focus_kept(page, after_what):
    focus = page.evaluate(FOCUS)
    assert focus["where"] in ("control", "board"), f"{after_what}: the focus fell to {focus}"
    return focus


def opponent_move_is_said_once(page, table, match_id, me, choose=lambda legal: legal[0]):
    """The others move; the student's page says it once, in #announce only, with no '..'."""
    assert page.evaluate(LIVE_REGIONS) == ["announce"]
    page.evaluate(LISTEN)
    moves = others_play_until_my_turn(table, match_id, me, choose)
    assert moves >= 1
    wait_seq(page, match_id)
    page.wait_for_timeout(1200)  # previews the focus brings, answers on their way: all heard by now
    said = page.evaluate("() => window.__said")
    assert len(said) == moves, f"{moves} opponent move(s), {len(said)} announcements: {said}"
    assert not [s for s in said if ".." in s or ". ." in s], said
    assert page.evaluate(LIVE_REGIONS) == ["announce"]
    return said[0]


def test_qtris_focus_after_a_move_and_one_announcement(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    mid = table.match_id
    alice = page_of(chromium, server, table.students[0], mid)
    alice.locator(".qcard[data-card=U]").focus()
    alice.keyboard.press("Enter")  # the card, then its square: by keyboard
    assert alice.evaluate("() => document.activeElement.matches('g.sq.target')")
    alice.keyboard.press("Enter")
    expect(alice.locator(".qtris .qcard[data-card=U]")).to_have_count(0)
    wait_seq(alice, mid)
    assert_focus_kept(alice, "QTris, U played")
    # the rest of the turn: I, then the other side plays; the focus comes back to the hand
    alice.locator(".qcard[data-card=I]").first.focus()
    press_and_wait(alice)
    assert_focus_kept(alice, "QTris, I played")
    said = opponent_move_is_said_once(alice, table, mid, 0, lambda legal: next(a for a in legal if a.get("card") == "I"))
    assert "I" in said
    expect(alice.locator("#turn")).to_have_class("turn mine")
    assert alice.evaluate("() => document.activeElement.matches('.qcard:not([disabled])')"), alice.evaluate(FOCUS)


def test_poker_focus_after_a_move_and_one_announcement(chromium, server, teacher):
    # a deal whose first card is a SWAP (two qubits to pick), so the card played is the first of another kind
    table = poker_table(server, community_cards=10, seed_wants=lambda st: [c["kind"] == "SWAP" for c in st["hand"]["community"]][:2] == [True, False])
    mid = table.match_id
    first = next(s for s, st in table.students.items() if state_of(st, mid)["legal"])
    page = page_of(chromium, server, table.students[first], mid)
    page.locator(".qp-pauli.playable:not(.k-SWAP)").first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.matches('.qp-qubit.target')")
    press_and_wait(page)
    assert_focus_kept(page, "poker, a card played")
    opponent_move_is_said_once(page, table, mid, first,
                               lambda legal: next((a for a in legal if a.get("card") is not None), legal[0]))
    expect(page.locator("#turn")).to_have_class("turn mine")
    assert page.evaluate("() => document.activeElement.matches('.qp-pauli.playable')"), page.evaluate(FOCUS)


def test_entanglion_focus_after_a_move_and_one_announcement(chromium, server, teacher):
    table = open_table(server, game="entanglion", variant="easy", options=FIRST_GAME, seed=calm_seed())
    mid = table.match_id
    merc = page_of(chromium, server, table.students[0], mid)
    merc.locator("button.ent-card[data-card='H']").first.focus()
    press_and_wait(merc)
    assert_focus_kept(merc, "Entanglion, H played")
    said = opponent_move_is_said_once(merc, table, mid, 0)
    assert said.startswith("Rubicon played"), said
    assert merc.evaluate("() => document.activeElement.matches('button.ent-card')"), merc.evaluate(FOCUS)
    # the hands read as cards one by one, never as one word ("CNOTCNOTH")
    names = merc.locator(".ent-hand .ent-card").evaluate_all("(cs) => cs.map((c) => c.getAttribute('role'))")
    assert names and set(names) == {"listitem"}, names


def test_ticket_to_ride_focus_after_a_move_and_one_announcement(chromium, server, teacher):
    table = open_table(server, game="quantum-ticket-to-ride")
    mid = table.match_id
    me = next(s for s, st in table.students.items() if state_of(st, mid)["legal"])
    page = page_of(chromium, server, table.students[me], mid)
    page.locator("[data-draw]").first.focus()
    press_and_wait(page)
    assert_focus_kept(page, "Ticket-to-Ride, a card drawn")
    for _ in range(3):  # the run step: passed by keyboard
        st = state_of(table.students[me], mid)
        if st["view"]["turn"] != me or not st["legal"]:
            break
        page.locator("[data-pass]").focus()
        press_and_wait(page)
        assert_focus_kept(page, "Ticket-to-Ride, the run step passed")

    def draw_or_pass(legal):
        return next((a for a in legal if "draw" in a), next((a for a in legal if "pass" in a), legal[0]))
    said = opponent_move_is_said_once(page, table, mid, me, draw_or_pass)
    assert said
    assert page.evaluate("() => document.activeElement.matches('#board button:not([disabled]), #board [role=button]')"), \
        page.evaluate(FOCUS)


# ----------------------------------------------------------------------------- reduced motion

def test_qtris_result_at_once_when_motion_is_reduced(chromium, server, teacher):
    table = open_table(server, game="qtris", variant="advanced", options=QTRIS_OPTIONS)
    mid = table.match_id
    alice = page_of(chromium, server, table.students[0], mid, reduced_motion="reduce")
    while True:  # everybody passes (the deck holds only I cards) until one pass is left
        payloads = {seat: state_of(st, mid) for seat, st in table.students.items()}
        seat = next(s for s, p in payloads.items() if p["legal"])
        turn = payloads[seat]["view"]["turn"]
        if turn["number"] == turn["total"] and turn["plays_left"] == 1:
            break
        api_act(table.students[seat], mid, {"card": "I"})
    alice.evaluate(WATCH_RESULT, ".measured")
    final = api_act(table.students[seat], mid, {"card": "I"})
    assert final["outcome"] and len([e for e in final["events"] if e.get("type") == "measure"]) >= 2
    alice.wait_for_function("() => window.__t && window.__t.start && window.__t.result", timeout=10_000)
    t = alice.evaluate("() => window.__t")
    assert t["result"] - t["start"] < 300, t  # (with motion: 4.7 s)
    expect(alice.locator("[data-testid=final-score]")).to_be_visible()
    expect(alice.locator("[data-testid=measuring]")).to_have_count(0)


def test_poker_showdown_at_once_when_motion_is_reduced(chromium, server, teacher):
    def wanted(state):
        return [c["kind"] for c in state["hand"]["community"]][0] == "H"
    table = poker_table(server, community_cards=2, seed_wants=wanted)
    mid = table.match_id
    first = next(s for s, st in table.students.items() if state_of(st, mid)["legal"])
    page = page_of(chromium, server, table.students[first], mid, reduced_motion="reduce")
    api_act(table.students[first], mid, next(a for a in state_of(table.students[first], mid)["legal"] if a["card"] == 0))
    second = 1 - first
    page.evaluate(WATCH_RESULT, ".qp-coin-wrap")
    api_act(table.students[second], mid, state_of(table.students[second], mid)["legal"][0])
    page.wait_for_function("() => window.__t && window.__t.start && window.__t.result", timeout=10_000)
    t = page.evaluate("() => window.__t")
    assert t["result"] - t["start"] < 300, t  # (with motion: 1.7 s)
    expect(page.locator(".qp-showdown")).to_be_visible()


# ----------------------------------------------------------------------------- headings

HEADINGS = "() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => h.getClientRects().length).map((h) => Number(h.tagName[1]))"


@pytest.mark.parametrize("game, extra", [
    ("qtris", {"variant": "advanced", "options": QTRIS_OPTIONS}), ("quantum-tictactoe", {}),
    ("quantum-poker", {"variant": "classic", "options": {"table_size": 2, "hands": 1, "community_cards": 4}}),
    ("entanglion", {}), ("quantum-ticket-to-ride", {}),
])
def test_game_pages_headings_go_down_one_level_at_a_time(chromium, server, teacher, game, extra):
    table = open_table(server, game=game, **extra)
    page = page_of(chromium, server, table.students[0], table.match_id)
    expect(page.locator("#turn")).not_to_be_empty()
    page.wait_for_timeout(300)
    levels = page.evaluate(HEADINGS)
    assert levels[0] == 1, levels
    skips = [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]
    assert not skips, f"{game}: headings {levels} skip a level"

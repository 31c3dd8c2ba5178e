"""Quantum Ticket-to-Ride's turn state in a real browser: the board module of the match page
(``static/games/quantum-ticket-to-ride.js``) fed the engine's own views and legal actions, seat
by seat and move by move, as the match socket sends them. Every turn starts clean (a run half
planned does not carry into the next turn, where a tap on a route then selects it), Cancel takes
the path picker's hint away at once, and every prompt names an action the board offers (a full
hand of 12 cards has no Draw button, so the prompt does not say "Draw")."""
from __future__ import annotations

import copy

import pytest

from games.engines import get_game
from tests.support.ticket_to_ride import small_map

pytestmark = [pytest.mark.browser, pytest.mark.server]
GAME = "quantum-ticket-to-ride"

HARNESS = """async () => {
  const mod = await import("/static/games/quantum-ticket-to-ride.js");
  const root = document.createElement("div");
  root.id = "ttr-under-test";
  document.body.append(root);
  const harness = { acts: [], prompts: [], msg: null };
  const board = mod.createBoard(root, {
    act: (action) => harness.acts.push(action),
    // what play.js does: the page's turn line is the board's prompt for the current state
    promptChanged: () => harness.prompts.push(board.prompt(harness.msg)),
  });
  harness.show = (msg) => { harness.msg = msg; board.render(msg); return board.prompt(msg); };
  harness.prompt = () => board.prompt(harness.msg);
  window.ttr = harness;
}"""


def payload(state: dict, seat: int, seq: int) -> dict:
    """What the match socket sends this seat (``games.selectors.seat_payload``'s fields)."""
    game = get_game(GAME)
    to_act = game.to_act(state)
    return {"type": "state", "seq": seq, "seat": seat, "status": "playing",
            "seats": [{"index": i, "name": n} for i, n in enumerate(("Ada", "Bot 1 (strong)"))],
            "view": game.view(state, seat), "to_act": to_act,
            "legal": game.legal_actions(state, seat) if seat in to_act else [], "events": []}


def opening() -> tuple[dict, int, int]:
    """A deal on the small map where the first player can claim a route at once: the state,
    that player's seat and the route."""
    game = get_game(GAME)
    for seed in range(200):
        state = game.setup(players=2, variant="basic", seed=seed, options={"map": small_map()})
        me = game.to_act(state)[0]
        claims = [a["claim"] for a in game.legal_actions(state, me) if "claim" in a]
        if claims:
            return state, me, claims[0]
    raise AssertionError("no seed lets the first player claim at once")


@pytest.fixture
def board(server, chromium):
    page = chromium.new_page()
    page.goto(server.url + "/join/")
    page.evaluate(HARNESS)
    return page


def show(page, msg: dict) -> str:
    return page.evaluate("(m) => window.ttr.show(m)", msg)


def tap(page, selector: str) -> None:
    page.locator(selector).first.dispatch_event("click")


def offered(page) -> set[str]:
    """The action buttons the board shows now (the map's zoom buttons are no actions)."""
    return set(page.evaluate("""() => [...document.querySelectorAll('#ttr-under-test button')]
        .filter((b) => !b.disabled && !('zoom' in b.dataset)).map((b) => Object.keys(b.dataset)[0])"""))


def assert_prompt_offered(page, prompt: str) -> None:
    """A prompt that says "Draw" comes with a Draw button; one that says "pass" with Pass."""
    buttons = offered(page)
    if "draw two cards" in prompt.lower():
        assert "draw" in buttons, (prompt, buttons)
    if prompt.lower().rstrip(".").endswith("pass"):
        assert "pass" in buttons, (prompt, buttons)


def test_a_run_half_planned_does_not_carry_into_the_next_turn_and_cancel_clears_its_hint(board):
    page = board
    game = get_game(GAME)
    state, me, route = opening()
    seq = 0
    prompt = show(page, payload(state, me, seq))
    assert prompt == "Draw two cards, or pick a route to claim."
    assert_prompt_offered(page, prompt)

    tap(page, f".ttr-route[data-route='{route}']")  # a tap selects the route: Claim is offered
    assert page.evaluate("() => window.ttr.prompt()") == "Claim the selected route, or pick another."
    tap(page, "[data-claim]")
    assert page.evaluate("() => window.ttr.acts") == [{"claim": route}]
    state, _ = game.apply(state, me, {"claim": route})
    seq += 1
    assert state["step"] == "run"  # the run step: a route of theirs may be run
    show(page, payload(state, me, seq))

    # Plan a run…, then Cancel: the picker's hint goes at once (the page's prompt is asked again)
    tap(page, "[data-plan]")
    assert page.locator(".ttr-picker").is_visible()
    planning_prompt = page.evaluate("() => window.ttr.prompts.at(-1)")
    assert planning_prompt == page.evaluate("() => window.ttr.prompt()")
    assert planning_prompt.startswith(("Pick the next city", "None of your routes leaves"))
    tap(page, "[data-cancel]")
    assert not page.locator(".ttr-picker").is_visible()
    after_cancel = page.evaluate("() => window.ttr.prompts.at(-1)")
    assert after_cancel == page.evaluate("() => window.ttr.prompt()")
    assert "Pick the next city" not in after_cancel and "None of your routes goes on" not in after_cancel

    # a run planned half-way, then the turn ends without it (End turn without a run)
    tap(page, "[data-plan]")
    assert page.locator(".ttr-picker").is_visible()
    tap(page, "[data-pass]")
    assert page.evaluate("() => window.ttr.acts.at(-1)") == {"pass": True}
    state, _ = game.apply(state, me, {"pass": True})
    other = game.to_act(state)[0]
    assert other != me
    state, _ = game.apply(state, other, game.legal_actions(state, other)[0])
    if game.to_act(state) == [other]:  # the other player's run step
        state, _ = game.apply(state, other, {"pass": True})
    assert game.to_act(state) == [me] and state["step"] == "act"
    seq += 3  # (a bot's turn arrives with the move that ended this seat's: one message)
    prompt = show(page, payload(state, me, seq))

    # the new turn is clean: no picker, no path hint, and a tap on a route selects it
    assert not page.locator(".ttr-picker").is_visible()
    assert "Pick the next city" not in prompt
    assert_prompt_offered(page, prompt)
    free = next(r["index"] for r in payload(state, me, seq)["view"]["map"]["routes"] if r["owner"] is None)
    assert page.get_attribute(f".ttr-route[data-route='{free}']", "role") == "button"
    tap(page, f".ttr-route[data-route='{free}']")
    assert page.locator(f".ttr-route[data-route='{free}'].picked").count() == 1
    assert page.locator("[data-claim]").count() == 1


def test_with_a_full_hand_the_prompt_names_no_draw_and_every_prompt_names_a_button_shown(board):
    page = board
    state, me, route = opening()
    full = copy.deepcopy(state)
    gate = state["map"]["routes"][route]["gate"]
    full["hands"][me] = [gate] * 12  # a full hand: no draw, the route still claimable
    msg = payload(full, me, 5)
    assert {"draw": True} not in msg["legal"] and msg["view"]["hand_limit"] == 12
    prompt = show(page, msg)
    assert "draw" not in offered(page)
    assert "Draw" not in prompt and prompt == "Your hand is full (12 cards): pick a route to claim."

    # nothing to claim either: only Pass, and the prompt says so
    stuck = copy.deepcopy(full)
    stuck["hands"][me] = ["CNOT"] * 12  # the small map has no CNOT route
    prompt = show(page, payload(stuck, me, 6))
    assert offered(page) == {"pass"} and prompt == "You can neither draw nor claim: pass."
    assert_prompt_offered(page, prompt)

    # cards that claim nothing yet: Draw only
    poor = copy.deepcopy(state)
    poor["hands"][me] = ["CNOT"]
    prompt = show(page, payload(poor, me, 7))
    assert "draw" in offered(page) and prompt == "Draw two cards: your cards claim no route yet."

    # a route picked that the hand cannot pay for: Claim is not offered, nor named
    tap(page, f".ttr-route[data-route='{route}']")
    prompt = page.evaluate("() => window.ttr.prompt()")
    assert page.locator("[data-claim]").is_disabled()
    assert prompt == "You lack the cards for that route: pick another one, or draw two cards."

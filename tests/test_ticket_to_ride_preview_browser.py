"""The path picker's preview is computed in the browser (static/games/ttr-circuit.js): over 300
random paths (gates I X Y Z H CNOT, lengths 1-4, every initial and target state of the rules)
its amplitudes, q0's Bloch vector and the fidelity equal the engine's register (numpy, through
``quantum``) and, independently, Qiskit's Statevector."""
from __future__ import annotations

import random

import numpy as np
import pytest
from playwright.sync_api import expect
from qiskit.quantum_info import DensityMatrix, Statevector, partial_trace

from games.engines.quantum_ticket_to_ride import register
from games.engines.quantum_ticket_to_ride.circuit import unmeasured

pytestmark = [pytest.mark.browser, pytest.mark.server]
CASES = 300


def random_cases(seed: int = 13) -> list[dict]:
    rng = random.Random(seed)
    cases = []
    for _ in range(CASES):
        qubits = rng.choice([1, 2])
        target = rng.choice(sorted(register.STATES_1 if qubits == 1 else register.STATES_2))
        routes = [{"gate": rng.choice(register.GATE_NAMES), "length": rng.randint(1, 4)}
                  for _ in range(rng.randint(0, 6))]
        cases.append({"initial": rng.choice(sorted(register.STATES_1)), "target": target,
                      "qubits": qubits, "routes": routes})
    return cases


JS = """async (cases) => {
  const m = await import('/static/games/ttr-circuit.js');
  return cases.map((c) => {
    let psi = m.register(c.initial);
    for (const r of c.routes) psi = m.applyRoute(psi, r.gate, r.length);
    const target = m.register(c.target);
    return { amplitudes: psi, bloch: m.bloch(psi), fidelity: m.fidelity(psi, target, c.qubits) };
  });
}"""


def test_the_browser_preview_equals_the_engine_and_qiskit(chromium, server):
    page = chromium.new_page()
    page.goto(server.url + "/")
    cases = random_cases()
    results = page.evaluate(JS, cases)
    assert len(results) == CASES
    for case, got in zip(cases, results, strict=True):
        gates = register.expand((r["gate"], r["length"]) for r in case["routes"])
        psi = register.run_gates(case["initial"], gates)
        js_psi = np.array([complex(re, im) for re, im in got["amplitudes"]])
        assert np.allclose(js_psi, psi, atol=1e-12), case
        assert got["fidelity"] == pytest.approx(register.fidelity(psi, case["target"], case["qubits"]), abs=1e-12)
        # Qiskit, independently: its statevector is little-endian (q0 the rightmost bit)
        sv = Statevector(unmeasured(case["initial"], gates))
        ordered = np.array([sv.data[int(f"{k:02b}"[::-1], 2)] for k in range(4)])
        assert abs(abs(np.vdot(ordered, js_psi)) - 1) < 1e-9, case
        rho = partial_trace(DensityMatrix(sv), [1]).data
        bloch = [np.real(np.trace(rho @ p)) for p in (register.quantum.X, register.quantum.Y, register.quantum.Z)]
        assert [got["bloch"][k] for k in "xyz"] == pytest.approx(bloch, abs=1e-9), case
    # and the states of the rules by name, as the engine names them
    named = page.evaluate("""async (names) => { const m = await import('/static/games/ttr-circuit.js');
      return names.map((n) => m.register(n)); }""", sorted(register.STATES_1) + sorted(register.STATES_2))
    for name, amps in zip(sorted(register.STATES_1) + sorted(register.STATES_2), named, strict=True):
        expected = register.initial_register(name) if name in register.STATES_1 else register.STATES_2[name]
        assert np.allclose([complex(a, b) for a, b in amps], expected, atol=1e-12), name


def board_alone(chromium, server, msg: dict):
    """The board drawn from a socket message on a 375 px page of its own; what it sends collects
    in ``window.sent``, what it says (the game page's one live region) in #announce."""
    page = chromium.new_page(viewport={"width": 375, "height": 800})
    page.goto(server.url + "/")
    page.evaluate("""async (msg) => {
      const { createBoard } = await import('/static/games/quantum-ticket-to-ride.js');
      const root = document.createElement('div'); root.id = 'board';
      const announce = document.createElement('div'); announce.id = 'announce';
      announce.setAttribute('role', 'status'); announce.setAttribute('aria-live', 'polite');
      document.querySelector('main').replaceChildren(root, announce);
      window.sent = [];
      const board = createBoard(root, { act: (a) => window.sent.push(a), say: (text) => { announce.textContent = text; } });
      board.render(msg);
    }""", msg)
    return page


def test_the_path_picker_shows_two_qubit_amplitudes_for_an_advanced_mission(chromium, server):
    """The board itself, on an engine view: seat 0 owns the planner's path of a Bell-state
    mission of the Europe map; picking it city by city (keyboard) shows amplitude bars (not a
    Bloch disc), a CNOT drawn q0 → q1, and the engine's fidelity 1 at the target."""
    from games.engines import get_game
    from games.engines.quantum_ticket_to_ride import default_map, plan, trace

    game = get_game("quantum-ticket-to-ride")
    state = game.setup(players=2, variant="advanced", seed=4)
    europe = default_map()
    bell = next(m for m in europe["missions"] if m["target_state"].startswith(("Phi", "Psi"))
                and "CNOT" in [europe["routes"][r]["gate"] for r in plan(europe, m).routes])
    path = plan(europe, bell)
    state["missions"][0] = dict(bell)
    for r in path.routes:
        state["owners"][r] = 0
    state["turn"], state["step"], state["order"] = 0, "run", [0, 1]
    msg = {"view": game.view(state, 0), "legal": game.legal_actions(state, 0), "seat": 0, "seq": 7,
           "to_act": [0], "events": [], "seats": [{"index": 0, "name": "Ada"}, {"index": 1, "name": "Bo"}]}
    assert {"run": list(path.cities)} in msg["legal"]
    expected = trace(europe, bell, list(path.cities))

    page = board_alone(chromium, server, msg)
    page.locator("[data-plan]").focus()
    page.keyboard.press("Enter")
    for city in path.cities[1:]:
        assert page.evaluate("() => document.activeElement.dataset.city") == city
        page.keyboard.press("Enter")
    picker = page.locator(".ttr-picker")
    expect(picker.locator(".ttr-amps")).to_have_count(len(path.cities))
    expect(picker.locator(".ttr-bloch")).to_have_count(0)
    expect(picker.locator(".ttr-circuit .gate[data-gate='CNOT'] .ctl")).not_to_have_count(0)
    assert float(picker.locator(".ttr-verdict").get_attribute("data-fidelity")) == pytest.approx(expected["fidelity"])
    expect(picker.locator(".ttr-verdict")).to_contain_text("this run completes the mission")
    last = picker.locator(f".ttr-step[data-step='{len(path.cities) - 1}'] .ttr-amps")
    assert "|" in last.get_attribute("aria-label")
    page.keyboard.press("Enter")  # the focus is on "Run this path"
    assert page.evaluate("() => window.sent") == [{"run": list(path.cities)}]
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 375


# ---------------------------------------------------------------- the map by keyboard alone

NODES = """() => [...document.querySelectorAll('.ttr-map [data-cx]')].map((n) => ({
  key: n.dataset.route !== undefined ? 'route ' + n.dataset.route : 'city ' + n.dataset.city,
  x: Number(n.dataset.cx), y: Number(n.dataset.cy), stop: n.getAttribute('tabindex') === '0'}))"""
FOCUSED = """() => { const n = document.activeElement;
  return n && n.dataset && n.dataset.cx !== undefined
    ? (n.dataset.route !== undefined ? 'route ' + n.dataset.route : 'city ' + n.dataset.city) : null; }"""
DIRECTIONS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


def toward(nodes: dict, here: str, key: str) -> str | None:
    """The spec of the arrow keys: the nearest route or city within ±45° of the arrow's
    direction from the focused one's centre (SVG y grows downwards)."""
    dx, dy = DIRECTIONS[key]
    x0, y0 = nodes[here]
    best = None
    for name, (x, y) in nodes.items():
        vx, vy = x - x0, y - y0
        dist = (vx * vx + vy * vy) ** 0.5
        if name == here or dist < 1e-6 or vx * dx + vy * dy < dist * 0.5 ** 0.5 - 1e-9:
            continue
        if best is None or dist < best[0]:
            best = (dist, name)
    return best and best[1]


def key_path(nodes: dict, start: str, goal: str) -> list[tuple[str, str]]:
    """Arrow presses (key, node reached) leading from ``start`` to ``goal`` (breadth first)."""
    seen, todo = {start: []}, [start]
    while todo:
        here = todo.pop(0)
        if here == goal:
            return seen[here]
        for key in DIRECTIONS:
            there = toward(nodes, here, key)
            if there and there not in seen:
                seen[there] = [*seen[here], (key, there)]
                todo.append(there)
    raise AssertionError(f"{goal} cannot be reached by arrows from {start}")


def test_the_map_is_played_by_keyboard_alone_with_arrows_between_routes_and_cities(chromium, server):
    """Accessibility: the Europe map (27 cities, 53 routes) is one Tab stop; the arrows move the
    focus to the nearest route or city in their direction; a focused route or city shows the same
    preview as hover, in a live region; Enter selects a route, Escape drops it, and the Claim
    button claims it."""
    from games.engines import get_game

    game = get_game("quantum-ticket-to-ride")
    state = game.setup(players=2, variant="basic", seed=4)
    legal = game.legal_actions(state, 0)
    claimable = [a["claim"] for a in legal if "claim" in a]
    routes = state["map"]["routes"]
    msg = {"view": game.view(state, 0), "legal": legal, "seat": 0, "seq": 3, "to_act": [0], "events": [],
           "seats": [{"index": 0, "name": "Ada"}, {"index": 1, "name": "Bo"}]}
    page = board_alone(chromium, server, msg)
    rows = page.evaluate(NODES)
    assert len(rows) == len(routes) + len(state["map"]["cities"]) == 53 + 27
    assert [r["key"] for r in rows if r["stop"]] == [f"route {claimable[0]}"]  # one Tab stop: a route to claim
    nodes = {r["key"]: (r["x"], r["y"]) for r in rows}

    for _ in range(30):  # Tab, from the top of the page, reaches the map once
        if page.evaluate(FOCUSED):
            break
        page.keyboard.press("Tab")
    start = f"route {claimable[0]}"
    assert page.evaluate(FOCUSED) == start
    first = routes[claimable[0]]
    hover = page.locator(".ttr-hover")
    expect(hover).to_contain_text(f"{first['a']}–{first['b']}: {first['gate']}×{first['length']} (unclaimed)")
    # heard through the page's one live region
    expect(page.locator("#announce")).to_contain_text(f"{first['a']}–{first['b']}: {first['gate']}×{first['length']} (unclaimed)")

    # a known step of the map, then the way to another route to claim, press by press
    berlin = "city Berlin"
    for key, there in key_path(nodes, start, berlin):
        page.keyboard.press(key)
        assert page.evaluate(FOCUSED) == there, key
    expect(hover).to_contain_text("Berlin: routes to")
    x0, y0 = nodes[berlin]
    page.keyboard.press("ArrowDown")
    below = page.evaluate(FOCUSED)
    x1, y1 = nodes[below]
    assert below == toward(nodes, berlin, "ArrowDown") and y1 > y0 and abs(x1 - x0) <= y1 - y0
    goal = claimable[-1]
    for key, there in key_path(nodes, below, f"route {goal}"):
        page.keyboard.press(key)
        assert page.evaluate(FOCUSED) == there, key
    route = page.locator(f".ttr-route[data-route='{goal}']")
    label = route.get_attribute("aria-label")
    r = routes[goal]
    assert label.startswith(f"{r['a']}–{r['b']}: {r['gate']} route, length {r['length']}, unclaimed"), label
    expect(hover).to_contain_text(f"{r['a']}–{r['b']}")

    page.keyboard.press("Enter")  # selected, as by a click; the focus stays on it
    expect(route).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(FOCUSED) == f"route {goal}"
    page.keyboard.press("Escape")
    expect(route).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Enter")
    expect(page.locator(f"[data-claim='{goal}']")).to_be_visible()
    page.keyboard.press("Tab")  # the map is one Tab stop: the next Tab leaves it for the controls
    assert page.evaluate(FOCUSED) is None
    for _ in range(5):
        if page.evaluate("() => document.activeElement.dataset.claim") == str(goal):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.sent") == [{"claim": goal}]

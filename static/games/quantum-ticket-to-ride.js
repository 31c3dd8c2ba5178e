// Quantum Ticket-to-Ride board: the map as SVG (cities, routes coloured by gate with their
// length, claimed routes in their owner's colour), your gate cards and your secret mission,
// draw / claim controls, and the path picker of a run: pick cities along your claimed routes;
// it shows the circuit being built (gate boxes on the wires q0 and q1) and the state after each
// route — a Bloch vector of q0 (one-qubit missions) or the four amplitudes (two-qubit ones).
//
// The preview is computed here, in the browser, by ttr-circuit.js with the engine's own
// conventions (q0 leftmost, CNOT q0→q1, a route of length N applies its gate N times); the
// server's run decides. Renders replay frames ({view, legal: []}) too.
//
// Keyboard: the map is one Tab stop (a roving tabindex over its routes and cities); the arrow
// keys move to the nearest route or city in that direction (within ±45° of it), Enter / Space
// act as a click, Escape drops the selected route or the planned run; a focused route or city
// shows the same preview as a hovered one, and says it in the preview's live region.
//
// Nothing secret is ever in the DOM: the mission shown is the one in this seat's view (the view
// holds only this seat's mission; the others' appear there only at the end).
import { _, nt, t } from "../js/i18n.js";
import { namedSeats } from "../js/live.js";
import { ensureStylesheet, h, readableText, s } from "../js/svg.js";
import { panZoom } from "../js/panzoom.js";
import { applyRoute, bloch, fidelity, ketText, register } from "./ttr-circuit.js";
import { hitBands, mapLayout, quad, readableScale } from "./ttr-map-geometry.js";

// a mission's level in the reader's words (translators: the level of a secret mission)
const MISSION_LEVEL = { basic: _("basic mission"), intermediate: _("intermediate mission"), advanced: _("advanced mission") };

const GATES = ["I", "X", "Y", "Z", "H", "CNOT"];
const GATE_HELP = {
  I: _("I does nothing to the qubit."),
  X: _("X flips the mission qubit (|0⟩ ↔ |1⟩)."),
  Y: _("Y flips the mission qubit with a phase: Y|0⟩ = i|1⟩, Y|1⟩ = −i|0⟩ (so Y|+⟩ = −i|−⟩)."),
  Z: _("Z flips the sign of |1⟩ (|+⟩ ↔ |−⟩)."),
  H: _("H turns |0⟩ into |+⟩ and |1⟩ into |−⟩ (and back)."),
  CNOT: _("CNOT flips q1 when the mission qubit q0 is 1: it can entangle them."),
};
// every sentence the board says, in one place
const TEXT = {
  map: _("Map of Europe: cities and gate routes"),
  mapBox: _("The map: drag it to move it, pinch it or use the zoom buttons to zoom"),
  route: (r, owner, note) => t("%(a)s–%(b)s: %(gate)s route, length %(length)s, %(owner)s", { a: r.a, b: r.b, gate: r.gate, length: r.length, owner }) + (note ? `. ${note}` : ""),
  unclaimed: _("unclaimed"),
  claimedBy: (name) => t("claimed by %(name)s", { name }),
  needCards: (r, have) => nt("Claiming needs %(n)s %(gate)s card; you have %(have)s.", "Claiming needs %(n)s %(gate)s cards; you have %(have)s.", r.length, { gate: r.gate, have }),
  canClaim: (r) => nt("Claim %(a)s–%(b)s with %(n)s %(gate)s card.", "Claim %(a)s–%(b)s with %(n)s %(gate)s cards.", r.length, { a: r.a, b: r.b, gate: r.gate }),
  picked: (r) => t("Route %(a)s–%(b)s selected (%(gate)s × %(length)s).", { a: r.a, b: r.b, gate: r.gate, length: r.length }),
  drawPrompt: _("Draw two cards, or pick a route to claim."),
  // the turn's prompt names only what the page offers now (a full hand has no Draw button)
  drawOnly: _("Draw two cards: your cards claim no route yet."),
  handFull: (limit) => t("Your hand is full (%(limit)s cards): pick a route to claim.", { limit }),
  pileEmpty: _("The pile is empty: pick a route to claim."),
  passOnly: _("You can neither draw nor claim: pass."),
  claimPicked: _("Claim the selected route, or pick another."),
  cannotClaim: _("You lack the cards for that route: pick another one."),
  cannotClaimDraw: _("You lack the cards for that route: pick another one, or draw two cards."),
  pathNext: _("Pick the next city of your run, then Run this path."),
  pathRun: _("Run this path, or go back one city."),
  pathStuck: _("None of your routes goes on from here: go back one city, or cancel the plan."),
  pathNone: (c) => t("None of your routes leaves %(city)s yet: cancel the plan.", { city: c }),
  planDraw: _("Planning a run (you may run it after your action): draw two cards, or cancel the plan to pick a route to claim."),
  planDrawOnly: _("Planning a run (you may run it after your action): draw two cards."),
  planClaim: _("Planning a run (you may run it after your action): cancel the plan to pick a route to claim."),
  runPrompt: _("You may run a path along your routes: Plan a run, then pick the cities from your start."),
  noRun: _("None of your paths joins your start to your target yet: end your turn (or plan a run to see the states)."),
  pathStart: (c) => t("Path starts at %(city)s. Pick the next city along your routes.", { city: c }),
  pathAdd: (c, state) => t("Path reaches %(city)s: %(state)s.", { city: c, state }),
  pathBack: _("Last city taken off the path."),
  noMission: _("No mission card."),
  spectator: _("You are watching this match."),
  over: _("The game is over."),
  city: (name, extra) => `${name}${extra ? `, ${extra}` : ""}`,
  cityRoutes: (name, routes) => t("%(city)s: routes to %(routes)s.", { city: name, routes }),
  cityRoute: (r, other, owner) => `${other} (${r.gate}×${r.length}, ${owner})`,
  start: _("your start"), target: _("your target"), next: _("next on the path: press Enter"),
  // the one statement of how gate sequences are written (the events and the report write them so)
  order: _("Gates are written in the order they act: X → H means X first, then H (the operator product is H·X)."),
};
const SEAT_COLOURS = 5;
const COLOUR_NAMES = [_("red"), _("blue"), _("green"), _("orange"), _("purple")];
// the map's zoom and its list of routes
const MAP_TEXT = {
  zoomIn: _("Zoom in"), zoomOut: _("Zoom out"), whole: _("Whole map"),
  cue: _("Drag the map to move it; pinch it or use − and + to zoom."),
  list: _("Pick a route from the list"), none: _("— no route picked —"),
  claimable: _("You can claim"), unclaimed: _("Unclaimed"), claimed: _("Claimed"),
};
// a map's layout (ttr-map-geometry.js) is worked out once per map: the same cities and routes
let layoutKey = null, layoutMemo = null;
function layoutOf(cities, routes) {
  const key = JSON.stringify([cities.map((c) => [c.name, c.x, c.y]), routes.map((r) => [r.index, r.a, r.b])]);
  if (key !== layoutKey) {
    const list = mapLayout(cities, routes);
    // how far a city's target may reach: half way to its nearest neighbour
    const room = Object.fromEntries(cities.map((c) => [c.name, Math.min(...cities.filter((o) => o !== c)
      .map((o) => Math.hypot(o.x - c.x, o.y - c.y))) / 2 - 1]));
    layoutKey = key;
    layoutMemo = { list, byIndex: new Map(list.map((L) => [L.index, L])), room };
  }
  return layoutMemo;
}


const fmt = (x) => (Math.abs(x) < 5e-4 ? "0" : x.toFixed(2).replace(/\.?0+$/, "").replace("-", "−"));

// ------------------------------------------------------------------ the view, whatever its details

function mapOf(v) { return v.map || {}; }
function citiesOf(v) { return v.cities || mapOf(v).cities || []; }
function routesOf(v) {
  const base = v.routes || mapOf(v).routes || [];
  return base.map((r, i) => ({ ...r, index: r.index ?? r.id ?? i, owner: r.owner ?? (v.owners ? v.owners[i] : null) ?? null }));
}
function handCounts(v) {
  const hand = v.hand ?? (v.you ? v.you.hand : null) ?? [];
  const counts = Object.fromEntries(GATES.map((g) => [g, 0]));
  if (Array.isArray(hand)) for (const g of hand) counts[g] = (counts[g] || 0) + 1;
  else for (const [g, n] of Object.entries(hand || {})) counts[g] = n;
  return counts;
}
function missionOf(v) { return v.mission ?? (v.you ? v.you.mission : null) ?? null; }
function mySeat(msg) { return msg.view.seat ?? msg.seat ?? null; }
const qubitsOf = (m) => Number(m.qubits || 1);
// a state's name as a ket: "+" → |+⟩, "-" → |−⟩, "Phi+" → |Φ+⟩
export function ket(name) {
  const greek = { Phi: "Φ", Psi: "Ψ" };
  const text = String(name).replace(/^(Phi|Psi)/, (g) => greek[g]).replace(/-/g, "−");
  return `|${text}⟩`;
}
const missionText = (m) => `${m.start} ${ket(m.initial_state)} → ${m.target} ${ket(m.target_state)}`;

export function createBoard(root, { act, promptChanged = () => {}, say: speak = () => {} }) {
  ensureStylesheet(new URL("../css/quantum-ticket-to-ride.css", import.meta.url).href);
  root.innerHTML = "";
  // what the last tap did and the last move's news, shown; heard through the page's one live
  // region (``speak``: the page says a move's news itself, once)
  const live = h("p", { class: "ttr-live" });
  // on a phone the map pans inside its own box; a keyboard scrolls it by moving among its routes
  // and cities (the focus brings them into view), so the box itself is no Tab stop
  const mapBox = h("div", { class: "ttr-map", role: "region", "aria-label": TEXT.mapBox });
  // the preview of the hovered or focused route / city, said politely to a screen reader
  const hoverBox = h("p", { class: "ttr-hover muted small" });
  const side = h("div", { class: "ttr-side" });
  const picker = h("section", { class: "ttr-picker hidden", "aria-label": _("Path picker of a run") });
  // the map's zoom (its buttons, and a word that it moves under a finger) and its list of routes
  const zoomButton = (label, sign, f) => h("button", { type: "button", class: "button small secondary ttr-zoom", "aria-label": label, title: label, "data-zoom": sign, onclick: f }, sign);
  const tools = h("div", { class: "ttr-map-tools", role: "group", "aria-label": TEXT.mapBox },
    zoomButton(MAP_TEXT.zoomOut, "−", () => pz && pz.zoomBy(1 / 1.4)),
    zoomButton(MAP_TEXT.zoomIn, "+", () => pz && pz.zoomBy(1.4)),
    h("button", { type: "button", class: "button small secondary", "data-zoom": "fit", onclick: () => pz && pz.zoomTo(pz.fit()) }, MAP_TEXT.whole),
    h("span", { class: "ttr-map-cue", text: MAP_TEXT.cue }));
  const routeSelect = h("select", { class: "ttr-route-select", "data-route-list": "1" });
  const routeList = h("label", { class: "ttr-route-list" }, h("span", { text: MAP_TEXT.list }), routeSelect);
  routeSelect.addEventListener("change", () => pickFromList(routeSelect.value === "" ? null : Number(routeSelect.value)));
  const wrap = h("div", { class: "ttr" }, h("div", { class: "ttr-main" }, live, tools, mapBox), side);
  root.append(wrap, picker);

  let last = null;
  let pickedRoute = null;  // index of the route selected for a claim
  let path = [];           // cities of the run being planned
  let planning = false;
  let seenSeq = null;      // the move last rendered, and this seat's step then: "act", "run" or
  let seenStep = null;     // "wait" (another's turn); a turn starts clean (see ``render``)
  let current = null;      // the map's Tab stop: the selector of the route or city last focused

  const say = (text) => { live.textContent = text; speak(text); };
  const seatName = (msg, i) => {
    const seat = (msg.seats || []).find((x) => x.index === i);
    return seat && seat.name ? seat.name : t("Player %(number)s", { number: i + 1 });
  };
  const legal = (msg) => msg.legal || [];
  const canDraw = (msg) => legal(msg).some((a) => a.draw !== undefined);
  const claimable = (msg) => new Set(legal(msg).filter((a) => a.claim !== undefined).map((a) => a.claim));
  const canRun = (msg) => legal(msg).some((a) => a.run !== undefined);
  const canPass = (msg) => legal(msg).some((a) => a.pass !== undefined);
  const myRoutes = (msg) => routesOf(msg.view).filter((r) => r.owner !== null && r.owner === mySeat(msg));

  // the route joining two cities among mine (for the path picker)
  function myRouteBetween(msg, a, b, used) {
    return myRoutes(msg).find((r) => !used.has(r.index) && ((r.a === a && r.b === b) || (r.a === b && r.b === a)));
  }
  function pathRoutes(msg) {
    const used = new Set();
    const out = [];
    for (let k = 1; k < path.length; k++) {
      const r = myRouteBetween(msg, path[k - 1], path[k], used);
      if (!r) break;
      used.add(r.index);
      out.push(r);
    }
    return out;
  }
  function nextCities(msg) {
    if (!path.length) return new Set();
    const used = new Set(pathRoutes(msg).map((r) => r.index));
    const here = path[path.length - 1];
    const out = new Set();
    for (const r of myRoutes(msg)) {
      if (used.has(r.index)) continue;
      if (r.a === here && !path.includes(r.b)) out.add(r.b);
      if (r.b === here && !path.includes(r.a)) out.add(r.a);
    }
    return out;
  }

  // ------------------------------------------------------------------ acting

  function selectRoute(i) {
    const msg = last;
    if (!msg) return;
    pickedRoute = pickedRoute === i ? null : i;
    const r = routesOf(msg.view).find((x) => x.index === i);
    if (r && pickedRoute !== null) say(`${TEXT.picked(r)} ${routeNote(msg, r)}`);
    refresh();
    promptChanged();
    const again = mapBox.querySelector(`.ttr-route[data-route="${i}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  // a route picked from the list: selected as by a tap, shown in the middle of the map; the focus
  // stays on the list
  function pickFromList(i) {
    const msg = last;
    if (!msg || i === pickedRoute) return;
    pickedRoute = i;
    const r = i === null ? null : routesOf(msg.view).find((x) => x.index === i);
    if (r) say(`${TEXT.picked(r)} ${routeNote(msg, r)}`);
    refresh();
    promptChanged();
    const L = i === null || !layoutMemo ? null : layoutMemo.byIndex.get(i);
    if (L && pz) pz.centreOn(L.mid);
    routeSelect.focus({ preventScroll: true });
  }
  function routeListBox(msg) {
    if (msg.replay || mySeat(msg) === null || msg.view.finished) return null;
    const can = claimable(msg);
    const byName = (a, b) => `${a.a}${a.b}`.localeCompare(`${b.a}${b.b}`);
    const all = routesOf(msg.view).slice().sort(byName);
    const option = (r) => h("option", { value: r.index, selected: pickedRoute === r.index ? true : null },
      `${r.a}–${r.b} · ${r.gate === "CNOT" ? "CX" : r.gate}×${r.length}${r.owner !== null ? ` · ${ownerWords(msg, r)}` : ""}`);
    const group = (label, list) => (list.length ? h("optgroup", { label }, ...list.map(option)) : null);
    const hadFocus = document.activeElement === routeSelect;
    routeSelect.replaceChildren(h("option", { value: "", selected: pickedRoute === null ? true : null }, MAP_TEXT.none),
      ...[group(MAP_TEXT.claimable, all.filter((r) => can.has(r.index))),
        group(MAP_TEXT.unclaimed, all.filter((r) => r.owner === null && !can.has(r.index))),
        group(MAP_TEXT.claimed, all.filter((r) => r.owner !== null))].filter(Boolean));
    routeSelect.value = pickedRoute === null ? "" : String(pickedRoute);
    routeSelect.disabled = planning;
    if (hadFocus) queueMicrotask(() => routeSelect.focus({ preventScroll: true }));
    return routeList;
  }

  function claim() {
    if (pickedRoute === null) return;
    const i = pickedRoute;
    pickedRoute = null;
    act({ claim: i });
  }
  function startPlanning() {
    const msg = last;
    const m = missionOf(msg.view);
    if (!m) return;
    planning = true;
    path = [m.start];
    say(TEXT.pathStart(m.start));
    refresh();
    promptChanged();
    focusFirstNext();
  }
  function stopPlanning() { planning = false; path = []; refresh(); promptChanged(); }
  function addCity(city) {
    const msg = last;
    if (!planning || !nextCities(msg).has(city)) return;
    path.push(city);
    const steps = stepsOf(msg);
    const end = steps[steps.length - 1];
    say(TEXT.pathAdd(city, stateWords(missionOf(msg.view), end)));
    refresh();
    promptChanged();
    focusFirstNext();
  }
  function undoCity() {
    if (path.length > 1) { path.pop(); say(TEXT.pathBack); refresh(); promptChanged(); focusFirstNext(); }
  }
  function focusFirstNext() {
    const n = mapBox.querySelector(".ttr-city.next");
    if (n) n.focus({ preventScroll: true });
    else { const b = picker.querySelector("[data-run]"); if (b && !b.disabled) b.focus({ preventScroll: true }); }
  }
  function runPath() {
    if (path.length < 2) return;
    const cities = [...path];
    planning = false;
    path = [];
    act({ run: cities });
    promptChanged();
  }
  root.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (planning) { e.preventDefault(); stopPlanning(); } else if (pickedRoute !== null) { e.preventDefault(); selectRoute(pickedRoute); }
  });

  // ------------------------------------------------------------------ the run preview

  function stepsOf(msg) {
    const m = missionOf(msg.view);
    if (!m) return [];
    const init = register(m.initial_state);
    if (!init) return [];
    const out = [{ route: null, psi: init }];
    let psi = init;
    for (const r of pathRoutes(msg)) {
      psi = applyRoute(psi, r.gate, r.length);
      out.push({ route: r, psi });
    }
    return out;
  }
  function stateWords(m, step) {
    if (!step) return "";
    if (qubitsOf(m) === 2) return t("state %(ket)s", { ket: ketText(step.psi) });
    const b = bloch(step.psi);
    return t("Bloch vector x %(x)s, y %(y)s, z %(z)s", { x: fmt(b.x), y: fmt(b.y), z: fmt(b.z) });
  }

  // ------------------------------------------------------------------ drawing: the map

  function routeNote(msg, r) {
    if (r.owner !== null) return "";
    if (mySeat(msg) === null || msg.replay) return "";
    const have = handCounts(msg.view)[r.gate] || 0;
    return claimable(msg).has(r.index) ? TEXT.canClaim(r) : TEXT.needCards(r, have);
  }

  let pz = null;  // the map's pan and zoom (made with the first drawing)
  function drawMap(msg) {
    const v = msg.view;
    const cities = citiesOf(v);
    const pos = Object.fromEntries(cities.map((c) => [c.name, c]));
    const xs = cities.map((c) => c.x), ys = cities.map((c) => c.y);
    const pad = 40;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    const w = Math.max(...xs) - minX + pad, hgt = Math.max(...ys) - minY + pad;
    const me = mySeat(msg);
    const mission = missionOf(v);
    const can = claimable(msg);
    const nexts = planning ? nextCities(msg) : new Set();
    const onPath = new Set(planning ? pathRoutes(msg).map((r) => r.index) : []);
    const svgEl = s("svg", { viewBox: `${minX} ${minY} ${w} ${hgt}`, class: `ttr-svg${planning ? " planning" : ""}`, role: "group", "aria-label": TEXT.map });
    // the routes' curves (side by side, bent away from the cities they would cross) and their tap
    // targets at this zoom (ttr-map-geometry.js); the map pans and zooms in its box (panzoom.js)
    const routes = routesOf(v);
    const layout = layoutOf(cities, routes);
    if (!pz) {
      pz = panZoom(mapBox, { origin: { x: minX, y: minY }, width: w, height: hgt, onZoom: () => { if (last) drawMap(last); } });
      new ResizeObserver(() => pz.refit()).observe(mapBox);
    }
    // a phone (or any finger): the least zoom at which every route takes a thumb and the names
    // are their own size (12 px and more); a mouse on a wide screen: the whole map
    const zoomable = matchMedia("(pointer: coarse)").matches || mapBox.clientWidth < 700;
    const initial = () => (zoomable ? Math.max(1, readableScale(layout.list)) : 0);
    // the zoom buttons where the map zooms: a touch screen, a narrow box (or once zoomed in)
    const toolsOff = !zoomable && !(pz.scale > pz.fit() * 1.02);
    tools.classList.toggle("hidden", toolsOff);
    for (const b of tools.querySelectorAll("button")) b.disabled = toolsOff;
    const bands = hitBands(layout.list, pz.scale ?? Math.max(pz.fit(), initial()));
    const gVis = s("g", { class: "ttr-tracks", "aria-hidden": "true" });
    const gRoutes = s("g", { class: "ttr-routes" });
    for (const r of routes) {
      const L = layout.byIndex.get(r.index);
      if (!L) continue;
      const band = bands.get(r.index);
      const claimed = r.owner !== null;
      const cls = ["ttr-route", `g-${r.gate}`];
      if (claimed) cls.push("claimed", `owner-${r.owner % SEAT_COLOURS}`);
      if (claimed && r.owner === me) cls.push("mine");
      if (can.has(r.index)) cls.push("claimable");
      if (pickedRoute === r.index) cls.push("picked");
      if (onPath.has(r.index)) cls.push("on-path");
      const owner = claimed ? TEXT.claimedBy(r.owner === me ? _("you") : seatName(msg, r.owner)) : TEXT.unclaimed;
      const interactive = !msg.replay && !planning;
      // the drawing (no target: pointer-events none) and, over it, the route's tap target
      const vis = s("g", { class: cls.join(" ").replace("ttr-route", "ttr-vis"), "data-vis-route": r.index });
      const g = s("g", {
        class: cls.join(" "), "data-route": r.index, "data-gate": r.gate, "data-length": r.length,
        "data-owner": claimed ? r.owner : null, "data-a": r.a, "data-b": r.b,
        role: interactive ? "button" : "img", tabindex: -1, "data-cx": L.mid.x, "data-cy": L.mid.y,
        "aria-pressed": interactive ? String(pickedRoute === r.index) : null,
        "aria-label": TEXT.route(r, owner, routeNote(msg, r)),
        onclick: interactive ? () => selectRoute(r.index) : null,
        onkeydown: interactive ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); selectRoute(r.index); } } : null,
        // (a pointer's hover shows the preview; the focus's is also said)
        onmouseenter: () => { hoverRoute(msg, r, true); vis.classList.add("hot"); }, onmouseleave: () => vis.classList.remove("hot"),
        onfocus: () => { hoverRoute(msg, r); vis.classList.add("focused"); }, onblur: () => vis.classList.remove("focused"),
      });
      g.append(s("title", { text: `${r.a}–${r.b}: ${r.gate}×${r.length}. ${GATE_HELP[r.gate] || ""}` }));
      // the target: a band across the route's middle, as wide as its neighbours leave room for
      const T = L.tangent, along = band.length, across = band.half;
      const corner = (u, v) => `${(L.mid.x + T.x * u - T.y * v).toFixed(2)},${(L.mid.y + T.y * u + T.x * v).toFixed(2)}`;
      g.append(s("polygon", { points: [corner(-along, -across), corner(along, -across), corner(along, across), corner(-along, across)].join(" "),
        class: "ttr-hit" }));
      vis.append(s("path", { d: L.d, class: "ttr-track" }));
      // the length as that many segments (carriages), the gate written on the middle
      for (let c = 0; c < r.length; c++) {
        const t0 = 0.14 + (0.72 * c) / r.length, t1 = 0.14 + (0.72 * (c + 1)) / r.length - 0.02;
        const p = [0, 0.5, 1].map((f) => quad(L.A, L.C, L.B, t0 + (t1 - t0) * f));
        vis.append(s("polyline", { points: p.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(" "), class: "ttr-car" }));
      }
      const label = r.gate === "CNOT" ? `CX×${r.length}` : `${r.gate}×${r.length}`;
      vis.append(s("rect", { x: L.mid.x - 19, y: L.mid.y - 9, width: 38, height: 18, rx: 5, class: "ttr-tag" }));
      vis.append(s("text", { x: L.mid.x, y: L.mid.y + 5, class: "ttr-tag-text", "text-anchor": "middle" }, label));
      gVis.append(vis);
      gRoutes.append(g);
    }
    const gCities = s("g", { class: "ttr-cities" });
    for (const c of cities) {
      const isStart = mission && mission.start === c.name, isTarget = mission && mission.target === c.name;
      const next = nexts.has(c.name);
      const cls = ["ttr-city"];
      if (isStart) cls.push("start");
      if (isTarget) cls.push("target");
      if (next) cls.push("next");
      if (planning && path.includes(c.name)) cls.push("on-path");
      const extra = [isStart ? TEXT.start : "", isTarget ? TEXT.target : "", next ? TEXT.next : ""].filter(Boolean).join(", ");
      const g = s("g", {
        class: cls.join(" "), "data-city": c.name, role: next ? "button" : "img", tabindex: -1, "data-cx": c.x, "data-cy": c.y,
        "aria-label": TEXT.city(c.name, extra),
        onclick: next ? () => addCity(c.name) : null,
        onkeydown: next ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); addCity(c.name); } } : null,
        onmouseenter: () => hoverCity(msg, c.name, true),
        onfocus: () => hoverCity(msg, c.name),
      });
      g.append(s("circle", { cx: c.x, cy: c.y, r: next ? 11 : 8 }));
      // a thumb-sized target (14 CSS px round at this zoom, never over the next city's)
      if (next) g.append(s("circle", { cx: c.x, cy: c.y, r: Math.min(Math.max(14 / (pz.scale || 1), 11), layout.room[c.name] ?? 30), class: "ttr-city-hit" }));
      if (isStart || isTarget) g.append(s("circle", { cx: c.x, cy: c.y, r: 15, class: "ring" }));
      g.append(s("text", { x: c.x, y: c.y - 14, "text-anchor": "middle", class: "ttr-city-name" }, c.name));
      gCities.append(g);
    }
    svgEl.append(gVis, gRoutes, gCities);
    // keep the keyboard focus on the same route or city across a redraw
    const active = document.activeElement;
    const hadFocus = active && mapBox.contains(active);
    if (pz.swap(svgEl, () => mapBox.replaceChildren(svgEl), initial)) {
      // the first drawing: (on a phone, zoomed in) the view starts on the student's start city
      const home = mission && pos[mission.start];
      pz.centreOn(home || { x: minX + w / 2, y: minY + hgt / 2 });
    }
    // one Tab stop: the route or city last focused, else the first city of the path, a route
    // to claim, or the first route
    const stop = (current && svgEl.querySelector(current)) || svgEl.querySelector(".ttr-city.next")
      || svgEl.querySelector(".ttr-route.claimable") || svgEl.querySelector(".ttr-route, .ttr-city");
    if (stop) {
      stop.setAttribute("tabindex", "0");
      if (hadFocus) { redrawing = true; stop.focus({ preventScroll: true }); redrawing = false; }
    }
  }

  // the arrow keys: the nearest route or city whose direction from the focused one is within
  // ±45° of the arrow's (on the map's own coordinates)
  const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  function nearestToward(from, [dx, dy]) {
    const x0 = Number(from.dataset.cx), y0 = Number(from.dataset.cy);
    let best = null, bestDist = Infinity;
    for (const n of mapBox.querySelectorAll("[data-cx]")) {
      if (n === from) continue;
      const vx = Number(n.dataset.cx) - x0, vy = Number(n.dataset.cy) - y0;
      const dist = Math.hypot(vx, vy);
      if (dist < 1e-6 || vx * dx + vy * dy < dist * Math.SQRT1_2 - 1e-9) continue;
      if (dist < bestDist) { best = n; bestDist = dist; }
    }
    return best;
  }
  mapBox.addEventListener("keydown", (e) => {
    const dir = ARROWS[e.key];
    const from = e.target.closest && e.target.closest("[data-cx]");
    if (!dir || !from) return;
    e.preventDefault();
    const to = nearestToward(from, dir);
    if (to) to.focus();
  });
  // the focused route or city becomes the map's one Tab stop
  mapBox.addEventListener("focusin", (e) => {
    const n = e.target.closest && e.target.closest("[data-cx]");
    if (!n) return;
    for (const o of mapBox.querySelectorAll('[data-cx][tabindex="0"]')) if (o !== n) o.setAttribute("tabindex", "-1");
    n.setAttribute("tabindex", "0");
    current = n.dataset.route !== undefined ? `[data-route="${n.dataset.route}"]` : `[data-city="${CSS.escape(n.dataset.city)}"]`;
  });

  let redrawing = false;  // a redraw giving the focus back says nothing new
  let hushed = false;     // the page giving the focus back after a move: the preview is shown, not said
  function showPreview(text, silent = false) {
    if (redrawing && hoverBox.textContent) return;
    if (hoverBox.textContent !== text) { hoverBox.textContent = text; if (!hushed && !silent) speak(text); }
  }
  const ownerWords = (msg, r) => (r.owner !== null ? TEXT.claimedBy(r.owner === mySeat(msg) ? _("you") : seatName(msg, r.owner)) : TEXT.unclaimed);
  function hoverRoute(msg, r, silent = false) {
    showPreview(`${r.a}–${r.b}: ${r.gate}×${r.length} (${ownerWords(msg, r)}). ${GATE_HELP[r.gate] || ""} ${routeNote(msg, r)}`.trim(), silent);
  }
  function hoverCity(msg, name, silent = false) {
    const routes = routesOf(msg.view).filter((r) => r.a === name || r.b === name)
      .map((r) => TEXT.cityRoute(r, r.a === name ? r.b : r.a, ownerWords(msg, r)));
    showPreview(TEXT.cityRoutes(name, routes.join("; ")), silent);
  }

  // ------------------------------------------------------------------ drawing: the side panel

  function missionCard(msg) {
    const m = missionOf(msg.view);
    if (!m) return h("div", { class: "ttr-mission none", text: mySeat(msg) === null ? TEXT.spectator : TEXT.noMission });
    return h("div", { class: `ttr-mission level-${m.level || "basic"}`, role: "group", "data-mission": m.id, "aria-label": t("Your secret mission %(id)s", { id: m.id }) },
      h("div", { class: "ttr-mission-head" }, h("strong", { text: _("Your mission") }), h("span", { class: "pill", text: MISSION_LEVEL[m.level] || m.level || "" })),
      h("div", { class: "ttr-mission-route", text: missionText(m) }),
      h("div", { class: "muted small", text: qubitsOf(m) === 2 ? _("Two qubits: the whole register must match.") : _("One qubit: q0 must match (q1 may be anything, if not entangled).") }),
      msg.view.winning_run && msg.view.winning_run.seat === mySeat(msg) ? h("div", { class: "ttr-done", text: _("Completed!") }) : null);
  }

  function handBox(msg) {
    const counts = handCounts(msg.view);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return h("div", { class: "ttr-hand", role: "group", "aria-label": t("Your gate cards: %(total)s", { total }) },
      ...GATES.map((g) => h("span", { class: `ttr-card g-${g}${counts[g] ? "" : " none"}`, "data-gate": g, "data-count": counts[g] || 0,
        title: GATE_HELP[g], "aria-label": nt("%(n)s %(gate)s card", "%(n)s %(gate)s cards", counts[g] || 0, { gate: g }) },
      h("b", { text: g === "CNOT" ? "CX" : g }), h("span", { text: `×${counts[g] || 0}` }))));
  }

  function playersBox(msg) {
    const v = msg.view;
    const rows = (v.seats || []).filter((p) => typeof p === "object");
    const lengths = {};
    for (const r of routesOf(v)) if (r.owner !== null) lengths[r.owner] = (lengths[r.owner] || 0) + r.length;
    const n = v.players || rows.length;
    const list = h("ul", { class: "ttr-players" });
    for (let i = 0; i < n; i++) {
      const info = rows.find((p) => (p.seat ?? p.index) === i) || {};
      const hand = info.cards;
      list.append(h("li", { class: `owner-${i % SEAT_COLOURS}${i === mySeat(msg) ? " me" : ""}`, "data-seat": i },
        h("i", { class: "swatch", "aria-hidden": "true" }), (i === mySeat(msg) ? t("%(name)s (you): %(length)s route length", { name: seatName(msg, i), length: lengths[i] || 0 }) : t("%(name)s: %(length)s route length", { name: seatName(msg, i), length: lengths[i] || 0 })),
        hand !== undefined ? h("span", { class: "muted", text: ` · ${nt("%(n)s card", "%(n)s cards", hand)}` }) : null));
    }
    const pile = v.pile;
    return h("div", {}, list, pile !== undefined ? h("div", { class: "muted ttr-pile", "data-pile": pile, text: nt("Pile: %(n)s card", "Pile: %(n)s cards", pile) + (v.final_round ? ` · ${_("last round")}` : "") }) : null);
  }

  function controls(msg) {
    const box = h("div", { class: "ttr-controls" });
    if (msg.replay || mySeat(msg) === null) return box;
    if (canDraw(msg)) box.append(h("button", { type: "button", class: "button", "data-draw": "1", onclick: () => { pickedRoute = null; act({ draw: true }); } }, _("Draw two cards")));
    if (pickedRoute !== null) {
      const r = routesOf(msg.view).find((x) => x.index === pickedRoute);
      const ok = claimable(msg).has(pickedRoute);
      box.append(h("button", { type: "button", class: "button primary", "data-claim": pickedRoute, disabled: ok ? null : true, onclick: claim },
        t("Claim %(a)s–%(b)s", { a: r.a, b: r.b })));
      box.append(h("p", { class: "small", text: routeNote(msg, r) }));
    }
    if (missionOf(msg.view) && myRoutes(msg).length && !planning && !msg.view.finished) box.append(h("button", { type: "button", class: "button secondary", "data-plan": "1", onclick: startPlanning }, _("Plan a run…")));
    if (canPass(msg)) box.append(h("button", { type: "button", class: "button secondary", "data-pass": "1", onclick: () => act({ pass: true }) },
      msg.view.step === "run" ? _("End turn without a run") : _("Pass (you can neither draw nor claim)")));
    return box;
  }

  function lastRunBox(msg) {
    const v = msg.view;
    const run = v.winning_run || (v.runs || [])[(v.runs || []).length - 1];
    if (!run) return null;

    return h("div", { class: `ttr-last-run${run.match ? " win" : ""}`, "data-last-run": "1", "data-match": run.match ? "1" : "0" },
      h("strong", { text: run.match ? `${t("Mission complete by %(name)s!", { name: seatName(msg, run.seat) })} ` : `${_("Your last run:")} ` }),
      t("%(path)s reached %(ket)s · fidelity %(fidelity)s", { path: (run.cities || []).join(" → "), ket: run.ket, fidelity: Number(run.fidelity).toFixed(3) }),
      run.match ? "" : ` ${run.seat === mySeat(msg) ? _("(not a match: your mission goes on).") : t("(not a match: %(name)s's mission goes on).", { name: seatName(msg, run.seat) })}`);
  }

  function revealedMissions(msg) {
    if (!msg.view.finished) return null;
    const all = (msg.view.seats || []).filter((x) => x.mission);
    if (!all.length) return null;
    return h("div", { class: "ttr-revealed" }, h("h2", { text: _("Missions") }),
      h("ul", {}, ...all.map((x) => h("li", { "data-seat": x.seat }, `${seatName(msg, x.seat)}: ${missionText(x.mission)}`))));
  }

  // the teacher's watch page (the payload's analysis is sent to the teacher only): each player's
  // secret mission and how many cards they still need, the closest marked
  function teacherBox(msg) {
    const a = msg.analysis;
    if (!a || !Array.isArray(a.players)) return null;
    const closest = new Set(a.closest || []);
    return h("section", { class: "ttr-teacher", "aria-label": _("Teacher: missions and progress") },
      h("h2", { text: _("Teacher: missions") }),
      h("ul", {}, ...a.players.map((p) => h("li", { class: closest.has(p.seat) ? "closest" : "", "data-seat": p.seat },
        `${seatName(msg, p.seat)}: ${missionText(p.mission)} — `,
        p.possible ? (p.connected ? _("connected, may run") : nt("%(n)s card to claim", "%(n)s cards to claim", p.cards_needed)) : _("blocked"),
        closest.has(p.seat) ? ` ${_("(closest)")}` : ""))));
  }

  // ------------------------------------------------------------------ drawing: the path picker

  function blochSvg(b, label) {
    // a disc in the x–z plane (z up), the vector's y shown as a second arrow on the side axis
    // (the poles' labels are never under 12 CSS px on screen, static/js/svg.js readableText: the
    // disc leaves them a 14-unit margin)
    const R0 = 29;
    const len = Math.hypot(b.x, b.y, b.z);
    const g = readableText(s("svg", { viewBox: "-46 -46 92 92", class: "ttr-bloch", role: "img", "aria-label": `${label}: ${t("Bloch vector x %(x)s, y %(y)s, z %(z)s", { x: fmt(b.x), y: fmt(b.y), z: fmt(b.z) })}${len < 0.999 ? ` ${_("(shorter than 1: q0 is entangled with q1)")}` : ""}` }));
    g.append(s("circle", { cx: 0, cy: 0, r: R0, class: "disc" }));
    g.append(s("ellipse", { cx: 0, cy: 0, rx: R0, ry: R0 * 0.3, class: "equator" }));
    g.append(s("line", { x1: 0, y1: -R0, x2: 0, y2: R0, class: "axis" }));
    g.append(s("text", { x: 0, y: -R0 - 2, "text-anchor": "middle", class: "pole" }, "|0⟩"));
    g.append(s("text", { x: 0, y: R0 + 2, "text-anchor": "middle", "dominant-baseline": "hanging", class: "pole" }, "|1⟩"));
    g.append(s("text", { x: R0 + 2, y: 0, "dominant-baseline": "central", class: "pole" }, "+"));
    g.append(s("text", { x: -R0 - 2, y: 0, "text-anchor": "end", "dominant-baseline": "central", class: "pole" }, "−"));
    // oblique projection: x to the right, y into the page (down-left), z up
    const px = (b.x - 0.35 * b.y) * R0, py = (-b.z + 0.3 * b.y) * R0;
    g.append(s("line", { x1: 0, y1: 0, x2: px, y2: py, class: "vec" }));
    g.append(s("circle", { cx: px, cy: py, r: 3.5, class: "tip" }));
    return g;
  }

  function ampBars(psi, label) {
    const labels = ["00", "01", "10", "11"];
    const box = h("div", { class: "ttr-amps", role: "img", "aria-label": `${label}: ${ketText(psi)}` });
    psi.forEach((a, k) => {
      const p = a[0] * a[0] + a[1] * a[1];
      const bar = h("span", { class: `bar${a[0] < -1e-9 || a[1] < -1e-9 ? " neg" : ""}` });
      bar.style.setProperty("--p", p.toFixed(4));
      box.append(h("div", { class: "amp" }, h("span", { class: "ket", text: `|${labels[k]}⟩` }), bar));
    });
    return box;
  }

  function circuitSvg(steps) {
    const gates = [];
    steps.slice(1).forEach((st, k) => { for (let n = 0; n < st.route.length; n++) gates.push({ gate: st.route.gate, step: k + 1 }); });
    const W = 34, width = Math.max(120, 40 + gates.length * W + 20);
    const g = s("svg", { viewBox: `0 0 ${width} 70`, width, height: 70, class: "ttr-circuit", role: "img",
      "aria-label": t("Circuit: %(gates)s", { gates: gates.map((x) => x.gate).join(" → ") || _("no gates yet") }) });
    g.append(s("text", { x: 2, y: 24, class: "wire-name" }, "q0"), s("text", { x: 2, y: 54, class: "wire-name" }, "q1"));
    g.append(s("line", { x1: 22, y1: 20, x2: width - 4, y2: 20, class: "wire" }), s("line", { x1: 22, y1: 50, x2: width - 4, y2: 50, class: "wire" }));
    gates.forEach((x, k) => {
      const cx = 40 + k * W + W / 2;
      const grp = s("g", { class: `gate g-${x.gate} step-${x.step % 2 ? "odd" : "even"}`, "data-gate": x.gate });
      if (x.gate === "CNOT") {
        grp.append(s("line", { x1: cx, y1: 20, x2: cx, y2: 58, class: "ctl-line" }));
        grp.append(s("circle", { cx, cy: 20, r: 4, class: "ctl" }));
        grp.append(s("circle", { cx, cy: 50, r: 8, class: "tgt" }));
        grp.append(s("line", { x1: cx - 8, y1: 50, x2: cx + 8, y2: 50, class: "tgt-x" }), s("line", { x1: cx, y1: 42, x2: cx, y2: 58, class: "tgt-x" }));
      } else {
        grp.append(s("rect", { x: cx - 12, y: 8, width: 24, height: 24, rx: 3 }));
        grp.append(s("text", { x: cx, y: 25, "text-anchor": "middle" }, x.gate));
      }
      g.append(grp);
    });
    return g;
  }

  function drawPicker(msg) {
    if (!planning) { picker.classList.add("hidden"); picker.replaceChildren(); return; }
    const m = missionOf(msg.view);
    const steps = stepsOf(msg);
    const target = register(m.target_state);
    const end = steps[steps.length - 1];
    const fid = target && end ? fidelity(end.psi, target, qubitsOf(m)) : null;
    const two = qubitsOf(m) === 2;
    const row = h("ol", { class: "ttr-steps" });
    steps.forEach((st, k) => {
      const where = k === 0 ? t("%(city)s (start)", { city: path[0] }) : `${st.route.a === path[k - 1] ? st.route.b : st.route.a}`;
      const label = k === 0 ? t("Start at %(city)s", { city: path[0] }) : t("After %(gate)s×%(length)s to %(city)s", { gate: st.route.gate, length: st.route.length, city: where });
      const b = bloch(st.psi);
      row.append(h("li", { class: "ttr-step", "data-step": k, "data-ket": ketText(st.psi), "data-bloch": [b.x, b.y, b.z].map((x) => x.toFixed(6)).join(",") },
        h("div", { class: "step-head", text: k === 0 ? where : `${st.route.gate === "CNOT" ? "CX" : st.route.gate}×${st.route.length} → ${where}` }),
        two ? ampBars(st.psi, label) : blochSvg(b, label),
        h("div", { class: "ket mono", text: ketText(st.psi) })));
    });
    const atTarget = path[path.length - 1] === m.target;
    const runnable = legal(msg).some((a) => Array.isArray(a.run) && a.run.join("|") === path.join("|"));
    const matchNow = fid !== null && Math.abs(1 - fid) < 1e-9;
    picker.replaceChildren(
      h("h2", { text: t("Run: %(path)s", { path: path.join(" → ") }) }),
      circuitSvg(steps), h("p", { class: "muted small ttr-order", text: TEXT.order }), row,
      h("p", { class: `ttr-verdict${matchNow ? " match" : ""}`, "data-fidelity": fid === null ? "" : fid.toFixed(6) },
        fid === null ? "" : t("Fidelity with the target %(ket)s: %(fidelity)s", { ket: ket(m.target_state), fidelity: fid.toFixed(3) })
          + (atTarget ? (matchNow ? ` — ${_("this run completes the mission.")}` : ` — ${_("not a match.")}`) : ` ${t("(the path must end in %(city)s).", { city: m.target })}`)
          + (atTarget && !runnable ? ` ${_("You can run after your action, at the run step.")}` : "")),
      h("div", { class: "ttr-picker-buttons" },
        h("button", { type: "button", class: "button primary", "data-run": "1", disabled: runnable ? null : true, onclick: runPath }, _("Run this path")),
        h("button", { type: "button", class: "button secondary", "data-undo": "1", disabled: path.length > 1 ? null : true, onclick: undoCity }, _("Back one city")),
        h("button", { type: "button", class: "button secondary", "data-cancel": "1", onclick: stopPlanning }, _("Cancel"))));
    picker.classList.remove("hidden");
  }

  function refresh() {
    const msg = last;
    if (!msg) return;
    drawMap(msg);
    side.replaceChildren(...[missionCard(msg), handBox(msg), routeListBox(msg), controls(msg),
      hoverBox, lastRunBox(msg), playersBox(msg), revealedMissions(msg),
      teacherBox(msg)].filter(Boolean));
    drawPicker(msg);
  }

  // this seat's step in ``msg``: "act" or "run" on its turn, "wait" otherwise
  const stepOf = (msg) => (mySeat(msg) !== null && msg.view.turn === mySeat(msg) ? msg.view.step : "wait");
  // what the act step offers, in words naming only the buttons shown (``planning``: claiming
  // waits for the plan's Cancel)
  function actPrompt(msg) {
    const draw = canDraw(msg), claim = claimable(msg).size > 0;
    if (planning) {
      if (draw) return claim ? TEXT.planDraw : TEXT.planDrawOnly;
      return claim ? TEXT.planClaim : TEXT.passOnly;
    }
    if (pickedRoute !== null) {
      if (claimable(msg).has(pickedRoute)) return TEXT.claimPicked;
      return draw ? TEXT.cannotClaimDraw : TEXT.cannotClaim;
    }
    if (draw) return claim ? TEXT.drawPrompt : TEXT.drawOnly;
    if (claim) return msg.view.pile === 0 ? TEXT.pileEmpty : TEXT.handFull(msg.view.hand_limit || 12);
    return TEXT.passOnly;
  }
  function runPrompt(msg) {
    if (!planning) return canRun(msg) ? TEXT.runPrompt : TEXT.noRun;
    if (nextCities(msg).size) return TEXT.pathNext;
    if (path.length < 2) return TEXT.pathNone(path[0]);
    return legal(msg).some((a) => Array.isArray(a.run) && a.run.join("|") === path.join("|")) ? TEXT.pathRun : TEXT.pathStuck;
  }

  return {
    render(msg) {
      // every turn starts clean: a new move drops the selected route; the planned run is kept
      // only from this seat's action to its run step (it was planned for it) and while others
      // play (planned ahead); it is dropped when this seat's turn begins or ends
      if (msg.seq !== seenSeq) {
        const step = stepOf(msg);
        const keep = (seenStep === "act" && step === "run") || (seenStep === "wait" && step === "wait");
        if (seenSeq !== null && !keep) { planning = false; path = []; }
        seenSeq = msg.seq;
        seenStep = step;
        pickedRoute = null;
      }
      if (msg.view.finished || msg.replay) { planning = false; path = []; }
      last = msg;
      if (msg.seq !== undefined) root.dataset.seq = msg.seq;
      const events = (msg.events || []).map((e) => e.text).filter(Boolean);
      if (events.length && !msg.replay) live.textContent = namedSeats(events.join(" "), msg.seats || []);
      refresh();
    },
    prompt(msg) {
      if (msg.replay || mySeat(msg) === null || msg.view.finished) return "";
      return msg.view.step === "run" ? runPrompt(msg) : actPrompt(msg);
    },
    seatLabel(i) { return COLOUR_NAMES[i % SEAT_COLOURS]; },
    // after a move, the keyboard focus goes to the turn's next button (draw, claim, pass), else
    // to the map's one Tab stop
    focusQuietly(node) { hushed = true; node.focus({ preventScroll: true }); hushed = false; },
    focusTarget() {
      return side.querySelector(".ttr-controls button:not([disabled])") || mapBox.querySelector('[data-cx][tabindex="0"]');
    },
  };
}

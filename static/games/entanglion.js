// Entanglion board: the galaxy after the official transition map (sheet §3.5 layout), the two
// ships, the quantum components on their planets, the detection-rate track, the 6-slot engine
// control, both hands (open between partners), the kept event cards and a side panel with the
// ships' state as a ket and as amplitudes. Co-operative: both seats see the same board.
//
// Acting: the player's engine cards are buttons. Hovering or focusing one asks the server for a
// preview (no chance resolved) and draws where it would take the ships (ghost ships, a dashed
// arrow, a sentence in a live region); Enter / click plays it. Every other legal action
// (exchange, retrieve, event cards, decisions the rules ask for) is a button of its own.
// Renders replay frames too ({view, legal: []}) and the teacher's analysis.

import { ensureStylesheet, h, readableText, s, svg } from "../js/svg.js";
import { lastPointerType, tapped } from "../js/touch.js";

const W = 1000, H = 960;           // the transition map's proportions (1179 × 1129)
const VIEW_H = 870;                // the drawing stops below MINUS (the map's corner art is left out)
// a phone (the galaxy about 355 px wide): the drawing is cropped to its planets and paths, so it
// is drawn larger, and its words are short (each planet named by its ket, its name in its label
// and in every sentence) and 12 CSS px or more, placed where nothing overlaps them
const PHONE = typeof matchMedia === "function" ? matchMedia("(max-width: 640px)") : { matches: false, addEventListener() {} };
const PHONE_VIEW = "40 60 780 740";
const PHONE_NAMES = { centarious: [48, 215], superious: [420, 788], entanglion: [668, 88] };
// label shifts on a phone, by path (A|B|who), in the drawing's units
const PHONE_SHIFT = {
  "ZERO|ONE|both": [-58, 42], "OMEGA ZERO|OMEGA TWO|mercurial": [0, -5], "OMEGA TWO|OMEGA THREE|rubicon": [0, 62],
  "OMEGA ONE|OMEGA THREE|mercurial": [-22, 0],
};
// the grey grid's two "CNOT" words: [x, y, anchor], desktop and phone
const GRID_LABELS = { desk: [[250, 455, "start"], [215, 268, "start"]], phone: [[270, 458, "middle"], [215, 268, "start"]] };
const R = 40;                      // planet radius

// sheet §3.5: fractions of the transition map
const LAYOUT = {
  "OMEGA ZERO": [0.45, 0.15], "OMEGA ONE": [0.62, 0.15], "PSI PLUS": [0.35, 0.30], "PSI MINUS": [0.71, 0.30],
  "PHI PLUS": [0.35, 0.49], "PHI MINUS": [0.71, 0.49], "OMEGA TWO": [0.45, 0.63], "OMEGA THREE": [0.62, 0.63],
  "ONE": [0.14, 0.29], "ZERO": [0.19, 0.49], "PLUS": [0.35, 0.71], "MINUS": [0.71, 0.78],
};
const GALAXY = {
  ZERO: "centarious", ONE: "centarious", PLUS: "superious", MINUS: "superious",
};
const SYMBOL = {
  ZERO: "|0⟩", ONE: "|1⟩", PLUS: "|+⟩", MINUS: "|−⟩", "PHI PLUS": "|Φ+⟩", "PHI MINUS": "|Φ−⟩",
  "PSI PLUS": "|Ψ+⟩", "PSI MINUS": "|Ψ−⟩", "OMEGA ZERO": "|ω0⟩", "OMEGA ONE": "|ω1⟩",
  "OMEGA TWO": "|ω2⟩", "OMEGA THREE": "|ω3⟩",
};
// sheet §3.2: [A, B, label, who may use it ("both" | "mercurial" | "rubicon"), bulge of the curve,
// optional shift of the label]
const PATHS = [
  ["ZERO", "ONE", "X/CNOT", "both", 0, [-52, 0]],
  ["ZERO", "PLUS", "H", "both", 90],
  ["ONE", "MINUS", "H", "both", 330],
  ["PHI PLUS", "PSI PLUS", "X", "both", 0],
  ["PHI MINUS", "PSI MINUS", "X", "both", 0],
  ["PHI PLUS", "OMEGA TWO", "H", "both", 0],
  ["PSI MINUS", "OMEGA ONE", "H", "both", 0],
  ["PSI PLUS", "OMEGA ZERO", "H", "rubicon", 0],
  ["PSI PLUS", "OMEGA THREE", "H", "mercurial", 0],
  ["PHI MINUS", "OMEGA ZERO", "H", "mercurial", 0],
  ["PHI MINUS", "OMEGA THREE", "H", "rubicon", 0],
  ["OMEGA ZERO", "OMEGA ONE", "X", "rubicon", 0],
  ["OMEGA ONE", "OMEGA THREE", "X", "mercurial", -380],
  ["OMEGA ZERO", "OMEGA TWO", "X/CNOT", "mercurial", 400, [18, 0]],
  ["OMEGA TWO", "OMEGA THREE", "X/CNOT", "rubicon", 0],
  ["OMEGA ZERO", "OMEGA THREE", "SWAP", "both", 0],
];
// the grey CNOT grid (§3.2 row G): rows from Centarious, columns from Superious
const GRID = [["ZERO", "PHI PLUS"], ["PHI PLUS", "PHI MINUS"], ["ONE", "PSI PLUS"], ["PSI PLUS", "PSI MINUS"],
  ["PLUS", "PHI PLUS"], ["PHI PLUS", "PSI PLUS"], ["MINUS", "PHI MINUS"], ["PHI MINUS", "PSI MINUS"]];
const TRACK = ["1", "2", "2", "3", "3", "4", "4", "5", "5", "6", "7", "X"];  // sheet §6
const SHIPS = ["mercurial", "rubicon"];
const SHIP_NAME = { mercurial: "Mercurial", rubicon: "Rubicon" };
const COMPONENT_ABBR = {
  "Physical Qubits": "PQ", "Qubit Interconnect": "QI", "Dilution Refrigerator": "DR", "Quantum Gates": "QG",
  "Quantum Programming": "QP", "Quantum Error Correction": "QEC", "Control Infrastructure": "CI",
  "Magnetic Shielding": "MS",
};
const cardHelp = (card) => (["H", "X", "CNOT", "SWAP"].includes(card) ? bt(`help_${card}`) : card);
const BASIS = ["|00⟩", "|01⟩", "|10⟩", "|11⟩"];

// the board's words, in the reader's language (games/board_texts.py, put on the page by
// {% board_texts %}); a missing page block shows the key, so a forgotten page is seen at once
let TEXTS = null;
function bt(key, fields = {}) {
  if (TEXTS === null) {
    const node = document.getElementById("board-texts");
    TEXTS = node ? JSON.parse(node.textContent) : {};
  }
  const text = TEXTS[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (fields[name] !== undefined ? String(fields[name]) : all));
}



const pos = (planet) => { const p = LAYOUT[planet]; return p ? { x: p[0] * W, y: p[1] * H } : null; };
const galaxyOf = (planet) => GALAXY[planet] || "entanglion";
const inEntanglion = (planet) => galaxyOf(planet) === "entanglion";

// ---------------------------------------------------------------------------- reading the view
// The engine's view (games/engines/entanglion): read through these few functions only.

function ships(v) { return v.ships || {}; }
function detectionIndex(v) { return v.detection ? v.detection.index : 0; }
function detectionRate(v) { return v.detection ? v.detection.rate : TRACK[0]; }
function controlSlots(v) {
  const slots = v.engine_control || [];
  return Array.from({ length: 6 }, (_, i) => slots[i] || null);
}
function hands(v) { return v.hands || [[], []]; }
function eventHands(v) { return v.event_hands || [[], []]; }
function componentsOnPlanets(v) { return (v.components && v.components.on_planets) || {}; }
function componentsHeld(v) {
  const held = (v.components && v.components.held) || {};
  return SHIPS.map((ship) => held[ship] || []);
}
function shipState(v) { return v.state || null; }
function seatOf(msg) { return msg.view.seat ?? msg.seat ?? null; }
function shipOf(seat) { return seat === null || seat === undefined ? null : SHIPS[seat]; }
function slotSeat(slot) { return slot ? slot.seat : null; }

// an action's words, for its button and its screen-reader label (action shapes: engine docstring)
function describe(a) {
  if (a.play !== undefined) return bt(a.tunnel ? "act_play_tunnel" : "act_play", { card: a.play });
  if (a.mechanic !== undefined) return bt("act_mechanic", { card: a.mechanic });
  if (a.exchange !== undefined) return bt("act_exchange", { card: a.exchange });
  if (a.retrieve) return bt(a.tunnel ? "act_retrieve_tunnel" : "act_retrieve");
  if (a.event !== undefined) return bt(a.component ? "act_bennett" : "act_event", { event: a.event, component: a.component });
  if (a.trade) return bt("act_trade", { give: a.trade.give, take: a.trade.take });
  if (a.land) return bt("act_land", { m: a.land.mercurial, r: a.land.rubicon });
  if (a.discard !== undefined) return bt("act_discard", { card: a.discard });
  if (a.keep !== undefined) return bt("act_keep", { card: a.keep });
  if (a.stop) return bt("act_stop");
  return JSON.stringify(a);
}
const cardOf = (a) => (typeof a.play === "string" ? a.play : typeof a.mechanic === "string" ? a.mechanic : null);
const isCardPlay = (a) => cardOf(a) !== null && !a.tunnel;
const previewable = (a) => cardOf(a) !== null;

// ---------------------------------------------------------------------------- the board

export function createBoard(root, { act, preview, say = () => {} }) {
  ensureStylesheet(new URL("../css/entanglion.css", import.meta.url).href);
  root.innerHTML = "";
  const wrap = h("div", { class: "ent" });
  const main = h("div", { class: "ent-main" });
  const side = h("div", { class: "ent-side" });
  const galaxy = readableText(s("svg", { class: "ent-galaxy", viewBox: PHONE.matches ? PHONE_VIEW : `0 0 ${W} ${VIEW_H}`, role: "group", "aria-labelledby": "ent-galaxy-title ent-galaxy-desc" }));
  const galaxyTitle = s("title", { id: "ent-galaxy-title", text: bt("galaxy_title") });
  const galaxyDesc = s("desc", { id: "ent-galaxy-desc" });
  galaxy.append(galaxyTitle, galaxyDesc);
  const staticLayer = s("g", { class: "ent-static" });
  const dynamicLayer = s("g", { class: "ent-dynamic" });
  const shipLayer = s("g", { class: "ent-ships" });
  const previewLayer = s("g", { class: "ent-preview-layer", "aria-hidden": "true" });
  galaxy.append(staticLayer, dynamicLayer, shipLayer, previewLayer);
  const galaxyBox = h("div", { class: "ent-galaxy-box" }, galaxy);
  const panels = h("div", { class: "ent-panels" });
  const actions = h("div", { class: "ent-actions", role: "group", "aria-label": bt("your_actions") });
  // the preview's sentence (shown; heard through the page's one live region, ``say``)
  const previewLine = h("p", { class: "ent-preview" });
  // a tapped card's preview (a touch screen has no hover): its Play button, beside the sentence
  const confirmBox = h("div", { class: "ent-confirm" });
  main.append(galaxyBox, previewLine, confirmBox, actions, panels);
  wrap.append(main, side);
  let news = [];  // what the last new state changed, in sentences (the page says them: ``announce``)
  root.append(wrap);
  drawStatic();
  // a phone turned (or a window resized) across the phone width: the other layout
  PHONE.addEventListener("change", () => {
    galaxy.setAttribute("viewBox", PHONE.matches ? PHONE_VIEW : `0 0 ${W} ${VIEW_H}`);
    staticLayer.replaceChildren();
    drawStatic();
    if (last) drawDynamic(last, false);
  });
  // arrow keys move between the playable cards and buttons (Tab reaches them too)
  actions.addEventListener("keydown", (e) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    const all = [...actions.querySelectorAll("button")];
    const i = all.indexOf(document.activeElement);
    if (i < 0 || !all.length) return;
    e.preventDefault();
    const next = e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : (i + (e.key === "ArrowRight" ? 1 : -1) + all.length) % all.length;
    all[next].focus();
  });

  let last = null;
  let playedByKeyboard = false;  // the last action was taken from a focused button (Enter/Space)
  actions.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") playedByKeyboard = true; });
  let previewFor = null;  // the JSON of the action whose preview is drawn
  let armed = null;       // the JSON of the action a tap previewed: a second tap (or Play) plays it
  const previewCache = new Map();

  function drawStatic() {
    const defs = s("defs", {},
      s("marker", { id: "ent-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L10,5 L0,10 z", class: "ent-arrowhead" })),
      s("radialGradient", { id: "ent-g-entanglion" }, s("stop", { offset: "0%", "stop-color": "#fff6b0" }), s("stop", { offset: "100%", "stop-color": "#f2b705" })),
      s("radialGradient", { id: "ent-g-centarious" }, s("stop", { offset: "0%", "stop-color": "#c9b3ff" }), s("stop", { offset: "100%", "stop-color": "#6a45c2" })),
      s("radialGradient", { id: "ent-g-superious" }, s("stop", { offset: "0%", "stop-color": "#b8f5b0" }), s("stop", { offset: "100%", "stop-color": "#2f9a3c" })));
    staticLayer.append(defs, s("rect", { class: "ent-space", x: 0, y: 0, width: W, height: VIEW_H, rx: 18 }));
    // galaxy names
    const at = PHONE.matches ? PHONE_NAMES : { centarious: [60, 200], superious: [380, 850], entanglion: [760, 60] };
    staticLayer.append(
      s("text", { class: "ent-galaxy-name centarious", x: at.centarious[0], y: at.centarious[1], text: "CENTARIOUS" }),
      s("text", { class: "ent-galaxy-name superious", x: at.superious[0], y: at.superious[1], text: "SUPERIOUS" }),
      s("text", { class: "ent-galaxy-name entanglion", x: at.entanglion[0], y: at.entanglion[1], text: "ENTANGLION" }));
    // the grey CNOT grid
    const grid = s("g", { class: "ent-grid", "aria-hidden": "true" });
    for (const [a, b] of GRID) {
      const p = pos(a), q = pos(b);
      const [x1, y1, x2, y2] = trim(p, q, R + 6);
      grid.append(s("line", { class: "ent-grid-line", x1, y1, x2, y2, "marker-end": "url(#ent-arrow)", "marker-start": "url(#ent-arrow)" }));
    }
    grid.append(...GRID_LABELS[PHONE.matches ? "phone" : "desk"].map(([x, y, anchor]) => s("text", { class: "ent-grid-label", x, y, "text-anchor": anchor, text: "CNOT" })));
    staticLayer.append(grid);
    // the paths: blue solid for Mercurial, red dashed for Rubicon, both side by side for either ship
    const paths = s("g", { class: "ent-paths", "aria-hidden": "true" });
    for (const [a, b, label, who, bulge, shift] of PATHS) {
      const lines = who === "both" ? [["mercurial", -5], ["rubicon", 5]] : [[who, 0]];
      for (const [ship, off] of lines) paths.append(s("path", { class: `ent-path ${ship}`, d: curve(pos(a), pos(b), bulge, off), "data-path": `${a}|${b}` }));
      const m = labelAt(pos(a), pos(b), bulge);
      const [sx, sy] = (PHONE.matches && PHONE_SHIFT[`${a}|${b}|${who}`]) || shift || [0, 0];
      paths.append(s("text", { class: `ent-path-label ${who}`, x: Number(m.x) + sx, y: Number(m.y) + sy, text: label }));
    }
    staticLayer.append(paths);
    // the planets
    for (const [planet] of Object.entries(LAYOUT)) {
      const p = pos(planet);
      const g = s("g", { class: `ent-planet ${galaxyOf(planet)}`, "data-planet": planet });
      g.append(s("circle", { class: "ent-planet-body", cx: p.x, cy: p.y, r: R, fill: `url(#ent-g-${galaxyOf(planet)})` }),
        s("text", { class: "ent-planet-name", x: p.x, y: p.y - R - 10, text: planet }),
        s("text", { class: "ent-planet-ket", x: p.x, y: p.y + 7, text: SYMBOL[planet] }));
      staticLayer.append(g);
    }
  }

  // ------------------------------------------------------------------ dynamic drawing

  function shipGlyph(ship, x, y, cls = "") {
    // a small rocket pointing up, blue (Mercurial) or red (Rubicon)
    return s("g", { class: `ent-ship ${ship} ${cls}`, transform: `translate(${x} ${y})`, "data-ship": ship },
      s("path", { d: "M0,-22 C9,-12 10,0 8,12 L-8,12 C-10,0 -9,-12 0,-22 z", class: "ent-ship-body" }),
      s("path", { d: "M-8,6 L-15,16 L-8,14 z M8,6 L15,16 L8,14 z", class: "ent-ship-fin" }),
      s("circle", { cx: 0, cy: -6, r: 3.5, class: "ent-ship-window" }));
  }

  // where a ship is drawn beside its planet (Mercurial on the left, Rubicon on the right)
  function shipSpot(ship, planet) {
    const p = pos(planet);
    return p ? { x: p.x + (ship === "mercurial" ? -(R + 14) : R + 14), y: p.y + 8 } : null;
  }

  function shipsAt(shipPos, cls) {
    return SHIPS.map((ship) => [ship, shipSpot(ship, shipPos[ship])]).filter(([, q]) => q)
      .map(([ship, q]) => shipGlyph(ship, q.x, q.y, cls));
  }

  // the two ships stay the same elements and glide to their new planets (a CSS transition)
  function placeShips(here, animate) {
    if (!shipLayer.childElementCount) shipLayer.append(...SHIPS.map((ship) => shipGlyph(ship, 0, 0, "")));
    shipLayer.classList.toggle("gliding", !!animate);
    for (const node of shipLayer.children) {
      const q = shipSpot(node.dataset.ship, here[node.dataset.ship]);
      node.removeAttribute("transform");
      node.classList.toggle("hidden", !q);
      if (q) node.style.transform = `translate(${q.x}px, ${q.y}px)`;
    }
  }

  function drawDynamic(msg, animate) {
    const v = msg.view;
    dynamicLayer.replaceChildren();
    const here = ships(v);
    const onPlanets = componentsOnPlanets(v);
    // the ships' planets glow
    for (const node of staticLayer.querySelectorAll(".ent-planet")) {
      const planet = node.dataset.planet;
      node.classList.toggle("occupied", here.mercurial === planet || here.rubicon === planet);
      const comp = onPlanets[planet];
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", planetLabel(planet, here, comp));
    }
    // component tokens on their planets
    for (const [planet, comp] of Object.entries(onPlanets)) {
      const p = pos(planet);
      if (!p || !comp) continue;
      dynamicLayer.append(s("g", { class: "ent-component-token", "data-component": comp, "data-planet": planet, transform: `translate(${p.x + R * 0.55} ${p.y - R * 0.95})` },
        s("title", { text: comp }),
        s("rect", { x: -17, y: -12, width: 34, height: 24, rx: 5 }),
        s("text", { x: 0, y: 5, text: COMPONENT_ABBR[comp] || comp.slice(0, 2) })));
    }
    placeShips(here, animate);
    galaxyDesc.textContent = bt("galaxy_desc", { m: here.mercurial || "?", r: here.rubicon || "?", n: Object.keys(onPlanets).length });
  }

  function planetLabel(planet, here, comp) {
    const who = SHIPS.filter((sh) => here[sh] === planet).map((sh) => SHIP_NAME[sh]);
    return `${planet} ${SYMBOL[planet]}` + (comp ? bt("planet_component", { component: comp }) : "")
      + (who.length > 1 ? bt("planet_here_both") : who.length ? bt("planet_here_one", { ship: who[0] }) : "");
  }

  // ------------------------------------------------------------------ panels

  function drawPanels(msg) {
    const v = msg.view;
    panels.replaceChildren(trackPanel(v), controlPanel(msg), handsPanel(msg), eventsPanel(msg));
    const dice = (v.dice || []).map((e) => e.text).filter(Boolean);
    if (dice.length) panels.prepend(h("section", { class: "ent-panel ent-dice", "aria-label": bt("dice_label") }, h("h2", { text: bt("dice") }), ...dice.map((t) => h("p", { class: "small", text: t }))));
    if (v.finished) {
      const won = v.result === "won";
      panels.prepend(h("section", { class: `ent-panel ent-banner ${v.result}` },
        h("strong", { text: bt(won ? "banner_won" : v.result === "time_up" ? "banner_time_up" : "banner_lost") })));
    }
  }

  function trackPanel(v) {
    const at = detectionIndex(v);
    const track = readableText(s("svg", { class: "ent-track", viewBox: "0 0 372 92", role: "img", "aria-label": bt("track_label", { rate: detectionRate(v), space: at + 1 }) }));
    TRACK.forEach((value, i) => {
      const row = i < 6 ? 0 : 1;
      const col = i % 6;
      const cx = 30 + col * 54 + row * 27, cy = 24 + row * 44;
      const hex = Array.from({ length: 6 }, (_, k) => {
        const a = Math.PI / 6 + (k * Math.PI) / 3;
        return `${(cx + 24 * Math.cos(a)).toFixed(1)},${(cy + 24 * Math.sin(a)).toFixed(1)}`;
      }).join(" ");
      track.append(s("g", { class: `ent-track-space${i === at ? " current" : ""}${i === 11 ? " loss" : ""}${i < at ? " passed" : ""}`, "data-index": i },
        s("polygon", { points: hex }), s("text", { x: cx, y: cy + 6, text: value })));
    });
    return h("section", { class: "ent-panel ent-track-panel", "data-detection": at },
      h("h2", { text: bt("track_title", { rate: detectionRate(v) }) }), track);
  }

  function controlPanel(msg) {
    const slots = controlSlots(msg.view);
    const filled = slots.filter(Boolean).length;
    const row = h("ol", { class: "ent-control", "aria-label": bt("control_label", { n: filled }) });
    slots.forEach((slot, i) => {
      const seat = slotSeat(slot);
      const ship = shipOf(seat);
      row.append(h("li", { class: `ent-slot${slot ? " full " + (ship || "") : ""}`, "data-slot": i, "data-card": slot ? slot.card : null,
        "aria-label": slot ? bt("slot_full", { i: i + 1, card: slot.card, ship: SHIP_NAME[ship] || "?" }) : bt("slot_empty", { i: i + 1 }) },
      h("span", { class: "ent-slot-card", text: slot ? slot.card : "" })));
    });
    return h("section", { class: "ent-panel" }, h("h2", { text: bt("control_title", { n: filled }) }), row,
      h("p", { class: "muted small", text: bt("control_note") }));
  }

  function handsPanel(msg) {
    const v = msg.view;
    const me = seatOf(msg);
    const box = h("section", { class: "ent-panel ent-hands" }, h("h2", { text: bt("hands_title") }));
    hands(v).forEach((hand, seat) => {
      if (seat === me && (msg.legal || []).length) return;  // my playable hand is the action row
      const ship = SHIPS[seat];
      // a list of cards, one item each: read as "CNOT, CNOT, H", never as one word "CNOTCNOTH"
      box.append(h("div", { class: `ent-hand ${ship}`, "data-seat": seat },
        h("span", { class: "ent-hand-name", text: bt(seat === me ? "hand_of_you" : "hand_of", { ship: SHIP_NAME[ship] }) },
          hand.length ? h("span", { class: "ent-hand-cards", role: "list" }, ...hand.map((c) => h("span", { class: `ent-card small k-${c}`, role: "listitem", text: c })))
            : h("span", { class: "muted", text: bt("no_cards") }))));
    });
    return box;
  }

  function eventsPanel(msg) {
    const v = msg.view;
    const box = h("section", { class: "ent-panel ent-events" }, h("h2", { text: bt("events_title") }));
    const held = eventHands(v);
    held.forEach((cards, seat) => {
      if (!cards || !cards.length) return;
      box.append(h("div", { class: `ent-event-hand ${SHIPS[seat]}` }, h("b", { text: bt("keeps", { ship: SHIP_NAME[SHIPS[seat]] }) }),
        h("span", { role: "list" }, ...cards.map((c) => h("span", { class: "ent-event-card", role: "listitem", text: c })))));
    });
    const discarded = v.event_discard || [];
    if (discarded.length) box.append(h("p", {}, bt("event_discard"), h("span", { role: "list" }, ...discarded.map((c) => h("span", { class: "ent-event-card", role: "listitem", text: c })))));
    box.append(h("p", { class: "muted", text: bt("decks", { events: v.event_deck, engines: v.engine_stack }) }));

    return box;
  }

  function drawSide(msg) {
    const v = msg.view;
    side.replaceChildren(statePanel(v), componentsPanel(v));
    if (msg.analysis) side.append(analysisPanel(msg.analysis));
  }

  function statePanel(v) {
    const st = shipState(v);
    const here = ships(v);
    const box = h("section", { class: "ent-panel ent-state", "aria-label": bt("state_label") }, h("h2", { text: bt("state_title") }));
    const where = inEntanglion(here.mercurial) && here.mercurial === here.rubicon
      ? bt("state_inside", { planet: here.mercurial, symbol: SYMBOL[here.mercurial] || "" })
      : bt("state_outside", { m: here.mercurial, ms: SYMBOL[here.mercurial] || "", r: here.rubicon, rs: SYMBOL[here.rubicon] || "" });
    box.append(h("p", { class: "ent-where", text: where }));
    if (!st) return box;
    box.append(h("p", { class: "ent-ket", "data-ket": st.ket, "aria-label": bt("ket_label", { ket: st.ket }) }, h("span", { class: "muted", text: "|Mercurial Rubicon⟩ = " }), st.ket));
    const amps = st.amplitudes || [];
    const table = h("table", { class: "ent-amps" }, h("caption", { class: "visually-hidden", text: bt("amps_caption") }),
      h("tr", {}, h("th", { text: bt("basis") }), h("th", { text: bt("amplitude") }), h("th", { text: bt("probability") })));
    amps.forEach((a, i) => {
      const value = typeof a === "object" && a !== null ? (a.re ?? a[0] ?? 0) : Number(a);
      const label = typeof a === "object" && a !== null && a.text ? a.text : fmt(value);
      const p = value * value;
      table.append(h("tr", { "data-basis": BASIS[i] },
        h("td", { class: "mono", text: BASIS[i] }),
        h("td", { class: `mono ${value < 0 ? "neg" : ""}`, text: label }),
        h("td", {}, h("span", { class: "ent-bar", "aria-hidden": "true" }, h("i", { class: "ent-bar-fill", style: null, "data-p": p.toFixed(3) })), ` ${Math.round(p * 100)}%`)));
    });
    box.append(table);
    // bar widths through the CSSOM (no style attributes under the CSP)
    table.querySelectorAll(".ent-bar-fill").forEach((n) => { n.style.width = `${Number(n.dataset.p) * 100}%`; });
    return box;
  }

  function componentsPanel(v) {
    const held = componentsHeld(v);
    const found = held.reduce((n, list) => n + (list ? list.length : 0), 0);
    const box = h("section", { class: "ent-panel ent-components", "data-found": found }, h("h2", { text: bt("found_title", { n: found }) }));
    held.forEach((list, seat) => {
      box.append(h("div", { class: `ent-held ${SHIPS[seat]}`, "data-seat": seat }, h("b", { text: `${SHIP_NAME[SHIPS[seat]]}: ` }),
        ...(list && list.length ? list.map((c) => h("span", { class: "ent-component", title: c, text: c })) : [h("span", { class: "muted", text: bt("none_yet") })])));
    });
    const rest = Object.entries(componentsOnPlanets(v));
    if (rest.length) box.append(h("details", { class: "ent-rest" }, h("summary", { text: bt("still_out", { n: rest.length }) }),
      h("ul", {}, ...rest.map(([planet, c]) => h("li", { text: bt("component_on", { component: c, planet }) })))));
    return box;
  }

  function analysisPanel(a) {
    const teacher = Array.isArray(a.routes);  // the routes are the teacher's only
    const box = h("section", { class: "ent-panel ent-analysis", "aria-label": bt(teacher ? "teacher_analysis" : "odds") },
      h("h2", { text: bt(teacher ? "teacher_analysis" : "odds") }));
    if (a.detection_chance_next_arrival !== undefined) {
      box.append(h("p", { class: "ent-detection-chance", text: bt("detection_chance", { p: Math.round(Number(a.detection_chance_next_arrival) * 100) }) }));
    }
    const step = (c) => `${c.card} (${SHIP_NAME[shipOf(c.seat)]})`;
    const routes = a.routes || [];
    if (routes.length) {
      box.append(h("p", { class: "muted small", text: bt("routes_note") }));
      box.append(h("ul", { class: "ent-routes" }, ...routes.map((r) => h("li", { "data-planet": r.planet },
        h("b", { text: r.component }), bt("route_on", { planet: r.planet }),
        r.from_hands ? (r.from_hands.length ? r.from_hands.map(step).join(" → ") : bt("route_here"))
          : (r.any_cards ? bt("route_other_cards", { cards: r.any_cards.map(step).join(" → ") }) : bt("route_none"))))));
    }
    return box;
  }

  // ------------------------------------------------------------------ acting and previews

  // a click plays; a finger's first tap on a card previews it instead (no hover on a touch
  // screen): the ghost ships, the sentence and a Play button; the second tap plays
  function choose(a, e) {
    const key = JSON.stringify(a);
    if (tapped(e) && armed !== key) {
      armed = key;
      showPreview(a);
      confirmBox.replaceChildren(h("p", { class: "ent-tap-again", text: bt("tap_again") }),
        h("button", { type: "button", class: "button primary", "data-confirm": key, onclick: () => play(a) }, describe(a)));
      return;
    }
    play(a);
  }
  function play(a) {
    armed = null;
    confirmBox.replaceChildren();
    clearPreview(a, true);
    act(a);
  }
  // a finger's compatibility mouse events (a mouseleave when it taps elsewhere) and the blur of
  // a tapped card keep its preview
  const leave = (a) => { if (lastPointerType() !== "touch" && armed !== JSON.stringify(a)) clearPreview(a); };

  function cardButton(a, me, index) {
    const card = cardOf(a);
    const key = JSON.stringify(a);
    return h("button", {
      type: "button", class: `ent-card k-${card} ${shipOf(me)}`, "data-card": card, "data-action": key, "data-index": index,
      "aria-label": `${bt("card_for", { action: describe(a), ship: SHIP_NAME[shipOf(me)] })} ${cardHelp(card)}`,
      title: cardHelp(card),
      // (a pointer's hover draws the preview; the focus's is also said, unless the page moved it)
      onmouseenter: () => showPreview(a, true), onfocus: () => showPreview(a, quiet),
      onmouseleave: () => leave(a), onblur: () => leave(a),
      onclick: (e) => choose(a, e),
    }, h("span", { class: "ent-card-kind", text: card }));
  }

  function drawActions(msg) {
    actions.replaceChildren();
    const legal = msg.legal || [];
    const me = seatOf(msg);
    if (!legal.length) {
      previewLayer.replaceChildren();
      previewLine.textContent = "";
      confirmBox.replaceChildren();
      armed = null;
      return;
    }
    // every card of the hand (or The Mechanic's drawn cards), playable where a legal play exists
    const pending = msg.view.pending;
    const mechanic = pending && pending.kind === "mechanic" && pending.seat === me;
    const cards = mechanic ? (pending.cards || []) : (hands(msg.view)[me] || []);
    const plays = legal.filter(isCardPlay);
    const row = h("div", { class: "ent-hand-row", role: "group", "aria-label": bt("your_cards", { ship: SHIP_NAME[shipOf(me)] }) });
    cards.forEach((c, i) => {
      const a = plays.find((x) => cardOf(x) === c);
      row.append(a ? cardButton(a, me, i) : h("span", { class: `ent-card k-${c} idle`, "data-card": c, "aria-label": bt("not_playable", { card: c }), text: c }));
    });
    const title = plays.length
      ? bt(mechanic ? "title_mechanic" : "title_navigate")
      : bt("title_decision");
    actions.append(h("h2", { class: "ent-actions-title", text: title }), row);
    if (mechanic && (pending.aside || []).length) {
      actions.append(h("p", { class: "muted small ent-aside" }, bt("aside"), h("span", { role: "list" }, ...pending.aside.map((c) => h("span", { class: `ent-card small k-${c}`, role: "listitem", text: c })))));
    }
    const others = legal.filter((a) => !isCardPlay(a));
    if (others.length) {
      actions.append(h("div", { class: "ent-other-actions", role: "group", "aria-label": bt("other_actions") },
        ...others.map((a) => {
          const key = JSON.stringify(a);
          const kind = Object.keys(a).find((k) => k !== "tunnel") || "";
          return h("button", { type: "button", class: "button small secondary ent-act", "data-action": key, "data-kind": kind,
            onmouseenter: previewable(a) ? () => showPreview(a, true) : null, onfocus: previewable(a) ? () => showPreview(a) : null,
            onmouseleave: previewable(a) ? () => leave(a) : null, onblur: previewable(a) ? () => leave(a) : null,
            onclick: (e) => (previewable(a) ? choose(a, e) : play(a)) }, describe(a));
        })));
    }
  }

  // the focus the board puts back after a move previews the card without saying it: the move's
  // news is what a screen reader hears then
  let quiet = false;
  async function showPreview(a, silent = false) {
    const key = JSON.stringify(a);
    previewFor = key;
    if (!preview) return;
    let reply = previewCache.get(key);
    if (!reply) {
      reply = await preview(a);
      if (reply && reply.ok) previewCache.set(key, reply);
    }
    if (previewFor !== key || !last) return;
    drawPreview(a, reply, silent);
  }

  function clearPreview(a, force = false) {
    if (!force && previewFor !== JSON.stringify(a)) return;
    previewFor = null;
    previewLayer.replaceChildren();
    galaxy.classList.remove("previewing");
  }

  function drawPreview(a, reply, silent = false) {
    previewLayer.replaceChildren();
    const card = cardOf(a);
    if (!reply || !reply.ok) {
      previewLine.textContent = reply && reply.message ? reply.message : bt("no_preview", { card });
      if (!silent) say(previewLine.textContent);
      return;
    }
    const r = reply.result || {};
    const before = r.before || ships(last.view);
    const after = r.after || before;
    const moved = SHIPS.filter((sh) => after[sh] !== before[sh]);
    galaxy.classList.add("previewing");
    for (const sh of moved) {
      const p = pos(before[sh]), q = pos(after[sh]);
      if (p && q) {
        const [x1, y1, x2, y2] = trim(p, q, R + 4);
        previewLayer.append(s("line", { class: `ent-preview-arrow ${sh}`, x1, y1, x2, y2, "marker-end": "url(#ent-arrow)" }));
      }
    }
    previewLayer.append(...shipsAt(after, "ghost"));
    for (const planet of new Set(moved.map((sh) => after[sh]))) {
      const q = pos(planet);
      if (q) previewLayer.append(s("circle", { class: "ent-preview-ring", cx: q.x, cy: q.y, r: R + 8 }));
    }
    const extra = [];
    if (r.state_after && r.state_after.ket) extra.push(bt("preview_state", { ket: r.state_after.ket }));
    if (r.orbital_check) extra.push(bt("preview_check"));
    if (r.component) extra.push(bt("preview_component", { component: r.component }));
    const me = SHIP_NAME[shipOf(seatOf(last))] || "";
    // a planet with its ket: the phone's galaxy names the planets by their kets only
    const named = (planet) => (SYMBOL[planet] ? `${planet} ${SYMBOL[planet]}` : planet);
    const sentence = !moved.length ? bt("preview_stay", { card, ship: me })
      : inEntanglion(after.mercurial) && after.mercurial === after.rubicon ? bt("preview_both", { card, planet: named(after.mercurial) })
        : bt("preview_ships", { card, m: named(after.mercurial), r: named(after.rubicon) });
    // §3.6: the one move where the board is not the gate: say what a real CNOT would do
    const kick = r.kickback ? " " + bt("preview_kickback", r.kickback) : "";
    previewLine.textContent = sentence
      + (extra.length ? ` (${extra.join("; ")})` : "") + kick;
    if (!silent) say(previewLine.textContent);
    previewLine.dataset.after = JSON.stringify(after);
  }

  // what changed, told to screen readers in the reader's language: the cards played, where the
  // ships are now, components found, the detection rate, whose turn it is
  function announceChange(before, msg) {
    const v = msg.view;
    const said = [];
    for (const e of msg.events || []) {
      if (e.type === "play" && e.card) said.push(bt("say_play", { ship: SHIP_NAME[shipOf(e.seat)], card: e.card }));
    }
    const here = ships(v);
    if (!before || before.ships.mercurial !== here.mercurial || before.ships.rubicon !== here.rubicon) {
      said.push(inEntanglion(here.mercurial) && here.mercurial === here.rubicon
        ? bt("say_both", { planet: here.mercurial, ket: v.state ? v.state.ket : "" })
        : bt("say_ships", { m: here.mercurial, r: here.rubicon }));
    }
    const found = componentsHeld(v).flat();
    const had = before ? componentsHeld(before).flat() : [];
    for (const c of found) if (!had.includes(c)) said.push(bt("say_found", { component: c }));
    if (before && detectionIndex(before) !== detectionIndex(v)) said.push(bt("say_detection", { rate: detectionRate(v) }));
    const won = v.result === "won";
    if (v.finished) said.push(bt(won ? "banner_won" : v.result === "time_up" ? "banner_time_up" : "banner_lost"));
    news = said;
  }

  function render(msg, { animate } = {}) {
    const before = last ? last.view : null;
    news = [];
    if (!last || msg.seq !== last.seq) { armed = null; confirmBox.replaceChildren(); }
    last = msg;
    previewCache.clear();
    if (msg.seq !== undefined) root.dataset.seq = msg.seq;
    root.dataset.ships = JSON.stringify(ships(msg.view));
    const active = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
    const focused = active ? active.dataset.action : null;
    const focusedIndex = active ? active.dataset.index : undefined;
    // focus that fell to the page when the played button went away: the hand gets it back
    const wasFocused = playedByKeyboard && (!document.activeElement || document.activeElement === document.body);
    drawDynamic(msg, animate);
    drawPanels(msg);
    drawActions(msg);
    drawSide(msg);
    if (previewFor && !actions.querySelector(`[data-action='${CSS.escape(previewFor)}']`)) clearPreview(null, true);
    if (focused) {
      const again = [...actions.querySelectorAll("[data-action]")].find((n) => n.dataset.action === focused && n.dataset.index === focusedIndex)
        || [...actions.querySelectorAll("[data-action]")].find((n) => n.dataset.action === focused);
      quiet = true;
      if (again) again.focus({ preventScroll: true });
      quiet = false;
    } else if (animate && wasFocused && (msg.legal || []).length) {
      // the keyboard player's card went with the last move: their turn again starts on the hand
      const first = actions.querySelector("button");
      quiet = true;
      if (first) { first.focus({ preventScroll: true }); playedByKeyboard = false; }
      quiet = false;
    }
    if (animate) announceChange(before, msg);
  }

  return {
    render,
    // the sentences a screen reader hears for a new state (the page's live region says them once)
    announce() { return news; },
    // the page puts the focus back after a move: the card's preview is drawn, not said
    focusQuietly(node) { quiet = true; node.focus({ preventScroll: true }); quiet = false; },
    seatLabel(i) { return SHIP_NAME[SHIPS[i]] || ""; },
    // co-operative: the two players win or lose together
    verdict(outcome) {
      if (!outcome) return null;
      if (outcome.result === "won") return bt("verdict_won", { turns: outcome.turns });
      if (outcome.result === "time_up") return bt("verdict_time_up", { turns: outcome.turns, found: outcome.components });
      return bt("verdict_lost", { turns: outcome.turns, found: outcome.components });
    },
    prompt(msg) {
      const legal = msg.legal || [];
      if (!legal.length) return "";
      if (legal.some(isCardPlay)) return bt("prompt_play");
      return bt("prompt_decide");
    },
  };
}

// ---------------------------------------------------------------------------- geometry

function trim(p, q, by) {
  const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  return [p.x + ux * by, p.y + uy * by, q.x - ux * by, q.y - uy * by].map((n) => n.toFixed(1));
}

// a path from p to q, bent by `bulge` (quadratic curve) and shifted sideways by `off`
function curve(p, q, bulge, off) {
  const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len, ny = dx / len;
  const a = { x: p.x + nx * off, y: p.y + ny * off }, b = { x: q.x + nx * off, y: q.y + ny * off };
  if (!bulge) return `M${a.x.toFixed(1)},${a.y.toFixed(1)} L${b.x.toFixed(1)},${b.y.toFixed(1)}`;
  const c = { x: (p.x + q.x) / 2 + nx * (bulge + off), y: (p.y + q.y) / 2 + ny * (bulge + off) };
  return `M${a.x.toFixed(1)},${a.y.toFixed(1)} Q${c.x.toFixed(1)},${c.y.toFixed(1)} ${b.x.toFixed(1)},${b.y.toFixed(1)}`;
}

function labelAt(p, q, bulge) {
  const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len, ny = dx / len;
  const k = bulge ? bulge / 2 : 16;
  return { x: ((p.x + q.x) / 2 + nx * k).toFixed(1), y: ((p.y + q.y) / 2 + ny * k + 5).toFixed(1) };
}

function fmt(x) {
  const a = Math.abs(x);
  const sign = x < 0 ? "−" : "";
  if (a < 1e-9) return "0";
  if (Math.abs(a - 1) < 1e-9) return sign + "1";
  if (Math.abs(a - 0.5) < 1e-9) return sign + "1/2";
  if (Math.abs(a - Math.SQRT1_2) < 1e-9) return sign + "1/√2";
  return x.toFixed(3);
}

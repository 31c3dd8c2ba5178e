// QTris board — "the board that teaches": tiles drawn as in the rulebook, the hand as cards,
// previews on hover (over the socket, no chance), live odds, the measurement rolled square by
// square, scoring lines, and a "what is happening" panel for the last card played.
//
// createBoard(root, { act, preview? }): preview(action) => Promise<{type: "preview", action,
// ok: true, result} | {ok: false, code, message}>. Without preview (replays, older pages) the
// board still works: legal targets come from payload.legal, no hover preview.
import { _, nt, tr } from "../js/i18n.js";
import { ensureStylesheet, h, readableText, svg } from "../js/svg.js";
import { pressWatch, tapped } from "../js/touch.js";
const CELL = 150;
const R = 44; // tile radius
const LINES = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 4, 7], [2, 5, 8], [3, 6, 9], [1, 5, 9], [3, 5, 7]];
const CARD_TITLES = {
  I: _("do nothing"), X: _("change colour"), Y: _("colour + orientation"), Z: _("change orientation"),
  H: _("colour ↔ orientation"), S: _("quarter turn"), U: _("pink decoration"), CX: _("controlled X (2 squares)"),
};
const BASIS_WORDS = { color: _("colour"), "left-right": _("left-right"), "up-down": _("up-down") };
const TILE_WORDS = { W: _("white"), B: _("black"), R: _("kitten right"), L: _("kitten left"), UP: _("kitten up"), DOWN: _("kitten down") };


const origin = (sq) => ({ x: ((sq - 1) % 3) * CELL, y: Math.floor((sq - 1) / 3) * CELL });
const centre = (sq) => { const o = origin(sq); return { x: o.x + CELL / 2, y: o.y + CELL / 2 - 8 }; };
const pct = (p) => `${Math.round(100 * p)}%`;
const signed = (d, unit = "%", k = 100) => { const v = Math.round(k * d * 10) / 10; return (v > 0 ? "+" : v < 0 ? "−" : "±") + Math.abs(v) + unit; };
const actKey = (a) => JSON.stringify(a);
// a reader who asks for less motion sees the measured board at once: nothing to wait for
const REDUCED_MOTION = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
const MEASURE_STEP_MS = 550; // one measured square after the other (the CSS animation delay)
const LINE_FADE_MS = 600;
// the prompts for a correct step that is not yet a whole play (never styled as an error)
const STEP_TEXT = {
  controlTitle: (sq) => tr("CX: square %(square)s as the control", { square: sq }),
  control: (sq) => tr("Click (or press Enter) to make square %(square)s the control, then choose the target square.", { square: sq }),
  isControlTitle: (sq) => tr("Square %(square)s is the control of your CX", { square: sq }),
  isControl: _("Now choose the target square; click this square again to pick another control."),
  measuring: _("Measuring the board…"),
};

// ---------------------------------------------------------------- tile drawing

// one single tile (code W B R L UP DOWN), centre (x, y), radius r
function drawSingle(g, code, x, y, r) {
  const stroke = Math.max(2, r / 12);
  if (code === "W" || code === "B") {
    g.append(svg("circle", { cx: x, cy: y, r, class: `tile ${code === "W" ? "white" : "black"}`, "stroke-width": stroke }));
    return;
  }
  // kittens: half black, the white half faces the way the kitten is turned; a small ear marks it
  const dir = { R: [1, 0], L: [-1, 0], UP: [0, -1], DOWN: [0, 1] }[code] || [1, 0];
  g.append(svg("circle", { cx: x, cy: y, r, class: "tile white", "stroke-width": stroke }));
  const [dx, dy] = dir;
  // the black half is the half opposite to dir
  const px = -dy, py = dx; // perpendicular
  const a = { x: x + px * r, y: y + py * r }, b = { x: x - px * r, y: y - py * r };
  const sweep = 1;
  g.append(svg("path", { d: `M${a.x},${a.y} A${r},${r} 0 0 ${sweep} ${b.x},${b.y} Z`, class: "tile-half black" }));
  g.append(svg("circle", { cx: x, cy: y, r, class: "tile-rim", "stroke-width": stroke }));
  // the ear: a small triangle outside the rim, on the white side
  const e = r * 0.32, tip = { x: x + dx * (r + e), y: y + dy * (r + e) };
  const base1 = { x: x + dx * (r - 2) + px * e * 0.8, y: y + dy * (r - 2) + py * e * 0.8 };
  const base2 = { x: x + dx * (r - 2) - px * e * 0.8, y: y + dy * (r - 2) - py * e * 0.8 };
  g.append(svg("path", { d: `M${base1.x},${base1.y} L${tip.x},${tip.y} L${base2.x},${base2.y} Z`, class: "kitten-ear" }));
}

// a pair member on one square: a yellow triangle; qubit 1 points up, qubit 2 points up when
// correlated (phi) and down when anti-correlated (psi); a minus mark for the − sign
function drawPairTriangle(g, m, x, y, r) {
  const up = m.qubit === 1 || m.correlated;
  const s = r * 1.05;
  const pts = up
    ? [[x, y - s], [x + s * 0.95, y + s * 0.7], [x - s * 0.95, y + s * 0.7]]
    : [[x, y + s], [x + s * 0.95, y - s * 0.7], [x - s * 0.95, y - s * 0.7]];
  g.append(svg("polygon", { points: pts.map((p) => p.join(",")).join(" "), class: "pair-tri", "stroke-width": Math.max(2, r / 14) }));
  if (m.sign === "-") g.append(svg("rect", { x: x - r * 0.38, y: y + (up ? r * 0.12 : -r * 0.28), width: r * 0.76, height: Math.max(4, r * 0.16), class: "minus-mark", rx: 2 }));
}

function drawDecoration(g, kind, x, y, r) {
  const s = r * 1.28;
  g.append(svg("rect", { x: x - s, y: y - s, width: 2 * s, height: 2 * s, rx: r * 0.18, class: kind === "H" ? "deco-h" : "deco-u" }));
  g.append(svg("text", { x: x - s + 4, y: y - s + 3, class: `deco-label ${kind === "H" ? "h" : "u"}`, "text-anchor": "start", "dominant-baseline": "hanging" }, kind));
}

function drawMember(g, m, x, y, r) {
  const deco = m.kind === "pair" ? (m.decorated_here ? m.decoration : null) : m.decoration;
  if (deco) drawDecoration(g, deco, x, y, r);
  if (m.kind === "pair") drawPairTriangle(g, m, x, y, r);
  else drawSingle(g, m.code, x, y, r);
}

// all members of a square: one tile, or a stack of smaller tiles with their weights
function drawSquareTiles(g, cell, cx, cy, opts = {}) {
  const members = cell.members || [];
  if (members.length === 1) { drawMember(g, members[0], cx, cy, opts.r || R); return; }
  const n = members.length;
  const r = (opts.r || R) * (n <= 2 ? 0.6 : n <= 4 ? 0.48 : 0.36);
  const cols = n <= 2 ? 2 : n <= 4 ? 2 : 3;
  const gap = r * 2.5;
  const rows = Math.ceil(n / cols);
  members.forEach((m, i) => {
    const col = i % cols, row = Math.floor(i / cols);
    const x = cx + (col - (cols - 1) / 2) * gap;
    const y = cy + (row - (rows - 1) / 2) * (gap + 6) - 4;
    const sub = svg("g", { class: "stacked" });
    // a "stack": a shadow tile behind each member
    sub.append(svg("circle", { cx: x + 4, cy: y + 4, r, class: "stack-shadow" }));
    drawMember(sub, m, x, y, r);
    // its weight: the exact number; on a phone, where the label is drawn larger (12 CSS px at
    // least), a long one ("(2+√3)/4") would run into its neighbour's, so it reads as a percentage
    const weight = svg("text", { x, y: y + r + 14, class: "weight", "text-anchor": "middle" });
    const long = String(m.weight).length > 3 && typeof m.p === "number";
    weight.append(svg("tspan", { class: long ? "w-exact w-long" : "w-exact" }, m.weight));
    if (long) weight.append(svg("tspan", { class: "w-short" }, m.p > 0 && m.p < 0.005 ? "<1%" : pct(m.p)));
    sub.append(weight);
    g.append(sub);
  });
}

// the square (group matching sel) a pointer event is on, even when its element was redrawn
export function squareAt(e, sel) {
  const direct = e.target && e.target.closest && e.target.closest(sel);
  if (direct && direct.isConnected) return direct;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  return under && under.closest ? under.closest(sel) : null;
}

// the engine's kets of a play's squares ("square 1: |0⟩", "squares 8–9: mixture {…}") with their
// words in the reader's language (the kets themselves read the same in every language)
function ketWords(text) {
  return String(text || "")
    .replace(/\bsquares (\d+)–(\d+):/g, (all, a, b) => tr("squares %(a)s–%(b)s:", { a, b }))
    .replace(/\bsquare (\d+):/g, (all, square) => tr("square %(square)s:", { square }))
    .replace(/: mixture \{/g, `: ${_("mixture")} {`);
}

function tileWords(cell) {
  const ms = cell.members || [];
  const one = (m) => {
    if (m.kind === "pair") return (m.correlated ? tr("correlated pair (%(sign)s)", { sign: m.sign }) : tr("anti-correlated pair (%(sign)s)", { sign: m.sign })) + (m.decoration ? ", " + tr("%(decoration)s-decorated", { decoration: m.decoration }) : "");
    return (m.decoration ? "U·" : "") + (TILE_WORDS[m.code] || m.code);
  };
  if (ms.length === 1) return one(ms[0]);
  return tr("mixture: %(members)s", { members: ms.map((m) => `${one(m)} ${m.weight}`).join(", ") });
}

// ---------------------------------------------------------------- the board module

export function createBoard(root, { act, preview, promptChanged = () => {}, say = () => {} } = {}) {
  ensureStylesheet(new URL("../css/qtris.css", import.meta.url).href);
  root.innerHTML = "";
  const wrap = h("div", { class: "qtris" });
  const boardBox = h("div", { class: "qtris-boardbox" });
  const board = readableText(svg("svg", { viewBox: `-8 -8 ${3 * CELL + 16} ${3 * CELL + 16}`, class: "qtris-board", role: "group", "aria-label": _("QTris board") }));
  // the preview (shown; heard through the page's one live region, ``say``, when the student
  // points at a square or picks a card: a new state's news is the page's to say)
  const previewBox = h("div", { class: "qtris-preview", id: "qtris-preview" });
  boardBox.append(board, previewBox);
  const side = h("div", { class: "qtris-side" });
  const controls = h("div", { class: "qtris-controls" });
  const handBox = h("div", { class: "qtris-hand-box" });
  // the arrow keys move between the cards of the hand (as between the squares of the board)
  handBox.addEventListener("keydown", (e) => {
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    const here = e.target.closest && e.target.closest(".qcard");
    if (!step || !here) return;
    const all = [...handBox.querySelectorAll(".qcard")].filter((b) => !b.disabled);
    const next = all[all.indexOf(here) + step];
    if (next) { e.preventDefault(); next.focus(); }
  });
  const odds = h("div", { class: "qtris-odds", id: "qtris-odds" });
  const explainBox = h("div", { class: "qtris-explain", id: "qtris-explain" });
  const measureBox = h("div", { class: "qtris-measure" });
  side.append(controls, handBox, odds, measureBox, explainBox);
  wrap.append(boardBox, side);
  root.append(wrap);

  // hovering: delegated on the svg, so redrawing the squares does not re-fire enter events
  board.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return; // a finger has no hover: its tap plays (the focus previews)
    const g = e.target.closest && e.target.closest("g.sq");
    if (g && last) onHover(Number(g.dataset.square));
  });
  // (a finger leaves the board whenever it lifts: its preview stays until the next tap)
  board.addEventListener("pointerleave", (e) => { if (last && e.pointerType !== "touch") onLeave(); });
  // a finger or a button is down: the focus it brings is not a keyboard's (static/js/touch.js)
  const pressing = pressWatch(board);
  // clicks are delegated too: on a touch screen the tap's own hover redraws the squares between
  // finger down and up, and the click then lands on the board, not on the (replaced) square
  board.addEventListener("click", (e) => {
    const g = squareAt(e, "g.sq");
    if (g && last) clickSquare(Number(g.dataset.square), tapped(e));
  });

  let last = null;
  let card = null; // selected card name
  let control = null; // CX control square
  let hover = null; // hovered square
  let hoverReply = null; // {key, reply}
  let armed = null; // the play a tap previewed (a touch screen has no hover): a second tap plays it
  let shownArmed = null; // the armed play whose preview was last scrolled into view
  let mulliganPick = new Set();
  let prevAnalysis = null; // analysis before the latest change (for the odds deltas)
  let curAnalysis = null;
  let lastSeq = null;
  const cache = new Map(); // seq:key -> promise of reply
  let measureTimer = [];
  let drawing = false; // a redraw replaces the squares: their blur is not the player's
  let settleEnd = 0; // when the measurement animation of the last new state ends

  const legal = () => (last && last.legal) || [];
  const mine = () => legal().length > 0;
  const view = () => last.view;
  const hand = () => view().hand || [];
  const legalPlays = (c) => legal().filter((a) => a.card === c && Array.isArray(a.squares));
  const canDiscard = (c) => legal().some((a) => a.card === c && a.discard === true);

  function actionFor(sq) {
    if (!card) return null;
    if (card === "CX") return control === null ? null : (sq === control ? null : { card: "CX", squares: [control, sq] });
    return { card, squares: [sq] };
  }
  function legalSquares() {
    if (!card) return new Set();
    const plays = legalPlays(card);
    if (card === "CX") {
      if (control === null) return new Set(plays.map((a) => a.squares[0]));
      return new Set(plays.filter((a) => a.squares[0] === control).map((a) => a.squares[1]));
    }
    return new Set(plays.map((a) => a.squares[0]));
  }
  function isLegal(action) { return !!action && legal().some((a) => actKey(a) === actKey(action)); }

  function requestPreview(action) {
    if (!preview) return null;
    const key = `${last.seq}:${actKey(action)}`;
    if (!cache.has(key)) cache.set(key, Promise.resolve(preview(action)).catch(() => ({ ok: false, code: "offline", message: _("No preview (not connected).") })));
    return cache.get(key);
  }

  // ------------------------------------------------------------ hover & preview

  // the armed play (a tap's) is the one previewed: a preview of another square (a hover, a focus:
  // the keyboard's, or the page's own when it puts the focus back after a new state) disarms it,
  // so that one tap never plays what the board is not showing
  function disarmUnless(sq) {
    const action = sq === null ? null : actionFor(sq);
    if (armed && !(action && actKey(action) === armed)) { armed = null; promptChanged(); }
  }
  function onHover(sq) {
    if (hover === sq) return;
    disarmUnless(sq);
    hover = sq;
    hoverReply = null;
    if (!card || !mine()) { drawBoard(false); renderPreview(); return; }
    const action = actionFor(sq);
    drawBoard(false);
    renderPreview();
    if (!action) return;
    const key = actKey(action);
    const p = requestPreview(action);
    if (!p) return;
    p.then((reply) => {
      if (hover !== sq || !actionFor(sq) || actKey(actionFor(sq)) !== key) return;
      hoverReply = { key, reply };
      drawBoard(false);
      renderPreview();
    });
  }
  function onLeave() {
    if (hover === null) return;
    disarmUnless(null);
    hover = null;
    hoverReply = null;
    drawBoard(false);
    renderPreview();
  }

  function reasonFor(sq) {
    if (!card) return "";
    if (card === "CX" && control === null) {
      return cxWhy(sq) ? tr("Square %(square)s cannot be the control of a CX now: %(why)s", { square: sq, why: cxWhy(sq) }) : tr("Square %(square)s cannot be the control of a CX now.", { square: sq });
    }
    return tr("%(card)s cannot be played on square %(square)s.", { card, square: sq });
  }
  function cxWhy(sq) {
    const cell = view().board.squares[sq - 1];
    if (cell.partner) return tr("it is part of a pair (with square %(square)s): a CX can only join it with its partner", { square: cell.partner });
    if ((cell.members || []).some((m) => m.decoration)) return _("the tile is decorated; CX acts only on undecorated tiles");
    return "";
  }

  let rendering = false, previewSaid = "";
  function renderPreview() {
    drawPreviewBox();
    const text = previewBox.textContent.replace(/\s+/g, " ").trim();
    if (!rendering && text && text !== previewSaid) say(text);
    previewSaid = text;
  }
  function drawPreviewBox() {
    previewBox.replaceChildren();
    previewBox.className = "qtris-preview";
    if (!last || !mine() || !card) {
      if (last && mine() && view().phase === "operations") previewBox.append(h("p", { class: "muted" }, _("Pick a card from your hand, then point at a square to see what it would do.")));
      return;
    }
    if (hover === null) {
      previewBox.append(h("p", { class: "muted" }, card === "CX" && control !== null
        ? tr("CX: control on square %(square)s. Point at a target square to preview, click to play.", { square: control })
        : card === "CX" ? _("CX: click the control square first.") : tr("%(card)s: point at a square to preview, click to play it.", { card })));
      return;
    }
    if (card === "CX" && (hover === control || (control === null && legalSquares().has(hover)))) {
      // a correct first step of a two-square play: a neutral prompt, not an error
      const first = hover !== control;
      previewBox.classList.add("step");
      previewBox.append(h("div", { class: "step-prompt", "data-testid": "step-prompt" },
        h("h3", {}, first ? STEP_TEXT.controlTitle(hover) : STEP_TEXT.isControlTitle(hover)),
        h("p", {}, first ? STEP_TEXT.control(hover) : STEP_TEXT.isControl)));
      return;
    }
    const action = actionFor(hover);
    const ok = isLegal(action);
    if (!ok) {
      const msg = hoverReply && !hoverReply.reply.ok ? hoverReply.reply.message : reasonFor(hover);
      previewBox.classList.add("illegal");
      previewBox.append(h("p", { class: "illegal-reason", "data-testid": "illegal-reason" }, tr("Not allowed: %(reason)s", { reason: msg })));
      return;
    }
    if (!hoverReply) {
      previewBox.append(h("p", { class: "muted" }, preview ? _("Previewing…") : _("Click to play.")));
      if (armed === actKey(action)) previewBox.append(confirmRow(action));
      return;
    }
    const reply = hoverReply.reply;
    if (!reply.ok) { previewBox.classList.add("illegal"); previewBox.append(h("p", { class: "illegal-reason" }, tr("Not allowed: %(reason)s", { reason: reply.message }))); return; }
    const r = reply.result;
    const box = h("div", { class: "preview-result", "data-testid": "preview-result" });
    box.append(h("h3", {}, card === "CX" ? tr("Preview: %(card)s control %(control)s → target %(target)s", { card, control: action.squares[0], target: action.squares[1] })
      : tr("Preview: %(card)s on square %(square)s", { card, square: action.squares[0] })));
    for (const ch of (r.explain && r.explain.changes) || []) {
      box.append(h("div", { class: "pv-change" }, `□${ch.square}: ${ch.before} → `, h("strong", {}, ch.after),
        last.analysis ? ` · P(white) ${pct(ch.p_white_before)} → ${pct(ch.p_white_after)}` : ""));
    }
    if (last.analysis && r.delta) {
      const v = view();
      const me = v.side;
      const d = r.delta, a = r.analysis;
      if (a.p_win_sides && me !== null && me !== undefined) {
        box.append(h("div", { class: "pv-odds" }, _("Your win chance:") + " ", h("strong", {}, pct(a.p_win_sides[me])),
          h("span", { class: `delta ${d.p_win_sides[me] >= 0 ? "up" : "down"}` }, ` (${signed(d.p_win_sides[me])})`),
          " · " + _("your expected qtris:") + " ", h("strong", {}, a.expected_scores[me].toFixed(2)),
          h("span", { class: `delta ${d.expected_scores[me] >= 0 ? "up" : "down"}` }, ` (${signed(d.expected_scores[me], "", 1)})`)));
      } else {
        box.append(h("div", { class: "pv-odds" }, tr("P(white wins) %(white)s (%(dwhite)s) · P(black wins) %(black)s (%(dblack)s)", { white: pct(a.p_win.white), dwhite: signed(d.p_win.white), black: pct(a.p_win.black), dblack: signed(d.p_win.black) })));
      }
    }
    if (armed === actKey(action)) box.append(confirmRow(action));
    else box.append(h("p", { class: "muted small" }, _("Click the square to play it.")));
    previewBox.append(box);
    // a tap's preview: on a phone it sits under the hand, brought into view once
    if (armed === actKey(action) && shownArmed !== armed) {
      shownArmed = armed;
      previewBox.scrollIntoView({ block: "nearest" });
    }
  }

  // a tapped play: "tap again or press Play"
  function tapAgainText(action) {
    return action.card === "CX"
      ? tr("Tap square %(square)s again, or press Play, to play CX (control %(control)s).", { square: action.squares[1], control: action.squares[0] })
      : tr("Tap square %(square)s again, or press Play, to play %(card)s.", { square: action.squares[0], card: action.card });
  }
  function confirmRow(action) {
    return h("div", { class: "qtris-confirm" },
      h("p", { class: "tap-again" }, tapAgainText(action)),
      h("button", { type: "button", class: "button primary", "data-testid": "confirm-play", onclick: () => playNow(action) }, _("Play")));
  }
  function playNow(action) {
    if (!isLegal(action)) return;
    card = null; control = null; hover = null; hoverReply = null; armed = null;
    act(action);
    drawBoard(false); renderPreview(); renderHand();
  }

  // ------------------------------------------------------------ clicking

  // tap: a finger's click (its first tap on a target previews the play, a second plays it)
  function clickSquare(sq, tap = false) {
    if (!last || !mine() || !card) return;
    if (card === "CX" && control === null) {
      if (legalSquares().has(sq)) { control = sq; hoverReply = null; drawBoard(false); renderPreview(); renderHand(); promptChanged(); }
      return;
    }
    if (card === "CX" && sq === control) { control = null; armed = null; drawBoard(false); renderPreview(); promptChanged(); return; }
    const action = actionFor(sq);
    if (!isLegal(action)) return;
    if (tap && armed !== actKey(action)) {
      armed = actKey(action);
      hover = null;
      onHover(sq);
      promptChanged();
      return;
    }
    playNow(action);
  }
  function pickCard(c) {
    if (card === c) { card = null; control = null; } else { card = c; control = null; }
    hoverReply = null;
    armed = null;
    drawBoard(false); renderHand(); renderPreview();
    promptChanged();
  }

  // ------------------------------------------------------------ drawing the board

  function drawBoard(animate) {
    const v = view();
    const cells = v.board.squares;
    const active = document.activeElement;
    const focused = active && board.contains(active) ? Number(active.dataset.square) : null;
    drawing = true;
    board.replaceChildren();
    const targets = mine() && card ? legalSquares() : new Set();
    const an = last.analysis;
    const finalBits = v.final_board;
    const measureEvents = (last.events || []).filter((e) => e.type === "measure");
    const measureOrder = new Map();
    const rolls = new Map();
    (v.events || []).filter((e) => e.type === "measure").forEach((e) => e.squares.forEach((s) => rolls.set(s, e)));
    if (animate) measureEvents.forEach((e, i) => e.squares.forEach((s) => measureOrder.set(s, i)));
    // preview: the squares the hovered play would change
    let ghost = null;
    if (hoverReply && hoverReply.reply.ok) {
      const r = hoverReply.reply.result;
      const touched = new Set(((r.explain && r.explain.changes) || []).map((c) => c.square));
      ghost = { squares: r.board.squares, touched, analysis: r.analysis };
    }
    const layerLinks = svg("g", { class: "links" });
    for (const cell of cells) {
      const sq = cell.square;
      const o = origin(sq);
      const c = centre(sq);
      const classes = ["sq"];
      if (card && mine() && control !== sq) classes.push(targets.has(sq) ? "target" : "illegal");
      if (control === sq) classes.push("control");
      if (hover === sq) classes.push("hover");
      const g = svg("g", { class: classes.join(" "), "data-square": sq, tabindex: targets.has(sq) ? 0 : -1 });
      g.append(svg("rect", { x: o.x + 3, y: o.y + 3, width: CELL - 6, height: CELL - 6, rx: 12, class: "sq-bg" }));
      if (finalBits) {
        const col = finalBits[sq - 1] === 0 ? "W" : "B";
        const t = svg("g", { class: "measured" + (measureOrder.has(sq) ? " appear" : "") });
        if (measureOrder.has(sq)) t.style.animationDelay = `${measureOrder.get(sq) * 0.55}s`;
        drawSingle(t, col, c.x, c.y, R);
        const e = rolls.get(sq);
        if (e && e.d100) t.append(svg("text", { x: o.x + 12, y: o.y + 22, class: "roll" }, `d100: ${e.d100}`));
        g.append(t);
      } else if (ghost && ghost.touched.has(sq)) {
        const was = svg("g", { class: "was" });
        drawSquareTiles(was, cell, o.x + 30, o.y + 30, { r: 18 });
        g.append(was);
        const gh = svg("g", { class: "ghost", "data-testid": "ghost" });
        drawSquareTiles(gh, ghost.squares[sq - 1], c.x + 6, c.y + 4, { r: R * 0.92 });
        g.append(gh);
      } else {
        drawSquareTiles(g, cell, c.x, c.y);
      }
      // P(white) on the square (only with the odds)
      if (an && !finalBits) {
        const p = ghost && ghost.touched.has(sq) ? ghost.analysis.p_white[sq - 1] : an.p_white[sq - 1];
        const bw = CELL - 36;
        g.append(svg("rect", { x: o.x + 18, y: o.y + CELL - 22, width: bw, height: 8, rx: 4, class: "pw-track" }));
        g.append(svg("rect", { x: o.x + 18, y: o.y + CELL - 22, width: Math.max(0, bw * p), height: 8, rx: 4, class: "pw-bar" }));
        g.append(svg("text", { x: o.x + 18, y: o.y + CELL - 28, class: "pw-text" + (ghost && ghost.touched.has(sq) ? " changed" : ""), "data-pwhite": sq }, `○ ${pct(p)}`));
      }
      g.append(svg("text", { x: o.x + CELL - 12, y: o.y + 22, class: "sq-num", "text-anchor": "end" }, String(sq)));
      if (control === sq) g.append(svg("text", { x: o.x + 12, y: o.y + 22, class: "cx-label" }, _("control")));
      const label = tr("Square %(square)s: %(tiles)s", { square: sq, tiles: tileWords(cell) }) + (control === sq ? " — " + _("the control of your CX") : card && mine() && !targets.has(sq) ? ` — ${reasonFor(sq)}` : "");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", label);
      g.append(svg("title", {}, label));
      g.addEventListener("keydown", (e) => onKey(e, sq));
      // a focused square previews exactly like a hovered one
      g.addEventListener("focus", () => { if (last && !pressing() && !drawing) onHover(sq); });
      // leaving the board by keyboard ends the preview (moving to another square replaces it)
      // (a tapped preview stays while its Play button is pressed)
      g.addEventListener("blur", () => { if (!drawing) setTimeout(() => { if (last && hover === sq && !armed && !board.contains(document.activeElement)) onLeave(); }); });
      board.append(g);
      // pair links (drawn once, from the lower square)
      if (!finalBits && cell.partner && cell.partner > sq) {
        const a = centre(sq), b = centre(cell.partner);
        const m = cell.members[0];
        const isPair = m.kind === "pair";
        const hdeco = isPair && m.decoration === "H";
        const mx = (a.x + b.x) / 2 + (b.y - a.y) * 0.15, my = (a.y + b.y) / 2 - (b.x - a.x) * 0.15;
        layerLinks.append(svg("path", { d: `M${a.x},${a.y} Q${mx},${my} ${b.x},${b.y}`, class: `link ${isPair ? "pair" : "mixture"}${hdeco ? " h" : ""}`, "data-link": `${sq}-${cell.partner}` }));
      }
    }
    board.append(layerLinks);
    for (let k = 1; k < 3; k++) {
      board.append(svg("line", { x1: k * CELL, y1: 0, x2: k * CELL, y2: 3 * CELL, class: "grid" }));
      board.append(svg("line", { x1: 0, y1: k * CELL, x2: 3 * CELL, y2: k * CELL, class: "grid" }));
    }
    if (finalBits) {
      const delay = animate ? measureEvents.length * 0.55 : 0;
      for (const line of LINES) {
        const bits = line.map((s) => finalBits[s - 1]);
        if (bits.every((b) => b === bits[0])) {
          const a = centre(line[0]), b = centre(line[2]);
          const ln = svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `score-line ${bits[0] === 0 ? "white" : "black"}` + (animate ? " appear" : ""), "data-line": line.join("") });
          ln.style.animationDelay = `${delay}s`;
          board.append(ln);
        }
      }
    }
    if (focused) { const g = board.querySelector(`g.sq[data-square="${focused}"]`); if (g) g.focus({ preventScroll: true }); }
    drawing = false;
  }

  // keyboard: arrows walk the 3×3 board, Enter / Space click, Escape puts the card back
  function onKey(e, sq) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickSquare(sq); return; }
    if (e.key === "Escape" && card) { e.preventDefault(); const c = card; pickCard(c); focusCard(c); return; }
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 }[e.key];
    if (!step) return;
    e.preventDefault();
    const col = (sq - 1) % 3;
    if ((step === -1 && col === 0) || (step === 1 && col === 2) || sq + step < 1 || sq + step > 9) return;
    const g = board.querySelector(`g.sq[data-square="${sq + step}"]`);
    if (g) g.focus();
  }
  function focusBoard() {
    const g = board.querySelector("g.sq.target") || board.querySelector("g.sq");
    if (g) g.focus();
  }
  function focusCard(c) {
    const b = handBox.querySelector(`.qcard[data-card="${c}"]`);
    if (b) b.focus();
  }

  // ------------------------------------------------------------ side panels

  // a side with the students who play it: "Alice — Zoë" (the seats' names come with the message)
  function sideName(v, s) {
    const side = (v.side_names || [])[s] || tr("side %(n)s", { n: s + 1 });
    const who = ((last && last.seats) || []).filter((x) => (v.seat_sides || [])[x.index] === s).map((x) => x.name);
    return who.length ? `${side} — ${who.join(" & ")}` : side;
  }
  function colourOf(v, s) { return v.colors ? v.colors[s] : null; }

  function renderControls() {
    const v = view();
    controls.replaceChildren();
    const head = h("div", { class: "qtris-status" });
    if (v.turn) head.append(h("span", { class: "pill" }, nt("Turn %(number)s / %(total)s: %(side)s · %(n)s play left", "Turn %(number)s / %(total)s: %(side)s · %(n)s plays left", v.turn.plays_left, { number: v.turn.number, total: v.turn.total, side: sideName(v, v.turn.side) })));
    else head.append(h("span", { class: "pill" }, { roll: _("Rolling for the first player"), color: _("Choosing colours"), mulligan: _("Mulligan"), over: _("Game over") }[v.phase] || v.phase));
    if (v.colors) head.append(h("span", { class: "pill" }, v.side_names.map((n, s) => `${sideName(v, s)}: ${v.colors[s] === "white" ? "○ " + _("White") : "● " + _("Black")}`).join(" · ")));
    head.append(h("span", { class: "pill" }, tr("deck %(n)s", { n: v.deck_size })));
    controls.append(head);
    const L = legal();
    if (!L.length) return;
    const bar = h("div", { class: "qtris-actions" });
    if (L.some((a) => a.roll)) bar.append(h("button", { class: "button big", "data-action": "roll", onclick: () => act({ roll: true }) }, _("Roll the d10")));
    if (L.some((a) => a.color)) {
      bar.append(h("span", {}, _("You rolled highest: choose your colour") + " "));
      bar.append(h("button", { class: "button big choose-white", "data-action": "color-white", onclick: () => act({ color: "white" }) }, "○ " + _("Play White")));
      bar.append(h("button", { class: "button big choose-black", "data-action": "color-black", onclick: () => act({ color: "black" }) }, "● " + _("Play Black")));
    }
    if (L.some((a) => a.mulligan)) {
      bar.append(h("span", {}, _("Mulligan: tick the cards to swap (once), then") + " "));
      bar.append(h("button", { class: "button", "data-action": "mulligan", onclick: () => { const pick = [...mulliganPick].sort((a, b) => a - b); mulliganPick = new Set(); act({ mulligan: pick }); } },
        mulliganPick.size ? nt("Swap %(n)s card", "Swap %(n)s cards", mulliganPick.size) : _("Keep my hand")));
    }
    if (L.some((a) => a.card === "I")) bar.append(h("button", { class: "button secondary", "data-action": "pass", onclick: () => act({ card: "I" }) }, _("Play I (pass)")));
    if (card && canDiscard(card)) bar.append(h("button", { class: "button secondary", "data-action": "discard", onclick: () => { const c = card; card = null; act({ card: c, discard: true }); } }, tr("Discard %(card)s (no legal target)", { card })));
    const eve = L.filter((a) => a.eve_measure);
    if (eve.length) bar.append(eveForm(eve));
    controls.append(bar);
  }

  function eveForm(eve) {
    const targets = [...new Set(eve.map((a) => a.eve_measure.squares.join("+")))];
    const bases = [...new Set(eve.map((a) => a.eve_measure.basis))];
    const form = h("div", { class: "eve-form" }, h("strong", {}, _("Eve: measure once per set (discard 2 cards)")));
    const tSel = h("select", { "data-eve": "squares" }, targets.map((t) => h("option", { value: t }, nt("square %(squares)s", "squares %(squares)s", t.split("+").length, { squares: t.replace("+", " & ") }))));
    const bSel = h("select", { "data-eve": "basis" }, bases.map((b) => h("option", { value: b }, BASIS_WORDS[b] || b)));
    const cards = hand();
    const c1 = h("select", { "data-eve": "c1" }, cards.map((c, i) => h("option", { value: i }, c)));
    const c2 = h("select", { "data-eve": "c2" }, cards.map((c, i) => h("option", { value: i, selected: i === 1 }, c)));
    const go = h("button", { class: "button", "data-action": "eve-measure", onclick: () => {
      const i1 = Number(c1.value), i2 = Number(c2.value);
      if (i1 === i2) return;
      const action = { eve_measure: { squares: tSel.value.split("+").map(Number), basis: bSel.value }, discard: [cards[i1], cards[i2]].sort() };
      const match = eve.find((a) => actKey(a.eve_measure) === actKey(action.eve_measure) && [...a.discard].sort().join() === action.discard.join());
      if (match) act(match);
    } }, _("Measure"));
    form.append(tSel, bSel, h("span", {}, " " + _("discard") + " "), c1, c2, go);
    return form;
  }

  function renderHand() {
    const v = view();
    // a redraw keeps the keyboard focus on the same card
    const active = document.activeElement;
    const focusedCard = active && handBox.contains(active) && active.dataset.index !== undefined ? active.dataset.index : null;
    handBox.replaceChildren();
    if (!v.hand) { // the teacher / a spectator: no hand
      handBox.append(h("p", { class: "muted" }, tr("Hands: %(hands)s", { hands: v.side_names.map((n, s) => tr("%(side)s %(n)s cards", { side: sideName(v, s), n: v.hand_sizes[s] })).join(" · ") })));
      return;
    }
    const mull = legal().some((a) => a.mulligan);
    const ops = v.phase === "operations" && mine();
    handBox.append(h("h2", {}, tr("Your hand (%(side)s)", { side: sideName(v, v.side) })));
    const row = h("div", { class: "qtris-hand" });
    v.hand.forEach((c, i) => {
      const playable = ops && (legalPlays(c).length > 0 || c === "I");
      const discardOnly = ops && canDiscard(c);
      const cls = ["qcard", `card-${c}`];
      if (card === c) cls.push("picked");
      if (ops && !playable && !discardOnly) cls.push("dead");
      if (discardOnly) cls.push("no-target");
      if (mull && mulliganPick.has(i)) cls.push("swap");
      const b = h("button", { class: cls.join(" "), "data-card": c, "data-index": i, title: CARD_TITLES[c] || c },
        h("span", { class: "qcard-name" }, c === "CX" ? "C" : c, c === "CX" ? h("sub", {}, "X") : null),
        h("span", { class: "qcard-sub" }, CARD_TITLES[c] || ""));
      if (mull) {
        const box = h("input", { type: "checkbox", "data-mulligan": i, checked: mulliganPick.has(i) });
        box.addEventListener("change", () => { if (box.checked) mulliganPick.add(i); else mulliganPick.delete(i); renderControls(); renderHand(); });
        const lab = h("label", { class: "qcard-wrap" }, b, box, " " + _("swap"));
        b.addEventListener("click", () => { box.click(); });
        row.append(lab);
      } else {
        if (ops) b.addEventListener("click", (e) => {
          if (c === "I") { act({ card: "I" }); return; }
          pickCard(c);
          renderControls();
          // chosen by keyboard (Enter / Space: a click without a pointer): on to the board
          if (e.detail === 0) { if (card === c && legalSquares().size) focusBoard(); else focusCard(c); }
        });
        else b.disabled = true;
        row.append(b);
      }
    });
    handBox.append(row);
    if (focusedCard !== null) { const b = row.querySelector(`.qcard[data-index="${focusedCard}"]`); if (b && !b.disabled) b.focus({ preventScroll: true }); }
    if (ops && card && canDiscard(card)) handBox.append(h("p", { class: "muted" }, tr("%(card)s has no legal target on this board: you may discard it.", { card })));
  }

  function renderOdds() {
    const v = view();
    const an = last.analysis;
    odds.replaceChildren();
    odds.classList.toggle("hidden", !an);
    if (!an) return;
    odds.append(h("h2", {}, v.final_board ? _("Odds just before the measurement") : _("Live odds")));
    const prev = prevAnalysis;
    const t = h("table", { class: "odds-table" });
    t.append(h("tr", {}, h("th", {}, ""), h("th", {}, _("wins")), h("th", {}, _("expected qtris"))));
    if (v.colors && an.p_win_sides && v.n_sides === 2) {
      for (let s = 0; s < v.n_sides; s++) {
        const dw = prev && prev.p_win_sides ? an.p_win_sides[s] - prev.p_win_sides[s] : 0;
        const de = prev && prev.expected_scores ? an.expected_scores[s] - prev.expected_scores[s] : 0;
        t.append(h("tr", { "data-side": s, class: v.side === s ? "me" : "" },
          h("td", {}, `${v.colors[s] === "white" ? "○" : "●"} ${sideName(v, s)}`),
          h("td", { "data-odds": `win-${s}` }, pct(an.p_win_sides[s]), Math.abs(dw) > 0.0005 ? h("span", { class: `delta ${dw > 0 ? "up" : "down"}` }, ` ${signed(dw)}`) : ""),
          h("td", {}, an.expected_scores[s].toFixed(2), Math.abs(de) > 0.005 ? h("span", { class: `delta ${de > 0 ? "up" : "down"}` }, ` ${signed(de, "", 1)}`) : "")));
      }
    } else {
      for (const col of ["white", "black"]) {
        t.append(h("tr", {}, h("td", {}, col === "white" ? "○ " + _("White") : "● " + _("Black")), h("td", { "data-odds": `win-${col}` }, pct(an.p_win[col])), h("td", {}, an.expected_qtris[col].toFixed(2))));
      }
      if (an.eve) t.append(h("tr", {}, h("td", {}, _("Eve scores")), h("td", {}, pct(an.eve.p_eve_point)), h("td", {}, `A&B ${an.eve.expected_alice_bob_points.toFixed(2)}`)));
    }
    t.append(h("tr", {}, h("td", {}, _("tie")), h("td", {}, pct(an.p_win.tie)), h("td", {}, "")));
    odds.append(t);
    odds.append(h("p", { class: "muted small" }, _("Exact odds over all 512 ways the board can be measured. The ○ percentage on a square = the chance it comes out white.")));
  }

  function renderMeasure() {
    const v = view();
    measureBox.replaceChildren();
    const rolls = (v.events || []).filter((e) => e.type === "measure");
    if (!v.final_board && !(v.sets && v.sets.length)) return;
    if (v.final_board) {
      measureBox.append(h("h2", {}, _("Measurement")));
      const ol = h("ol", { class: "rolls" });
      rolls.forEach((e, i) => {
        const li = h("li", { class: "roll-line" + (last._animate ? " appear" : "") }, e.text);
        if (last._animate) li.style.animationDelay = `${i * 0.55}s`;
        ol.append(li);
      });
      measureBox.append(ol);
    }
    const lines = v.lines || (last.outcome && last.outcome.lines);
    const settle = settleLeft();
    if (lines && settle) {
      // the score waits until every square has been measured on the board
      const wait = h("p", { class: "muted measuring", "data-testid": "measuring" }, STEP_TEXT.measuring);
      measureBox.append(wait);
      measureTimer.push(setTimeout(() => { wait.remove(); showScore(v, lines); }, settle));
    } else if (lines) showScore(v, lines);
    if (v.sets && v.sets.length && v.n_sides === 3) measureBox.append(h("p", {}, tr("Sets: %(sets)s — total %(total)s", { sets: v.sets.map((s) => `#${s.set}: A&B +${s.alice_bob_points}, Eve +${s.eve_points}`).join(" · "), total: v.scores.join("–") })));
  }

  function showScore(v, lines) {
    {
      const sc = h("div", { class: "final-score", "data-testid": "final-score" },
        h("span", { class: "score white" }, "○ " + tr("White %(n)s qtris", { n: lines.white })), " · ", h("span", { class: "score black" }, "● " + tr("Black %(n)s qtris", { n: lines.black })));
      if (last.outcome) {
        const o = last.outcome;
        const who = o.winning_sides ? o.winning_sides.map((s) => sideName(v, s)).join(" & ") : "";
        sc.append(h("div", { class: "verdict" }, o.tie ? _("A tie!") : (o.winning_sides.length > 1 ? tr("%(names)s win!", { names: who }) : tr("%(name)s wins!", { name: who })) + ` (${o.scores.join("–")})`));
      }
      measureBox.append(sc);
    }
  }

  function renderExplain() {
    const v = view();
    explainBox.replaceChildren();
    const plays = (v.events || []).filter((e) => e.type === "play" || e.type === "discard" || e.type === "noise" || e.type === "eve_measure");
    const e = plays[plays.length - 1];
    explainBox.append(h("h2", {}, _("What is happening")));
    if (!e) { explainBox.append(h("p", { class: "muted" }, _("No card has been played yet. Each card is a quantum gate: it changes the tiles, and the odds change with them."))); return; }
    explainBox.append(h("p", { class: "ex-title" }, e.text));
    const x = e.explain;
    // Eve's measurement: the engine says what it did (the squares collapsed onto the basis she chose)
    if (e.type === "eve_measure") { if (x && x.text) explainBox.append(h("p", { class: "ex-text" }, x.text)); return; }
    if (!x) {
      if (e.type === "noise" && e.square) explainBox.append(h("p", {}, _("Noise: a square was measured without anybody looking. A kitten becomes a bag of tiles — white or black, we just don't know which: a mixture. No card played on that square alone can turn a mixture back into a sure colour; a CX can only move the uncertainty to another square, never make it vanish.")));
      return;
    }
    const body = h("div", { class: "ex-body" });
    body.append(h("div", { class: "ex-gate" }, h("span", { class: "gate-name" }, x.frame ? `U·${x.gate}·U` : x.gate), matrixEl(x.matrix)));
    if (x.before) {
      const kets = h("div", { class: "ex-kets" });
      kets.append(h("div", {}, h("span", { class: "muted" }, _("before") + " "), h("code", {}, ketWords(x.before))));
      kets.append(h("div", {}, h("span", { class: "muted" }, _("after") + "  "), h("code", {}, ketWords(x.after))));
      body.append(kets);
    }
    explainBox.append(body);
    explainBox.append(h("p", { class: "ex-text" }, x.text));
  }

  function matrixEl(m) {
    const t = h("table", { class: "matrix" + (m.length > 2 ? " four" : "") });
    for (const row of m) t.append(h("tr", {}, row.map((c) => h("td", {}, c))));
    return t;
  }

  function settleLeft() { return Math.max(0, settleEnd - performance.now()); }
  function clearTimers() { measureTimer.forEach(clearTimeout); measureTimer = []; }

  return {
    render(msg, { animate } = {}) {
      clearTimers();
      const fresh = !last || msg.seq !== lastSeq || msg.replay;
      if (fresh && msg.analysis) {
        if (curAnalysis && msg.seq !== lastSeq) prevAnalysis = curAnalysis;
        curAnalysis = msg.analysis;
      }
      if (msg.seq !== lastSeq) { cache.clear(); hoverReply = null; armed = null; }
      lastSeq = msg.seq;
      last = msg;
      wrap.dataset.seq = msg.seq ?? "";
      wrap.dataset.phase = msg.view.phase;
      last._animate = !!animate;
      if (animate) {
        const measured = msg.view.final_board ? (msg.events || []).filter((e) => e.type === "measure").length : 0;
        settleEnd = measured && !REDUCED_MOTION.matches ? performance.now() + measured * MEASURE_STEP_MS + LINE_FADE_MS : 0;
      }
      const L = legal();
      if (card && !(view().hand || []).includes(card)) { card = null; control = null; }
      if (card && !L.some((a) => a.card === card)) { card = null; control = null; }
      if (!L.some((a) => a.mulligan)) mulliganPick = new Set();
      drawBoard(!!animate);
      renderControls();
      renderHand();
      renderOdds();
      renderMeasure();
      renderExplain();
      rendering = true;
      renderPreview();
      rendering = false;
      if (hover !== null && card) { const sq = hover; hover = null; onHover(sq); }
    },
    // after a move, the keyboard focus goes back to the hand (the next card to play), else to
    // the first of the turn's buttons (roll, colour, mulligan)
    focusTarget() {
      return handBox.querySelector(".qcard:not([disabled]):not(.dead)") || controls.querySelector("button:not([disabled])");
    },
    // how long the last render's animation runs: the page shows the result after it
    settleMs() { return settleLeft(); },
    // the sentences a screen reader hears for a new state: what was played and, with the odds,
    // every square whose chance of coming out white changed
    announce(msg) {
      const said = (msg.events || []).map((e) => e.text).filter(Boolean);
      const now = msg.analysis, before = prevAnalysis;
      if (now && before && now !== before && !msg.view.final_board) {
        now.p_white.forEach((p, i) => {
          if (Math.abs(p - before.p_white[i]) > 0.0005) said.push(tr("square %(square)s is now white with probability %(p)s", { square: i + 1, p: pct(p) }));
        });
      }
      return said;
    },
    seatLabel(seat, msg) {
      const v = msg.view;
      const s = (v.seat_sides || [])[seat];
      if (s === undefined) return "";
      const col = v.colors ? (v.colors[s] === "white" ? "○" : "●") : "";
      return `${col} ${(v.side_names || [])[s] || ""}`.trim();
    },
    prompt(msg) {
      const L = msg.legal || [];
      if (L.some((a) => a.roll)) return _("Roll the d10 to see who starts.");
      if (L.some((a) => a.color)) return _("Choose White or Black.");
      if (L.some((a) => a.mulligan)) return _("Tick the cards you want to swap, or keep your hand.");
      if (L.some((a) => a.eve_measure)) return _("Play two cards, or measure a square.");
      if (!card) return _("Pick a card, then a square (hover to preview).");
      if (armed) return tapAgainText(JSON.parse(armed));
      if (card === "CX" && control === null) return _("CX: click the control square.");
      if (card === "CX") return tr("CX: control on square %(square)s; click the target square.", { square: control });
      return tr("Click a square to play %(card)s.", { card });
    },
  };
}

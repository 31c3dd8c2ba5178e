// Quantum tic-tac-toe board: spooky marks with subscripts, entanglement links, collapse choice
// with both outcomes previewed, the cascade animated, lines and scores.
import { _, tr } from "../js/i18n.js";
import { h, readableText, svg } from "../js/svg.js";
import { lastPointerType, pressWatch, tapped } from "../js/touch.js";
const CELL = 120;
const MARK = { X: "X", O: "O" };

const origin = (sq) => ({ x: ((sq - 1) % 3) * CELL, y: Math.floor((sq - 1) / 3) * CELL });
const centre = (sq) => { const o = origin(sq); return { x: o.x + CELL / 2, y: o.y + CELL / 2 }; };
// where the i-th spooky mark of a square sits (a 3x3 mini-grid)
function slot(sq, i) { const o = origin(sq); return { x: o.x + 22 + (i % 3) * 38, y: o.y + 28 + Math.floor(i / 3) * 36 }; }

function markText(player, move, x, y, size, cls) {
  const t = svg("text", { x, y, class: `mark ${player} ${cls}`, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central" });
  t.append(document.createTextNode(MARK[player]));
  const sub = svg("tspan", { dy: size * 0.25 }, String(move));
  // the move's number: never under 12 CSS px on screen (static/js/svg.js readableText)
  sub.style.fontSize = `max(${size * 0.45}px, calc(12.5px / var(--svg-scale, 1)))`;
  t.append(sub);
  return t;
}

// every sentence this board says, in one place (in the reader's language, static/js/i18n.js)
const TEXT = {
  first: (sq) => tr("First mark on square %(square)s: now pick the second square.", { square: sq }),
  unpicked: (sq) => tr("Square %(square)s is free again: pick the first square of your move.", { square: sq }),
  pickTwo: _("Pick two squares for your spooky marks."),
  lastMove: _("Last move: pick the open square."),
  classical: (sq, m) => tr("Square %(square)s is classical (%(mark)s is there for good): pick a square without a big mark.", { square: sq, mark: `${m.player}${m.move}` }),
  notYourTurn: (mark) => tr("It is %(mark)s's turn: wait for their move.", { mark }),
  notChooser: (mark) => tr("%(mark)s chooses where the cycle collapses: wait for their choice.", { mark }),
  notInCycle: (sq, squares) => tr("Square %(square)s is not a choice of this measurement: choose square %(a)s or %(b)s.", { square: sq, a: squares[0], b: squares[1] }),
  collapse: _("Choose where the cycle collapses (point at, focus or tap a square to preview)."),
  // a tap on a collapse choice previews it (a touch screen has no hover); a second tap chooses it
  tapAgain: (sq, outcome) => tr("Preview: %(outcome)s. Tap square %(square)s again to choose it.", { square: sq, outcome: outcome.map((p) => tr("%(mark)s lands on %(square)s", { mark: `${p.player}${p.move}`, square: p.square })).join(", ") }),
  spectator: _("You are watching this match."),
  over: _("The game is over."),
  // said to screen readers when a move arrives (built from the events' fields)
  placed: (player, a, b) => tr("%(player)s placed a spooky mark on %(a)s and %(b)s", { player, a, b }),
  lastSquare: (player, sq) => tr("%(player)s placed a classical mark on the last square, %(square)s", { player, square: sq }),
  cycle: (mark, squares, chooser) => tr("Measurement: %(mark)s closed the cycle of squares %(squares)s. %(chooser)s chooses where %(mark)s lands", { mark, squares: squares.join(", "), chooser }),
  collapsed: (player, mark, sq) => tr("%(player)s collapsed %(mark)s into square %(square)s", { player, mark, square: sq }),
  nowClassical: (sq, player, move) => tr("square %(square)s is now %(mark)s", { square: sq, mark: `${player}${move}` }),
  line: (player, squares) => tr("%(player)s has the line %(squares)s", { player, squares: squares.join(", ") }),
  winner: (player) => tr("Game over: %(player)s wins", { player }),
  draw: _("Game over: a draw"),
  // a collapse choice says what it would do (the preview a pointer sees on hover)
  choiceLabel: (outcome) => ". " + tr("Choose it and %(outcome)s", { outcome: outcome.map((p) => tr("%(mark)s lands on %(square)s", { mark: `${p.player}${p.move}`, square: p.square })).join(", ") }),
  cellLabel: (sq, cell) => cell.classical ? tr("Square %(square)s: %(mark)s, classical", { square: sq, mark: `${cell.classical.player}${cell.classical.move}` })
    : cell.spooky.length ? tr("Square %(square)s: %(marks)s spooky", { square: sq, marks: cell.spooky.map((m) => `${m.player}${m.move}`).join(", ") })
      : tr("Square %(square)s: empty", { square: sq }),
};
const CASCADE_STEP_MS = 350; // one classical mark after the other (matches the CSS delay)
const APPEAR_MS = 500;
// a reader who asks for less motion sees the collapse at once: nothing to wait for
const REDUCED_MOTION = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

export function createBoard(root, { act, promptChanged = () => {}, say: speak = () => {} }) {
  root.innerHTML = "";
  const wrap = document.createElement("div");
  wrap.className = "qttt";
  const boardCol = document.createElement("div");
  boardCol.className = "qttt-main";
  const hintBox = document.createElement("p");
  hintBox.className = "qttt-hint";
  hintBox.id = "qttt-hint";
  // the hint is shown here and heard through the page's one live region (``speak``)
  const board = readableText(svg("svg", { viewBox: `-6 -6 ${3 * CELL + 12} ${3 * CELL + 12}`, class: "qttt-board", role: "group", "aria-label": _("Quantum tic-tac-toe board") }));
  const side = document.createElement("div");
  side.className = "qttt-side";
  boardCol.append(hintBox, board);
  wrap.append(boardCol, side);
  root.append(wrap);
  let picked = null;
  let armed = null; // the collapse choice a tap previewed: a second tap on it chooses it
  let last = null;
  let previewSquare = null;
  let drawing = false; // a redraw replaces the squares: their blur is not the player's
  let settleEnd = 0; // when the collapse cascade of the last new state has been drawn
  // a finger or a button is down: the focus it brings is not a keyboard's (static/js/touch.js)
  const pressing = pressWatch(board);
  // clicks are delegated: on a touch screen the tap's own hover (a collapse preview) redraws the
  // squares between finger down and up, and the click then lands on the board, not the square
  board.addEventListener("click", (e) => {
    const direct = e.target.closest && e.target.closest("g.cell");
    const under = direct && direct.isConnected ? direct : document.elementFromPoint(e.clientX, e.clientY);
    const g = under && under.closest ? under.closest("g.cell") : null;
    if (g) click(Number(g.dataset.square), tapped(e));
  });

  function legalMoves(msg) { return (msg.legal || []).filter((a) => Array.isArray(a.squares)); }
  function legalCollapses(msg) { return (msg.legal || []).filter((a) => a.collapse !== undefined); }
  const markOfSeat = (seat) => (seat === 0 ? "X" : "O");
  const markOfMove = (move) => (move % 2 === 1 ? "X" : "O");

  function say(text, kind = "") {
    hintBox.textContent = text;
    hintBox.className = "qttt-hint" + (kind ? ` ${kind}` : "");
    if (kind) speak(text);  // what a click did (a step, a refusal); a new state's hint is the page's turn line
    if (kind === "step") promptChanged();
  }
  function prompt(msg) {
    const v = msg.view;
    if (msg.outcome || v.phase === "over") return TEXT.over;
    if (legalCollapses(msg).length) return armed !== null ? TEXT.tapAgain(armed, (v.collapse.previews || {})[String(armed)] || []) : TEXT.collapse;
    if (msg.seat === null || msg.seat === undefined) return TEXT.spectator;
    if (!legalMoves(msg).length) {
      const waiting = (msg.to_act || [])[0];
      if (v.collapse) return TEXT.notChooser(markOfSeat(v.collapse.chooser));
      return waiting === undefined ? "" : TEXT.notYourTurn(markOfSeat(waiting));
    }
    if (legalMoves(msg).some((a) => a.squares[0] === a.squares[1])) return TEXT.lastMove;
    return picked === null ? TEXT.pickTwo : TEXT.first(picked);
  }

  // why a click on a square did nothing (or null when it does something)
  function refusal(msg, sq) {
    const v = msg.view;
    if (msg.seat === null || msg.seat === undefined || msg.outcome) return prompt(msg);
    if (!(msg.to_act || []).includes(msg.seat)) {
      if (v.collapse) return TEXT.notChooser(markOfSeat(v.collapse.chooser));
      return TEXT.notYourTurn(markOfSeat((msg.to_act || [])[0]));
    }
    const collapses = legalCollapses(msg);
    if (collapses.length) return collapses.some((a) => a.collapse === sq) ? null : TEXT.notInCycle(sq, collapses.map((a) => a.collapse));
    const cell = v.board[sq - 1];
    if (cell.classical) return TEXT.classical(sq, cell.classical);
    return null;
  }

  // tap: the click was a finger's (the first tap on a collapse choice previews it)
  function click(sq, tap = false) {
    const msg = last;
    if (!msg) return;
    const why = refusal(msg, sq);
    if (why) { say(why, "refused"); return; }
    const collapses = legalCollapses(msg);
    if (collapses.length && tap && armed !== sq) {
      armed = sq;
      setPreview(sq);
      say(prompt(msg), "step");
      return;
    }
    if (collapses.length) { armed = null; act({ collapse: sq }); return; }
    const moves = legalMoves(msg);
    if (moves.some((a) => a.squares[0] === sq && a.squares[1] === sq)) { act({ squares: [sq, sq] }); return; }
    if (picked === null) {
      if (moves.some((a) => a.squares.includes(sq))) { picked = sq; say(TEXT.first(sq), "step"); }
    } else if (picked === sq) {
      picked = null;
      say(TEXT.unpicked(sq), "step");
    } else {
      const pair = [Math.min(picked, sq), Math.max(picked, sq)];
      if (moves.some((a) => a.squares[0] === pair[0] && a.squares[1] === pair[1])) { picked = null; act({ squares: pair }); return; }
      picked = sq;
      say(TEXT.first(sq), "step");
    }
    draw(false);
  }

  // arrow keys walk the 3×3 grid; Enter / Space act as a click
  function onKey(e, sq) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); click(sq); return; }
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 }[e.key];
    if (!step) return;
    e.preventDefault();
    const col = (sq - 1) % 3;
    if ((step === -1 && col === 0) || (step === 1 && col === 2)) return;
    const next = sq + step;
    if (next < 1 || next > 9) return;
    const g = board.querySelector(`[data-square="${next}"]`);
    if (g) g.focus();
  }

  function draw(animate) {
    const msg = last;
    const v = msg.view;
    const active = document.activeElement;
    const focused = active && board.contains(active) ? Number(active.dataset.square) : null;
    drawing = true;
    board.replaceChildren();
    const moves = legalMoves(msg);
    const collapses = legalCollapses(msg);
    const playable = new Set(moves.flatMap((a) => a.squares));
    const collapseSquares = new Set(collapses.map((a) => a.collapse));
    const justPlaced = new Map();
    if (animate) {
      for (const e of msg.events || []) if (e.type === "collapse") (e.placed || []).forEach((p, i) => justPlaced.set(p.square, i));
    }
    const preview = previewSquare !== null && v.collapse ? (v.collapse.previews || {})[String(previewSquare)] || [] : [];
    const previewAt = new Map(preview.map((p) => [p.square, p]));
    const cycle = new Set(v.collapse ? v.collapse.cycle || [] : []);

    for (const cell of v.board) {
      const sq = cell.square;
      const o = origin(sq);
      const classes = ["cell"];
      if (playable.has(sq)) classes.push("playable");
      if (picked === sq) classes.push("picked");
      if (collapseSquares.has(sq)) classes.push("choice");
      if (cycle.has(sq)) classes.push("in-cycle");
      const g = svg("g", { class: classes.join(" "), "data-square": sq, tabindex: playable.has(sq) || collapseSquares.has(sq) ? 0 : -1,
        role: "button", "aria-label": (picked === sq ? tr("%(square)s, picked", { square: TEXT.cellLabel(sq, cell) }) : TEXT.cellLabel(sq, cell))
          + (collapseSquares.has(sq) ? TEXT.choiceLabel((v.collapse.previews || {})[String(sq)] || []) : "") });
      g.append(svg("rect", { x: o.x + 3, y: o.y + 3, width: CELL - 6, height: CELL - 6, rx: 10 }));
      if (cell.classical) {
        const t = markText(cell.classical.player, cell.classical.move, o.x + CELL / 2, o.y + CELL / 2, 64, "classical");
        if (justPlaced.has(sq)) { t.classList.add("appear"); t.style.animationDelay = `${justPlaced.get(sq) * 0.35}s`; }
        g.append(t);
      } else {
        cell.spooky.forEach((m, i) => {
          const p = slot(sq, i);
          g.append(markText(m.player, m.move, p.x, p.y, 26, "spooky"));
        });
        if (previewAt.has(sq)) {
          const p = previewAt.get(sq);
          g.append(markText(p.player, p.move, o.x + CELL / 2, o.y + CELL / 2, 64, "ghost"));
        }
      }
      g.append(svg("text", { x: o.x + CELL - 12, y: o.y + CELL - 10, class: "sq-num", "text-anchor": "end" }, String(sq)));
      g.addEventListener("keydown", (e) => onKey(e, sq));
      if (collapseSquares.has(sq)) {
        g.addEventListener("mouseenter", () => setPreview(sq));
        g.addEventListener("mouseleave", leave);
        g.addEventListener("focus", () => { if (!pressing() && !drawing) setPreview(sq); });
        g.addEventListener("blur", () => { if (!drawing) setTimeout(() => { if (previewSquare === sq && !board.contains(document.activeElement)) setPreview(null); }); });
      }
      board.append(g);
    }
    // entanglement links: between the two spooky marks of every unresolved move
    for (const ent of v.entanglements || []) {
      const [a, b] = ent.squares;
      const ia = v.board[a - 1].spooky.findIndex((m) => m.move === ent.move);
      const ib = v.board[b - 1].spooky.findIndex((m) => m.move === ent.move);
      if (ia < 0 || ib < 0) continue;
      const p = slot(a, ia), q = slot(b, ib);
      const mx = (p.x + q.x) / 2 + (q.y - p.y) * 0.12, my = (p.y + q.y) / 2 - (q.x - p.x) * 0.12;
      board.append(svg("path", { d: `M${p.x},${p.y + 12} Q${mx},${my} ${q.x},${q.y + 12}`, class: `link ${ent.player}${cycle.has(a) && cycle.has(b) ? " cycle" : ""}`, "data-move": ent.move }));
    }
    // grid
    for (let k = 1; k < 3; k++) {
      board.append(svg("line", { x1: k * CELL, y1: 0, x2: k * CELL, y2: 3 * CELL, class: "grid" }));
      board.append(svg("line", { x1: 0, y1: k * CELL, x2: 3 * CELL, y2: k * CELL, class: "grid" }));
    }
    const lineDelay = justPlaced.size ? (justPlaced.size * CASCADE_STEP_MS) / 1000 : 0;
    for (const line of v.lines || []) {
      const a = centre(line.squares[0]), b = centre(line.squares[2]);
      const ln = svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `win-line ${line.player}${lineDelay ? " appear-late" : ""}` });
      if (lineDelay) ln.style.animationDelay = `${lineDelay}s`;
      board.append(ln);
    }
    if (focused) { const g = board.querySelector(`[data-square="${focused}"]`); if (g) g.focus({ preventScroll: true }); }
    drawing = false;
  }

  // a pointer leaving a choice ends its preview; a finger's compatibility mouseleave (some
  // browsers send one just after a tap) does not: the tap's preview stays until the next tap
  function leave() { if (lastPointerType() === "mouse") setPreview(null); }

  // hovering a choice previews its outcome on the board; the side panel is not rebuilt
  function setPreview(sq) {
    if (previewSquare === sq) return;
    previewSquare = sq;
    draw(false);
    side.querySelectorAll("[data-outcome]").forEach((box) => box.classList.toggle("hover", Number(box.dataset.outcome) === sq));
  }

  function renderSide() {
    const msg = last;
    const v = msg.view;
    side.replaceChildren();
    if (v.collapse) {
      const c = v.collapse;
      const mover = c.move % 2 === 1 ? "X" : "O";
      side.append(h("h2", {}, tr("Measurement! Move %(mark)s closed a cycle.", { mark: `${mover}${c.move}` })));
      const chooserIsMe = msg.seat !== null && msg.seat === c.chooser;
      side.append(h("p", {}, chooserIsMe ? tr("You choose where %(mark)s lands:", { mark: `${mover}${c.move}` }) : _("The other player chooses the outcome. The two possible outcomes:")));
      for (const sq of c.squares) {
        const outcome = (c.previews || {})[String(sq)] || [];
        const box = document.createElement("div");
        box.className = "outcome" + (previewSquare === sq ? " hover" : "");
        box.dataset.outcome = sq;
        box.append(h("strong", {}, tr("%(mark)s → square %(square)s", { mark: `${mover}${c.move}`, square: sq })));
        box.append(h("div", { class: "muted" }, outcome.map((p) => `${p.player}${p.move}→${p.square}`).join(", ")));
        if (legalCollapses(msg).some((a) => a.collapse === sq)) {
          const b = document.createElement("button");
          b.className = "button";
          b.textContent = tr("Choose square %(square)s", { square: sq });
          b.dataset.collapse = sq;
          b.addEventListener("click", () => act({ collapse: sq }));
          b.addEventListener("mouseenter", () => setPreview(sq));
          b.addEventListener("mouseleave", leave);
          b.addEventListener("focus", () => setPreview(sq));
          b.addEventListener("blur", () => setPreview(null));
          box.append(b);
        }
        side.append(box);
      }
    } else if (v.phase !== "over") {
      side.append(h("h2", {}, tr("Move %(n)s", { n: v.move_number })));
      side.append(h("p", { class: "muted" }, _("A move puts two spooky marks in two squares. When the marks close a loop, the loop is measured.")));
    }
    if (v.lines && v.lines.length) {
      side.append(h("h2", {}, _("Lines")));
      for (const line of v.lines) side.append(h("div", {}, tr("%(player)s: squares %(squares)s (time %(time)s) scores %(points)s", { player: line.player, squares: line.squares.join("-"), time: line.time, points: line.points })));
    }
    if (v.history && v.history.length) {
      side.append(h("h2", {}, _("Moves")));
      side.append(h("div", { class: "mono history" }, v.history.join(" ")));
    }
  }

  return {
    render(msg, { animate } = {}) {
      const fresh = !last || msg.seq !== last.seq;
      if (fresh) armed = null;
      last = msg;
      if (!legalMoves(msg).length) picked = null;
      if (!msg.view.collapse) previewSquare = null;
      draw(animate);
      renderSide();
      if (fresh) say(prompt(msg));
      // the cascade of classical marks plays one after the other; the result waits for it
      if (animate) {
        const placed = (msg.events || []).filter((e) => e.type === "collapse").reduce((n, e) => n + (e.placed || []).length, 0);
        settleEnd = placed && !REDUCED_MOTION.matches ? performance.now() + (placed - 1) * CASCADE_STEP_MS + APPEAR_MS : 0;
      }
    },
    // how long the last render's animation runs: the page shows the result after it
    settleMs() { return Math.max(0, settleEnd - performance.now()); },
    seatLabel(seat) { return markOfSeat(seat); },
    // the sentences a screen reader hears for a new state
    announce(msg) {
      const said = [];
      for (const e of msg.events || []) {
        if (e.type === "move" && e.squares[0] === e.squares[1]) said.push(TEXT.lastSquare(e.player, e.squares[0]));
        else if (e.type === "move") said.push(TEXT.placed(e.player, e.squares[0], e.squares[1]));
        else if (e.type === "cycle") said.push(TEXT.cycle(`${markOfMove(e.move)}${e.move}`, e.squares, markOfSeat(e.chooser)));
        else if (e.type === "collapse") {
          said.push(TEXT.collapsed(markOfSeat(e.seat), `${markOfMove(e.move)}${e.move}`, e.square));
          for (const p of e.placed || []) said.push(TEXT.nowClassical(p.square, p.player, p.move));
        } else if (e.type === "line") said.push(TEXT.line(e.player, e.squares));
        else if (e.type === "game_over") said.push((e.winners || []).length === 1 ? TEXT.winner(markOfSeat(e.winners[0])) : TEXT.draw);
      }
      return said;
    },
    prompt(msg) { return prompt(msg); },
  };
}

// The exercise editor: compose a QTris starting position visually or as JSON (the engine's
// options), validate it on the server (the engine's own setup) and see it drawn by the real board.
import { _, tr } from "./i18n.js";
import { h } from "./svg.js";

// the tiles' codes (W B R L UP DOWN, "U:" decorated) are the engine's options; what a reader
// sees and hears is a glyph and the tile's name in their language (the board's own words)
const CODES = ["W", "B", "R", "L", "UP", "DOWN"];
const GLYPH = { W: "○", B: "●", R: "◐", L: "◑", UP: "◓", DOWN: "◒" };
const TILE_WORDS = { W: _("white"), B: _("black"), R: _("kitten right"), L: _("kitten left"), UP: _("kitten up"), DOWN: _("kitten down") };
const TILES = [...CODES.map((c) => [c, `${GLYPH[c]} ${TILE_WORDS[c]}`]), ...CODES.map((c) => [`U:${c}`, `U·${GLYPH[c]}`])];
const tileName = (code) => (code.startsWith("U:") ? "U·" : "") + (TILE_WORDS[code.replace("U:", "")] || code);
const CARDS = ["I", "X", "Y", "Z", "H", "S", "U", "CX"];
const BELL = ["phi+", "phi-", "psi+", "psi-"];

const glyph = (code) => (code.startsWith("U:") ? "U·" : "") + (GLYPH[code.replace("U:", "")] || code);

export async function editor({ validateUrl, boardUrl }) {
  const $ = (id) => document.getElementById(id);
  const examples = JSON.parse($("ex-examples").textContent);
  const { createBoard } = await import(boardUrl);
  const board = createBoard($("board"), { act() {} });
  const csrf = document.querySelector("#ex-form [name=csrfmiddlewaretoken]").value;

  let st = {
    squares: ["W", "B", "R", "L", "W", "B", "R", "L", "W"].map((c) => [c]),
    pairs: [], hands: [["U", "CX", "X", "H"], ["X", "Z", "H", "I"]], deck: "", first: "0", colors: "white", skip: true,
  };
  let brush = "W";

  function covered() { const m = new Map(); st.pairs.forEach((p, i) => p.squares.forEach((s) => m.set(s, i))); return m; }

  function toOptions() {
    const cov = covered();
    const o = {
      board: st.squares.map((codes, i) => (cov.has(i + 1) ? null : codes.length === 1 ? codes[0] : [...codes])),
    };
    if (st.pairs.length) o.pairs = st.pairs.map((p) => ({ squares: [...p.squares], state: p.state, ...(p.decoration ? { decoration: p.decoration } : {}) }));
    o.hands = st.hands.map((hnd) => [...hnd]);
    const deck = st.deck.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);
    if (deck.length) o.deck = deck;
    if (st.first !== "") o.first_seat = Number(st.first);
    if (st.colors !== "") o.colors = [st.colors, st.colors === "white" ? "black" : "white"];
    o.skip_mulligan = st.skip;
    return o;
  }

  function fromOptions(o) {
    if (!o || typeof o !== "object" || !Array.isArray(o.board) || o.board.length !== 9) throw new Error(_("The JSON needs a \"board\" of 9 entries."));
    st.squares = o.board.map((e) => (e === null ? ["W"] : Array.isArray(e) ? [...e] : [e]));
    st.pairs = (o.pairs || []).map((p) => ({ squares: [...p.squares].sort((a, b) => a - b), state: p.state, decoration: p.decoration || "" }));
    st.hands = Array.isArray(o.hands) && o.hands.length === 2 ? o.hands.map((hnd) => [...hnd, "I", "I", "I", "I"].slice(0, 4)) : st.hands;
    st.deck = Array.isArray(o.deck) ? o.deck.join(", ") : "";
    st.first = o.first_seat === undefined || o.first_seat === null ? "" : String(o.first_seat);
    st.colors = Array.isArray(o.colors) ? o.colors[0] : "";
    st.skip = !!o.skip_mulligan;
  }

  function renderPalette() {
    const box = $("ex-palette");
    box.replaceChildren(...TILES.map(([code, label]) => h("button", {
      type: "button", class: "ex-tile" + (code.startsWith("U:") ? " u" : "") + (brush === code ? " picked" : ""), "data-tile": code,
      "aria-label": tileName(code), "aria-pressed": String(brush === code),
      onclick: () => { brush = code; renderPalette(); },
    }, label)));
  }

  function renderGrid() {
    const cov = covered();
    const grid = $("ex-grid");
    grid.replaceChildren(...st.squares.map((codes, i) => {
      const sq = i + 1;
      if (cov.has(sq)) {
        const p = st.pairs[cov.get(sq)];
        return h("div", { class: "ex-sq pair", "data-square": sq }, h("span", { class: "n" }, sq), `△ ${p.state}${p.decoration ? " " + p.decoration : ""}`, h("small", {}, tr("pair %(squares)s", { squares: p.squares.join("–") })));
      }
      return h("button", {
        type: "button", class: "ex-sq" + (codes.some((c) => c.startsWith("U:")) ? " u" : ""), "data-square": sq,
        "aria-label": tr("Square %(square)s: %(tiles)s", { square: sq, tiles: codes.length > 1 ? tr("mixture: %(members)s", { members: codes.map(tileName).join(", ") }) : tileName(codes[0]) }),
        title: _("click: set the palette tile · shift-click: add it (mixture) · alt-click: remove the last"),
        onclick: (e) => {
          if (e.altKey) { if (codes.length > 1) codes.pop(); } else if (e.shiftKey) codes.push(brush); else st.squares[i] = [brush];
          changed();
        },
      }, h("span", { class: "n" }, sq), codes.map(glyph).join(" + "), codes.length > 1 ? h("small", {}, tr("mixture, 1/%(n)s each", { n: codes.length })) : null);
    }));
  }

  function renderPairs() {
    const box = $("ex-pairs");
    box.replaceChildren(...st.pairs.map((p, i) => {
      const sqSel = (k) => h("select", { "data-pair": `${i}-${k}`, "aria-label": tr("pair %(n)s, square %(k)s", { n: i + 1, k: k + 1 }), onchange: (e) => { p.squares[k] = Number(e.target.value); changed(); } },
        [1, 2, 3, 4, 5, 6, 7, 8, 9].map((s) => h("option", { value: s, selected: p.squares[k] === s }, tr("square %(n)s", { n: s }))));
      return h("div", { class: "row ex-pair" }, sqSel(0), sqSel(1),
        h("select", { "data-pair-state": i, "aria-label": tr("pair %(n)s, Bell state", { n: i + 1 }), onchange: (e) => { p.state = e.target.value; changed(); } }, BELL.map((b) => h("option", { value: b, selected: p.state === b }, b))),
        h("select", { "aria-label": tr("pair %(n)s, decoration", { n: i + 1 }), onchange: (e) => { p.decoration = e.target.value; changed(); } }, ["", "H", "U1", "U2"].map((d) => h("option", { value: d, selected: p.decoration === d }, d || _("no decoration")))),
        h("button", { type: "button", class: "link danger", onclick: () => { st.pairs.splice(i, 1); changed(); } }, _("remove")));
    }));
  }

  function renderHands() {
    const box = $("ex-hands");
    box.replaceChildren(...st.hands.map((hnd, side) => h("div", { class: "row ex-hand" }, h("strong", {}, side === 0 ? "Alice" : "Bob"),
      hnd.map((c, k) => h("select", { "data-hand": `${side}-${k}`, "aria-label": tr("%(player)s, card %(n)s", { player: side === 0 ? "Alice" : "Bob", n: k + 1 }), onchange: (e) => { hnd[k] = e.target.value; changed(); } }, CARDS.map((x) => h("option", { value: x, selected: x === c }, x)))))));
  }

  function renderFields() {
    $("ex-deck").value = st.deck;
    $("ex-first").value = st.first;
    $("ex-colors").value = st.colors;
    $("ex-skip").checked = st.skip;
  }

  function renderAll() { renderPalette(); renderGrid(); renderPairs(); renderHands(); renderFields(); }

  let timer = null;
  function changed() {
    renderGrid(); renderPairs(); renderHands();
    $("ex-json").value = JSON.stringify(toOptions(), null, 1);
    clearTimeout(timer);
    timer = setTimeout(validate, 250);
  }

  async function validate() {
    let options;
    const out = $("ex-result");
    try { options = JSON.parse($("ex-json").value); } catch (err) {
      out.className = "ex-result error"; out.textContent = tr("The JSON is not valid: %(error)s", { error: err.message }); return false;
    }
    const reply = await fetch(validateUrl, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ variant: $("ex-variant").value, options }) }).then((r) => r.json()).catch(() => ({ ok: false, message: _("Could not reach the server.") }));
    if (!reply.ok) {
      out.className = "ex-result error"; out.dataset.state = "bad"; out.textContent = reply.message;
      return false;
    }
    out.className = "ex-result ok"; out.dataset.state = "ok";
    const a = reply.payload.analysis;
    out.textContent = tr("A valid position. White wins %(white)s %, Black %(black)s %, tie %(tie)s % if nobody played a card.", { white: Math.round(100 * a.p_win.white), black: Math.round(100 * a.p_win.black), tie: Math.round(100 * a.p_win.tie) });
    board.render(reply.payload, { animate: false });
    return true;
  }

  // wiring
  const sel = $("ex-example");
  examples.forEach((ex, i) => sel.append(h("option", { value: i }, ex.name)));
  sel.addEventListener("change", () => {
    const ex = examples[Number(sel.value)];
    if (!ex) return;
    fromOptions(ex.options);
    $("ex-variant").value = ex.variant;
    if (!$("ex-name").value) $("ex-name").value = ex.name;
    $("ex-example-text").textContent = ex.description;
    renderAll(); changed();
  });
  $("ex-add-pair").addEventListener("click", () => {
    const cov = covered();
    const free = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((s) => !cov.has(s));
    if (free.length < 2) return;
    st.pairs.push({ squares: [free[free.length - 2], free[free.length - 1]], state: "phi+", decoration: "" });
    changed();
  });
  $("ex-deck").addEventListener("input", (e) => { st.deck = e.target.value; changed(); });
  $("ex-first").addEventListener("change", (e) => { st.first = e.target.value; changed(); });
  $("ex-colors").addEventListener("change", (e) => { st.colors = e.target.value; changed(); });
  $("ex-skip").addEventListener("change", (e) => { st.skip = e.target.checked; changed(); });
  $("ex-variant").addEventListener("change", () => validate());
  $("ex-validate").addEventListener("click", () => validate());
  $("ex-load-json").addEventListener("click", () => {
    try { fromOptions(JSON.parse($("ex-json").value)); renderAll(); validate(); } catch (err) {
      $("ex-result").className = "ex-result error"; $("ex-result").textContent = tr("Cannot load: %(error)s", { error: err.message });
    }
  });
  // a pasted or saved position (the server re-renders the text after an error) wins over the default
  const initial = $("ex-json").value.trim();
  if (initial) {
    try { fromOptions(JSON.parse(initial)); } catch { /* keep the text: the error is already shown */ }
    renderAll();
    validate();
  } else {
    renderAll(); changed();
  }
}

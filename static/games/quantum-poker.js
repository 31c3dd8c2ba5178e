// QuantumPoker table: a round table for 2–5 players, each with 4 qubit cards; the community row
// of Pauli cards; the pot. Acting = click a community card, then a target qubit (SWAP: own, then
// another player's). Shows the showdown (view.last_hand) with the physics-mode teaching point,
// and for the teacher (seat null, payload.analysis) the expected scores and win chances.
// Renders replay frames too ({view, legal: []}).
//
// Nothing secret is ever in the DOM: a card's value is written only when the view gives it
// (the view already hides other players' hidden values from this seat).

import { _, nt, tr } from "../js/i18n.js";
import { namedSeats } from "../js/live.js";
import { ensureStylesheet, h } from "../js/svg.js";

// the cards of the simplified game (the rulebook's: H erases the value, a second H flips a coin)
const GATE_HELP = {
  X: _("X flips the value of one of your qubits (no effect on a superposed one)."),
  Y: _("Y flips the value of one of your qubits and turns it face up/down (on a superposed one it only turns it)."),
  Z: _("Z doubles (or halves back) the bet on one of your qubits."),
  H: _("H lays one of your qubits down in superposition; on a laid-down qubit it flips a coin."),
  CX: _("CX applies X to a qubit of another player: in this game Cx is that single-qubit X (it flips the value), not a two-qubit CNOT."),
  SWAP: _("SWAP exchanges one of your qubits with one of another player's."),
};
// physics mode: what each real gate does to the qubit (a superposed card is |+⟩ or |−⟩)
const GATE_HELP_PHYSICS = {
  X: _("X flips the value of one of your qubits: X|0⟩ = |1⟩, X|1⟩ = |0⟩. On a superposed one it changes at most a sign: X|+⟩ = |+⟩, X|−⟩ = −|−⟩."),
  Y: _("Y flips the value of one of your qubits with a phase, Y|0⟩ = i|1⟩ and Y|1⟩ = −i|0⟩, and turns it face up/down. On a superposed one it swaps |+⟩ and |−⟩: Y|+⟩ = −i|−⟩, Y|−⟩ = i|+⟩."),
  Z: _("Z doubles (or halves back) the bet on one of your qubits. On the qubit it is a phase flip: it leaves |0⟩ and |1⟩ as they are (Z|1⟩ = −|1⟩, only a sign) and swaps |+⟩ and |−⟩, which changes what the next H gives; the chances of measuring 0 or 1 stay the same."),
  H: _("H is the real Hadamard on one of your qubits: H|0⟩ = |+⟩ and H|1⟩ = |−⟩ lay it down in superposition; on a laid-down qubit H|+⟩ = |0⟩ and H|−⟩ = |1⟩ give a sure value again, no coin."),
  CX: _("CX applies X to a qubit of another player: in this game Cx is that single-qubit X (X|0⟩ = |1⟩, X|1⟩ = |0⟩; on |+⟩ or |−⟩ at most a sign), not a two-qubit CNOT."),
  SWAP: _("SWAP exchanges one of your qubits with one of another player's."),
};
const gateHelp = (v, kind) => (v.physics_mode ? GATE_HELP_PHYSICS : GATE_HELP)[kind];
const OWN_KINDS = new Set(["X", "Y", "Z", "H"]);
// a reader who asks for less motion: the coin lands at once, the showdown shows at once
const REDUCED_MOTION = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
const COIN_MS = 1700;
// the variants' names in the reader's language (the engine's ``variant_names``)
const VARIANT_NAMES = { classic: _("classic"), declared: _("declared measurement") }; // the coin's spin (qp-flip-*, 1.6 s) and a beat: the showdown waits for it



const pct = (x) => `${Math.round(x * 100)}%`;
const same = (t, seat, slot) => t && t.seat === seat && t.qubit === slot;

export function createBoard(root, { act }) {
  ensureStylesheet(new URL("../css/quantum-poker.css", import.meta.url).href);
  root.innerHTML = "";
  const wrap = h("div", { class: "qp" });
  const tableBox = h("div", { class: "qp-table", role: "group", "aria-label": _("QuantumPoker table") });
  const side = h("div", { class: "qp-side" });
  wrap.append(tableBox, side);
  root.append(wrap);

  let last = null;
  let picked = null;      // {card, own?}: the community card clicked, and for SWAP the own qubit
  let lastPickKey = null; // the turn the pick belongs to (a new state clears a stale pick)
  let toastTimer = null;
  let noEffect = [];      // the last change's plays that had no effect (kept in the side panel)
  let holdUntil = 0;      // the showdown stays hidden until the coin has landed
  let holdTimer = null;
  const held = () => Date.now() < holdUntil;
  const holdCls = () => (held() ? " held hidden" : "");

  const name = (msg, seat) => {
    const s = (msg.seats || []).find((x) => x.index === seat);
    return s && s.name ? s.name : tr("Player %(number)s", { number: seat + 1 });
  };
  const isBot = (msg, seat) => !!((msg.seats || []).find((x) => x.index === seat) || {}).bot;
  // a replay frame has seat null but a view built for the replaying student's seat
  const mySeat = (msg) => (msg.view.seat ?? msg.seat ?? null);
  const legalCards = (msg) => (msg.legal || []).filter((a) => a.card !== undefined);
  const canDeclare = (msg) => (msg.legal || []).some((a) => a.declare === true);

  // ------------------------------------------------------------------ acting

  // the qubits clickable now, as a map "seat:slot" → action (or "own" for SWAP's first click)
  function targets(msg) {
    const out = new Map();
    if (!picked) return out;
    const moves = legalCards(msg).filter((a) => a.card === picked.card);
    const kind = msg.view.community[picked.card].kind;
    if (kind === "SWAP" && picked.own === undefined) {
      for (const a of moves) out.set(`${msg.seat}:${a.own}`, "own");
      return out;
    }
    for (const a of moves) {
      if (kind === "SWAP" && a.own !== picked.own) continue;
      out.set(`${a.target.seat}:${a.target.qubit}`, a);
    }
    return out;
  }

  function pickCard(i) {
    const msg = last;
    if (!msg || !legalCards(msg).some((a) => a.card === i)) return;
    picked = picked && picked.card === i ? null : { card: i };
    refresh();
    focusAfterPick(i);
  }

  // keyboard: after a card is taken the focus goes to the first target on the table; without a
  // pick it goes back to the card, so Tab / Enter / Space play a whole turn
  function focusAfterPick(i) {
    const target = tableBox.querySelector(".qp-qubit.target");
    if (picked && target) { target.focus(); return; }
    const cardBtn = tableBox.querySelector(`.qp-pauli[data-card="${i}"]`);
    if (cardBtn) cardBtn.focus();
  }
  function cancelPick() {
    if (!picked) return;
    const i = picked.card;
    picked = null;
    refresh();
    focusAfterPick(i);
  }
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && picked) { e.preventDefault(); cancelPick(); return; }
    // the arrow keys move between the cards, or between the qubits that can be played on
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    const here = e.target.closest && e.target.closest(".qp-pauli, .qp-qubit");
    if (!step || !here) return;
    const kind = here.classList.contains("qp-pauli") ? ".qp-pauli" : ".qp-qubit";
    const all = [...tableBox.querySelectorAll(kind)].filter((b) => !b.disabled && b.tabIndex >= 0);
    const next = all[all.indexOf(here) + step];
    if (next) { e.preventDefault(); next.focus(); }
  });

  function clickQubit(seat, slot) {
    const msg = last;
    if (!msg || !picked) return;
    const t = targets(msg).get(`${seat}:${slot}`);
    if (!t) return;
    if (t === "own") { picked = { ...picked, own: slot }; refresh(); focusAfterPick(picked.card); return; }
    picked = null;
    act(t);
    refresh();
  }

  function refresh() { draw(false); renderSide(); }

  // ------------------------------------------------------------------ drawing

  function qubitCard(msg, seatView, q, clickable, dim) {
    const v = msg.view;
    const mine = mySeat(msg) !== null && seatView.seat === mySeat(msg);
    const known = q.value !== null && q.value !== undefined;
    const secretMine = mine && known && !q.shown;
    const remembered = !mine && known && !q.shown && q.remembered;
    const cls = ["qp-qubit"];
    cls.push(q.superposed ? "superposed" : "flat", q.shown ? "face-up" : "face-down");
    if (secretMine) cls.push("secret-mine");
    if (remembered) cls.push("remembered");
    if (q.bet === 2) cls.push("doubled");
    if (clickable) cls.push("target");
    if (dim) cls.push("dim");
    if (picked && picked.own !== undefined && mine && picked.own === q.slot) cls.push("own-picked");
    let face;
    let title;
    if (q.superposed && v.physics_mode && q.state) {
      // physics mode: |+⟩ and |−⟩ are different states (the next H gives 0 from one, 1 from the other)
      face = q.state;
      title = q.state === "|−⟩"
        ? _("Superposed in |−⟩: measured now it gives 0 or 1 at 50%; the next H gives 1 for sure")
        : _("Superposed in |+⟩: measured now it gives 0 or 1 at 50%; the next H gives 0 for sure");
    } else if (q.superposed && v.physics_mode) {
      face = "";
      title = _("Superposed (laid down), face down: its state, |+⟩ or |−⟩, is hidden");
    } else if (q.superposed) {
      face = q.shown ? "0+1" : "";
      title = _("Superposed (laid down): no value until it is measured");
    } else if (known) {
      face = String(q.value);
      title = secretMine ? _("Face down: only you see this value")
        : remembered ? _("Face down: you remember this value (you saw it and followed the plays)")
          : _("Face up: everyone sees this value");
    } else {
      face = "?";
      title = _("Face down: hidden value");
    }
    const card = h("button", {
      type: "button", class: cls.join(" "), "data-seat": seatView.seat, "data-slot": q.slot,
      "data-id": q.id, "data-state": q.superposed ? "superposed" : q.shown ? "shown" : "hidden",
      "data-value": known ? q.value : null, "data-bet": q.bet, title,
      "aria-label": tr("%(player)s qubit %(qubit)s: %(state)s", { player: name(msg, seatView.seat), qubit: q.slot + 1, state: title }) + (q.bet === 2 ? ", " + _("bet doubled") : ""),
      disabled: clickable ? null : true, tabindex: clickable ? 0 : -1,
      onclick: () => clickQubit(seatView.seat, q.slot),
    },
    h("span", { class: face.startsWith("|") ? "qp-face qp-ket" : "qp-face", text: face }),
    h("span", { class: "qp-slot", text: `q${q.slot + 1}` }),
    secretMine ? h("span", { class: "qp-only-you", text: _("only you see this") }) : null,
    remembered ? h("span", { class: "qp-remembered", text: _("you remember") }) : null,
    h("span", { class: "qp-bet", "aria-hidden": "true" },
      h("i", { class: "chip" }), q.bet === 2 ? h("i", { class: "chip" }) : null));
    if (v.phase === "over" && msg.view.last_hand) card.classList.add("revealed");
    return card;
  }

  function seatBox(msg, seatView, pos, tmap) {
    const v = msg.view;
    const s = seatView.seat;
    const mine = mySeat(msg) !== null && s === mySeat(msg);
    const turn = v.turn === s && !v.finished;
    const lh = v.last_hand;
    const won = v.phase === "over" && lh && (lh.winners || []).includes(s);
    const cls = ["qp-seat"];
    if (mine) cls.push("me");
    if (turn) cls.push("turn");
    if (seatView.sitting_out) cls.push("out");
    if (won) cls.push("won");
    const box = h("div", { class: cls.join(" "), "data-seat": s, style: `left:${pct(pos.x)};top:${pct(pos.y)}` });
    const head = h("div", { class: "qp-seat-head" },
      h("span", { class: "qp-name", text: name(msg, s) + (mine ? " " + _("(you)") : "") }),
      isBot(msg, s) ? h("span", { class: "qp-bot", title: _("A bot plays this seat"), text: _("bot") }) : null,
      seatView.is_dealer ? h("span", { class: "qp-dealer", title: _("Dealer"), text: _("D") }) : null,
      h("span", { class: "qp-chips", title: _("Chips in the stack") }, h("i", { class: "chip" }), ` ${seatView.chips}`));
    box.append(head);
    if (seatView.sitting_out) {
      box.append(h("div", { class: "qp-sitout", text: _("sits out (no ante)") }));
      return box;
    }
    const row = h("div", { class: "qp-cards" });
    for (const q of seatView.qubits) {
      const key = `${s}:${q.slot}`;
      const clickable = tmap.has(key);
      const ownPicked = mine && picked && picked.own === q.slot;
      row.append(qubitCard(msg, seatView, q, clickable, picked !== null && !clickable && !ownPicked));
    }
    box.append(row);
    // a card is too small for its caption at a readable size (12 px): one line under the row says
    // it, at every width (the cards' captions are kept for their words, not shown)
    const known = (q) => q.value !== null && q.value !== undefined && !q.shown && !q.superposed;
    if (mine && seatView.qubits.some(known)) box.append(h("p", { class: "qp-seat-note", text: _("Dashed cards: only you see their values.") }));
    else if (!mine && seatView.qubits.some((q) => known(q) && q.remembered)) box.append(h("p", { class: "qp-seat-note", text: _("Dotted outline: you remember these values.") }));
    if (turn) box.append(h("div", { class: "qp-turn-tag", text: v.declared_by !== null && v.declared_by !== undefined ? _("last turn") : _("to play") }));
    if (v.phase === "over" && lh && lh.scores && lh.scores[s] !== null && lh.scores[s] !== undefined) {
      box.append(h("div", { class: "qp-score-tag" + holdCls(), text: nt("%(n)s point", "%(n)s points", lh.scores[s]) + (won ? " · " + _("wins") : "") }));
    }
    return box;
  }

  function community(msg) {
    const v = msg.view;
    const playable = new Set(legalCards(msg).map((a) => a.card));
    const row = h("div", { class: "qp-community", role: "group", "aria-label": _("Community Pauli cards") });
    for (const c of v.community) {
      const taken = c.taken_by !== null && c.taken_by !== undefined;
      const can = playable.has(c.index);
      const cls = ["qp-pauli", `k-${c.kind}`];
      if (taken) cls.push("taken");
      if (can) cls.push("playable");
      if (picked && picked.card === c.index) cls.push("picked");
      row.append(h("button", {
        type: "button", class: cls.join(" "), "data-card": c.index, "data-kind": c.kind,
        "data-taken-by": taken ? c.taken_by : null, disabled: can ? null : true,
        title: taken ? tr("%(kind)s: taken by %(player)s", { kind: c.kind, player: name(msg, c.taken_by) }) : gateHelp(v, c.kind),
        onclick: () => pickCard(c.index),
      },
      h("span", { class: "qp-kind", text: c.kind }),
      h("span", { class: "qp-taken", text: taken ? `${c.order + 1}. ${name(msg, c.taken_by)}` : can ? _("take") : "" })));
    }
    return row;
  }

  function positions(n, me) {
    // my seat at the bottom, the others clockwise (seat numbers increase clockwise)
    const out = {};
    for (let k = 0; k < n; k++) {
      const seat = (me + k) % n;
      const a = Math.PI / 2 + (2 * Math.PI * k) / n;
      // (four or five seats: the side ones a little in, so that a seat a quarter of the table
      // wide stays on it)
      out[seat] = { x: 0.5 + (n > 3 ? 0.36 : 0.39) * Math.cos(a), y: 0.5 + (n > 3 ? 0.4 : 0.37) * Math.sin(a) };
    }
    return out;
  }

  function draw(animate) {
    const msg = last;
    const v = msg.view;
    if (msg.seq !== undefined) root.dataset.seq = msg.seq;
    root.dataset.phase = v.phase;
    const me = mySeat(msg) ?? 0;
    const pos = positions(v.players, me);
    const tmap = targets(msg);
    // a redraw keeps the keyboard focus on the same card or qubit (when it is still enabled)
    const active = document.activeElement;
    const focusKey = active && tableBox.contains(active)
      ? (active.dataset.card !== undefined ? `.qp-pauli[data-card="${active.dataset.card}"]`
        : active.dataset.slot !== undefined ? `.qp-qubit[data-seat="${active.dataset.seat}"][data-slot="${active.dataset.slot}"]` : null)
      : null;
    tableBox.replaceChildren();
    tableBox.className = `qp-table players-${v.players}${v.community.length > 6 ? " many-cards" : ""}`;
    tableBox.append(h("div", { class: "qp-felt" }));
    const centre = h("div", { class: "qp-centre" });
    centre.append(community(msg));
    const potLine = h("div", { class: "qp-pot", "data-pot": v.pot },
      h("span", { class: "qp-pot-chips", "aria-hidden": "true" }, ...Array.from({ length: Math.min(v.pot, 12) }, () => h("i", { class: "chip" }))),
      h("span", { class: "qp-pot-text", text: v.phase === "over" && v.last_hand ? tr("Pot of %(pot)s awarded", { pot: v.last_hand.pot }) : tr("Pot %(pot)s", { pot: v.pot }) }));
    centre.append(potLine);
    centre.append(h("div", { class: "qp-hand-no", text: tr("Hand %(hand)s of %(hands)s", { hand: v.hand, hands: v.hands }) + ` · ${VARIANT_NAMES[v.variant] || v.variant}` + (v.physics_mode ? " · " + _("physics mode") : "") }));
    if (canDeclare(msg)) {
      centre.append(h("button", { type: "button", class: "button qp-declare", "data-declare": "1",
        onclick: () => { picked = null; act({ declare: true }); } }, _("Declare measurement")));
    }
    if (v.declared_by !== null && v.declared_by !== undefined && v.phase === "play") {
      centre.append(h("div", { class: "qp-declared", text: tr("%(player)s declared measurement: last turns.", { player: name(msg, v.declared_by) }) }));
    }
    tableBox.append(centre);
    for (const seatView of v.seats) tableBox.append(seatBox(msg, seatView, pos[seatView.seat], tmap));
    if (focusKey) { const n = tableBox.querySelector(focusKey); if (n && !n.disabled) n.focus({ preventScroll: true }); }
    if (animate) animateEvents(msg);
  }

  // ------------------------------------------------------------------ animations & feedback

  function animateEvents(msg) {
    const events = msg.events || [];
    const coins = events.filter((e) => e.type === "coin" || e.type === "collapse");
    if (coins.length) flipCoin(msg, coins[0], coins.length);
    const quiet = events.filter((e) => e.type === "play" && e.no_effect);
    // the engine names seats "Player N": the students' names instead
    const said = (e) => namedSeats(e.text || "", msg.seats || []);
    noEffect = quiet.map(said);
    if (quiet.length) toast(quiet.map((e) => tr("No effect: %(text)s", { text: said(e) })).join(" "), "no-effect");
    for (const e of events) {
      if (e.type !== "play" || !e.target) continue;
      const sel = `.qp-qubit[data-seat="${e.target.seat}"][data-slot="${e.target.qubit}"]`;
      const el = tableBox.querySelector(sel);
      if (el) el.classList.add(e.no_effect ? "flash-none" : "flash");
      if (e.own !== undefined) {
        const o = tableBox.querySelector(`.qp-qubit[data-seat="${e.seat}"][data-slot="${e.own}"]`);
        if (o) o.classList.add("flash");
      }
    }
  }

  function flipCoin(msg, e, count) {
    const heads = e.value === 1;
    const coin = h("div", { class: "qp-coin-wrap", "data-coin": e.value },
      h("div", { class: `qp-coin ${heads ? "heads" : "tails"}` },
        h("div", { class: "qp-coin-face front", text: "1" }),
        h("div", { class: "qp-coin-face back", text: "0" })),
      h("div", { class: "qp-coin-text", text: (e.text ? namedSeats(e.text, msg.seats || []) : _("Coin flip")) + (count > 1 ? " " + tr("(+%(n)s more)", { n: count - 1 }) : "") }));
    tableBox.append(coin);
    setTimeout(() => coin.remove(), 3200);
  }

  function toast(text, cls) {
    const old = tableBox.querySelector(".qp-toast");
    if (old) old.remove();
    // shown; the move's news (these plays included) is heard once, in the page's live region
    const t = h("div", { class: `qp-toast ${cls}`, text });
    tableBox.append(t);
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.remove(), 6000);
  }

  // ------------------------------------------------------------------ side panel

  function renderSide() {
    const msg = last;
    const v = msg.view;
    side.replaceChildren();
    // what to do now
    const mine = (msg.legal || []).length > 0;
    if (mine) {
      let hint;
      if (!picked) hint = _("Click a community card, then a glowing qubit.");
      else {
        const kind = v.community[picked.card].kind;
        if (kind === "SWAP" && picked.own === undefined) hint = _("SWAP: click one of your qubits, then another player's.");
        else if (kind === "SWAP") hint = tr("SWAP: now click another player's qubit to exchange with your qubit %(qubit)s.", { qubit: picked.own + 1 });
        else hint = gateHelp(v, kind) + " " + _("Click a glowing qubit.");
      }
      side.append(h("div", { class: "qp-hint", text: hint }));
      if (picked) side.append(h("button", { type: "button", class: "button secondary small", onclick: cancelPick }, _("Cancel")));
    }
    for (const text of noEffect) side.append(h("div", { class: "qp-noeffect-note", role: "note", text: tr("No effect: %(text)s", { text }) }));
    // the last plays
    const plays = (v.plays || []).slice(-4);
    if (plays.length && v.phase === "play") {
      side.append(h("h2", { text: _("Plays this hand") }));
      const ul = h("ol", { class: "qp-plays", start: Math.max(1, v.plays.length - 3) });
      for (const p of plays) {
        if (p.declare) { ul.append(h("li", { text: tr("%(player)s declared measurement", { player: name(msg, p.seat) }) })); continue; }
        const tgt = p.kind === "SWAP" ? tr("their q%(own)s ↔ %(player)s q%(qubit)s", { own: p.own + 1, player: name(msg, p.target.seat), qubit: p.target.qubit + 1 })
          : p.target.seat === p.seat ? tr("own q%(qubit)s", { qubit: p.target.qubit + 1 })
            : tr("%(player)s's q%(qubit)s", { player: name(msg, p.target.seat), qubit: p.target.qubit + 1 });
        ul.append(h("li", {}, h("b", { text: name(msg, p.seat) }), ` ${p.kind} → ${tgt}`));
      }
      side.append(ul);
    }
    if (v.last_hand) side.append(showdown(msg, v.last_hand));
    // the teacher gets the whole analysis; a player only its public keys (the engine's
    // declared policy, applied by the server) while the teacher shows the live odds
    if (msg.analysis) side.append(msg.analysis.teacher_only ? analysisPanel(msg, msg.analysis) : publicOddsPanel(msg, msg.analysis));
    side.append(h("details", { class: "qp-legend" }, h("summary", { text: _("How to read the table") }),
      h("ul", {},
        h("li", { text: _("? = face down: only its owner knows the value.") }),
        h("li", { text: _("A dashed outline = your face-down value: only you see it.") }),
        h("li", { text: v.physics_mode
          ? _("A card lying sideways is superposed, |+⟩ or |−⟩: measured, it gives 0 or 1 at 50%; the next H gives 0 from |+⟩ and 1 from |−⟩.")
          : _("A card lying sideways is superposed: it has no value until measured.") }),
        h("li", { text: _("Two chips under a card = doubled bet (a 1 scores 2).") }),
        h("li", { text: _("D = dealer. The glowing seat is to play.") }))));
  }

  function showdown(msg, lh) {
    const box = h("section", { class: "qp-showdown" + holdCls(), "data-hand": lh.hand });
    const winners = (lh.winners || []).map((w) => name(msg, w));
    box.append(h("h2", { text: tr("Hand %(hand)s: showdown", { hand: lh.hand }) }));
    const wholePot = !msg.view.options || msg.view.options.whole_pot !== false || lh.collected === undefined;
    const names = winners.join(", ");
    const rulebook = tr("(pot %(pot)s): the winner takes back their own chips and collects the %(collected)s chips on the other players' 1-qubits; chips on 0-qubits go back to their owners.", { pot: lh.pot, collected: lh.collected });
    box.append(h("p", { class: "qp-winner", text: wholePot
      ? (winners.length === 1 ? tr("%(player)s wins the pot of %(pot)s chips.", { player: names, pot: lh.pot }) : tr("%(players)s split the pot of %(pot)s chips.", { players: names, pot: lh.pot }))
      : (winners.length === 1 ? tr("%(player)s wins", { player: names }) + " " + rulebook : tr("%(players)s tie and share", { players: names }) + " " + rulebook) }));
    const table = h("table", { class: "qp-result-table" });
    table.append(h("tr", {}, h("th", { text: _("Player") }), h("th", { text: _("Cards") }), h("th", { text: _("Score") }), h("th", { text: _("Chips back") })));
    (lh.cards || []).forEach((cards, s) => {
      if (!lh.values || !lh.values[s]) return;
      const cells = h("td", { class: "qp-mini-cards" }, ...cards.map((c) => h("span", { class: `qp-mini ${c.value === 1 ? "one" : "zero"}${c.bet === 2 ? " doubled" : ""}`, text: String(c.value), title: c.bet === 2 ? _("bet doubled") : "" })));
      table.append(h("tr", { class: (lh.winners || []).includes(s) ? "won" : "" },
        h("td", { text: name(msg, s) }), cells, h("td", { text: String(lh.scores[s]) }), h("td", { text: lh.payouts[s] ? `+${lh.payouts[s]}` : "" })));
    });
    box.append(table);
    const ph = lh.physics;
    if (ph) {
      const teach = h("div", { class: "qp-teach" });
      teach.append(h("h3", { text: _("Physics mode would have said…") }));
      const notes = [];
      for (const row of ph.seats || []) {
        if (!row) continue;
        for (const c of row.cards) {
          if (!c.note) continue;
          notes.push(h("li", {},
            h("b", { text: `${name(msg, row.seat)} q${c.slot + 1}` }),
            " " + tr("dealt %(dealt)s, cards %(cards)s: simplified game %(value)s; physics %(ket)s (P(1) = %(p1)s).", { dealt: c.dealt, cards: c.applied.join(" → ") || _("none"), value: c.value, ket: c.physics_ket, p1: Number(c.physics_p1).toFixed(2) }) + " ",
            h("span", { class: "qp-note", text: c.note })));
        }
      }
      if (notes.length) teach.append(h("ul", {}, ...notes));
      else teach.append(h("p", { class: "muted", text: _("No H was played on a card this hand, so both modes agree card by card.") }));
      const exp = (ph.seats || []).filter(Boolean).map((r) => tr("%(player)s %(score)s (physics: expected %(expected)s)", { player: name(msg, r.seat), score: r.score, expected: Number(r.physics_expected).toFixed(1) }));
      teach.append(h("p", { class: "qp-teach-scores", text: tr("Scores: %(scores)s", { scores: exp.join(" · ") }) }));
      box.append(teach);
    }
    return box;
  }

  function publicOddsPanel(msg, a) {
    const box = h("section", { class: "qp-public-odds", "aria-label": _("Odds from what the whole table knows") });
    box.append(h("h2", { text: tr("Hand %(hand)s: odds from what the table knows", { hand: a.hand }) }));
    const table = h("table", { class: "qp-result-table" });
    table.append(h("tr", {}, h("th", { text: _("Player") }), h("th", { text: _("Expected score") }), h("th", { text: _("Win") })));
    const pc = (x) => (x === null || x === undefined ? "–" : Math.round(x * 100) + "%");
    for (let s = 0; s < msg.view.players; s++) {
      if (!a.expected_public || a.expected_public[s] === null) continue;
      table.append(h("tr", { "data-seat": s }, h("td", { text: name(msg, s) }),
        h("td", { text: Number(a.expected_public[s]).toFixed(1) }),
        h("td", { text: pc(a.p_win_public ? a.p_win_public[s] : null) })));
    }
    box.append(table);
    return box;
  }

  function analysisPanel(msg, a) {
    const box = h("section", { class: "qp-analysis" });
    box.append(h("h2", { text: tr("Teacher: hand %(hand)s odds", { hand: a.hand }) }));
    const table = h("table", { class: "qp-result-table" });
    table.append(h("tr", {}, h("th", { text: _("Player") }), h("th", { text: _("Cards P(1)") }), h("th", { text: _("Expected pub./exact"), title: _("Expected score from public knowledge / from the true state") }), h("th", { text: _("Win · tie") })));
    const f = (x, d = 2) => (x === null || x === undefined ? "–" : Number(x).toFixed(d));
    for (let s = 0; s < msg.view.players; s++) {
      if (!a.expected_public || a.expected_public[s] === null) continue;
      const p = a.p_win ? a.p_win[s] : null;
      const tie = a.p_split ? a.p_split[s] : null;
      const cards = ((a.qubits || [])[s] || []).map((q) => h("span", { class: `qp-mini ${q.p1 === 1 ? "one" : q.p1 === 0 ? "zero" : "half"}${q.bet === 2 ? " doubled" : ""}`,
        title: q.ket || "", text: q.p1 === 1 ? "1" : q.p1 === 0 ? "0" : q.p1 === 0.5 ? "½" : Number(q.p1).toFixed(2) }));
      const pc = (x) => (x === null || x === undefined ? "–" : Math.round(x * 100) + "%");
      table.append(h("tr", { "data-seat": s },
        h("td", { text: name(msg, s) }), h("td", { class: "qp-mini-cards" }, ...cards),
        h("td", { text: `${f(a.expected_public[s], 1)} / ${f(a.expected_exact && a.expected_exact[s], 1)}` }),
        h("td", {}, `${pc(p)}`, tie ? h("span", { class: "muted", text: ` · ${pc(tie)}` }) : null, h("span", { class: "qp-bar", style: `--p:${p || 0}` }))));
    }
    box.append(table);
    return box;
  }

  return {
    render(msg, { animate } = {}) {
      if (animate) noEffect = [];
      const key = `${msg.view.hand}:${(msg.view.plays || []).length}:${msg.seq}`;
      if (key !== lastPickKey) { picked = null; lastPickKey = key; }
      last = msg;
      if (!legalCards(msg).length) picked = null;
      // a hand that ends with coin flips: the result is shown once the coin has landed
      const events = msg.events || [];
      const coins = animate && events.some((e) => e.type === "coin" || e.type === "collapse");
      const ends = events.some((e) => e.type === "showdown") || msg.outcome;
      if (animate) { // a new state; a repeat of the same state keeps the hold running
        clearTimeout(holdTimer);
        // (a reader who asks for less motion sees no coin spin: nothing to wait for)
        holdUntil = coins && ends && !REDUCED_MOTION.matches ? Date.now() + COIN_MS : 0;
        if (holdUntil) holdTimer = setTimeout(() => { holdUntil = 0; wrap.querySelectorAll(".held").forEach((n) => n.classList.remove("held", "hidden")); }, COIN_MS);
      }
      draw(animate);
      renderSide();
    },
    // how long the last render's animation runs: the page shows the result after it
    settleMs() { return Math.max(0, holdUntil - Date.now()); },
    prompt(msg) {
      if (!legalCards(msg).length && canDeclare(msg)) return _("Declare measurement.");
      if (!picked) return canDeclare(msg) ? _("Take a community card, or declare measurement.") : _("Take a community card, then pick its target qubit.");
      const kind = msg.view.community[picked.card].kind;
      if (kind === "SWAP" && picked.own === undefined) return _("SWAP: pick one of your qubits.");
      if (kind === "SWAP") return _("SWAP: pick another player's qubit.");
      return OWN_KINDS.has(kind) ? tr("%(kind)s: pick one of your qubits.", { kind }) : tr("%(kind)s: pick another player's qubit.", { kind });
    },
  };
}

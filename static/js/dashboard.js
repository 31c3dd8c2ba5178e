// The teacher's live dashboard: students appear as they join; pair, start, watch, remove, lock, end.
import { _, nt, tr } from "./i18n.js";
import { connect, el } from "./live.js";
import { countdown, mmss, PACE_TEXT } from "./pace.js";

const TEXT = {
  state: { joined: _("joined"), seated: _("seated"), playing: _("playing"), finished: _("finished"), removed: _("removed"),
           waiting: _("in the waiting room") },
  status: { open: _("open"), locked: _("locked"), ended: _("ended"), waiting: _("waiting to start"), playing: _("playing"),
            finished: _("finished"), abandoned: _("abandoned") },
  table: (n) => tr("table %(n)s", { n }),
  tableTitle: (n) => tr("Table %(number)s", { number: n }),
  moves: (n) => nt("%(n)s move", "%(n)s moves", n),
  toAct: (names) => tr("to act: %(names)s", { names }),
  ended: _("Session ended"),
  remove: _("remove"),
  readmit: _("let back in"),
  admit: _("let in"),
  turnAway: _("turn away"),
  refuse: _("no"),
  asks: _("asks to come back"),
  asksNew: _("asks to come back from another browser"),
  refused: _("not let back in"),
  card: _("card"),
  cardTitle: _("joined with a class card"),
  mergeInto: _("merge into…"),
  merge: _("Merge"),
  cancel: _("Cancel"),
  mergeLabel: (name) => tr("Merge %(name)s into", { name }),
  confirmMerge: (from, into) => tr("Merge %(from)s into %(into)s? The seats, moves and results of %(from)s become those of %(into)s.", { from, into }),
  burst: (n) => nt("%(n)s student joined in the last minute.", "%(n)s students joined in the last minute.", n),
  waitingCount: (n) => nt("%(n)s student is waiting to be let in.", "%(n)s students are waiting to be let in.", n),
  confirmRemoveRecent: (n, minutes) => tr("Remove everyone who joined by name in the last %(minutes)s minutes (%(n)s)? Bots take their seats; class-card holders stay.", { n, minutes }),
  confirmTurnAway: (n) => tr("Turn away the %(n)s students who are waiting?", { n }),
  confirmRemove: (name) => tr("Remove %(name)s? A bot takes their seat.", { name }),
  claimed: _("Claimed routes"),
  noRoutes: _("no route claimed yet"),
  closest: (names) => tr("Closest to a mission: %(names)s", { names }),
  cards: (n) => nt("%(n)s card to claim", "%(n)s cards to claim", n),
  connected: _("connected: may run"),
  blocked: _("blocked"),
  completed: (name, mission) => tr("%(name)s completed %(mission)s", { name, mission }),
  startRound: (n) => tr("Start round %(n)s", { n }),
  nextRound: (n) => tr("Next round (round %(n)s)", { n }),
  roundOf: (n, method) => tr("Round %(n)s (%(method)s).", { n, method }),
  stillPlaying: (tables) => tr("Still playing: %(tables)s.", { tables }),
  roundDone: _("Every table has finished: the next round may start."),
  noRounds: _("Not running as rounds yet: the standings count every finished table."),
  roundTag: (n) => tr("round %(n)s", { n }),
  clock: _("Clock"),
  tableClock: (n) => tr("Clock at table %(number)s", { number: n }),
  teams: _("Teams"),
  team: _("Team"),
  components: _("Components"),
  turns: _("Turns"),
  won: _("Won"),
  place: _("Place"),
  nobody: _("No finished game yet."),
};
const fmt = (x) => (x === null || x === undefined ? "–" : Number.isInteger(x) ? String(x) : x.toFixed(x * 2 === Math.round(x * 2) ? 1 : 2));
const statusText = (s) => TEXT.status[s] || s;

// Ticket-to-Ride tables: the claimed routes, and each player's mission with how many cards
// they still need (the teacher only: missions are secret to the students)
function ticketBox(t) {
  const k = t.ticket;
  if (!k) return "";
  const closest = new Set(k.closest || []);
  const routes = k.claimed.length
    ? el("ul", { class: "ttr-claimed" }, k.claimed.map((r) => el("li", { "data-route": r.route, "data-owner": r.owner },
      `${r.a}–${r.b} ${r.gate === "CNOT" ? "CX" : r.gate}×${r.length} (${r.owner_name})`)))
    : el("div", { class: "muted" }, TEXT.noRoutes);
  const players = el("ul", { class: "ttr-progress" }, k.players.map((p) => el("li", {
    class: closest.has(p.seat) ? "closest" : "", "data-seat": p.seat, "data-cards-needed": p.cards_needed ?? "" },
  `${p.name}: ${p.mission} — ${p.possible ? (p.connected ? TEXT.connected : TEXT.cards(p.cards_needed)) : TEXT.blocked}`)));
  const names = k.players.filter((p) => closest.has(p.seat)).map((p) => p.name).join(", ");
  return el("div", { class: "ticket" },
    el("div", { class: "small" }, el("strong", {}, TEXT.claimed), routes),
    names ? el("div", { class: "to-act closest-line" }, TEXT.closest(names)) : "",
    players,
    (k.completed || []).map((c) => el("div", { class: "completed" }, TEXT.completed(c.name, c.mission))));
}

export function dashboard(sessionId, initial) {
  const $ = (id) => document.getElementById(id);
  const selected = new Set();
  let state = initial;
  // the teacher's own "delete" form: its answer (with its message) is the next page, not ours
  let leaving = false;
  document.addEventListener("submit", (e) => { if (!e.defaultPrevented) leaving = true; });
  const sock = connect(`/ws/sessions/${sessionId}/`, {
    onMessage(msg) {
      if (msg.type === "error") { $("dash-error").textContent = msg.message; $("dash-error").classList.remove("hidden"); return; }
      if (msg.type === "gone") { if (!leaving) location.href = "/teacher/"; return; }
      if (msg.type === "dashboard") { state = msg; received = { server: msg.now_ms, local: Date.now() }; render(); }
      if (msg.type === "tables") {  // the rows of the tables that moved (nothing else changed)
        const moved = new Map(msg.tables.map((t) => [t.match, t]));
        state = { ...state, tables: state.tables.map((t) => moved.get(t.match) || t) };
        if (msg.understanding) state.understanding = msg.understanding;
        render();
      }
    },
  });
  function send(cmd) { $("dash-error").classList.add("hidden"); sock.send(cmd); }

  document.querySelectorAll("[data-cmd]").forEach((b) => b.addEventListener("click", () => {
    const cmd = b.dataset.cmd;
    if (cmd === "seat_table") {
      const size = state.session.table_size;
      const ids = [...selected];
      if (!ids.length) { $("dash-error").textContent = _("Tick the students to seat together first."); $("dash-error").classList.remove("hidden"); return; }
      const command = { type: "seat_table", participants: ids, bots: Math.max(0, size - ids.length) };
      const map = $("table-map");  // Ticket-to-Ride: this table on a map of the class
      if (map && map.value) command.ticket_map = Number(map.value);
      send(command);
      selected.clear();
      return;
    }
    if (cmd === "lock") { send({ type: state.session.status === "locked" ? "unlock" : "lock" }); return; }
    if (cmd === "end" && !confirm(_("End the session? The join code stops working."))) return;
    send({ type: cmd });
  }));
  $("show-odds").addEventListener("change", (e) => send({ type: "show_odds", show: e.target.checked }));
  $("participant-cap").addEventListener("change", (e) => send({ type: "participant_cap", cap: Number(e.target.value) }));

  // a session filled by a script: the waiting room, a burst of joins, remove the last N minutes' joins
  $("waiting-room").addEventListener("change", (e) => send({ type: "waiting_room", on: e.target.checked }));
  $("admit-all").addEventListener("click", () => send({ type: "admit", participants: "all" }));
  $("turn-away-all").addEventListener("click", () => {
    const n = state.participants.filter((p) => p.state === "waiting").length;
    if (confirm(TEXT.confirmTurnAway(n))) send({ type: "turn_away", participants: "all" });
  });
  $("remove-recent-minutes").replaceChildren(...initial.burst.minutes.map((m) => el("option", { value: m }, nt("%(n)s minute", "%(n)s minutes", m))));
  let received = { server: initial.now_ms, local: Date.now() };
  const serverNow = () => received.server + (Date.now() - received.local);
  const joinedSince = (minutes) => state.participants.filter((p) => p.state !== "removed" && !p.card
    && p.joined_ms > serverNow() - minutes * 60000).length;
  function removeRecent(minutes) {
    if (confirm(TEXT.confirmRemoveRecent(joinedSince(minutes), minutes))) send({ type: "remove_recent", minutes });
  }
  $("remove-recent").addEventListener("click", () => removeRecent(Number($("remove-recent-minutes").value)));
  $("join-burst-remove").addEventListener("click", () => removeRecent(1));
  function renderGuard() {
    const burst = state.session.status === "ended" ? 0 : joinedSince(1);
    $("join-burst").classList.toggle("hidden", burst < state.burst.per_minute);
    $("join-burst-text").textContent = TEXT.burst(burst);
    const waiting = state.participants.filter((p) => p.state === "waiting").length;
    $("waiting-box").classList.toggle("hidden", !waiting);
    $("waiting-text").textContent = TEXT.waitingCount(waiting);
  }
  setInterval(renderGuard, 5000);  // the burst warning goes when the minute has passed
  let merging = null;  // the row whose "merge into…" is open: { id, into }

  // pace: pause / resume every table, the lesson's end ("finish in"), the clock per move
  const duration = (s) => (s % 60 === 0 ? nt("%(n)s minute", "%(n)s minutes", s / 60) : nt("%(n)s second", "%(n)s seconds", s));
  const pace0 = initial.session.pace;
  $("finish-in").replaceChildren(...pace0.finish_choices.map((s) => el("option", { value: s, selected: s === 300 }, duration(s))));
  $("move-clock").replaceChildren(el("option", { value: "" }, _("No clock")),
    ...pace0.move_choices.map((s) => el("option", { value: s }, duration(s))));
  $("pause-btn").addEventListener("click", () => send({ type: state.session.pace.paused ? "resume_all" : "pause_all" }));
  $("finish-btn").addEventListener("click", () => send({ type: "finish_in", seconds: Number($("finish-in").value) }));
  $("move-clock").addEventListener("change", (e) => send({ type: "move_clock", seconds: e.target.value ? Number(e.target.value) : null }));
  // one table's own clock per move (the toolbar's choice sets the session's and every table's)
  function tableClock(t) {
    const choices = [...pace0.move_choices];
    if (t.move_seconds && !choices.includes(t.move_seconds)) choices.push(t.move_seconds);
    const select = el("select", { "data-table-clock": t.number, "aria-label": TEXT.tableClock(t.number),
      onchange: (e) => send({ type: "move_clock", table: t.number, seconds: e.target.value ? Number(e.target.value) : null }) },
    el("option", { value: "", selected: !t.move_seconds }, _("No clock")),
    ...choices.map((c) => el("option", { value: c, selected: c === t.move_seconds }, duration(c))));
    return el("label", { class: "table-clock" }, TEXT.clock, " ", select);
  }
  const finishClock = countdown((left) => {
    $("finish-countdown").textContent = left > 0 ? PACE_TEXT.finishIn(mmss(left)) : PACE_TEXT.timeUp;
  });
  function renderPace(p) {
    $("pause-btn").textContent = p.paused ? _("Resume all tables") : _("Pause all tables");
    $("pause-btn").setAttribute("aria-pressed", p.paused ? "true" : "false");
    if (document.activeElement !== $("move-clock")) $("move-clock").value = p.move_seconds ?? "";
    const finishing = p.finish_left_ms !== null && p.finish_left_ms !== undefined;
    $("finish-countdown").classList.toggle("hidden", !finishing && !p.paused);
    finishClock.set(finishing && !p.paused ? p.finish_left_ms : null);
    if (p.paused) $("finish-countdown").textContent = PACE_TEXT.paused + (finishing ? ` · ${PACE_TEXT.finishIn(mmss(p.finish_left_ms))}` : "");
  }

  function render() {
    const s = state.session;
    $("session-status").textContent = statusText(s.status);
    $("lock-btn").textContent = s.status === "locked" ? _("Unlock") : _("Lock");
    $("show-odds").checked = s.show_odds;
    $("waiting-room").checked = s.waiting_room;
    if (document.activeElement !== $("participant-cap")) $("participant-cap").value = s.max_participants;
    $("student-count").textContent = `(${state.participants.filter((p) => !["removed", "waiting"].includes(p.state)).length})`;
    renderGuard();
    renderPace(s.pace);
    if (s.status === "ended") {
      document.querySelectorAll("[data-cmd], #pace-tools button, #pace-tools select, #join-guard button, #join-guard select, #waiting-room")
        .forEach((b) => (b.disabled = true));
      // the code and the QR stop working: take them off the board at once
      document.querySelectorAll(".qr").forEach((n) => n.remove());
      const box = document.querySelector(".join-box");
      if (box && !box.querySelector(".ended")) box.replaceChildren(el("div", { class: "join-code ended" }, TEXT.ended));
    }
    const kept = state.participants.filter((p) => p.state !== "removed");
    const mergeFocus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.mergeInto : undefined;
    if (merging && !kept.some((p) => p.id === merging.id)) merging = null;
    $("students").replaceChildren(...state.participants.map((p) => {
      const gone = p.state === "removed";
      const waiting = p.state === "waiting";
      const box = el("input", { type: "checkbox", "aria-label": tr("select %(name)s", { name: p.name }), disabled: p.table !== null || gone || waiting });
      box.checked = selected.has(p.id) && !gone && !waiting;
      box.addEventListener("change", () => (box.checked ? selected.add(p.id) : selected.delete(p.id)));
      const asking = p.comeback === "same" || p.comeback === "new";
      const note = gone && asking ? (p.comeback === "new" ? TEXT.asksNew : TEXT.asks) : gone && p.comeback === "refused" ? TEXT.refused : "";
      const act = (label, title, message, cls = "link") => el("button", { class: cls, title: `${title}: ${p.name}`, onclick: () => send(message) }, label);
      let actions;
      if (gone) {
        actions = [act(TEXT.readmit, TEXT.readmit, { type: "readmit", participant: p.id }),
          asking ? act(TEXT.refuse, TEXT.refuse, { type: "refuse_comeback", participant: p.id }, "link danger") : ""];
      } else if (waiting) {
        actions = [act(TEXT.admit, TEXT.admit, { type: "admit", participants: [p.id] }),
          act(TEXT.turnAway, TEXT.turnAway, { type: "turn_away", participants: [p.id] }, "link danger")];
      } else {
        actions = [el("button", { class: "link danger", title: `${TEXT.remove} ${p.name}`, onclick: () => {
          if (confirm(TEXT.confirmRemove(p.name))) send({ type: "remove", participant: p.id });
        } }, TEXT.remove)];
        const others = kept.filter((o) => o.id !== p.id);
        if (others.length && merging && merging.id === p.id) {
          const into = el("select", { "aria-label": TEXT.mergeLabel(p.name), "data-merge-into": p.id,
            onchange: (e) => { merging.into = Number(e.target.value); } },
          ...others.map((o) => el("option", { value: o.id, selected: o.id === merging.into }, o.name)));
          if (!others.some((o) => o.id === merging.into)) merging.into = others[0].id;
          actions.push(el("span", { class: "merge-box" }, into,
            el("button", { class: "button small", type: "button", onclick: () => {
              const target = others.find((o) => o.id === merging.into);
              if (target && confirm(TEXT.confirmMerge(p.name, target.name))) {
                send({ type: "merge", participant: p.id, into: target.id });
                merging = null;
                render();
              }
            } }, TEXT.merge),
            el("button", { class: "link", type: "button", onclick: () => { merging = null; render(); } }, TEXT.cancel)));
        } else if (others.length) {
          actions.push(el("button", { class: "link", title: `${TEXT.mergeInto} ${p.name}`, onclick: () => { merging = { id: p.id, into: null }; render(); } }, TEXT.mergeInto));
        }
      }
      return el("li", { class: `student ${p.state}${asking ? " asking" : ""}`, "data-participant": p.id, "data-state": p.state,
        "data-comeback": p.comeback || "" },
        box, el("span", { class: "name" }, p.name, p.card ? el("span", { class: "pill card", title: TEXT.cardTitle }, TEXT.card) : ""),
        el("span", { class: "muted state" }, TEXT.state[p.state] + (p.table ? ` · ${TEXT.table(p.table)}` : "") + (note ? ` · ${note}` : "")),
        ...actions);
    }));
    if (mergeFocus) { const again = $("students").querySelector(`[data-merge-into="${mergeFocus}"]`); if (again) again.focus(); }
    const clockFocus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.tableClock : undefined;
    $("tables").replaceChildren(...state.tables.map((t) => {
      const scores = t.outcome ? t.outcome.scores : null;
      const acting = (t.to_act || []).map((i) => (t.seats.find((x) => x.index === i) || { name: tr("seat %(n)s", { n: i }) }).name);
      return el("div", { class: `table-card ${t.status}`, "data-table": t.number, "data-status": t.status },
        el("h3", {}, TEXT.tableTitle(t.number), el("span", { class: "pill status" }, statusText(t.status)),
          t.round ? el("span", { class: "pill round" }, TEXT.roundTag(t.round)) : ""),
        el("ul", {}, t.seats.map((seat) => el("li", { class: "seat" + ((t.to_act || []).includes(seat.index) ? " acting" : ""), "data-seat": seat.index },
          seat.name + (scores ? ` — ${scores[seat.index]}` : "")))),
        el("div", { class: "muted moves" }, TEXT.moves(t.moves)),
        t.summary ? el("div", { class: "summary", "data-components": t.summary.facts.components ?? "" }, t.summary.text) : "",
        acting.length ? el("div", { class: "to-act" }, TEXT.toAct(acting.join(", "))) : "",
        ticketBox(t),
        ["waiting", "playing"].includes(t.status) && s.status !== "ended" ? tableClock(t) : "",
        el("a", { class: "button small", href: t.watch_url, target: "_blank" }, _("Watch")), " ",
        ["finished", "abandoned"].includes(t.status) && t.moves ? el("a", { class: "button small secondary", href: t.replay_url, target: "_blank" }, _("Replay")) : "");
    }));
    if (clockFocus) { const again = $("tables").querySelector(`[data-table-clock="${clockFocus}"]`); if (again) again.focus(); }
    renderRounds();
    renderUnderstanding();
  }

  // what each student understood: the concept evidence of their moves, counted, filled in live
  function renderUnderstanding() {
    const u = state.understanding;
    if (!u) return;
    $("evidence-live-none").classList.toggle("hidden", u.students.length > 0);
    $("evidence-live").classList.toggle("hidden", !u.students.length);
    $("evidence-live").querySelector("thead tr").replaceChildren(el("th", { scope: "col" }, _("Student")),
      ...u.concepts.map((c) => el("th", { scope: "col", "data-concept": c.key }, c.name)));
    $("evidence-live").querySelector("tbody").replaceChildren(...u.students.map((row) => el("tr", { "data-participant": row.participant },
      el("th", { scope: "row" }, row.name),
      ...row.cells.map(([shows, mis, help], i) => {
        const said = [shows ? nt("%(n)s move showed it", "%(n)s moves showed it", shows) : "",
          mis ? nt("%(n)s misconception", "%(n)s misconceptions", mis) : "", help ? _("may need help") : ""].filter(Boolean);
        return el("td", { class: help ? "ev-help-cell" : "", "data-concept": u.concepts[i].key, "data-shows": shows, "data-misconception": mis },
          el("span", { "aria-hidden": "true" }, shows ? el("span", { class: "ev-shows" }, `✓${shows}`) : "",
            mis ? el("span", { class: "ev-mis" }, ` ✗${mis}`) : "", help ? " ⚑" : "", !shows && !mis ? "·" : ""),
          el("span", { class: "sr-only" }, said.length ? said.join(", ") : _("no evidence")));
      }))));
  }

  // the rounds control and the live standings (public facts only: names, points, tie-breaks)
  function renderRounds() {
    const r = state.rounds;
    const st = state.standings;
    if (!r || !st) return;
    $("next-round").textContent = r.round ? TEXT.nextRound(r.round + 1) : TEXT.startRound(1);
    $("next-round").disabled = state.session.status === "ended";
    const playing = r.playing.map((n) => TEXT.tableTitle(n)).join(", ");
    const head = r.round ? TEXT.roundOf(r.round, r.method_name) + " " : "";
    $("round-status").textContent = head + (playing ? TEXT.stillPlaying(playing) : r.round ? TEXT.roundDone : TEXT.noRounds);
    const luck = st.students.some((x) => x.luck !== null);
    document.querySelectorAll(".luck-col").forEach((n) => n.classList.toggle("hidden", !luck));
    $("standings").querySelector("tbody").replaceChildren(...st.students.map((x) => el("tr", { "data-participant": x.participant, "data-place": x.place },
      el("td", {}, String(x.place)), el("th", { scope: "row" }, x.name), el("td", { class: "points" }, fmt(x.points)),
      el("td", {}, String(x.played)), el("td", {}, `${x.won}/${x.drawn}/${x.lost}`), el("td", {}, String(x.byes)),
      el("td", {}, fmt(x.tiebreaks.buchholz)), el("td", {}, fmt(x.tiebreaks.sonneborn_berger)),
      luck ? el("td", {}, x.luck === null ? "–" : (x.luck > 0 ? "+" : "") + x.luck.toFixed(2)) : "")));
    $("teams").replaceChildren(...(st.teams.length ? [el("table", { class: "data standings", id: "team-standings" },
      el("caption", {}, TEXT.teams),
      el("thead", {}, el("tr", {}, [TEXT.place, TEXT.team, TEXT.components, TEXT.turns, TEXT.won].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, st.teams.map((tm) => el("tr", { "data-place": tm.place },
        el("td", {}, String(tm.place)), el("th", { scope: "row" }, tm.names.join(" + ")),
        el("td", {}, fmt(tm.components)), el("td", {}, fmt(tm.turns)), el("td", {}, `${tm.won}/${tm.played}`)))))] : []));
  }
  render();
}

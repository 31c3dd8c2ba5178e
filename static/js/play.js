// The live match page: one socket, the game's board module renders the seat's view.
import { _, t } from "./i18n.js";
import { connect, el, namedSeats, seatSide } from "./live.js";
import { applyPatch } from "./patch.js";
import { countdown, mmss, PACE_TEXT } from "./pace.js";

const TEXT = {
  removed: _("Your teacher removed you from this session."),
  ended: _("The class session has ended. Thanks for playing!"),
  nextTable: (table) => t("Your next game is ready at %(table)s.", { table }),
  goTable: _("Go to my table"),
  replays: _("Your replays"),
  thisReplay: _("Replay of this game"),
  measuring: _("Measuring…"),
};
const LOG_LINES = 1000;
const SIGNAL_LINES = 6;
// a reader who asks for less motion: no animation, so nothing to wait for before the result
const REDUCED_MOTION = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
// what a student can act on in a board: where the focus goes back after a move
const ACTIONABLE = "button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select:not([disabled]), "
  + "[role=button][tabindex='0']:not([aria-disabled=true]), [tabindex='0']";

// sentences said one after the other: a full stop between them, never two ("… H.. Rubicon …")
export function joinSentences(lines) {
  return lines.map((l) => String(l || "").trim()).filter(Boolean)
    .map((l, k, all) => (k < all.length - 1 && !/[.!?…:;]$/.test(l) ? `${l}.` : l)).join(" ");
}

export async function play({ matchId, boardUrl, replayUrl, lobbyUrl, spectator, sessionSocket }) {
  const $ = (id) => document.getElementById(id);
  const { createBoard } = await import(boardUrl);
  let current = null;
  let awaiting = null;  // the seq of the move sent and not answered yet
  let resultTimer = null; // the result waits for the board's measurement animation
  const previews = new Map(); // JSON of an action → resolvers waiting for its preview
  // after the first state the server sends what changed (a patch of the state before): ``held``
  // is that state as sent, untouched by the page; window.matchState() gives a copy (what a fresh
  // load of the page would be sent, but for its history of events)
  let held = null;
  window.matchState = () => structuredClone(held);
  const sock = connect(`/ws/matches/${matchId}/?patches=1`, { onMessage: onWire, onStatus });
  // a student's page also follows the class session: removal and the end of the session
  const session = sessionSocket ? connect(sessionSocket, { onMessage: onSession }) : null;
  // the page's one live region: the boards say their news and previews through it too
  const say = (text) => { if (text) $("announce").textContent = text; };
  const board = createBoard($("board"), {
    say,
    act(action) {
      if (!current) return;
      $("error").classList.add("hidden");
      if (sock.send({ type: "act", seq: current.seq, action }, { queue: false })) awaiting = current.seq;
      else showError(_("Not connected: reconnecting, try again in a moment."));
    },
    // the board's prompt changed without a new state (a card or a first square picked)
    promptChanged() { if (current) { renderTurn(current, settleMs()); restoreFocus(current); } },
    // what an action would do, without doing it: resolves to {ok, result} or {ok: false, code, message}
    preview(action) {
      return new Promise((resolve) => {
        const key = JSON.stringify(action);
        if (!previews.has(key)) previews.set(key, []);
        previews.get(key).push(resolve);
        if (!sock.send({ type: "preview", action }, { queue: false })) {
          previews.delete(key);
          resolve({ ok: false, code: "offline", message: _("Not connected.") });
        }
      });
    },
  });

  const settleMs = () => (REDUCED_MOTION.matches || !board.settleMs ? 0 : board.settleMs());

  // the keyboard focus after a move: the played control is drawn anew (or is gone), and the
  // focus would fall to the page; it goes back where the student acts next: the board's own
  // choice (``focusTarget``), else its first control, else the board itself (a Tab stop away
  // from its controls), from where the next turn's first control takes it
  // (wanted while the student's focus is in the board: until it goes elsewhere, by Tab or a tap)
  let focusWanted = false;
  $("board").setAttribute("tabindex", "-1");
  document.addEventListener("focusin", (e) => { focusWanted = $("board").contains(e.target); });
  document.addEventListener("pointerdown", (e) => { if (!$("board").contains(e.target)) focusWanted = false; });
  function restoreFocus(msg) {
    const area = $("board");
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (!focusWanted || !(lost || active === area)) return;
    const visible = (n) => n && n.getClientRects().length > 0 && !n.closest("[hidden], .hidden");
    const own = board.focusTarget ? board.focusTarget(msg) : null;
    const target = (visible(own) && own) || [...area.querySelectorAll(ACTIONABLE)].find(visible) || null;
    // (the board's own way when it has one: a preview the focus brings is then not said)
    if (target) (board.focusQuietly || ((n) => n.focus({ preventScroll: true })))(target);
    else if (lost) area.focus({ preventScroll: true });  // the next state brings the controls
  }

  // paused by the teacher: the board's controls are disabled and a tap or a key on the board
  // does nothing but say so (the turn line, where the student is looking, says it too)
  const boardArea = $("board");
  let paused = false;
  const CONTROLS = "button, input, select, textarea";
  const SVG_CONTROLS = "[role=button]";
  function lockControls() {
    for (const n of boardArea.querySelectorAll(CONTROLS)) {
      if (!n.disabled) { n.disabled = true; n.dataset.pauseDisabled = "1"; }
    }
    for (const n of boardArea.querySelectorAll(SVG_CONTROLS)) {
      if (n.getAttribute("aria-disabled") !== "true") { n.setAttribute("aria-disabled", "true"); n.dataset.pauseDisabled = "1"; }
    }
  }
  function unlockControls() {
    for (const n of boardArea.querySelectorAll("[data-pause-disabled]")) {
      if (n.matches(CONTROLS)) n.disabled = false;
      else n.removeAttribute("aria-disabled");
      delete n.dataset.pauseDisabled;
    }
  }
  // the board draws itself again now and then (a hover, a preview): its new controls stay locked
  const relock = new MutationObserver(() => { if (paused) lockControls(); });
  function setPaused(on) {
    paused = on;
    boardArea.classList.toggle("paused", on);
    boardArea.setAttribute("aria-disabled", on ? "true" : "false");
    if (on) { lockControls(); relock.observe(boardArea, { childList: true, subtree: true }); } else { relock.disconnect(); unlockControls(); }
  }
  function refusePaused(e) {
    if (!paused) return;
    if (e.type === "keydown" && !["Enter", " "].includes(e.key)) return;
    e.preventDefault();
    e.stopPropagation();
    const turn = $("turn");
    turn.classList.remove("nudge");
    void turn.offsetWidth;  // restart the nudge
    turn.classList.add("nudge");
  }
  for (const type of ["click", "keydown", "pointerdown"]) boardArea.addEventListener(type, refusePaused, true);

  // quick signals (co-op games): predefined phrases to the partner, no free text
  const signals = $("signals");
  if (signals) {
    signals.querySelectorAll("[data-phrase]").forEach((b) => b.addEventListener("click", () => {
      $("error").classList.add("hidden");
      if (!sock.send({ type: "signal", phrase: b.dataset.phrase }, { queue: false })) showError(_("Not connected: reconnecting, try again in a moment."));
    }));
  }
  function showSignal(who, text, mine) {
    const log = $("signal-log");
    if (!log) return;
    log.append(el("p", { class: "signal-line" + (mine ? " mine" : "") }, el("b", {}, who + ": "), text));
    if (!mine) say(`${who}: ${text}`);  // heard in the page's one live region
    while (log.childElementCount > SIGNAL_LINES) log.firstChild.remove();
  }

  function onStatus(status) {
    const text = { live: _("live"), reconnecting: _("reconnecting…"), refused: _("no access") }[status] || status;
    $("conn").textContent = text;
    $("conn").className = "pill " + status;
    // (no "sync" here: a socket's first message, which makes it live, is the whole state already;
    // asking again built this seat's view twice on every page load and reconnect, and drew the
    // board again under a finger about to tap it)
  }
  function showError(message) { $("error").textContent = message; $("error").classList.remove("hidden"); }

  function onWire(msg) {
    if (msg.type === "patch") {
      if (!held || msg.n !== held.n + 1) { held = null; sock.send({ type: "sync" }); return; }  // one was missed
      held = applyPatch(held, msg.ops);  // (``held`` is never handed to the page: a copy is)
      onMessage(structuredClone(held));
      return;
    }
    if (msg.type === "state") held = structuredClone(msg);
    onMessage(msg);
  }

  // what a board is drawn from: the same state sent again (a pause, a resume, a clock set, a new
  // socket) leaves the board as it is, a card or square under a finger included; the clock, the
  // log and the socket's numbering are drawn by this page
  const DRAWN_FROM = ["status", "seat", "seats", "view", "to_act", "legal", "outcome", "analysis"];

  function onMessage(msg) {
    if (msg.type === "preview") {
      const key = JSON.stringify(msg.action);
      const waiting = previews.get(key) || [];
      previews.delete(key);
      waiting.forEach((resolve) => resolve(msg));
      return;
    }
    if (msg.type === "signal") { showSignal(current ? seatName(current, msg.seat) : `seat ${msg.seat}`, msg.text, false); return; }
    if (msg.type === "signal_sent") { showSignal(signals ? signals.dataset.you : "You", msg.text, true); return; }
    if (msg.type === "error" && msg.code === "removed") { showRemoved(); return; }
    if (msg.type === "error" && msg.seq === awaiting) awaiting = null;
    if (msg.type === "error") { showError(msg.message); if (msg.code === "stale") sock.send({ type: "sync" }); return; }
    if (msg.type !== "state") return;
    if (awaiting !== null && (msg.seq > awaiting || msg.history)) {
      // the connection dropped before the move was answered: a new socket's state says whether it counted
      if (msg.seq <= awaiting) showError(_("The connection dropped before your move reached the server: it was not applied. Try again."));
      awaiting = null;
    }
    const fresh = !current || msg.seq !== current.seq;
    // only a change seen live is animated (a page opened on a finished game shows its result at once)
    const animate = !!current && fresh;
    const redraw = fresh || DRAWN_FROM.some((k) => JSON.stringify(msg[k]) !== JSON.stringify(current[k]));
    current = msg;
    const turnBefore = $("turn").textContent;
    if (redraw) board.render(msg, { animate });
    renderPlayers(msg);
    renderTurn(msg, settleMs());
    if (msg.history) renderHistory(msg.history);  // a new socket: the whole log so far
    else if (fresh) renderLog(msg.events);
    const paceSaid = renderPace(msg);
    setPaused(isPaused(msg));
    restoreFocus(msg);
    // one announcement per move, in the one live region: the pace, the move's news, the turn
    const news = animate ? announcement(msg) : "";
    const turnNow = $("turn").textContent;
    const said = joinSentences([paceSaid, news, animate && turnNow !== turnBefore ? turnNow : ""]);
    if (said) $("announce").textContent = said;
  }

  // the pace: "Paused", the clock of the seat(s) to act and the countdown to the lesson's end
  // (text and a bar, not colour alone; said to screen readers once, and at 10 s left for your move)
  const isPaused = (msg) => !!(msg.status === "playing" && !msg.outcome && msg.clock && msg.clock.paused);
  let paceWas = { paused: false, finishing: false };
  let warned = null;  // the seq at which "10 seconds left" was said
  const moveClock = countdown((left) => {
    const clock = current && current.clock;
    if (!clock) return;
    const mine = current.seat !== null && current.to_act.includes(current.seat);
    const time = mmss(left);
    $("pace-move-text").textContent = mine ? PACE_TEXT.yourTime(time)
      : PACE_TEXT.theirTime(current.to_act.map((i) => seatName(current, i)).join(", "), time);
    $("pace-move-fill").style.width = `${Math.min(100, (100 * left) / (clock.move_seconds * 1000))}%`;
    const low = left <= 10000;
    $("pace-move").classList.toggle("low", low);
    if (low && mine && left > 0 && clock.move_seconds > 10 && warned !== current.seq) {
      warned = current.seq;
      $("announce").textContent = PACE_TEXT.tenLeft;
    }
  });
  const finishClock = countdown((left) => {
    $("pace-finish-text").textContent = left > 0 ? PACE_TEXT.finishIn(mmss(left)) : PACE_TEXT.timeUp;
  });
  function renderPace(msg) {
    const clock = msg.status === "playing" && !msg.outcome ? msg.clock : null;
    const paused = !!(clock && clock.paused);
    const moving = !!(clock && clock.move_left_ms !== null && clock.move_left_ms !== undefined);
    const finishing = !!(clock && clock.finish_left_ms !== null && clock.finish_left_ms !== undefined);
    // the turn line says "Paused" where the student looks: the pace box only keeps the times
    $("pace").classList.toggle("hidden", !clock || (paused && !moving && !finishing));
    $("pace").classList.toggle("paused", paused);
    $("pace-paused").classList.add("hidden");
    $("pace-paused").textContent = paused ? `${PACE_TEXT.paused}. ${PACE_TEXT.pausedHint}` : "";
    $("pace-move").classList.toggle("hidden", !moving);
    $("pace-finish").classList.toggle("hidden", !finishing);
    $("pace-rule").textContent = finishing ? clock.finish_rule || "" : "";
    // frozen while paused: the time left is shown, not counted down
    moveClock.set(moving && !paused ? clock.move_left_ms : null);
    finishClock.set(finishing && !paused ? clock.finish_left_ms : null);
    if (moving && paused) $("pace-move-text").textContent = `${PACE_TEXT.paused}: ${mmss(clock.move_left_ms)}`;
    if (finishing && paused) $("pace-finish-text").textContent = PACE_TEXT.finishIn(mmss(clock.finish_left_ms));
    // what changed in the pace, for the live region (said before the board's news)
    const said = [];
    if (paused !== paceWas.paused) said.push(paused ? `${PACE_TEXT.paused}.` : _("Resumed: play on."));
    if (finishing && !paceWas.finishing) said.push(`${PACE_TEXT.finishIn(mmss(clock.finish_left_ms))} ${clock.finish_rule || ""}`);
    paceWas = { paused, finishing };
    return said.join(" ");
  }

  function notice(text, links = []) {
    const box = $("session-notice");
    // the same notice again (the session's news comes more than once): left as it is, so that a
    // link is never drawn anew under a finger about to tap it
    const key = JSON.stringify([text, links]);
    if (box.dataset.key === key && !box.classList.contains("hidden")) return;
    box.dataset.key = key;
    box.replaceChildren(el("strong", {}, text), ...links.flatMap((l) => [" ", el("a", { class: "button small secondary", href: l.href }, l.text)]));
    box.classList.remove("hidden");
  }
  function showRemoved() {
    sock.close();
    if (session) session.close();
    notice(TEXT.removed);
    $("board").classList.add("hidden");
    $("turn").textContent = "";
    $("conn").textContent = "—";
  }
  function onSession(p) {
    if (p.type !== "lobby") return;
    if (p.moved) { location.href = p.lobby_url; return; }  // merged into another row: the lobby makes it so
    if (p.removed) { showRemoved(); return; }
    // a new round (or a new table) seated this student elsewhere: say so, with the way there
    if (p.match && p.match !== matchId && ["waiting", "playing"].includes(p.match_status) && p.play_url) {
      notice(TEXT.nextTable(p.table), [{ href: p.play_url, text: TEXT.goTable }]);
      return;
    }
    if (p.status === "ended") {
      notice(TEXT.ended, [{ href: replayUrl, text: TEXT.thisReplay }].concat(lobbyUrl ? [{ href: lobbyUrl, text: TEXT.replays }] : []));
      session.close();
    }
  }

  function seatName(msg, i) { const s = msg.seats.find((x) => x.index === i); return s ? s.name : t("seat %(n)s", { n: i }); }

  function renderPlayers(msg) {
    const box = $("players");
    box.replaceChildren(...msg.seats.map((s) => el("span", {
      class: "player" + (msg.to_act.includes(s.index) ? " acting" : "") + (s.index === msg.seat ? " me" : ""),
      "data-seat": s.index,
      "aria-current": msg.to_act.includes(s.index) ? "true" : null,  // whose turn: not by colour alone
    }, sideLabel(msg, s.index) + s.name + (s.index === msg.seat ? " " + _("(you)") : ""))));
  }
  function sideLabel(msg, i) {
    const side = board.seatLabel ? board.seatLabel(i, msg) : seatSide(msg.view, i);
    return side ? `${side} — ` : "";
  }

  function renderTurn(msg, settleMs = 0) {
    const turn = $("turn");
    const result = $("result");
    clearTimeout(resultTimer);
    if (msg.outcome) {
      turn.classList.remove("mine");
      if (settleMs > 0) {
        // measuring on the board: the verdict would give the animation away
        turn.textContent = TEXT.measuring;
        result.classList.add("hidden");
        resultTimer = setTimeout(() => renderTurn(msg), settleMs);
        return;
      }
      turn.textContent = _("Game over");
      const scores = msg.outcome.scores || [];
      const winners = msg.outcome.winners || [];
      const line = msg.seats.map((s) => `${s.name}: ${scores[s.index] ?? "–"}`).join(" · ");
      const who = winners.map((w) => seatName(msg, w)).join(", ");
      // a co-operative game's board says it its own way (won or lost together)
      const own = board.verdict ? board.verdict(msg.outcome, msg.seats) : null;
      const verdict = own || (winners.length === 0 ? _("A draw.") : winners.length > 1 ? t("%(names)s win!", { names: who }) : t("%(name)s wins!", { name: who }));
      result.replaceChildren(el("h2", {}, verdict), el("p", { class: "scores" }, line),
        el("a", { class: "button", href: replayUrl }, _("Open the replay")), " ",
        lobbyUrl ? el("a", { class: "button secondary", href: lobbyUrl }, _("Back to the lobby (next game)")) : "");
      result.classList.remove("hidden");
      return;
    }
    result.classList.add("hidden");
    if (msg.status === "waiting") { turn.textContent = _("Waiting for the teacher to start this table…"); return; }
    if (msg.status === "abandoned") { turn.textContent = _("This match was stopped by the teacher."); return; }
    if (isPaused(msg)) {
      // paused: said where the student looks, whoever's turn it is
      turn.textContent = `${PACE_TEXT.paused}. ${PACE_TEXT.pausedHint}`;
      turn.classList.remove("mine");
      turn.classList.add("paused");
      return;
    }
    turn.classList.remove("paused", "nudge");
    const names = msg.to_act.map((i) => seatName(msg, i));
    const mine = msg.seat !== null && msg.to_act.includes(msg.seat);
    const hint = board.prompt ? board.prompt(msg) : "";
    turn.textContent = mine ? `${_("Your turn.")} ${hint}` : t("Waiting for %(names)s…", { names: names.join(", ") });
    turn.classList.toggle("mine", mine);
  }

  // what changed, said to screen readers (a live region): the board's own sentences built from
  // the events' fields where it has them, the events' texts otherwise
  function announcement(msg) {
    const lines = board.announce ? board.announce(msg) : (msg.events || []).map((e) => e.text).filter(Boolean);
    // a move the clock forced is said first, whatever the board says about the move itself
    const forced = (msg.events || []).filter((e) => e.code === "timed_out" && e.text).map((e) => e.text);
    if (board.announce) lines.unshift(...forced);
    return joinSentences(lines.map((t) => namedSeats(t, msg.seats)));
  }

  // the whole log so far, rebuilt by the server from the stored moves (on opening and reconnecting)
  function renderHistory(events) {
    $("log").replaceChildren();
    renderLog(events);
  }
  function renderLog(events) {
    const log = $("log");
    for (const e of events || []) {
      if (!e.text) continue;
      const text = current ? namedSeats(e.text, current.seats) : e.text;
      log.prepend(el("div", { class: "log-line " + (e.type || "") }, text));
    }
    while (log.childElementCount > LOG_LINES) log.lastChild.remove();
  }
}

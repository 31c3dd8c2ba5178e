// Step back and forth through every move of a finished match, rebuilt by the engine. The address
// may name the step to open (?step=N: the board after the N-th move). The projector's debrief
// replays a few steps of one moment (``moment``: the seq of its move), saying which step is the
// state before the move and which the state after it.
import { _, t } from "./i18n.js";
import { el, namedSeats, seatSide } from "./live.js";

export async function replay({ boardUrl, frames, seats, outcome, moment = null }) {
  const $ = (id) => document.getElementById(id);
  const { createBoard } = await import(boardUrl);
  const board = createBoard($("board"), { act() {} });
  let i = 0;
  const scrub = $("scrub");
  scrub.max = frames.length - 1;
  // the players, with the side each one plays where the game names sides ("X — Ada")
  $("replay-players").replaceChildren(...seats.map((s) => {
    const side = seatSide(frames[0].view, s.index) || (board.seatLabel ? board.seatLabel(s.index, { view: frames[0].view }) : "");
    return el("span", { class: "player", "data-seat": s.index }, (side ? `${side} — ` : "") + s.name);
  }));
  function show(k, animate) {
    i = Math.max(0, Math.min(frames.length - 1, k));
    const f = frames[i];
    const last = i === frames.length - 1;
    board.render({ view: f.view, legal: [], seat: null, to_act: [], events: f.events, outcome: last ? outcome : null,
                   replay: true, seats }, { animate });
    $("step").textContent = t("step %(i)s / %(n)s", { i: f.seq, n: frames[frames.length - 1].seq });
    if (moment !== null && $("moment-phase")) {
      $("moment-phase").textContent = f.seq === moment ? _("Before the move") : f.seq === moment + 1 ? _("After the move") : "";
      $("moment-phase").classList.toggle("hidden", f.seq !== moment && f.seq !== moment + 1);
    }
    const said = f.events.map((e) => e.text).filter(Boolean).map((t) => namedSeats(t, seats)).join(" · ");
    $("step-text").textContent = f.seq === 0 ? _("The start.") : said || (f.action ? JSON.stringify(f.action) : "");
    $("step-text").classList.toggle("timed-out", !!f.timed_out);  // the clock's move: its text says so
    if (last && outcome) $("step-text").textContent += " · " + verdict(outcome);
    scrub.value = i;
  }
  function verdict(o) {
    const own = board.verdict ? board.verdict(o, seats) : null;  // a co-operative game's own words
    if (own) return own;
    const winners = o.winners || [];
    const scores = seats.map((s) => `${s.name}: ${(o.scores || [])[s.index] ?? "–"}`).join(", ");
    if (!winners.length) return t("A draw (%(scores)s).", { scores });
    const names = winners.map((w) => (seats.find((s) => s.index === w) || { name: t("seat %(n)s", { n: w }) }).name).join(", ");
    return t("%(names)s won (%(scores)s).", { names, scores });
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(i - 1);
  $("next").onclick = () => show(i + 1, true);
  $("last").onclick = () => show(frames.length - 1);
  scrub.oninput = () => show(Number(scrub.value));
  document.addEventListener("keydown", (e) => {
    // the slider and the board's own squares use the arrows themselves
    if (e.target.closest && e.target.closest("input, select, textarea, [role=button]")) return;
    if (e.key === "ArrowLeft") show(i - 1);
    if (e.key === "ArrowRight") show(i + 1, true);
  });
  const asked = moment !== null ? moment : Number(new URLSearchParams(location.search).get("step"));
  const at = frames.findIndex((f) => f.seq === asked);
  show(at > 0 ? at : 0);
}

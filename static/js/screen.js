// The projector view: join code while the lobby is open, then live standings, the tables'
// results and the teaching moments of the games, and a podium at the end. Read-only: its
// socket (/ws/sessions/<id>/screen/) only receives the public screen payload.
import { _, nt, tr } from "./i18n.js";
import { connect, el, namedSeats } from "./live.js";

const STATUS = { waiting: _("waiting to start"), playing: _("playing"), finished: _("finished"), abandoned: _("abandoned") };
// a place shared by a tie says so (in the standings, on the podium)
const TIED = _("tied");
const placeWords = (place, tied) => (tied ? tr("Place %(n)s, tied", { n: place }) : tr("Place %(n)s", { n: place }));
const sharedPlaces = (rows) => {
  const count = {};
  for (const r of rows) count[r.place] = (count[r.place] || 0) + 1;
  return new Set(Object.keys(count).filter((p) => count[p] > 1).map(Number));
};
const number = (x) => (x === null || x === undefined ? "–" : String(Math.round(x * 100) / 100));
const signed = (x) => (x === null || x === undefined ? "–" : (x > 0 ? "+" : x < 0 ? "−" : "") + number(Math.abs(x)));

export function screen(sessionId, initial) {
  const $ = (id) => document.getElementById(id);
  let shown = new Set((initial.moments || []).map((m) => m.id));
  let current = initial;
  connect(`/ws/sessions/${sessionId}/screen/`, {
    onMessage(msg) {
      if (msg.type === "screen") render(msg, true);
      else if (msg.type === "moments") render({ ...current, moments: msg.moments }, true);  // a move: nothing else changed
      else if (msg.type === "gone") { $("screen-offline").textContent = msg.message; $("screen-offline").classList.remove("hidden"); }
    },
    onStatus(status) {
      $("screen-offline").textContent = status === "reconnecting" ? _("Reconnecting…") : status === "refused" ? _("Only this session's teacher can open the projector view.") : "";
      $("screen-offline").classList.toggle("hidden", status === "live");
    },
  });

  const full = $("screen-fullscreen");
  if (!document.fullscreenEnabled) full.classList.add("hidden");
  full.addEventListener("click", () => (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()));

  function seatsOf(state, number) {
    const table = state.tables.find((t) => t.number === number);
    return table ? table.seats.map((s, index) => ({ index, name: s.name })) : [];
  }

  function render(state, live) {
    current = state;
    $("screen").dataset.phase = state.phase;
    const round = state.session.round;
    $("screen-round").textContent = round ? tr("Round %(n)s", { n: round }) : "";
    const join = $("screen-join");
    if (join) join.classList.toggle("hidden", state.phase !== "lobby");
    // once play has started, the code and QR stay in a corner while students may still join
    const corner = $("screen-join-corner");
    if (corner) corner.classList.toggle("hidden", state.phase === "lobby" || state.session.status !== "open");
    if ($("screen-joined")) $("screen-joined").textContent = nt("%(n)s student has joined", "%(n)s students have joined", state.joined);

    $("screen-podium").classList.toggle("hidden", state.phase !== "podium");
    const podiumTies = sharedPlaces(state.podium);
    $("podium").replaceChildren(...state.podium.map((p) => el("li", { class: `podium-step place-${p.place}`, "data-place": p.place, "data-tied": podiumTies.has(p.place) ? "1" : null },
      el("span", { class: "podium-place" }, placeWords(p.place, podiumTies.has(p.place))),
      el("span", { class: "podium-name" }, p.name),
      el("span", { class: "podium-points" }, nt("%(n)s point", "%(n)s points", Number.isInteger(p.points) ? p.points : 2, { n: number(p.points) })))));

    const rows = state.students.filter((s) => s.played || state.phase !== "lobby");
    const ties = sharedPlaces(rows);
    $("standings").tBodies[0].replaceChildren(...rows.map((s) => el("tr", { "data-place": s.place, "data-tied": ties.has(s.place) ? "1" : null },
      el("td", { class: "place" }, String(s.place), ties.has(s.place) ? el("span", { class: "tied" }, ` ${TIED}`) : ""),
      el("th", { scope: "row" }, s.name), el("td", { class: "points" }, number(s.points)),
      el("td", {}, String(s.won)), el("td", {}, String(s.played)),
      state.luck ? el("td", { class: "luck" }, signed(s.luck)) : "")));

    $("screen-tables").replaceChildren(...state.tables.map((t) => el("li", { "data-table": t.number, "data-status": t.status },
      el("strong", {}, tr("Table %(number)s", { number: t.number })), " ",
      el("span", { class: "pill" }, STATUS[t.status] || t.status), " ",
      t.seats.map((s) => (s.points === null ? s.name : `${s.name} ${number(s.points)}`)).join(" · "),
      t.winners.length ? el("span", { class: "winners" }, " — " + tr("won by %(names)s", { names: t.winners.join(", ") })) : "")));

    const fresh = [];
    $("moments").replaceChildren(...state.moments.map((m) => {
      const text = namedSeats(m.text, seatsOf(state, m.table));
      if (!shown.has(m.id)) fresh.push(text);
      return el("li", { "data-moment": m.id, "data-kind": m.kind, class: shown.has(m.id) ? "" : "new" },
        el("strong", {}, tr("Table %(number)s", { number: m.table }) + ": "), text);
    }));
    if (!state.moments.length) $("moments").append(el("li", { class: "muted" }, _("Moments from the games appear here as they happen.")));
    shown = new Set(state.moments.map((m) => m.id));
    if (live && fresh.length) $("announce").textContent = fresh.join(" ");
    if (live && state.phase === "podium" && state.podium.length) {
      $("announce").textContent = state.podium.map((p) => `${placeWords(p.place, podiumTies.has(p.place))}: ${p.name}`).join(". ");
    }
  }
  render(initial, false);
}

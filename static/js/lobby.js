import { _, t } from "./i18n.js";
import { connect, el } from "./live.js";

const TEXT = {
  gone: _("This session is no longer available."),
  ended: _("The class session has ended. Thanks for playing!"),
  replays: _("Your replays:"),
  waitingStart: (table) => t("You are at %(table)s. Waiting for the teacher to start…", { table }),
  over: _("Your game is over. Waiting for your teacher to seat you for the next game…"),
  waitingSeat: _("Waiting for your teacher to seat you at a table…"),
  goTable: _("Go to my table"),
  lastGame: _("See my last game"),
  round: (round) => t("Round %(round)s.", { round }),
  standing: (place, of, points) => t("You are number %(place)s of %(of)s, with %(points)s points.", { place, of, points }),
};

export function lobby(sessionId, initial) {
  const status = document.getElementById("lobby-status");
  // a screen reader hears the changes ("You are at table 2…") without looking for them
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const go = document.getElementById("lobby-go");
  const replays = document.getElementById("lobby-replays");
  const standing = document.getElementById("lobby-standing");
  let sock = null;
  function show(p) {
    // the teacher merged this student's two rows: the lobby's page makes this browser the kept one
    if (p.moved) { location.href = p.lobby_url; return; }
    // removed (and maybe asking to come back: the page changes when the teacher lets them in)
    if (p.type === "gone" || p.removed) { status.textContent = p.message || TEXT.gone; go.classList.add("hidden"); return; }
    if (p.type !== "lobby") return;
    if (p.waiting_room) { status.textContent = p.message; go.classList.add("hidden"); standing.classList.add("hidden"); return; }
    // the student's own line of the standings: place and points (public facts only)
    const mine = p.standing;
    standing.classList.toggle("hidden", !mine);
    if (mine) standing.textContent = (mine.round ? TEXT.round(mine.round) + " " : "") + TEXT.standing(mine.place, mine.of, mine.points);
    if (p.status === "ended") {
      status.textContent = TEXT.ended;
      go.classList.add("hidden");
      const list = p.replays || [];
      replays.replaceChildren(...(list.length ? [el("p", {}, TEXT.replays),
        el("ul", {}, list.map((r) => el("li", {}, el("a", { class: "replay-link", href: r.url }, r.table))))] : []));
      if (sock) sock.close();
      return;
    }
    else if (p.match && p.match_status === "playing") { location.href = p.play_url; return; }
    else if (p.match && p.match_status === "waiting") { status.textContent = TEXT.waitingStart(p.table); }
    else if (p.match) { status.textContent = TEXT.over; }
    else { status.textContent = TEXT.waitingSeat; }
    if (p.match) { go.href = p.play_url; go.textContent = p.match_status === "waiting" ? TEXT.goTable : TEXT.lastGame; go.classList.remove("hidden"); }
  }
  show(initial);
  sock = connect(`/ws/sessions/${sessionId}/`, { onMessage: show });
}

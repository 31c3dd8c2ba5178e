import { connect } from "./live.js";

export function lobby(sessionId, initial) {
  const status = document.getElementById("lobby-status");
  const go = document.getElementById("lobby-go");
  function show(p) {
    if (p.type === "gone" || p.removed) { status.textContent = p.message || "This session is no longer available."; go.classList.add("hidden"); return; }
    if (p.type !== "lobby") return;
    if (p.status === "ended") { status.textContent = "The class session has ended. Thanks for playing!"; }
    else if (p.match && p.match_status === "playing") { location.href = p.play_url; return; }
    else if (p.match && p.match_status === "waiting") { status.textContent = `You are at ${p.table}. Waiting for the teacher to start…`; }
    else if (p.match) { status.textContent = "Your game is over. Waiting for your teacher to seat you for the next game…"; }
    else { status.textContent = "Waiting for your teacher to seat you at a table…"; }
    if (p.match) { go.href = p.play_url; go.textContent = p.match_status === "waiting" ? "Go to my table" : "See my last game"; go.classList.remove("hidden"); }
  }
  show(initial);
  connect(`/ws/sessions/${sessionId}/`, { onMessage: show });
}

// A WebSocket that reconnects by itself (reload, network drop, laptop lid, server restart).
// The server closes a socket idle for a while (code 4408; a visible page pings every minute so
// only hidden tabs go idle) and refuses one too many for this browser (4429): a hidden page
// reconnects when it is shown again, a visible one at once (4429: after a pause).
import { t } from "./i18n.js";

const PING_MS = 60000;
const CLOSE_IDLE = 4408, CLOSE_TOO_MANY = 4429;
export function connect(path, { onMessage, onStatus = () => {} }) {
  let ws = null;
  let closed = false;
  let delay = 300;
  let heard = false;  // live only once the server has spoken on this socket: it has joined us to the news then
  const pending = [];  // sent while the socket was (re)connecting: delivered once it is live
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  function open() {
    ws = new WebSocket(url);
    heard = false;
    ws.onopen = () => { delay = 300; };
    ws.onmessage = (e) => {
      if (!heard) {
        heard = true;
        onStatus("live");
        while (pending.length && ws.readyState === WebSocket.OPEN) ws.send(pending.shift());
      }
      try { onMessage(JSON.parse(e.data)); } catch (err) { console.error(err); }
    };
    ws.onclose = (e) => {
      if (closed) return;
      if (e.code === 4403 || e.code === 4404) { onStatus("refused"); return; }
      onStatus("reconnecting");
      if (e.code === CLOSE_IDLE && document.hidden) return;  // reopened by visibilitychange
      setTimeout(open, e.code === CLOSE_TOO_MANY ? 15000 : delay);
      delay = Math.min(delay * 2, 4000);
    };
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && ws && ws.readyState === WebSocket.CLOSED && !closed) open();
  });
  setInterval(() => {
    if (!document.hidden && ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
  }, PING_MS);
  open();
  return {
    // false when the socket is not live (open, and heard from); the message then waits for the
    // reconnect (a teacher's command during a reconnect is not lost), unless { queue: false }: a
    // move made on a board that may be old by then (the caller tells the student to try again)
    send(obj, { queue = true } = {}) {
      const text = JSON.stringify(obj);
      if (ws && ws.readyState === WebSocket.OPEN && heard) { ws.send(text); return true; }
      if (queue && !closed && pending.length < 20) pending.push(text);
      return false;
    },
    close() { closed = true; if (ws) ws.close(); },
  };
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// engines name seats "Player 1", "Player 2", … (in the reader's language): the students' names instead
const PLAYER_N = t("Player %(number)s", { number: "\u0000" });
const PLAYER_RE = new RegExp("(?<![\\p{L}\\d])" + PLAYER_N.split("\u0000").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(\\d+)") + "(?![\\p{L}\\d])", "gu");
export function namedSeats(text, seats) {
  return text.replace(PLAYER_RE, (all, n) => {
    const seat = seats.find((s) => s.index === Number(n) - 1);
    return seat ? seat.name : all;
  });
}

// the side a seat plays in games that name sides (X/O, Alice/Bob/Eve), from the seat's view
export function seatSide(view, index) {
  if (!view) return "";
  if (Array.isArray(view.side_names) && Array.isArray(view.seat_sides)) return view.side_names[view.seat_sides[index]] || "";
  if (Array.isArray(view.players) && typeof view.players[index] === "string") return view.players[index];
  return "";
}

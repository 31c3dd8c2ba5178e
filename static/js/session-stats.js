// Class statistics: when another table finishes, fetch the page again and put its statistics in
// place (no reload). A cheap count is asked every few seconds; the full page only on a change.
const root = document.getElementById("session-stats");
const EVERY_MS = Number(root?.dataset.pollMs || 4000);

async function check() {
  try {
    const count = await fetch(root.dataset.pollUrl, {credentials: "same-origin"}).then((r) => r.json());
    if (String(count.finished) !== root.dataset.finished) {
      const html = await fetch(location.pathname, {credentials: "same-origin"}).then((r) => r.text());
      const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("session-stats");
      if (fresh) {
        root.replaceChildren(...fresh.childNodes);
        root.dataset.finished = fresh.dataset.finished;
      }
    }
  } catch { /* offline for a moment: try again at the next tick */ }
  setTimeout(check, EVERY_MS);
}

if (root) setTimeout(check, EVERY_MS);

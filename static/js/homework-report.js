// The teacher's homework assignment page keeps itself current: every few seconds (while the tab
// is visible) it fetches the page again and swaps in the summary and the members' table when
// they changed (not while the keyboard focus is inside them, so nobody loses their place).
export function poll(seconds, ids) {
  const refresh = async () => {
    if (document.hidden) return;
    let response;
    try {
      response = await fetch(window.location.href, { credentials: "same-origin", cache: "no-store" });
    } catch (e) {
      return; // offline for a moment: the next round tries again
    }
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const id of ids) {
      const now = document.getElementById(id);
      const next = fresh.getElementById(id);
      if (!now || !next || now.innerHTML === next.innerHTML) continue;
      if (now.contains(document.activeElement) && document.activeElement !== now) continue;
      now.innerHTML = next.innerHTML;
    }
  };
  window.setInterval(refresh, seconds * 1000);
}

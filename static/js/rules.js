// How to play: every worked example of the rules page drawn twice by the game's own board script,
// read-only, the position before the action and after it (views the server made with the engine).
// A wide screen shows the two side by side where both fit; otherwise (a phone, the play page's
// dialog) one at a time, and the example's "Before / After" toggle (two buttons, aria-pressed)
// picks it (``arrange``, rules.css).
// In the play page's dialog (embedded) Escape asks the page around it to close the dialog.

// ids a board gives its parts are the same on every board: each board's get a suffix of their
// own, and the references to them follow (aria-labelledby, href="#…", fill="url(#…)")
const REFS = ["aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "for", "list",
              "href", "xlink:href", "fill", "stroke", "marker-start", "marker-mid", "marker-end",
              "clip-path", "mask", "filter"];

export function uniqueIds(root, suffix) {
  const ids = new Map();
  root.querySelectorAll("[id]").forEach((node) => {
    const fresh = `${node.id}-${suffix}`;
    ids.set(node.id, fresh);
    node.id = fresh;
  });
  if (!ids.size) return;
  const swap = (value) => value
    .replace(/#([\w-]+)/g, (all, id) => (ids.has(id) ? `#${ids.get(id)}` : all))
    .split(/(\s+)/).map((word) => ids.get(word) || word).join("");
  root.querySelectorAll("*").forEach((node) => {
    for (const name of REFS) {
      const value = node.getAttribute(name);
      if (value) node.setAttribute(name, swap(value));
    }
  });
}

// the example's board shown on a narrow screen: "before" or "after"
export function showBoard(box, when) {
  box.dataset.shown = when;
  box.querySelectorAll(".rules-toggle [data-show]").forEach((b) => {
    b.setAttribute("aria-pressed", String(b.dataset.show === when));
  });
}

export async function rules({ boardUrl, examples, embedded = false }) {
  if (embedded) {
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && window.parent !== window) {
        window.parent.postMessage({ rules: "close" }, window.location.origin);
      }
    });
  }
  document.querySelectorAll(".rules-example").forEach((box) => {
    box.querySelectorAll(".rules-toggle [data-show]").forEach((b) => {
      b.addEventListener("click", () => showBoard(box, b.dataset.show));
    });
  });
  const { createBoard } = await import(boardUrl);
  document.querySelectorAll(".rules-example").forEach((box) => {
    const example = examples[Number(box.dataset.example)];
    if (!example) return;
    for (const when of ["before", "after"]) {
      const root = box.querySelector(`[data-board=${when}]`);
      const board = createBoard(root, { act() {} });
      board.render({ view: example[when], legal: [], seat: example.seat, to_act: [],
                     events: when === "after" ? example.events : [], outcome: null, replay: true,
                     seats: example.seats }, { animate: false });
      uniqueIds(root, `ex${box.dataset.example}-${when}`);
    }
  });
  const page = document.getElementById("rules");
  await arrange(page);
  // a window made wider or narrower (a tablet turned) arranges the boards again
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (window.innerWidth === width) return;
    width = window.innerWidth;
    clearTimeout(page.arrangeTimer);
    page.arrangeTimer = setTimeout(() => arrange(page), 150);
  });
  page.dataset.drawn = "true";
}

// the boards are drawn one under the other, at the page's width (what the boards are made for);
// where the page is wide enough and every board fits half of it (nothing in it scrolls
// sideways: a map zoomed in, a hand cut off), the two go side by side, else one at a time
const WIDE = "(min-width: 1200px)";
const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const scrolls = (n) => n.scrollWidth > n.clientWidth + 1 && /auto|scroll|hidden/.test(getComputedStyle(n).overflowX);
const overflows = (area) => scrolls(area) || [...area.querySelectorAll("*")].some(scrolls);

export async function arrange(page) {
  page.classList.remove("one-board", "side-by-side");
  if (matchMedia(WIDE).matches) {
    page.classList.add("side-by-side");
    await frame();  // the boards' own resize observers have run
    if (![...page.querySelectorAll(".board-area")].some(overflows)) return;
    page.classList.remove("side-by-side");
  }
  page.classList.add("one-board");
}

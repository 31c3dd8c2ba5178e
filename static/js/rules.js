// How to play: every worked example of the rules page drawn twice by the game's own board script,
// read-only, the position before the action and after it (views the server made with the engine).
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

export async function rules({ boardUrl, examples, embedded = false }) {
  if (embedded) {
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && window.parent !== window) {
        window.parent.postMessage({ rules: "close" }, window.location.origin);
      }
    });
  }
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
  document.getElementById("rules").dataset.drawn = "true";
}

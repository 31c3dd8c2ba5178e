// Touch screens have no hover: a board that previews a move on hover (what a gate would do, the
// odds, where the ships would go) previews it on the first tap instead, and plays it on a second
// tap of the same target or with its "Play" button. A mouse keeps hover + click, a keyboard its
// focus previews + Enter.
//
// tapped(e): is this click a finger's (or a pen's)? Not for a mouse, nor for Enter / Space on a
// focused control (a click of detail 0).
let lastPointer = "mouse";
addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || "mouse"; }, true);

export function tapped(e) {
  if (!e || e.detail === 0) return false;
  const type = e.pointerType || lastPointer;
  return type === "touch" || type === "pen";
}

// the pointer that pressed last ("mouse", "touch", "pen"): a board's compatibility mouse events
// (mouseenter after a tap) are told apart with it
export function lastPointerType() { return lastPointer; }

// Touch screens have no hover: a board that previews a move on hover (what a gate would do, the
// odds, where the ships would go) previews it on the first tap instead, and plays it on a second
// tap of the same target or with its "Play" button. A mouse keeps hover + click, a keyboard its
// focus previews + Enter.
//
// tapped(e): is this click a finger's (or a pen's)? Not for a mouse, nor for Enter / Space on a
// focused control (a click of detail 0), nor for a script's click.
let lastPointer = "mouse";
addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || "mouse"; }, true);

export function tapped(e) {
  if (!e || !e.isTrusted || e.detail === 0) return false;  // a script's click() is no finger's
  const type = e.pointerType || lastPointer;
  return type === "touch" || type === "pen";
}

// the pointer that pressed last ("mouse", "touch", "pen"): a board's compatibility mouse events
// (mouseenter after a tap) are told apart with it
export function lastPointerType() { return lastPointer; }

// pressWatch(el): is a finger or a button pressing on ``el`` now? A focus it brings is then not a
// keyboard's (a board previews a focused square; redrawn under the finger, the square would lose
// the tap's click). A press lasts from its pointerdown until its click (a tap's focus comes after
// pointerup, with the compatibility mouse events), or 700 ms after its pointerup when no click
// comes. Each press ends only itself: the 700 ms of a tap used to end the next press too, when it
// began less than 700 ms later or its finger stayed down over that time; its focus then
// previewed and redrew the square, its click was lost, and the square of the tap before stayed
// armed, so that one tap on it played.
export function pressWatch(el) {
  let press = 0, count = 0;
  const end = (id) => () => { if (press === id) press = 0; };
  el.addEventListener("pointerdown", () => { press = ++count; }, true);
  el.addEventListener("click", () => setTimeout(end(press)), true);
  el.addEventListener("pointercancel", () => { press = 0; }, true);
  el.addEventListener("pointerup", () => setTimeout(end(press), 700), true);
  return () => press !== 0;
}

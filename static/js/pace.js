// Countdowns of the pace (games/pace.py): the clock per move and "finish in N minutes".
// The server sends the time LEFT (milliseconds) in each state; the page counts down from the
// moment it received it, so a wrong clock on the student's device does not matter.
import { _, t } from "./i18n.js";

export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// a timer that calls tick(leftMs) at once, then each time the whole seconds shown (mmss: rounded
// up) change, until ``ms`` have passed (null: stop). Once a second, not more: each call redraws
// part of the page, and a page ticking four times a second kept a phone's CPU busy (about 4 % of
// a core, measured in Chromium, against under 0.5 % without a clock).
export function countdown(tick) {
  let end = null;
  let handle = null;
  let shown = null;  // the whole seconds last drawn
  function step() {
    const left = Math.max(0, end - performance.now());
    const seconds = Math.ceil(left / 1000);
    if (seconds !== shown) tick(left);
    shown = seconds;
    // a millisecond past the next whole second: a timer may fire up to a millisecond early (its
    // delay is rounded down), which drew the same seconds twice
    if (left > 0) handle = setTimeout(step, (left % 1000 || 1000) + 1);
  }
  return {
    set(ms) {
      clearTimeout(handle);
      end = ms === null || ms === undefined ? null : performance.now() + ms;
      shown = null;
      if (end !== null) step();
    },
  };
}

export const PACE_TEXT = {
  paused: _("Paused by your teacher"),
  pausedHint: _("The clocks are stopped; moves wait until the teacher resumes."),
  finishIn: (time) => t("Time is up in %(time)s.", { time }),
  timeUp: _("Time is up."),
  yourTime: (time) => t("Your time for this move: %(time)s", { time }),
  theirTime: (names, time) => t("Time for %(names)s to move: %(time)s", { names, time }),
  tenLeft: _("10 seconds left for your move."),
  timedOut: _("time ran out"),
};

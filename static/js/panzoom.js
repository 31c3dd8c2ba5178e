// A drawing larger than its box, for fingers, mouse and keyboard alike: the box scrolls (a finger
// drags it, a wheel or scroll bar moves it, the keyboard's focus brings what it lands on into
// view) and a pinch or the zoom buttons change the scale, keeping the point under the fingers
// (or the middle of the view) where it was.
//
// const pz = panZoom(box, { origin: {x, y}, width, height, max, onZoom });
//   box: the scrolling element; origin, width, height: the drawing's viewBox in its own units;
//   pz.scale (CSS px per unit), pz.fit() (the scale showing the whole width), pz.swap(svg, put)
//   (sizes a new drawing, puts it in, keeps the view), pz.zoomTo(scale, around?), pz.zoomBy(f),
//   pz.centreOn({x, y}); onZoom(scale) after a zoom has settled (not during a pinch).
export function panZoom(box, { origin, width, height, max = 4, onZoom = () => {} }) {
  let scale = null;
  let drawing = null;
  let pinch = null;
  const pad = () => {
    const st = getComputedStyle(box);
    return { l: parseFloat(st.paddingLeft) || 0, t: parseFloat(st.paddingTop) || 0, r: parseFloat(st.paddingRight) || 0 };
  };
  const fit = () => Math.max(0.05, (box.clientWidth - pad().l - pad().r) / width);
  const clamp = (s) => Math.min(max, Math.max(fit(), s));

  function size() {
    if (!drawing || scale === null) return;
    drawing.style.width = `${width * scale}px`;
    drawing.style.height = `${height * scale}px`;
    box.classList.toggle("zoomed", scale > fit() * 1.02);
  }
  // the drawing's point (units) at a point of the box (CSS px from its top left corner)
  function unitAt(px, py) {
    const p = pad();
    return { x: origin.x + (box.scrollLeft + px - p.l) / scale, y: origin.y + (box.scrollTop + py - p.t) / scale };
  }
  function place(unit, px, py) {
    const p = pad();
    box.scrollLeft = (unit.x - origin.x) * scale + p.l - px;
    box.scrollTop = (unit.y - origin.y) * scale + p.t - py;
  }
  const middle = () => ({ px: box.clientWidth / 2, py: box.clientHeight / 2 });

  function zoomTo(s, around = null, quiet = false) {
    const at = around || middle();
    const unit = around && around.unit ? around.unit : unitAt(at.px, at.py);
    scale = clamp(s);
    size();
    place(unit, at.px, at.py);
    if (!quiet) onZoom(scale);
  }

  // a pinch: two fingers on the box (one finger pans it natively)
  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  const centreOf = (t) => {
    const r = box.getBoundingClientRect();
    return { px: (t[0].clientX + t[1].clientX) / 2 - r.left, py: (t[0].clientY + t[1].clientY) / 2 - r.top };
  };
  box.addEventListener("touchstart", (e) => {
    if (e.touches.length !== 2 || scale === null) return;
    const c = centreOf(e.touches);
    pinch = { d: spread(e.touches) || 1, s: scale, unit: unitAt(c.px, c.py) };
  }, { passive: true });
  box.addEventListener("touchmove", (e) => {
    if (!pinch || e.touches.length !== 2) return;
    e.preventDefault();
    const c = centreOf(e.touches);
    zoomTo(pinch.s * (spread(e.touches) / pinch.d), { ...c, unit: pinch.unit }, true);
  }, { passive: false });
  const endPinch = (e) => {
    if (!pinch || e.touches.length >= 2) return;
    pinch = null;
    onZoom(scale);
  };
  box.addEventListener("touchend", endPinch);
  box.addEventListener("touchcancel", endPinch);

  return {
    get scale() { return scale; },
    fit,
    zoomTo: (s, around) => zoomTo(s, around),
    zoomBy: (f) => zoomTo(scale * f),
    // a new drawing: sized, then put in the box by ``put()``, at the same scale and view (the
    // first at ``initial()``'s scale); true for the first
    swap(svg, put, initial = () => fit()) {
      const left = box.scrollLeft, top = box.scrollTop;
      const first = scale === null;
      drawing = svg;
      if (first) scale = clamp(initial());
      size();
      put();
      if (!first) { box.scrollLeft = left; box.scrollTop = top; }
      return first;
    },
    // the view's middle on a point of the drawing
    centreOn(unit) { if (scale !== null) place(unit, box.clientWidth / 2, box.clientHeight / 2); },
    // a narrower box (a phone turned) may not show less than the whole width
    refit() { if (scale !== null && scale < fit()) { scale = fit(); size(); onZoom(scale); } else size(); },
  };
}

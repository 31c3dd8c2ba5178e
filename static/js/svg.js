// Element builders shared by the board scripts and the exercise editor (ES module).
//
// h(tag, attrs, ...children): an HTML element. Attributes that are null, undefined or false are
//   left out; `true` sets an empty attribute; "class" sets className, "text" the text content,
//   "style" goes through the CSSOM (allowed by the CSP, unlike a style attribute), "on<event>"
//   adds a listener. Children (nested arrays allowed) are nodes or text; null, undefined and
//   false are skipped.
// svg(tag, attrs, text): an SVG element; null or undefined attributes are left out.
// s(tag, attrs, ...children): an SVG element with children, attributes as for h() ("class" and
//   "text" included, no "style").
// ensureStylesheet(href): adds the board's stylesheet to the page once.
export const SVG_NS = "http://www.w3.org/2000/svg";

export function h(tag, attrs = {}, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") n.className = v;
    else if (k === "text") n.textContent = v;
    else if (k === "style") n.style.cssText = v;
    else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
    else n.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) n.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return n;
}

export function svg(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function s(tag, attrs = {}, ...children) {
  const n = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") n.textContent = v;
    else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
    else n.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) n.append(c);
  return n;
}

export function ensureStylesheet(href) {
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

// readableText(svgRoot): keeps the board's text readable however small the board is drawn. An
// SVG's text shrinks with its viewBox on a narrow phone (a 13-unit label is 10.5 CSS px on a
// 320 px screen); this sets `--svg-scale` on the root (CSS px per user unit, followed as the
// board is resized), which the boards' stylesheets use as
// `font-size: max(13px, calc(12.5px / var(--svg-scale, 1)))`: the size designed for a laptop,
// and never under 12 CSS px on screen. A drawing made anew at each render (Entanglion's detection
// track) starts at the scale its predecessor of the same class had, not at 1 until measured.
const lastScale = new Map();
export function readableText(root) {
  const kind = root.getAttribute("class") || "";
  if (lastScale.has(kind)) root.style.setProperty("--svg-scale", lastScale.get(kind));
  const update = () => {
    const m = root.getScreenCTM && root.getScreenCTM();
    if (!(m && m.a > 0)) return;
    const scale = String(Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)));
    root.style.setProperty("--svg-scale", scale);
    lastScale.set(kind, scale);
  };
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(update).observe(root);
  requestAnimationFrame(update);
  return root;
}

// Where a Ticket-to-Ride map's routes are drawn and where a finger may tap them (pure functions,
// no DOM; any map, the teacher's own included).
//
// mapLayout(cities, routes): each route's curve in map units — routes between the same two
//   cities side by side (PARALLEL apart), and a route whose straight line would pass over
//   another city bent away from it (Lisbon–Barcelona over Madrid, Prague–Budapest over Vienna)
//   — its middle (where its gate tag sits), the unit tangent there, and its clearance: how far
//   the points of the tangent line through its middle are from every other route's curve.
// hitBands(layout, scale): each route's tap target at that zoom (CSS px per map unit): a straight
//   band along the tangent through its middle, as wide as 2 × HALF CSS px where the neighbours
//   leave room, as long as it stays twice its half-width from every other route (zoomed out,
//   narrower, so that it is as long as it is wide). Two routes' bands never overlap — a band's points are at least twice its
//   half-width from every other route's line, and the wider band of any pair decides — so a tap
//   on a route's middle never picks a neighbour, at any zoom.
// readableScale(layout): the least zoom at which every route's band is at least MIN_TARGET CSS
//   px wide and long (a thumb's target, WCAG 2.5.8).
export const HALF = 13;         // a band's half-width in CSS px, where the neighbours leave room
export const MIN_TARGET = 24;   // CSS px
export const PARALLEL = 20;     // map units between two routes joining the same cities
const CITY_CLEAR = 30;          // map units between a route's curve and another city
const CITY_R = 11;              // a city dot's radius, map units (a band stops short of it)
const SEGMENTS = 24;            // a curve as so many straight pieces
const STEP = 2;                 // map units between two points of a clearance profile
const BULGES = [0, 20, -20, 35, -35, 50, -50, 70, -70];

const FAR = 200;                // map units: clearance beyond this is "free"

const dist = (p, q) => Math.hypot(p.x - q.x, p.y - q.y);
function boxGap(p, q) {
  const bx = (pts) => [Math.min(...pts.map((a) => a.x)), Math.max(...pts.map((a) => a.x)), Math.min(...pts.map((a) => a.y)), Math.max(...pts.map((a) => a.y))];
  const [a0, a1, a2, a3] = bx(p), [b0, b1, b2, b3] = bx(q);
  return Math.hypot(Math.max(0, b0 - a1, a0 - b1), Math.max(0, b2 - a3, a2 - b3));
}
function segDist(p, a, b) {
  const dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy || 1;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2));
  return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}
function polyDist(p, pts) {
  let best = Infinity;
  for (let k = 1; k < pts.length; k++) best = Math.min(best, segDist(p, pts[k - 1], pts[k]));
  return best;
}
export function quad(a, c, b, t) {
  const u = 1 - t;
  return { x: u * u * a.x + 2 * u * t * c.x + t * t * b.x, y: u * u * a.y + 2 * u * t * c.y + t * t * b.y };
}
const curvePoints = (a, c, b, n = SEGMENTS) => Array.from({ length: n + 1 }, (_, k) => quad(a, c, b, k / n));

export function mapLayout(cities, routes) {
  const pos = Object.fromEntries(cities.map((c) => [c.name, { x: c.x, y: c.y }]));
  const pairCount = {}, pairSeen = {};
  for (const r of routes) { const k = [r.a, r.b].sort().join("|"); pairCount[k] = (pairCount[k] || 0) + 1; }
  const out = [];
  for (const r of routes) {
    const A0 = pos[r.a], B0 = pos[r.b];
    if (!A0 || !B0) continue;
    const k = [r.a, r.b].sort().join("|");
    const nth = (pairSeen[k] = (pairSeen[k] || 0) + 1) - 1;
    // side by side, on the same side whichever way the route is written
    const sign = r.a < r.b ? 1 : -1;
    const off = (nth - (pairCount[k] - 1) / 2) * PARALLEL * sign;
    const dx = B0.x - A0.x, dy = B0.y - A0.y, len = Math.hypot(dx, dy) || 1;
    const n = { x: -dy / len, y: dx / len };
    const A = { x: A0.x + n.x * off, y: A0.y + n.y * off }, B = { x: B0.x + n.x * off, y: B0.y + n.y * off };
    out.push({ index: r.index, a: r.a, b: r.b, A, B, n, chord: len });
  }
  // bend a route away from the cities it would pass over (its middle moves by ``bulge``)
  const names = Object.keys(pos);
  for (const L of out) {
    const others = names.filter((c) => c !== L.a && c !== L.b).map((c) => pos[c]);
    const mid = { x: (L.A.x + L.B.x) / 2, y: (L.A.y + L.B.y) / 2 };
    let best = null;
    for (const bulge of BULGES) {
      const C = { x: mid.x + L.n.x * bulge * 2, y: mid.y + L.n.y * bulge * 2 };
      const pts = curvePoints(L.A, C, L.B).slice(3, -3);
      const clear = Math.min(Infinity, ...pts.flatMap((p) => others.map((q) => dist(p, q))));
      if (!best || clear > best.clear + 1e-9) best = { C, clear };
      if (clear >= CITY_CLEAR) { best = { C, clear }; break; }
    }
    L.C = best.C;
    L.points = curvePoints(L.A, L.C, L.B);
    L.mid = quad(L.A, L.C, L.B, 0.5);
    const tx = L.B.x - L.A.x, ty = L.B.y - L.A.y, tl = Math.hypot(tx, ty) || 1;
    L.tangent = { x: tx / tl, y: ty / tl };  // a symmetric quadratic's tangent at its middle
    L.d = `M${L.A.x.toFixed(1)},${L.A.y.toFixed(1)} Q${L.C.x.toFixed(1)},${L.C.y.toFixed(1)} ${L.B.x.toFixed(1)},${L.B.y.toFixed(1)}`;
  }
  // each route's clearance along the tangent through its middle, both ways: [u = 0, STEP, 2·STEP…]
  for (const L of out) {
    const reach = Math.max(0, L.chord / 2 - CITY_R - 2);
    // only the routes within FAR of this one matter (a band is never wider than that)
    const near = out.filter((o) => o !== L && boxGap(o.points, L.points) < FAR);
    const side = (sign) => {
      const prof = [];
      for (let u = 0; u <= reach; u += STEP) {
        const p = { x: L.mid.x + sign * u * L.tangent.x, y: L.mid.y + sign * u * L.tangent.y };
        prof.push(Math.min(FAR, ...near.map((o) => polyDist(p, o.points))));
      }
      return prof;
    };
    const fwd = side(1), back = side(-1);
    L.clearance = fwd.map((d, k) => Math.min(d, back[k]));  // symmetric: the band is centred on the middle
  }
  return out;
}

// {index → {half, length}} in map units: the band's half-width and half-length at ``scale``
export function hitBands(layout, scale) {
  const bands = new Map();
  for (const L of layout) {
    const prof = L.clearance;
    // how far the band reaches from the middle at half-width h (shorter as it widens)
    const reach = (h) => { let k = 0; while (k + 1 < prof.length && prof[k + 1] >= 2 * h - 1e-9) k++; return k * STEP; };
    let half = Math.min(HALF / scale, (prof.length ? prof[0] : 0) / 2);
    if (reach(half) < half) {  // zoomed out: a narrower band, as long as it is wide
      let lo = 0, hi = half;
      for (let i = 0; i < 20; i++) { const m = (lo + hi) / 2; if (reach(m) >= m) lo = m; else hi = m; }
      half = lo;
    }
    bands.set(L.index, { half, length: reach(half) });
  }
  return bands;
}

export function readableScale(layout, { from = 0.2, to = 4 } = {}) {
  const ok = (s) => [...hitBands(layout, s).values()].every((b) => b.half * 2 * s >= MIN_TARGET - 1e-6 && b.length * 2 * s >= MIN_TARGET - 1e-6);
  if (!ok(to)) return to;
  let lo = from, hi = to;
  if (ok(lo)) return lo;
  for (let i = 0; i < 24; i++) { const m = (lo + hi) / 2; if (ok(m)) hi = m; else lo = m; }
  return hi;
}

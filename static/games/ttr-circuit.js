// Quantum Ticket-to-Ride in the browser: the two-qubit register a run carries along a path,
// computed exactly as the engine does (games/engines/quantum_ticket_to_ride, on quantum/):
// amplitudes indexed |q0 q1⟩ with q0 the leftmost factor (index = 2·q0 + q1); I X Y Z H act
// on q0 (the mission qubit), CNOT has q0 as control and q1 as target; a route of length N
// applies its gate N times. Used only for the path picker's preview: the server's run decides.

const R = Math.SQRT1_2;
// 2×2 gates as [[a, b], [c, d]] of complex numbers [re, im]
const GATES = {
  I: [[[1, 0], [0, 0]], [[0, 0], [1, 0]]],
  X: [[[0, 0], [1, 0]], [[1, 0], [0, 0]]],
  Y: [[[0, 0], [0, -1]], [[0, 1], [0, 0]]],
  Z: [[[1, 0], [0, 0]], [[0, 0], [-1, 0]]],
  H: [[[R, 0], [R, 0]], [[R, 0], [-R, 0]]],
};
export const GATE_NAMES = ["I", "X", "Y", "Z", "H", "CNOT"];

const mul = (a, b) => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1]];
const conj = (a) => [a[0], -a[1]];
const abs2 = (a) => a[0] * a[0] + a[1] * a[1];

// named states of the rules (one qubit on q0 with q1 = |0⟩, or the two-qubit register)
const S = Math.SQRT1_2;
const NAMED = {
  "0": [[1, 0], [0, 0], [0, 0], [0, 0]],
  "1": [[0, 0], [0, 0], [1, 0], [0, 0]],
  "+": [[S, 0], [0, 0], [S, 0], [0, 0]],
  "-": [[S, 0], [0, 0], [-S, 0], [0, 0]],
  "+i": [[S, 0], [0, 0], [0, S], [0, 0]],
  "-i": [[S, 0], [0, 0], [0, -S], [0, 0]],
  "00": [[1, 0], [0, 0], [0, 0], [0, 0]],
  "01": [[0, 0], [1, 0], [0, 0], [0, 0]],
  "10": [[0, 0], [0, 0], [1, 0], [0, 0]],
  "11": [[0, 0], [0, 0], [0, 0], [1, 0]],
  "+0": [[S, 0], [0, 0], [S, 0], [0, 0]],
  "-0": [[S, 0], [0, 0], [-S, 0], [0, 0]],
  "+1": [[0, 0], [S, 0], [0, 0], [S, 0]],
  "-1": [[0, 0], [S, 0], [0, 0], [-S, 0]],
  "phi+": [[S, 0], [0, 0], [0, 0], [S, 0]],
  "phi-": [[S, 0], [0, 0], [0, 0], [-S, 0]],
  "psi+": [[0, 0], [S, 0], [S, 0], [0, 0]],
  "psi-": [[0, 0], [S, 0], [-S, 0], [0, 0]],
};
const ALIASES = { "|0⟩": "0", "|1⟩": "1", "|+⟩": "+", "|−⟩": "-", "minus": "-", "plus": "+", "zero": "0", "one": "1",
  "Φ+": "phi+", "Φ-": "phi-", "Ψ+": "psi+", "Ψ-": "psi-", "bell": "phi+" };

// the register's amplitudes for a state given by name ("+", "phi+", "10", …) or as amplitudes
// (a list of 2 or 4 numbers or [re, im] pairs); null if it is not understood
export function register(state) {
  if (Array.isArray(state)) {
    const amps = state.map((a) => (Array.isArray(a) ? [Number(a[0]), Number(a[1] || 0)] : [Number(a), 0]));
    if (amps.length === 4) return amps;
    if (amps.length === 2) return [amps[0], [0, 0], amps[1], [0, 0]];
    return null;
  }
  if (state && typeof state === "object" && state.amplitudes) return register(state.amplitudes);
  if (typeof state !== "string") return null;
  const key = state.trim();
  const bare = key.replace(/^\|/, "").replace(/⟩$|>$/, "");
  const name = NAMED[key] ? key : NAMED[bare] ? bare : ALIASES[key] || ALIASES[bare] || bare.toLowerCase().replace("φ", "phi").replace("ψ", "psi").replace("−", "-");
  return NAMED[name] ? NAMED[name].map((a) => [...a]) : null;
}

// one gate on the register
export function applyGate(psi, gate) {
  if (gate === "CNOT" || gate === "CX") return [psi[0], psi[1], psi[3], psi[2]];
  const m = GATES[gate];
  if (!m) throw new Error(`unknown gate ${gate}`);
  const out = [];
  for (let q1 = 0; q1 < 2; q1++) {
    const a0 = psi[q1], a1 = psi[2 + q1];
    out[q1] = add(mul(m[0][0], a0), mul(m[0][1], a1));
    out[2 + q1] = add(mul(m[1][0], a0), mul(m[1][1], a1));
  }
  return out;
}

// a route: its gate applied length times
export function applyRoute(psi, gate, length) {
  let out = psi;
  for (let k = 0; k < length; k++) out = applyGate(out, gate);
  return out;
}

// the reduced state of q0 as a Bloch vector {x, y, z} (length 1: pure; shorter: entangled with q1)
export function bloch(psi) {
  const r00 = abs2(psi[0]) + abs2(psi[1]);
  const r11 = abs2(psi[2]) + abs2(psi[3]);
  const r01 = add(mul(psi[0], conj(psi[2])), mul(psi[1], conj(psi[3])));
  const clean = (v) => (Math.abs(v) < 1e-9 ? 0 : v);
  return { x: clean(2 * r01[0]), y: clean(-2 * r01[1]), z: clean(r00 - r11) };
}

// |⟨a|b⟩|², global phase ignored
export function overlap(a, b) {
  let s = [0, 0];
  for (let k = 0; k < 4; k++) s = add(s, mul(conj(a[k]), b[k]));
  return abs2(s);
}

// fidelity of the reached register with a target: the whole state for a two-qubit mission,
// q0's reduced state against the (pure) one-qubit target otherwise: ⟨t|ρ|t⟩
export function fidelity(psi, target, qubits) {
  if (qubits === 2) return overlap(target, psi);
  const t0 = target[0], t1 = target[2]; // the target's q0 amplitudes (q1 = |0⟩)
  let f = 0;
  for (let q1 = 0; q1 < 2; q1++) {
    const proj = add(mul(conj(t0), psi[q1]), mul(conj(t1), psi[2 + q1]));
    f += abs2(proj);
  }
  return f;
}

// amplitudes as text: "1/√2|00⟩ + 1/√2|11⟩", "i|10⟩", "−|00⟩", "i/√2|00⟩ − i/√2|10⟩" (a
// coefficient of size 1 is written as its sign alone, as quantum/kets.py writes kets)
export function ketText(psi) {
  const labels = ["00", "01", "10", "11"];
  const parts = [];
  psi.forEach((a, k) => {
    if (abs2(a) < 1e-12) return;
    parts.push({ a, label: labels[k] });
  });
  return parts.map(({ a, label }, i) => {
    const text = `${coefText(a)}|${label}⟩`;
    if (i === 0) return text;
    return text.startsWith("−") ? ` − ${text.slice(1)}` : ` + ${text}`;
  }).join("") || "0";
}
// one amplitude [re, im]: "", "−", "i", "−i", "1/√2", "−i/√2", "0.5", "(0.5+0.5i)"
export function coefText(a) {
  const re = Math.abs(a[0]) < 1e-9 ? 0 : a[0], im = Math.abs(a[1]) < 1e-9 ? 0 : a[1];
  const sign = (v) => (v < 0 ? "−" : "");
  if (im === 0) return sign(re) + magnitude(Math.abs(re), "");
  if (re === 0) return sign(im) + magnitude(Math.abs(im), "i");
  return `(${sign(re)}${num(Math.abs(re))}${im < 0 ? "−" : "+"}${magnitude(Math.abs(im), "i")})`;
}
// a positive number times unit ("" or "i"): 1 → "" or "i", 1/√2 → "1/√2" or "i/√2", 0.5 → "0.5i"
function magnitude(v, unit) {
  const text = num(v);
  if (text === "1") return unit;
  if (unit && text.startsWith("1/")) return unit + text.slice(1);
  return text + unit;
}
function num(v) {
  const r = Math.round(v * 1000) / 1000;
  if (Math.abs(r - Math.SQRT1_2) < 1e-3) return "1/√2";
  if (Math.abs(r + Math.SQRT1_2) < 1e-3) return "−1/√2";
  return String(r).replace("-", "−");
}

// the states after each route of a path: [{gate, length, psi, bloch}] starting with the initial state
export function runPath(initial, routes) {
  let psi = initial;
  const steps = [{ gate: null, length: 0, psi, bloch: bloch(psi) }];
  for (const r of routes) {
    psi = applyRoute(psi, r.gate, r.length);
    steps.push({ gate: r.gate, length: r.length, psi, bloch: bloch(psi) });
  }
  return steps;
}

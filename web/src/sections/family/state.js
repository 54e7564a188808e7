// Section 8 state: the family of score functions on one toy translation,
// "I am hungry" -> "나는 배가 고프다". Plain module, no DOM: the engine is a
// parameter, so Vitest runs it against the real wasm in Node.
//
// The states are small and random, drawn from a seed: encoder states h_1..h_3
// (one per source word) and decoder states s_0..s_3 (s_0 before the first
// target word). To stand in for what training would produce, each decoder
// state s_t is drawn near the encoder states of the words that target word t
// translates (ALIGNMENT), plus noise. The score parameters W_a, U_a, v_a and
// the general W are random too: untrained.
//
// Scores (the engine's scores(); rows = target words, columns = source words):
//   Bahdanau (additive)  e_tj = v_a^T tanh(W_a s_{t-1} + U_a h_j)   previous state
//   Luong dot            h_t^T h_j                                    current state
//   Luong general        h_t^T W_a h_j                                current state
//   Luong concat         v_a^T tanh(W_a [h_t; h_j])                   current state
//   scaled dot-product   h_t^T h_j / sqrt(d)                          current state
// Luong writes the current decoder state as h_t; here it is s_t throughout.
// concat is additive with [W_1 W_2][s; h] = W_1 s + W_2 h, so it is computed
// with the same parameters as Bahdanau's: the two differ only in the state.
// Each row of scores goes through the engine's softmax (the alignment), and
// the context c_t = sum_j alpha_tj h_j through its context(). With projections
// W_Q, W_K the scaled dot product is Luong's general score: ./projections.js.

import { liveModel } from '../../lib/live-model.js';
import { drawProjections, projectionIdentity } from './projections.js';

export const SOURCE = ['I', 'am', 'hungry'];
export const TARGET = ['나는', '배가', '고프다'];
// Row t: how much target word t draws on each source word (for the toy states only).
export const ALIGNMENT = Object.freeze([[1, 0, 0], [0, 0, 1], [0, 0.5, 0.5]]);
export const DIM = 4;            // d: encoder and decoder states
export const ATTENTION_DIM = 3;  // d_a: the additive scorer's hidden size
export const NOISE = 0.35;
export const DEFAULT_SEED = 1;  // a draw whose dot scores recover ALIGNMENT (most seeds do)

export const METHODS = Object.freeze([
  { id: 'bahdanau', kind: 'additive', state: 'previous' },
  { id: 'dot', kind: 'dot', state: 'current' },
  { id: 'general', kind: 'general', state: 'current' },
  { id: 'concat', kind: 'additive', state: 'current' },
  { id: 'scaledDot', kind: 'scaledDot', state: 'current' },
]);

// Everything random in the toy, from one draw of standard normals.
export function drawToy(engine, seed) {
  const d = DIM;
  const da = ATTENTION_DIM;
  const m = SOURCE.length;
  const n = TARGET.length;
  const rows = m + (n + 1) + d + d + 1 + d;  // H, decoder noise, W_a, U_a, v_a, W_general
  const draw = engine.randomNormal({ seed, rows, cols: d });
  let at = 0;
  const take = (count) => { const out = draw.slice(at, at + count); at += count; return out; };

  const encoder = take(m * d);              // h_1..h_m, m x d
  const noise = take((n + 1) * d);          // one row per decoder state
  const decoder = new Float32Array((n + 1) * d);
  for (let c = 0; c < d; c++) decoder[c] = noise[c];  // s_0: the start state, noise only
  for (let t = 1; t <= n; t++) {
    for (let c = 0; c < d; c++) {
      let v = 0;
      for (let j = 0; j < m; j++) v += ALIGNMENT[t - 1][j] * encoder[j * d + c];
      decoder[t * d + c] = v + NOISE * noise[t * d + c];
    }
  }
  // The additive scorer: W_a (d x d_a), U_a (d x d_a), v_a (d_a); drawn d wide and cut to d_a.
  const cut = (matrix, r) => {
    const out = new Float32Array(r * da);
    for (let i = 0; i < r; i++) for (let c = 0; c < da; c++) out[i * da + c] = matrix[i * d + c];
    return out;
  };
  const scale = (a, f) => a.map((x) => x * f);
  const wa = scale(cut(take(d * d), d), 1 / Math.sqrt(d));
  const ua = scale(cut(take(d * d), d), 1 / Math.sqrt(d));
  const va = cut(take(d), 1);
  const wGeneral = scale(take(d * d), 1 / Math.sqrt(d));
  return { seed, d, da, n, m, encoder, decoder, wa, ua, va, wGeneral };
}

// Rows `from`..`from + count` of the decoder states.
function decoderRows(toy, from) {
  return toy.decoder.slice(from * toy.d, (from + toy.n) * toy.d);
}

export function computeFamily(engine, toy) {
  const { n, m, d, da, encoder } = toy;
  const previous = decoderRows(toy, 0);  // s_0 .. s_{n-1}: Bahdanau's s_{t-1}
  const current = decoderRows(toy, 1);   // s_1 .. s_n:     Luong's h_t
  const results = {};
  for (const method of METHODS) {
    const s = method.state === 'previous' ? previous : current;
    const args = { kind: method.kind, s, h: encoder, n, m, ds: d, dh: d };
    if (method.kind === 'additive') Object.assign(args, { wa: toy.wa, ua: toy.ua, va: toy.va, da });
    if (method.kind === 'general') args.wa = toy.wGeneral;
    const scores = engine.scores(args);
    const weights = engine.softmax(scores, n, m);
    const context = engine.context({ alignment: weights, h: encoder, n, m, dh: d });
    results[method.id] = { ...method, scores, weights, context, best: rowArgmax(weights, n, m) };
  }
  // Scaled dot-product with projections W_Q, W_K, as Luong's general score (./projections.js).
  const projection = projectionIdentity(engine, toy, drawProjections(engine, toy.seed, d));
  return { toy, methods: results, projection };
}

// Whether a method's largest weights fall where the toy's states were drawn:
// in each row, on a source word of the largest ALIGNMENT share.
export function recoversAlignment(best) {
  return best.every((j, t) => ALIGNMENT[t][j] === Math.max(...ALIGNMENT[t]));
}

// concat at step t uses s_t, the state Bahdanau uses at step t + 1, with the
// same parameters: its rows of weights are Bahdanau's moved up by one. The
// largest difference between the two where they overlap (0 but for rounding).
export function concatShift({ toy: { n, m }, methods }) {
  const b = methods.bahdanau.weights;
  const c = methods.concat.weights;
  let worst = 0;
  for (let i = 0; i + 1 < n; i++) for (let j = 0; j < m; j++) worst = Math.max(worst, Math.abs(c[i * m + j] - b[(i + 1) * m + j]));
  return worst;
}

export function rowArgmax(matrix, rows, cols) {
  return Array.from({ length: rows }, (_, i) => {
    let best = 0;
    for (let j = 1; j < cols; j++) if (matrix[i * cols + j] > matrix[i * cols + best]) best = j;
    return best;
  });
}

// The live model (lib/live-model.js): a seed, its toy and the five alignments.
export function createFamily(engine, seed = DEFAULT_SEED) {
  return liveModel({
    initial: { seed },
    compute: (inputs) => computeFamily(engine, drawToy(engine, inputs.seed)),
    actions: { setSeed: (inputs, next) => { inputs.seed = next; } },
    views: { seed: (_, inputs) => inputs.seed },
  });
}

// Section 3 state: article 003's six tokens in three topics, read off the
// weight matrix. Plain module, no DOM: the engine is a parameter, so Vitest
// runs it against the real wasm in Node.
//
// Q = K = V = X, X = c * M (c = 2.6 and M from article 003): the logits are
// L = X X^T (the engine's raw scores), the weights A = softmax(L / sqrt(d)).
// Everything shown is computed from the engine's output: norms are sqrt(L_ii),
// the asymmetry max |L_ij - L_ji| is read off L.

import { liveModel } from '../../lib/live-model.js';
import { InputError, checkNumbers, withinFloatRange } from '../../lib/input-check.js';
import { DEFAULT_BASE, DEFAULT_FACTOR, TOKENS, TOPIC_OF, embeddings } from '../six-tokens.js';

export { TOKENS, TOPIC_OF, DEFAULT_BASE, DEFAULT_FACTOR, embeddings };
export const DEFAULT_ASYMMETRY = Object.freeze({ seed: 0, pairs: 200 });

// max_ij |L_ij - L_ji| of an n x n matrix.
export function maxAsymmetry(L, n) {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) worst = Math.max(worst, Math.abs(L[i * n + j] - L[j * n + i]));
  }
  return worst;
}

// ||L - L^T||_F / ||L||_F (Frobenius norms): 0 for a symmetric matrix, 2 for an
// antisymmetric one (then L - L^T = 2L).
export function relativeAsymmetry(L, n) {
  let diff = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = L[i * n + j];
      const b = L[j * n + i];
      diff += (a - b) ** 2;
      norm += a * a;
    }
  }
  return norm === 0 ? 0 : Math.sqrt(diff / norm);
}

// L - L^T
export function antisymmetricPart(L, n) {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = L[i * n + j] - L[j * n + i];
  return out;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// The attention of the six tokens with Q = K = V = X. Throws the engine's error
// (naming the argument) if an entry is not a finite number.
export function computeReading(engine, { base, factor }) {
  const n = base.length;
  const d = base[0].length;
  const x = embeddings(base, factor);
  const args = { q: x, k: x, v: x, n, m: n, dk: d, dv: d };
  const trace = engine.attention(args);
  // The symmetry is checked on the reference path, which accumulates each dot
  // product in double in one fixed order: x_i . x_j and x_j . x_i are then the
  // same sum, so L - L^T is exactly 0. The SIMD path may add the same four
  // products in another order for another position in its block, and can
  // differ in the last bit; that difference is reported too.
  const reference = engine.attentionReference(args);
  const logits = reference.scores;  // X X^T, before the scale
  const norms = Array.from({ length: n }, (_, i) => Math.sqrt(logits[i * n + i]));
  return {
    n, d, x, factor,
    logits,
    scaled: trace.scaled,
    weights: trace.weights,
    output: trace.output,
    scale: trace.scale,
    norms,
    maxAsymmetry: maxAsymmetry(logits, n),
    fastMaxAsymmetry: maxAsymmetry(trace.scores, n),
  };
}

// One token's gaze: its row of weights, and why its largest weight goes where
// it goes. The dot product x_i . x_j = ||x_i|| ||x_j|| cos(theta): a longer
// partner pointing almost the same way can beat the token itself.
export function gazeOf(reading, i) {
  const { n, weights, logits, norms } = reading;
  const row = Array.from(weights.subarray(i * n, (i + 1) * n));
  let pair = -1;
  for (let j = 0; j < n; j++) if (j !== i && (pair < 0 || row[j] > row[pair])) pair = j;
  const others = row.map((w, j) => ({ j, w })).filter(({ j }) => j !== i && j !== pair);
  const selfDot = logits[i * n + i];
  const pairDot = logits[i * n + pair];
  return {
    i, row, pair,
    self: row[i],
    pairWeight: row[pair],
    topTwo: row[i] + row[pair],
    rest: others.reduce((a, o) => a + o.w, 0),
    restMax: Math.max(...others.map((o) => o.w)),
    restMin: Math.min(...others.map((o) => o.w)),
    selfDot,
    pairDot,
    selfNorm: norms[i],
    pairNorm: norms[pair],
    cos: pairDot / (norms[i] * norms[pair]),
    prefersPair: row[pair] > row[i],
  };
}

// Separate random projections W_Q, W_K (d x d, N(0, 1/d) entries, from `seed`):
// L = (X W_Q)(X W_K)^T. Both products are the engine's (multiHead with one head
// returns X W_Q and X W_K; attention returns the raw scores). Returns the
// relative asymmetry of each of `pairs` draws and the first draw's matrices.
export function runAsymmetry(engine, { x, n, d, seed, pairs }) {
  const draws = engine.randomNormal({ seed, rows: 2 * pairs * d, cols: d, stddev: 1 / Math.sqrt(d) });
  const identity = new Float32Array(d * d);
  for (let c = 0; c < d; c++) identity[c * d + c] = 1;
  const values = [];
  let example = null;
  for (let p = 0; p < pairs; p++) {
    const wq = draws.subarray(2 * p * d * d, (2 * p + 1) * d * d);
    const wk = draws.subarray((2 * p + 1) * d * d, (2 * p + 2) * d * d);
    const projected = engine.multiHead({ x, heads: 1, wq, wk, wv: identity, wo: identity, n, dModel: d });
    const L = engine.attention({ q: projected.q, k: projected.k, v: projected.q, n, m: n, dk: d, dv: d, scale: false }).scores;
    values.push(relativeAsymmetry(L, n));
    if (p === 0) example = { logits: L, difference: antisymmetricPart(L, n), maxAsymmetry: maxAsymmetry(L, n) };
  }
  return {
    seed, pairs, values,
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    example,
  };
}

export function cloneBase(base) {
  return base.map((row) => [...row]);
}

// The live model (lib/live-model.js): the inputs (M, c, the seed of the random
// projections, the selected token), the latest good reading, and the asymmetry
// experiment. Editing an embedding recomputes the reading at once; the 200-pair
// asymmetry (a few milliseconds more) is recomputed by refreshAsymmetry(),
// which the view calls once the reader pauses.
export function createReading(engine, {
  base = DEFAULT_BASE, factor = DEFAULT_FACTOR, asymmetry = DEFAULT_ASYMMETRY, token = 3,
} = {}) {
  let asym = null;
  let asymFor = null;  // the reading the asymmetry was computed for
  const stale = (model) => asymFor !== model.result || asym?.seed !== model.inputs.seed;
  const model = liveModel({
    initial: { base: cloneBase(base), factor, seed: asymmetry.seed, pairs: asymmetry.pairs, token },   // t3: the row article 003 reads
    compute: (inputs) => {
      checkNumbers(inputs.factor, () => ({ key: 'inputs.factor' }));
      checkNumbers(inputs.base, (r, c) => ({ key: 'inputs.cell', params: { token: TOKENS[r], i: c + 1 } }));
      if (!embeddings(inputs.base, inputs.factor).every(Number.isFinite)) throw new InputError('overflow');   // c * M past float32
      return withinFloatRange(() => computeReading(engine, inputs), ['scaled', 'weights', 'output']);
    },
    actions: {
      select: (inputs, i) => { inputs.token = i; return false; },
      setEntry: (inputs, r, c, value) => { inputs.base[r][c] = value; },
      setFactor: (inputs, value) => { inputs.factor = value; },
      setSeed(inputs, seed) {
        inputs.seed = seed;
        model.refreshAsymmetry();
        return false;
      },
    },
    views: {
      reading: (result) => result,
      asymmetry: () => asym,
      selected: (_, inputs) => inputs.token,
      gaze: (result, inputs) => (result ? gazeOf(result, inputs.token) : null),
    },
    // The inputs as the section's parameters (./params.js) see them.
    snapshot: (inputs) => ({ base: cloneBase(inputs.base), factor: inputs.factor, seed: inputs.seed, token: inputs.token }),
  });
  model.refreshAsymmetry = () => {
    const reading = model.result;
    if (reading && stale(model)) {
      asym = runAsymmetry(engine, { x: reading.x, n: reading.n, d: reading.d, seed: model.inputs.seed, pairs: model.inputs.pairs });
      asymFor = reading;
    }
    return model;
  };
  return model.refreshAsymmetry();
}

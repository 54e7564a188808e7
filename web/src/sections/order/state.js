// Section 9 state: attention does not see order. Shuffle the tokens and the
// outputs shuffle the same way; add sinusoidal positional encodings and they
// no longer do. Plain module, no DOM: the engine is a parameter, so Vitest
// runs it against the real wasm in Node.
//
// With a permutation matrix P (row r of PX is row perm[r] of X):
//   Attention(PX) = softmax(P X X^T P^T / sqrt(d)) P X = P softmax(X X^T / sqrt(d)) X = P Attention(X).
// The comparison is made on the engine's reference path, which accumulates in
// double: reordering the keys then reorders only exact products and sums of
// doubles, and the outputs, rounded to float32, agree bit for bit. The SIMD
// path adds in float32, where a different order may change the last bit; its
// largest difference is reported alongside.
import { liveModel } from '../../lib/live-model.js';
import { DEFAULT_BASE, DEFAULT_FACTOR, TOKENS, embeddings } from '../six-tokens.js';

export { TOKENS };
export const DEFAULT_PERMUTATION = Object.freeze([3, 1, 5, 0, 4, 2]);
export const DEFAULT_X = embeddings(DEFAULT_BASE, DEFAULT_FACTOR);  // article 003's six tokens, 6 x 4

export function isPermutation(perm, n) {
  if (!Array.isArray(perm) || perm.length !== n) return false;
  const seen = new Set(perm);
  return seen.size === n && perm.every((p) => Number.isInteger(p) && p >= 0 && p < n);
}

// "3, 1, 5, 0, 4, 2" (commas or spaces) -> { perm } or { error, ... } where
// error names what is wrong: 'count' (not n numbers), 'range' (a number outside
// 0..n-1 or not whole), 'repeat' (a number twice).
export function parsePermutation(text, n) {
  const parts = String(text).trim().split(/[\s,]+/).filter(Boolean);
  if (parts.length !== n) return { error: 'count', count: parts.length };
  const perm = parts.map(Number);
  const bad = parts.find((p, i) => !/^\d+$/.test(p) || perm[i] >= n);
  if (bad !== undefined) return { error: 'range', value: bad };
  const repeated = perm.find((p, i) => perm.indexOf(p) !== i);
  if (repeated !== undefined) return { error: 'repeat', value: repeated };
  return { perm };
}

export const formatPermutation = (perm) => perm.join(', ');

// A uniformly random permutation of 0..n-1 (Fisher–Yates) from `random()` in [0, 1).
export function randomPermutation(n, random = Math.random) {
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  return perm;
}

// Rows of `matrix` (rows x cols) in the order `perm`: new row r = old row perm[r].
export function permuteRows(matrix, cols, perm) {
  const out = new Float32Array(perm.length * cols);
  perm.forEach((from, to) => out.set(matrix.subarray(from * cols, (from + 1) * cols), to * cols));
  return out;
}

// Rows and columns of an n x n matrix in the order `perm` (P A P^T).
export function permuteBoth(matrix, perm) {
  const n = perm.length;
  const out = new Float32Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out[r * n + c] = matrix[perm[r] * n + perm[c]];
  return out;
}

function add(a, b) {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] + b[i];
  return out;
}

// Largest |a - b| of each row, and of all.
export function rowDifferences(a, b, rows, cols) {
  const perRow = [];
  for (let r = 0; r < rows; r++) {
    let worst = 0;
    for (let c = 0; c < cols; c++) worst = Math.max(worst, Math.abs(a[r * cols + c] - b[r * cols + c]));
    perRow.push(worst);
  }
  return { perRow, max: Math.max(...perRow) };
}

// Self-attention (Q = K = V) of the tokens in their order and shuffled by
// `perm`, each at positions 0..n-1, with or without positional encodings.
export function computeOrder(engine, { x = DEFAULT_X, n = 6, d = 4, perm = DEFAULT_PERMUTATION, positional = false } = {}) {
  const pe = engine.positionalEncoding(n, d);
  const withPositions = (m) => (positional ? add(m, pe) : m);
  const input = withPositions(x);                                  // token i at position i
  const shuffledInput = withPositions(permuteRows(x, d, perm));    // token perm[r] at position r
  const call = (m) => ({ q: m, k: m, v: m, n, m: n, dk: d, dv: d });

  const original = engine.attentionReference(call(input));
  const shuffled = engine.attentionReference(call(shuffledInput));
  // What order-blindness predicts: each token's original output, moved with it.
  const expected = permuteRows(original.output, d, perm);
  const diff = rowDifferences(shuffled.output, expected, n, d);

  const fastOriginal = engine.attention(call(input));
  const fastShuffled = engine.attention(call(shuffledInput));
  const fast = rowDifferences(fastShuffled.output, permuteRows(fastOriginal.output, d, perm), n, d);

  return {
    n, d, perm: [...perm], positional, pe,
    input, shuffledInput,
    original: { weights: original.weights, output: original.output },
    shuffled: { weights: shuffled.weights, output: shuffled.output },
    expected,
    expectedWeights: permuteBoth(original.weights, perm),
    rowDiffs: diff.perRow,
    maxDiff: diff.max,
    fastMaxDiff: fast.max,
  };
}

// The live model (lib/live-model.js): the permutation, the positional switch,
// the latest result.
export function createOrder(engine, { perm = DEFAULT_PERMUTATION, positional = false } = {}) {
  return liveModel({
    initial: { perm: [...perm], positional },
    compute: (inputs) => computeOrder(engine, inputs),
    actions: {
      setPermutation(inputs, next) {
        if (!isPermutation(next, inputs.perm.length)) throw new RangeError(`perm: expected a permutation of 0..${inputs.perm.length - 1}`);
        inputs.perm = [...next];
      },
      setPositional: (inputs, on) => { inputs.positional = Boolean(on); },
    },
    views: { perm: (_, inputs) => inputs.perm, positional: (_, inputs) => inputs.positional },
  });
}

// Section 4 state: article 004's sentence, five tokens with two-dimensional
// embeddings and W_Q = W_K = W_V = I, so Q = K = V = X. Plain module, engine
// as a parameter (tested in Node against the real wasm).

import { liveModel } from '../../lib/live-model.js';
import { checkNumbers, withinFloatRange } from '../../lib/input-check.js';

export const TOKENS = Object.freeze(['karina', 'is', 'to', 'the', 'store']);
export const DEFAULT_EMBEDDINGS = Object.freeze([[1, 0], [0, 1], [1, 1], [1, 1], [0.5, 1]]);

export function computeSentence(engine, embeddings) {
  const n = embeddings.length;
  const d = embeddings[0].length;
  const x = Float32Array.from(embeddings.flat());
  const trace = engine.attention({ q: x, k: x, v: x, n, m: n, dk: d, dv: d });
  const rowSums = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += trace.weights[i * n + j];
    rowSums.push(s);
  }
  return {
    n, d,
    scores: trace.scores,
    scaled: trace.scaled,
    weights: trace.weights,
    output: trace.output,
    scale: trace.scale,
    rowSums,
    // Q = K makes the scores symmetric; the softmax, row by row, does not keep it.
    scoresSymmetric: isSymmetric(trace.scores, n),
    weightsSymmetric: isSymmetric(trace.weights, n, 1e-6),
    identicalRows: identicalTokenPairs(embeddings),
    prefersOther: tokensPreferringAnother(trace.scores, trace.weights, n),
  };
}

// Tokens whose largest weight goes to another token, strictly more than to
// themselves: with Q = K the self-score |x_i|^2 is beaten by x_i . x_j when x_j
// is longer and points nearly the same way. [{ i, j, self, other, dot, norm2 }]
export function tokensPreferringAnother(scores, weights, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    let j = -1;
    for (let c = 0; c < n; c++) if (c !== i && (j < 0 || weights[i * n + c] > weights[i * n + j])) j = c;
    const self = weights[i * n + i];
    const other = weights[i * n + j];
    if (other > self * (1 + 1e-6)) out.push({ i, j, self, other, dot: scores[i * n + j], norm2: scores[i * n + i] });
  }
  return out;
}

export function isSymmetric(a, n, tol = 0) {
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) if (Math.abs(a[i * n + j] - a[j * n + i]) > tol) return false;
  }
  return true;
}

// Pairs of tokens with the same embedding: self-attention cannot tell them apart.
export function identicalTokenPairs(embeddings) {
  const pairs = [];
  for (let i = 0; i < embeddings.length; i++) {
    for (let j = i + 1; j < embeddings.length; j++) {
      if (embeddings[i].every((x, c) => x === embeddings[j][c])) pairs.push([i, j]);
    }
  }
  return pairs;
}

export function createSentence(engine, initial = DEFAULT_EMBEDDINGS) {
  return liveModel({
    initial: { embeddings: initial },
    compute: ({ embeddings }) => {
      checkNumbers(embeddings, (i, c) => ({ key: 'embeddings.cell', params: { token: TOKENS[i], c: c + 1 } }));
      return withinFloatRange(() => computeSentence(engine, embeddings));
    },
    actions: { setEmbedding: (inputs, i, c, x) => { inputs.embeddings[i][c] = x; } },
    views: { tokens: () => TOKENS, embeddings: (_, inputs) => inputs.embeddings },
  });
}

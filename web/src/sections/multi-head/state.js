// Section 6 state: multi-head self-attention, d_model = 8, six tokens,
// h in {1, 2, 4, 8}. The embeddings X and the projections W_Q, W_K, W_V, W_O
// come from the engine's seeded generator; "draw new projections" changes the
// seed of the projections. Changing h keeps the projections and only splits
// them differently: head i uses columns i*d_k .. (i+1)*d_k - 1 of each.
// Plain module, engine as a parameter (tested in Node against the real wasm).

import { liveModel } from '../../lib/live-model.js';

export const N_TOKENS = 6;
export const D_MODEL = 8;
export const HEAD_CHOICES = Object.freeze([1, 2, 4, 8]);
export const EMBEDDING_SEED = 2017;   // fixed: the tokens stay the same
export const DEFAULT_SEED = 1;

// Floating-point operations of one multi-head self-attention layer, counting a
// multiply-add as 2. The two n x n products cost h * 2 n^2 d_k each, which is
// 2 n^2 d_model whatever h is: splitting into heads does not add work.
export function flopCount({ n, dModel, heads }) {
  if (dModel % heads !== 0) throw new Error(`heads: ${heads} does not divide d_model = ${dModel}`);
  const dk = dModel / heads;
  const scores = heads * 2 * n * n * dk;        // Q_i K_i^T for every head
  const mix = heads * 2 * n * n * dk;           // weights_i V_i for every head
  const projections = 4 * 2 * n * dModel * dModel;   // X W_Q, X W_K, X W_V, concat W_O
  const softmaxExps = heads * n * n;            // one exponential per score
  return { heads, dk, scores, mix, attention: scores + mix, projections, softmaxExps, total: scores + mix + projections };
}

export function drawInputs(engine, seed) {
  const x = engine.randomNormal({ seed: EMBEDDING_SEED, rows: N_TOKENS, cols: D_MODEL });
  // Four d_model x d_model projections from one stream, scaled so that X W has
  // entries of about unit variance (stddev 1/sqrt(d_model)).
  const w = engine.randomNormal({ seed, rows: 4 * D_MODEL, cols: D_MODEL, stddev: 1 / Math.sqrt(D_MODEL) });
  const size = D_MODEL * D_MODEL;
  return {
    seed,
    x,
    wq: w.slice(0, size),
    wk: w.slice(size, 2 * size),
    wv: w.slice(2 * size, 3 * size),
    wo: w.slice(3 * size, 4 * size),
  };
}

export function computeMultiHead(engine, inputs, heads) {
  const r = engine.multiHead({
    x: inputs.x, heads, wq: inputs.wq, wk: inputs.wk, wv: inputs.wv, wo: inputs.wo,
    n: N_TOKENS, dModel: D_MODEL,
  });
  return {
    heads,
    dk: D_MODEL / heads,
    headWeights: r.headWeights,
    concat: r.concat,
    output: r.output,
    q: r.q,
    k: r.k,
    v: r.v,
    flops: flopCount({ n: N_TOKENS, dModel: D_MODEL, heads }),
    flopTable: HEAD_CHOICES.map((h) => flopCount({ n: N_TOKENS, dModel: D_MODEL, heads: h })),
  };
}

// The live model (lib/live-model.js): inputs { heads, seed }. The drawn
// matrices (X, W_Q, W_K, W_V, W_O) depend on the seed only, so a change of h
// keeps them; `drawn` holds the current ones.
export function createMultiHead(engine, { heads = 2, seed = DEFAULT_SEED } = {}) {
  let drawn = null;
  const drawnFor = (s) => (drawn?.seed === s ? drawn : (drawn = drawInputs(engine, s)));
  return liveModel({
    initial: { heads, seed },
    compute: (inputs) => computeMultiHead(engine, drawnFor(inputs.seed), inputs.heads),
    actions: {
      setHeads(inputs, next) {
        if (!HEAD_CHOICES.includes(next)) throw new Error(`heads: expected one of ${HEAD_CHOICES.join(', ')}, got ${next}`);
        inputs.heads = next;
      },
      // New projections from the next seed (the embeddings stay).
      redraw(inputs, nextSeed = inputs.seed + 1) { inputs.seed = nextSeed; },
    },
    views: {
      heads: (_, inputs) => inputs.heads,
      seed: (_, inputs) => inputs.seed,
      drawn: (_, inputs) => drawnFor(inputs.seed),
      // The result for another h, without changing the state (to prepare views).
      peek: (_, inputs) => (count) => computeMultiHead(engine, drawnFor(inputs.seed), count),
    },
  });
}

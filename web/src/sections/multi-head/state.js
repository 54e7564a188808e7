// Section 6 state: multi-head self-attention, d_model = 8, six tokens,
// h in {1, 2, 4, 8}. The embeddings X and the projections W_Q, W_K, W_V, W_O
// come from the engine's seeded generator; "draw new projections" changes the
// seed of the projections. Changing h keeps the projections and only splits
// them differently: head i uses columns i*d_k .. (i+1)*d_k - 1 of each.
// Plain module, engine as a parameter (tested in Node against the real wasm).

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

export function createMultiHead(engine, { heads = 2, seed = DEFAULT_SEED } = {}) {
  let inputs = drawInputs(engine, seed);
  let h = heads;
  let result = computeMultiHead(engine, inputs, h);
  const api = {
    get heads() { return h; },
    get seed() { return inputs.seed; },
    get inputs() { return inputs; },
    get result() { return result; },
    get snapshot() { return { heads: h, seed: inputs.seed }; },
    setHeads(next) {
      if (!HEAD_CHOICES.includes(next)) throw new Error(`heads: expected one of ${HEAD_CHOICES.join(', ')}, got ${next}`);
      h = next;
      result = computeMultiHead(engine, inputs, h);
      return api;
    },
    // The result for another h, without changing the state (to prepare views).
    peek(heads) { return computeMultiHead(engine, inputs, heads); },
    // New projections from the next seed (the embeddings stay).
    redraw(nextSeed = inputs.seed + 1) {
      inputs = drawInputs(engine, nextSeed);
      result = computeMultiHead(engine, inputs, h);
      return api;
    },
    reset() {
      inputs = drawInputs(engine, seed);
      h = heads;
      result = computeMultiHead(engine, inputs, h);
      return api;
    },
  };
  return api;
}

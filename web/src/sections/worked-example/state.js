// Section 1 state: article 001's worked example (one query, three keys, d_k = 2).
// Plain module, no DOM: the engine is a parameter, so Vitest runs it against
// the real wasm in Node.
//
// Every number comes from engine.attention(); the exponentials e^{s_j} and
// their sum are shown as the article writes them (no max subtraction), computed
// here from the engine's scaled scores — and w_j = e^{s_j} / sum is the engine's
// weight up to float rounding (tested).

import { lastGood } from '../../lib/last-good.js';

export const DEFAULT_INPUTS = Object.freeze({
  q: [1, 0],
  keys: [[1, 0], [0, 1], [1, 1]],
  values: [[2, 0], [0, 2], [1, 1]],
  scaling: true,
});

export function cloneInputs(inputs) {
  return {
    q: [...inputs.q],
    keys: inputs.keys.map((k) => [...k]),
    values: inputs.values.map((v) => [...v]),
    scaling: inputs.scaling,
  };
}

// The full trace for one set of inputs, scaled or not. Throws the engine's
// Error (its message names the argument, e.g. "q[1] ...") on bad input.
export function computeTrace(engine, inputs, scaling = inputs.scaling) {
  const m = inputs.keys.length;
  const dk = inputs.q.length;
  const dv = inputs.values[0].length;
  const trace = engine.attention({
    q: Float32Array.from(inputs.q),
    k: Float32Array.from(inputs.keys.flat()),
    v: Float32Array.from(inputs.values.flat()),
    n: 1, m, dk, dv,
    scale: scaling ? undefined : false,
  });
  const scores = Array.from(trace.scores);
  const scaled = Array.from(trace.scaled);
  const weights = Array.from(trace.weights);
  const exps = scaled.map((s) => Math.exp(s));
  const sumExp = exps.reduce((a, b) => a + b, 0);
  const weighted = weights.map((w, j) => inputs.values[j].map((x) => w * x));
  return {
    m, dk, dv,
    // the inputs this result was computed from (the live inputs may hold a typo)
    q: [...inputs.q],
    keys: inputs.keys.map((k) => [...k]),
    values: inputs.values.map((v) => [...v]),
    scale: trace.scale,
    scaling,
    scores,
    scaled,
    exps,
    sumExp,
    weights,
    weightSum: weights.reduce((a, b) => a + b, 0),
    weighted,
    output: Array.from(trace.output),
  };
}

// The live model of the section: inputs, the latest good result, and the
// error of the latest attempt (null when it worked). On an error the last good
// result stays, so the page keeps showing numbers while the reader types.
export function createWorkedExample(engine, initial = DEFAULT_INPUTS) {
  let inputs = cloneInputs(initial);
  // other: the same inputs with the scaling flipped, for the comparison
  const computed = lastGood(() => ({
    trace: computeTrace(engine, inputs),
    other: computeTrace(engine, inputs, !inputs.scaling),
  }));
  function recompute() {
    computed.update();
    return api;
  }

  const api = {
    get inputs() { return inputs; },
    get result() { return computed.result?.trace ?? null; },
    get other() { return computed.result?.other ?? null; },
    get error() { return computed.error; },
    get snapshot() { return inputs; },
    setQuery(i, x) { inputs.q[i] = x; return recompute(); },
    setQueryVector(x, y) { inputs.q = [x, y]; return recompute(); },
    setKey(j, i, x) { inputs.keys[j][i] = x; return recompute(); },
    setValue(j, i, x) { inputs.values[j][i] = x; return recompute(); },
    setScaling(on) { inputs.scaling = Boolean(on); return recompute(); },
    reset() { inputs = cloneInputs(initial); return recompute(); },
  };
  return recompute();
}

// Section 1 state: article 001's worked example (one query, three keys, d_k = 2).
// Plain module, no DOM: the engine is a parameter, so Vitest runs it against
// the real wasm in Node.
//
// Every number comes from engine.attention()'s trace, the exponentials, their
// sum and the terms w_j v_j included. The engine gives e^{s_j} as the article
// writes them (no max subtraction) while they fit its single-precision floats;
// beyond (e^{s_j} or their sum too large, or a term too small to keep its
// digits) it gives e^{s_j - max s}, whose ratios are the same weights, and the
// page says so.
//
// `convention` is how the page writes the same numbers: 'rows' (Q K^T, a row
// per query) or 'columns' (article 000's V Softmax(K^T Q / sqrt(d_k)), a
// column per query): a view, not an input of the computation.

import { liveModel } from '../../lib/live-model.js';
import { checkNumbers, withinFloatRange } from '../../lib/input-check.js';

export const CONVENTIONS = Object.freeze(['rows', 'columns']);

export const DEFAULT_INPUTS = Object.freeze({
  q: [1, 0],
  keys: [[1, 0], [0, 1], [1, 1]],
  values: [[2, 0], [0, 2], [1, 1]],
  scaling: true,
  convention: 'rows',
});

export function cloneInputs(inputs) {
  return {
    q: [...inputs.q],
    keys: inputs.keys.map((k) => [...k]),
    values: inputs.values.map((v) => [...v]),
    scaling: inputs.scaling,
    convention: inputs.convention,
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
    terms: true,
  });
  const weights = Array.from(trace.weights);
  return {
    m, dk, dv,
    // the inputs this result was computed from (the live inputs may hold a typo)
    q: [...inputs.q],
    keys: inputs.keys.map((k) => [...k]),
    values: inputs.values.map((v) => [...v]),
    scale: trace.scale,
    scaling,
    scores: Array.from(trace.scores),
    scaled: Array.from(trace.scaled),
    // e^{s_j - c} and their sum: c = 0 (the textbook e^{s_j}) or max_l s_l (the stable form)
    exps: Array.from(trace.exps),
    expSum: trace.expSums[0],
    expShift: trace.expShifts[0],
    stable: trace.expShifts[0] !== 0,
    weights,
    weightSum: weights.reduce((a, b) => a + b, 0),
    // w_j v_j, one vector per key
    weighted: Array.from({ length: m }, (_, j) => Array.from(trace.terms.subarray(j * dv, (j + 1) * dv))),
    output: Array.from(trace.output),
  };
}

// K^T q as the engine computes it when handed the keys as the queries and q
// as the one key: the scores of article 000's column form (m x n, here m x 1),
// to set against the row q K^T of the trace.
export function columnScores(engine, inputs) {
  const trace = engine.attention({
    q: Float32Array.from(inputs.keys.flat()),
    k: Float32Array.from(inputs.q),
    v: new Float32Array(1),   // one key, one value: only the scores are read
    n: inputs.keys.length, m: 1, dk: inputs.q.length, dv: 1,
    scale: false,
  });
  return Array.from(trace.scores);
}

// Every typed number is a number that fits in single precision; a problem
// names the box as its label does (lib/input-check.js), counting from 1.
export function checkWorkedInputs(inputs) {
  checkNumbers(inputs.q, (i) => ({ key: 'inputs.queryCell', params: { i: i + 1 } }));
  checkNumbers(inputs.keys, (j, i) => ({ key: 'inputs.keyCell', params: { j: j + 1, i: i + 1 } }));
  checkNumbers(inputs.values, (j, i) => ({ key: 'inputs.valueCell', params: { j: j + 1, i: i + 1 } }));
}

// The live model of the section (lib/live-model.js): the inputs, the latest
// good result and the error of the latest attempt. The result also holds
// `other`: the same inputs with the scaling flipped, for the comparison.
export function createWorkedExample(engine, initial = DEFAULT_INPUTS) {
  return liveModel({
    initial,
    copy: cloneInputs,
    compute: (inputs) => {
      checkWorkedInputs(inputs);
      return {
        ...withinFloatRange(() => computeTrace(engine, inputs)),
        other: withinFloatRange(() => computeTrace(engine, inputs, !inputs.scaling)),
        columnScores: withinFloatRange(() => columnScores(engine, inputs)),
      };
    },
    actions: {
      setQuery: (inputs, i, x) => { inputs.q[i] = x; },
      setQueryVector: (inputs, x, y) => { inputs.q = [x, y]; },
      setKey: (inputs, j, i, x) => { inputs.keys[j][i] = x; },
      setValue: (inputs, j, i, x) => { inputs.values[j][i] = x; },
      setScaling: (inputs, on) => { inputs.scaling = Boolean(on); },
      // A view of the same numbers: nothing to recompute.
      setConvention: (inputs, convention) => {
        if (!CONVENTIONS.includes(convention)) throw new RangeError(`convention: expected 'rows' or 'columns', got ${convention}`);
        inputs.convention = convention;
        return false;
      },
    },
    views: { other: (result) => result?.other ?? null },
  });
}

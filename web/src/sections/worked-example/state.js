// Section 1 state: article 001's worked example (one query, three keys, d_k = 2).
// Plain module, no DOM: the engine is a parameter, so Vitest runs it against
// the real wasm in Node.
//
// Every number comes from engine.attention(); the exponentials e^{s_j} and
// their sum are shown as the article writes them (no max subtraction), computed
// here from the engine's scaled scores — and w_j = e^{s_j} / sum is the engine's
// weight up to float rounding (tested). When e^{s_j} overflows (s_j > 709.78,
// past the largest double), the page shows what the engine computes instead:
// e^{s_j - max s}, whose ratios are the same weights.

import { liveModel } from '../../lib/live-model.js';
import { checkNumbers, withinFloatRange } from '../../lib/input-check.js';

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
  // The stable form: w_j = e^{s_j - max s} / sum_l e^{s_l - max s}.
  const maxScaled = Math.max(...scaled);
  const shifted = scaled.map((s) => Math.exp(s - maxScaled));
  const sumShifted = shifted.reduce((a, b) => a + b, 0);
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
    maxScaled,
    shifted,
    sumShifted,
    overflow: !Number.isFinite(sumExp),   // e^{s_j} or their sum past the largest double
    weights,
    weightSum: weights.reduce((a, b) => a + b, 0),
    weighted,
    output: Array.from(trace.output),
  };
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
      return { ...withinFloatRange(() => computeTrace(engine, inputs)), other: withinFloatRange(() => computeTrace(engine, inputs, !inputs.scaling)) };
    },
    actions: {
      setQuery: (inputs, i, x) => { inputs.q[i] = x; },
      setQueryVector: (inputs, x, y) => { inputs.q = [x, y]; },
      setKey: (inputs, j, i, x) => { inputs.keys[j][i] = x; },
      setValue: (inputs, j, i, x) => { inputs.values[j][i] = x; },
      setScaling: (inputs, on) => { inputs.scaling = Boolean(on); },
    },
    views: { other: (result) => result?.other ?? null },
  });
}

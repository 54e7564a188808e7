// Section 1 (#worked-example) state, against the real wasm engine in Node.
// Expected values are computed here with Math.exp from the formula, never
// copied from the article.
import { describe, it, expect, beforeAll } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { DEFAULT_INPUTS, computeTrace, createWorkedExample } from '../../web/src/sections/worked-example/state.js';
import { formatNumber, formatVector } from '../../web/src/lib/format.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });

// softmax(q.k_j * scale) and the weighted sum of the values, in double precision.
function expected({ q, keys, values }, scale) {
  const scores = keys.map((k) => k.reduce((s, x, i) => s + x * q[i], 0));
  const scaled = scores.map((s) => s * scale);
  const exps = scaled.map(Math.exp);
  const sum = exps.reduce((a, b) => a + b, 0);
  const weights = exps.map((e) => e / sum);
  const output = values[0].map((_, c) => weights.reduce((acc, w, j) => acc + w * values[j][c], 0));
  return { scores, scaled, exps, sum, weights, output };
}

describe('worked example state', () => {
  it('computes every intermediate number of the default example (scaled by 1/sqrt(2))', () => {
    const r = computeTrace(engine, DEFAULT_INPUTS);
    const want = expected(DEFAULT_INPUTS, 1 / Math.sqrt(2));
    r.scores.forEach((s, j) => expect(s).toBeCloseTo(want.scores[j], 6));
    r.scaled.forEach((s, j) => expect(s).toBeCloseTo(want.scaled[j], 6));
    // e^{s_j} and their sum, worked out by hand (30-digit decimal arithmetic),
    // not by Math.exp as the section does: s = (1/sqrt 2, 0, 1/sqrt 2),
    // e^{1/sqrt 2} = 2.02811498164747245..., sum = 2 e^{1/sqrt 2} + 1 = 5.05622996329494490...
    expect(r.exps[0]).toBeCloseTo(2.028114981647472, 6);
    expect(r.exps[1]).toBe(1);
    expect(r.exps[2]).toBeCloseTo(2.028114981647472, 6);
    expect(r.sumExp).toBeCloseTo(5.056229963294945, 6);
    r.weights.forEach((w, j) => expect(w).toBeCloseTo(want.weights[j], 6));
    r.output.forEach((o, c) => expect(o).toBeCloseTo(want.output[c], 6));
    expect(r.scale).toBeCloseTo(Math.SQRT1_2, 7);
    expect(r.weightSum).toBeCloseTo(1, 6);
    // What the page prints.
    expect(r.weights.map((w) => formatNumber(w))).toEqual(['0.401', '0.198', '0.401']);
    expect(formatVector(r.output)).toBe('(1.203, 0.797)');
    expect(formatNumber(r.sumExp)).toBe(formatNumber(want.sum));
  });

  it('shows e^s / sum equal to the engine weight', () => {
    const r = computeTrace(engine, DEFAULT_INPUTS);
    r.exps.forEach((e, j) => expect(e / r.sumExp).toBeCloseTo(r.weights[j], 6));
  });

  it('weighted values w_j v_j add up to the output', () => {
    const r = computeTrace(engine, DEFAULT_INPUTS);
    [0, 1].forEach((c) => expect(r.weighted.reduce((a, wv) => a + wv[c], 0)).toBeCloseTo(r.output[c], 6));
  });

  it('the scaling toggle: off gives the sharper weights, on restores them', () => {
    const model = createWorkedExample(engine);
    model.setScaling(false);
    const want = expected(DEFAULT_INPUTS, 1);
    model.result.weights.forEach((w, j) => expect(w).toBeCloseTo(want.weights[j], 6));
    expect(model.result.weights.map((w) => formatNumber(w))).toEqual(['0.422', '0.155', '0.422']);
    expect(model.result.scale).toBe(1);
    // "other" is the comparison the page prints: the scaled weights.
    expect(model.other.weights.map((w) => formatNumber(w))).toEqual(['0.401', '0.198', '0.401']);
    model.setScaling(true);
    expect(model.result.weights.map((w) => formatNumber(w))).toEqual(['0.401', '0.198', '0.401']);
  });

  it('an edited input changes the weights, which still sum to 1', () => {
    const model = createWorkedExample(engine);
    model.setKey(1, 1, 3);   // k2 = (0, 3)
    model.setQuery(1, 0.5);  // q = (1, 0.5)
    const want = expected(model.inputs, 1 / Math.sqrt(2));
    model.result.weights.forEach((w, j) => expect(w).toBeCloseTo(want.weights[j], 6));
    expect(model.result.weightSum).toBeCloseTo(1, 6);
    expect(formatNumber(model.result.weights[1])).not.toBe('0.198');
  });

  it('dragging q (a new query vector) recomputes everything', () => {
    const model = createWorkedExample(engine);
    model.setQueryVector(0, 1);
    const want = expected({ ...model.inputs, q: [0, 1] }, 1 / Math.sqrt(2));
    model.result.weights.forEach((w, j) => expect(w).toBeCloseTo(want.weights[j], 6));
    expect(model.result.q).toEqual([0, 1]);
  });

  it('a value that is not a number: the box is named as its label names it (from 1), the last result stays', () => {
    const model = createWorkedExample(engine);
    const before = model.result;
    model.setQuery(0, NaN);
    expect(model.failure).toMatchObject({ problem: 'notANumber', field: { key: 'inputs.queryCell', params: { i: 1 } } });
    expect(model.result).toBe(before);
    model.setQuery(0, 1);   // the engine is still usable
    expect(model.error).toBeNull();
    expect(formatNumber(model.result.weights[0])).toBe('0.401');
  });

  it('reset restores the article example', () => {
    const model = createWorkedExample(engine);
    model.setValue(0, 0, 5).setScaling(false).reset();
    expect(model.inputs).toEqual({ ...DEFAULT_INPUTS, q: [1, 0], keys: [[1, 0], [0, 1], [1, 1]], values: [[2, 0], [0, 2], [1, 1]] });
    expect(formatVector(model.result.output)).toBe('(1.203, 0.797)');
  });

  it('q = (1000, 0): e^s is huge but finite, shown as a power of ten; the weights are the engine’s', () => {
    const model = createWorkedExample(engine).setQueryVector(1000, 0);
    const r = model.result;
    expect(r.overflow).toBe(false);
    // s_1 = s_3 = 1000 / sqrt 2 = 707.1: e^707.1 = 1.24 x 10^307, independently from Math.exp
    // (within the float32 rounding of s: |ds| <= 707 * 2^-24, a relative 4 x 10^-5 in e^s).
    expect(Math.abs(r.exps[0] / Math.exp(1000 / Math.SQRT2) - 1)).toBeLessThan(1e-4);
    expect(formatNumber(r.exps[0])).toBe('1.24\u202f\u00d7\u202f10\u00b3\u2070\u2077');
    expect(formatNumber(r.sumExp)).toBe('2.48\u202f\u00d7\u202f10\u00b3\u2070\u2077');
    expect(r.weights.map((w) => formatNumber(w))).toEqual(['0.500', '0.000', '0.500']);
  });

  it('q = (1010, 0): e^s overflows a double, so the stable form e^(s - max s) is what is shown, and gives the same weights', () => {
    const r = createWorkedExample(engine).setQueryVector(1010, 0).result;
    expect(r.exps[0]).toBe(Infinity);
    expect(r.overflow).toBe(true);
    expect(r.maxScaled).toBeCloseTo(1010 / Math.SQRT2, 3);
    expect(r.shifted[0]).toBe(1);   // the largest term: e^0
    expect(r.shifted[2]).toBe(1);
    expect(r.shifted[1]).toBeLessThan(1e-300);   // e^(0 - 714.2)
    // The weights are the ratios of the stable terms.
    r.shifted.forEach((e, j) => expect(e / r.sumShifted).toBeCloseTo(r.weights[j], 6));
    expect(r.weights.map((w) => formatNumber(w))).toEqual(['0.500', '0.000', '0.500']);
  });
});

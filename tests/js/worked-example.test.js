// Section 1 (#worked-example) state, against the real wasm engine in Node.
// Expected values are computed here with Math.exp from the formula, never
// copied from the article.
import { describe, it, expect, beforeAll } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { DEFAULT_INPUTS, computeTrace, createWorkedExample } from '../../web/src/sections/worked-example/state.js';
import { columnCheck } from '../../web/src/sections/worked-example/convention-panel.js';
import { formatNumber, formatVector } from '../../web/src/lib/format.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/worked-example.js';
import ko from '../../web/src/i18n/ko/worked-example.js';

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
    expect(r.expSum).toBeCloseTo(5.056229963294945, 6);
    expect(r.stable).toBe(false);
    r.weights.forEach((w, j) => expect(w).toBeCloseTo(want.weights[j], 6));
    r.output.forEach((o, c) => expect(o).toBeCloseTo(want.output[c], 6));
    expect(r.scale).toBeCloseTo(Math.SQRT1_2, 7);
    expect(r.weightSum).toBeCloseTo(1, 6);
    // What the page prints.
    expect(r.weights.map((w) => formatNumber(w))).toEqual(['0.401', '0.198', '0.401']);
    expect(formatVector(r.output)).toBe('(1.203, 0.797)');
    expect(formatNumber(r.expSum)).toBe(formatNumber(want.sum));
  });

  it('every number it shows is the engine trace\'s: the exponentials, their sum and the terms w_j v_j included', () => {
    const inputs = { ...DEFAULT_INPUTS, q: [0.3, -1.7], keys: [[1, 2], [-0.5, 0.25], [3, 1]] };
    const r = computeTrace(engine, inputs);
    const trace = engine.attention({
      q: Float32Array.from(inputs.q), k: Float32Array.from(inputs.keys.flat()), v: Float32Array.from(inputs.values.flat()),
      n: 1, m: 3, dk: 2, dv: 2, terms: true,
    });
    expect(r.scores).toEqual(Array.from(trace.scores));
    expect(r.scaled).toEqual(Array.from(trace.scaled));
    expect(r.exps).toEqual(Array.from(trace.exps));
    expect(r.expSum).toBe(trace.expSums[0]);
    expect(r.expShift).toBe(trace.expShifts[0]);
    expect(r.weights).toEqual(Array.from(trace.weights));
    expect(r.weighted.flat()).toEqual(Array.from(trace.terms));
    expect(r.output).toEqual(Array.from(trace.output));
  });

  it('shows e^s / sum equal to the engine weight', () => {
    const r = computeTrace(engine, DEFAULT_INPUTS);
    r.exps.forEach((e, j) => expect(e / r.expSum).toBeCloseTo(r.weights[j], 6));
  });

  it('weighted values w_j v_j are the weights times the values, and add up to the output', () => {
    const r = computeTrace(engine, DEFAULT_INPUTS);
    r.weighted.forEach((wv, j) => wv.forEach((x, c) => expect(x).toBeCloseTo(r.weights[j] * DEFAULT_INPUTS.values[j][c], 6)));
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

  // The engine's floats hold e^s up to e^88 (the sum of m = 3 of them: max s + ln 3 <= 88, s <= 86.9).
  it('q = (120, 0): e^s is huge but a float, shown as a power of ten; the weights are the engine’s', () => {
    const r = createWorkedExample(engine).setQueryVector(120, 0).result;
    expect(r.stable).toBe(false);
    // s_1 = s_3 = 120 / sqrt 2 = 84.85: e^84.85 = 7.10 x 10^36, independently from Math.exp
    // (within the float32 rounding of s and of e^s: a relative 2 x 10^-5 at most).
    expect(Math.abs(r.exps[0] / Math.exp(120 / Math.SQRT2) - 1)).toBeLessThan(2e-5);
    expect(formatNumber(r.exps[0])).toBe('7.10\u202f\u00d7\u202f10\u00b3\u2076');
    expect(formatNumber(r.expSum)).toBe('1.42\u202f\u00d7\u202f10\u00b3\u2077');
    expect(r.weights.map((w) => formatNumber(w))).toEqual(['0.500', '0.000', '0.500']);
  });

  it('q = (130, 0): e^s would leave the float range, so the engine gives e^(s - max s), the same weights', () => {
    const r = createWorkedExample(engine).setQueryVector(130, 0).result;
    expect(r.stable).toBe(true);
    expect(r.expShift).toBeCloseTo(130 / Math.SQRT2, 4);
    expect(r.exps[0]).toBe(1);   // the largest term: e^0
    expect(r.exps[2]).toBe(1);
    // e^(0 - 91.9) = 1.2 x 10^-40 is below the smallest normal float, e^-87.34: the engine's exp, the
    // softmax's own, gives 0 there, as it gives the weight 0
    expect(Math.exp(-130 / Math.SQRT2)).toBeLessThan(2 ** -126);
    expect(r.exps[1]).toBe(0);
    expect(r.weights[1]).toBe(0);
    expect(formatNumber(r.exps[1])).toBe('0.000');
    expect(r.expSum).toBe(2);
    r.exps.forEach((e, j) => expect(e / r.expSum).toBeCloseTo(r.weights[j], 6));
    expect(r.weights.map((w) => formatNumber(w))).toEqual(['0.500', '0.000', '0.500']);
  });
});

describe('the column form (article 000)', () => {
  it('is a view: choosing it changes no number, and only rows or columns are accepted', () => {
    const model = createWorkedExample(engine);
    const before = model.result;
    model.setConvention('columns');
    expect(model.inputs.convention).toBe('columns');
    expect(model.result).toBe(before);
    expect(() => model.setConvention('diagonal')).toThrow(/convention: expected 'rows' or 'columns', got diagonal/);
    expect(model.inputs.convention).toBe('columns');
  });

  it('K^T q, computed by the engine with the keys as the queries, is q K^T transposed', () => {
    const model = createWorkedExample(engine).setQueryVector(0.3, -1.7).setKey(2, 0, 2.5);
    const r = model.result;
    expect(r.columnScores).toHaveLength(3);
    r.columnScores.forEach((x, j) => expect(x).toBe(r.scores[j]));
    // by hand: k_j . q
    expect(r.columnScores[2]).toBeCloseTo(2.5 * 0.3 + 1 * -1.7, 6);
  });

  it('its sentence, in both languages, names the numbers shown and says they are equal', () => {
    const r = createWorkedExample(engine).setQueryVector(0.3, -1.7).result;
    const [key, params] = columnCheck(r);
    expect(key).toBe('convention.same');
    for (const strings of [en, ko]) {
      const text = translator(strings, {})(key, params);
      expect(text).toContain(r.scores.map((x) => formatNumber(x)).join(', '));
      expect(text).toContain('3');
    }
    // Not equal: the sentence says by how much.
    const [other, otherParams] = columnCheck({ ...r, columnScores: [r.scores[0] + 2 ** -20, r.scores[1], r.scores[2]] });
    expect(other).toBe('convention.differs');
    expect(otherParams.difference).toBe(formatNumber(2 ** -20, 7));
  });
});

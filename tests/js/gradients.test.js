// Section "gradients": the sweep of the backward pass against d_k, one row's
// softmax Jacobian, and the words of both, with the real engine (learning
// module); the gradients checked against an independent backward pass in double
// written here; the experiment's comparison of two runs.
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { createAttention } from '../../web/src/engine/index.js';
import {
  DEFAULTS, DIMENSIONS, SHAPE, VANISHED, createGradients, rowJacobian, rowNorms, rowSummary, runSweep, spread, sweepSteps,
  sweepSummary, trialGradients, trialInputs,
} from '../../web/src/sections/gradients/state.js';
import { compareRuns, evaluateEvery, firstReaching, runOptions } from '../../web/src/sections/gradients/experiment.js';
import { lookup } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/gradients.js';
import ko from '../../web/src/i18n/ko/gradients.js';

let engine;
beforeAll(async () => { engine = await createAttention({ learning: true }); });

// The backward pass of attention in double, from the definitions (not the
// engine's code): S = c Q K^T, P = softmax(S), O = P V; for L = sum(dO * O):
// dP = dO V^T, dS_ij = P_ij (dP_ij - sum_l P_il dP_il), dQ = c dS K, dK = c dS^T Q.
function backwardInDouble({ q, k, v, gradOutput, n, m, dk, dv }, c) {
  const P = [];
  for (let i = 0; i < n; i++) {
    const s = Array.from({ length: m }, (_, j) => { let x = 0; for (let d = 0; d < dk; d++) x += q[i * dk + d] * k[j * dk + d]; return c * x; });
    const top = Math.max(...s);
    const e = s.map((x) => Math.exp(x - top));
    const z = e.reduce((a, b) => a + b, 0);
    P.push(e.map((x) => x / z));
  }
  const dS = P.map((row, i) => {
    const dP = Array.from({ length: m }, (_, j) => { let x = 0; for (let d = 0; d < dv; d++) x += gradOutput[i * dv + d] * v[j * dv + d]; return x; });
    const D = row.reduce((a, p, j) => a + p * dP[j], 0);
    return row.map((p, j) => p * (dP[j] - D));
  });
  const gradQ = new Float64Array(n * dk);
  const gradK = new Float64Array(m * dk);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      for (let d = 0; d < dk; d++) {
        gradQ[i * dk + d] += c * dS[i][j] * k[j * dk + d];
        gradK[j * dk + d] += c * dS[i][j] * q[i * dk + d];
      }
    }
  }
  return { gradQ, gradK, P };
}

const keysOf = (parts) => parts.map((p) => p.key);
const fills = (text) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]);

describe('the sweep', () => {
  test('each trial\'s gradients agree with a backward pass in double, raw and scaled (d_k = 4, 64, 256)', () => {
    for (const dk of [4, 64, 256]) {
      const inputs = trialInputs(engine, { seed: 1, trial: 3, dk, ...SHAPE });
      const g = trialGradients(engine, inputs);
      for (const [kind, c] of [['raw', 1], ['scaled', 1 / Math.sqrt(dk)]]) {
        const ref = backwardInDouble(inputs, c);
        const norms = (a, rows) => rowNorms(a, rows, dk);
        norms(g[kind].gradQ, SHAPE.n).forEach((x, i) => {
          const want = norms(ref.gradQ, SHAPE.n)[i];
          expect(Math.abs(x - want), `dQ row ${i}, d_k ${dk}, ${kind}`).toBeLessThanOrEqual(1e-5 + 1e-3 * want);
        });
        norms(g[kind].gradK, SHAPE.m).forEach((x, j) => {
          const want = norms(ref.gradK, SHAPE.m)[j];
          expect(Math.abs(x - want), `dK row ${j}, d_k ${dk}, ${kind}`).toBeLessThanOrEqual(1e-5 + 1e-3 * want);
        });
      }
    }
  });

  test('spread: median, quartiles, the share below 10^-3', () => {
    const s = spread([5, 1, 4, 2, 3, 0.0001, 0.002, 0.0005]);
    expect(s.count).toBe(8);
    expect(s.vanished).toBe(2 / 8);
    expect(s.median).toBeCloseTo((1 + 2) / 2, 12);
    expect(s.low).toBeLessThan(s.median);
    expect(s.high).toBeGreaterThan(s.median);
    expect(VANISHED).toBe(1e-3);
  });

  test('runs one trial per step; the whole sweep of seed 1 shows the raw gradient vanish and the scaled one stay', () => {
    const steps = sweepSteps(engine, { seed: 1, dims: [4, 16], trials: 3 });
    let count = 0;
    while (!steps.next().done) count += 1;
    expect(count).toBe(6);

    const sweep = runSweep(engine, { seed: 1 });
    expect(sweep.dims).toEqual(DIMENSIONS);
    expect(sweep.rows.map((r) => r.dk)).toEqual(DIMENSIONS);
    for (const row of sweep.rows) {
      for (const side of ['query', 'key']) for (const kind of ['raw', 'scaled']) expect(row[side][kind].count).toBe(SHAPE.trials * 8);
      // Divided by sqrt(d_k), the median query gets 0.5 to 1 at every width, and none vanish.
      expect(row.query.scaled.median).toBeGreaterThan(0.5);
      expect(row.query.scaled.median).toBeLessThan(1);
      expect(row.query.scaled.vanished).toBe(0);
    }
    const last = sweep.rows.at(-1);
    expect(last.query.raw.median).toBeLessThan(1e-3);
    expect(last.query.raw.vanished).toBeGreaterThan(0.5);
    expect(keysOf(sweepSummary(sweep))).toEqual([
      'sweep.summary.scaledSteady', 'sweep.summary.rawVanishes', 'sweep.summary.rawLargerFirst', 'sweep.summary.keys.smaller',
    ]);
    // Same seed, same numbers; another seed, others.
    expect(runSweep(engine, { seed: 1, dims: [64], trials: 4 })).toEqual(runSweep(engine, { seed: 1, dims: [64], trials: 4 }));
    expect(runSweep(engine, { seed: 2, dims: [64], trials: 4 }).rows[0].query.raw.median)
      .not.toBe(runSweep(engine, { seed: 1, dims: [64], trials: 4 }).rows[0].query.raw.median);
  });

  test('the summary says only what the numbers show', () => {
    const side = (median, { high = median, vanished = 0 } = {}) => ({ median, low: median, high, vanished, count: 1 });
    const row = (dk, q, k = q) => ({ dk, query: q, key: k });
    const sweepOf = (rows) => ({ rows });
    // raw larger at first, then vanishing; a quarter still large
    const a = sweepOf([row(4, { raw: side(1.2), scaled: side(0.7) }), row(16, { raw: side(0.9), scaled: side(0.7) }),
      row(1024, { raw: side(1e-4, { high: 0.9, vanished: 0.6 }), scaled: side(0.8) })]);
    expect(keysOf(sweepSummary(a))).toEqual(['sweep.summary.scaledSteady', 'sweep.summary.rawVanishes',
      'sweep.summary.rawLargerFirst', 'sweep.summary.rawConcentrated', 'sweep.summary.keys.smaller']);
    expect(sweepSummary(a)[2].params.dCross).toBe(16);   // the raw median is the larger at 4 and 16
    // only smaller, scaled changing, keys not smaller
    const b = sweepOf([row(4, { raw: side(0.5), scaled: side(0.7) }),
      row(1024, { raw: side(0.3), scaled: side(3) }, { raw: side(2), scaled: side(1) })]);
    expect(keysOf(sweepSummary(b))).toEqual(['sweep.summary.scaledChanges', 'sweep.summary.rawVanishes', 'sweep.summary.keys.notSmaller']);
    const c = sweepOf([row(4, { raw: side(0.5), scaled: side(0.7) }), row(1024, { raw: side(0.2), scaled: side(0.8) })]);
    expect(keysOf(sweepSummary(c))).toContain('sweep.summary.rawSmaller');
    // raw never smaller: no claim that it vanishes, no crossover
    const d = sweepOf([row(4, { raw: side(1), scaled: side(0.7) }), row(1024, { raw: side(2), scaled: side(0.8) })]);
    expect(keysOf(sweepSummary(d))).toEqual(['sweep.summary.scaledSteady', 'sweep.summary.rawNotSmaller', 'sweep.summary.keys.notSmaller']);
  });
});

describe('one row\'s Jacobian', () => {
  test('J = diag(p) - p p^T of the engine\'s weights; tr J = sum p(1 - p) bounds every entry; the query\'s gradient is the sweep\'s', () => {
    for (const dk of [4, 256, 1024]) {
      const r = rowJacobian(engine, { seed: 1, dk, query: 1 });
      const inputs = trialInputs(engine, { seed: 1, trial: 0, dk, ...SHAPE });
      for (const [kind, c] of [['raw', 1], ['scaled', 1 / Math.sqrt(dk)]]) {
        const side = r[kind];
        const ref = backwardInDouble(inputs, c);
        side.weights.forEach((p, j) => expect(Math.abs(p - ref.P[1][j])).toBeLessThan(1e-5));
        const p = side.weights;
        side.jacobian.forEach((x, idx) => {
          const [i, j] = [Math.floor(idx / SHAPE.m), idx % SHAPE.m];
          expect(Math.abs(x - ((i === j ? p[i] : 0) - p[i] * p[j]))).toBeLessThan(1e-7);
        });
        expect(side.trace).toBeCloseTo(p.reduce((a, x) => a + x * (1 - x), 0), 7);
        expect(side.largest).toBeLessThanOrEqual(side.trace + 1e-12);
        const want = rowNorms(ref.gradQ, SHAPE.n, dk)[1];
        expect(Math.abs(side.gradient - want)).toBeLessThanOrEqual(1e-6 + 1e-3 * want);
      }
    }
  });
  test('its sentence: saturated only when the raw trace is a tenth of the scaled one or less', () => {
    const row = (trace, strace) => ({ dk: 256, query: 1, raw: { trace, maxWeight: 0.9, gradient: 1 }, scaled: { trace: strace, maxWeight: 0.3, gradient: 1 } });
    expect(rowSummary(row(0.01, 0.8)).key).toBe('row.summary.saturated');
    expect(rowSummary(row(0.5, 0.8)).key).toBe('row.summary.spread');
    expect(rowSummary(row(0.08, 0.8)).key).toBe('row.summary.saturated');
    expect(rowSummary(row(0.01, 0.8)).params.query).toBe(2);   // counted from 1
    // The default row is a saturated one.
    expect(rowSummary(rowJacobian(engine, { seed: DEFAULTS.sweep.seed, ...DEFAULTS.row })).key).toBe('row.summary.saturated');
  });
  test('the model: the row follows its settings; the sweep is handed in and dropped when the seed changes', () => {
    const model = createGradients(engine, DEFAULTS);
    expect(model.result.dk).toBe(256);
    model.set('row', { dk: 16, query: 4 });
    expect(model.result).toMatchObject({ dk: 16, query: 4 });
    model.setSweep({ seed: 1 });
    expect(model.sweep).toEqual({ seed: 1 });
    model.set('train', { dk: 32 });
    expect(model.sweep).toEqual({ seed: 1 });
    model.set('sweep', { seed: 5 });
    expect(model.sweep).toBe(null);
    expect(model.result.seed).toBe(5);
  });
});

describe('the experiment', () => {
  const curve = (pairs) => pairs.map(([step, accuracy]) => ({ step, accuracy, heldOutLoss: 1 - accuracy, loss: 1 }));
  test('its options: one head, d_model = d_k, the scaling on or off; evaluated 20 times', () => {
    expect(runOptions({ dk: 64, seed: 3 }, 'scaled')).toEqual({ task: 'translate', seed: 3, heads: 1, dModel: 64, scale: true });
    expect(runOptions({ dk: 64, seed: 3 }, 'raw').scale).toBe(false);
    expect([100, 200, 500, 1000].map(evaluateEvery)).toEqual([5, 10, 25, 50]);
    expect(firstReaching(curve([[0, 0], [10, 0.94], [20, 0.95], [30, 1]]))).toBe(20);
    expect(firstReaching(curve([[0, 0], [10, 0.5]]))).toBe(null);
  });
  test('the comparison says which was faster, only as far as the runs show it', () => {
    const key = (a, b) => compareRuns({ scaled: curve(a), raw: curve(b) }, { steps: 200 })[0].key.split('.').at(-1);
    const reach = (step) => [[0, 0], [step, 0.96], [200, 0.99]];
    expect(key(reach(30), reach(110))).toBe('scaledFaster');
    expect(compareRuns({ scaled: curve(reach(30)), raw: curve(reach(110)) }, { steps: 200 })[0].params.times).toBeCloseTo(110 / 30, 12);
    expect(key(reach(110), reach(30))).toBe('rawFaster');
    expect(key(reach(100), reach(110))).toBe('same');
    expect(key(reach(50), [[0, 0], [200, 0.9]])).toBe('onlyScaled');
    expect(key([[0, 0], [200, 0.9]], reach(50))).toBe('onlyRaw');
    expect(key([[0, 0], [200, 0.9]], [[0, 0], [200, 0.8]])).toBe('neither');
    expect(compareRuns({ scaled: curve(reach(30)), raw: curve(reach(110)) }, { steps: 200 })[1])
      .toEqual({ key: 'experiment.summary.loss', params: { steps: 200, lossScaled: 1 - 0.99, lossRaw: 1 - 0.99 } });
  });
});

describe('every sentence the code can choose exists in both languages, with the numbers it is given', () => {
  const code = ['state.js', 'experiment.js'].map((f) => readFileSync(new URL(`../../web/src/sections/gradients/${f}`, import.meta.url), 'utf8')).join('\n');
  const chosen = [
    ...['scaledSteady', 'scaledChanges', 'rawVanishes', 'rawSmaller', 'rawNotSmaller', 'rawLargerFirst', 'rawConcentrated', 'keys.smaller', 'keys.notSmaller']
      .map((k) => `sweep.summary.${k}`),
    'row.summary.saturated', 'row.summary.spread',
    ...['scaledFaster', 'rawFaster', 'same', 'onlyScaled', 'onlyRaw', 'neither', 'loss'].map((k) => `experiment.summary.${k}`),
  ];
  test.each(chosen)('%s', (key) => {
    for (const strings of [en, ko]) expect(typeof lookup(strings, key), key).toBe('string');
    expect(code.includes(key.split('.').at(-1))).toBe(true);
    expect(fills(lookup(ko, key)).sort()).toEqual(fills(lookup(en, key)).sort());
  });
});

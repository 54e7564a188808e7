// Section 3 (#reading-weights): article 003's six tokens, read off the engine's
// weight matrix.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import {
  DEFAULT_BASE, DEFAULT_FACTOR, TOKENS, TOPIC_OF, antisymmetricPart, computeReading, createReading, embeddings,
  gazeOf, maxAsymmetry, median, relativeAsymmetry, runAsymmetry,
} from '../../web/src/sections/reading-weights/state.js';
import { setupParams } from '../../web/src/sections/reading-weights/setup-text.js';
import { translator } from '../../web/src/i18n/lookup.js';
import enReading from '../../web/src/i18n/en/reading-weights.js';
import koReading from '../../web/src/i18n/ko/reading-weights.js';

let engine;
let reading;
beforeAll(async () => {
  engine = await createAttention();
  reading = computeReading(engine, { base: DEFAULT_BASE, factor: DEFAULT_FACTOR });
});

describe('the six tokens with Q = K = V = X', () => {
  test('X = 2.6 M, and the logits are the engine’s raw X X^T', () => {
    expect(reading.x).toHaveLength(24);
    expect(reading.x[0]).toBeCloseTo(2.6, 6);
    expect(reading.x[3 * 4 + 1]).toBeCloseTo(2.6 * 0.3, 6);
    let dot = 0;
    for (let c = 0; c < 4; c++) dot += reading.x[c] * reading.x[3 * 4 + c];
    expect(reading.logits[0 * 6 + 3]).toBeCloseTo(dot, 4);
    expect(reading.scale).toBeCloseTo(0.5, 7);   // 1/sqrt(4)
  });

  test('every row sums to 1, and its top two are the token and its topic pair', () => {
    for (let i = 0; i < 6; i++) {
      const g = gazeOf(reading, i);
      expect(g.row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      expect(TOPIC_OF[g.pair]).toBe(TOPIC_OF[i]);
      const sorted = [...g.row].sort((a, b) => b - a);
      expect([g.self, g.pairWeight].sort((a, b) => b - a)).toEqual(sorted.slice(0, 2));
      expect(g.restMax).toBeLessThan(Math.min(g.self, g.pairWeight));
    }
  });

  test('t3 looks at t0 more than at itself, because t0 is longer and nearly parallel', () => {
    const g = gazeOf(reading, 3);
    expect(TOKENS[g.pair]).toBe('t0');
    expect(g.prefersPair).toBe(true);
    expect(g.pairWeight).toBeGreaterThan(g.self);
    expect(g.pairDot).toBeGreaterThan(g.selfDot);
    expect(g.pairNorm).toBeGreaterThan(g.selfNorm);
    expect(g.cos).toBeGreaterThan(0.95);
    // the norms are sqrt of the diagonal of the engine's logits
    expect(g.selfNorm ** 2).toBeCloseTo(reading.logits[3 * 6 + 3], 4);
    // t0, t1, t2 look at themselves most; t3, t4, t5 at their pair
    expect([0, 1, 2, 3, 4, 5].map((i) => gazeOf(reading, i).prefersPair)).toEqual([false, false, false, true, true, true]);
  });

  test('the logits are exactly symmetric when Q = K = X; the weights are not', () => {
    expect(reading.maxAsymmetry).toBe(0);
    expect(maxAsymmetry(reading.logits, 6)).toBe(0);
    expect(relativeAsymmetry(reading.logits, 6)).toBe(0);
    expect(reading.weights[0 * 6 + 3]).not.toBeCloseTo(reading.weights[3 * 6 + 0], 2);
  });

  test('symmetric for any edited embeddings too', () => {
    const base = DEFAULT_BASE.map((row) => row.map((v, c) => v + 0.37 * c - 0.1));
    const other = computeReading(engine, { base, factor: -1.7 });
    expect(other.maxAsymmetry).toBe(0);
    // the SIMD path may round differently per block position, by at most a few ulps
    expect(other.fastMaxAsymmetry).toBeLessThan(1e-5);
    for (let seed = 1; seed <= 50; seed++) {
      const x = engine.randomNormal({ seed, rows: 6, cols: 4, stddev: 3 });
      const rows = Array.from({ length: 6 }, (_, i) => Array.from(x.subarray(i * 4, i * 4 + 4)));
      expect(computeReading(engine, { base: rows, factor: 1 }).maxAsymmetry).toBe(0);
    }
  });

  test('a non-number is refused before the engine, naming its box from 1; the model keeps its last result', () => {
    const model = createReading(engine);
    const before = model.reading;
    model.setEntry(2, 1, NaN);
    expect(model.failure).toMatchObject({ problem: 'notANumber', field: { key: 'inputs.cell', params: { token: 't2', i: 2 } } });
    expect(model.reading).toBe(before);
    model.setEntry(2, 1, 0);
    expect(model.error).toBeNull();
  });
});

describe('separate random W_Q, W_K break the symmetry', () => {
  test('200 pairs: the relative asymmetry is clearly above 0, reproducible from the seed', () => {
    const settings = { x: reading.x, n: 6, d: 4, seed: 0, pairs: 200 };
    const a = runAsymmetry(engine, settings);
    expect(a.values).toHaveLength(200);
    expect(a.median).toBeGreaterThan(0.3);
    expect(a.min).toBeGreaterThan(0);
    expect(a.max).toBeLessThanOrEqual(2 + 1e-9);
    expect(a.example.maxAsymmetry).toBeGreaterThan(0);
    expect(runAsymmetry(engine, settings).values).toEqual(a.values);
    expect(runAsymmetry(engine, { ...settings, seed: 1 }).median).not.toBe(a.median);
  });

  test('the projections are the engine’s X W_Q and X W_K', () => {
    const a = runAsymmetry(engine, { x: reading.x, n: 6, d: 4, seed: 3, pairs: 1 });
    const w = engine.randomNormal({ seed: 3, rows: 8, cols: 4, stddev: 0.5 });
    const project = (offset) => {
      const out = new Float64Array(24);
      for (let i = 0; i < 6; i++) for (let c = 0; c < 4; c++) {
        for (let k = 0; k < 4; k++) out[i * 4 + c] += reading.x[i * 4 + k] * w[offset + k * 4 + c];
      }
      return out;
    };
    const q = project(0);
    const k = project(16);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) {
      let l = 0;
      for (let c = 0; c < 4; c++) l += q[i * 4 + c] * k[j * 4 + c];
      expect(a.example.logits[i * 6 + j]).toBeCloseTo(l, 3);
    }
  });

  test('helpers: the antisymmetric part, the relative measure, the median', () => {
    const L = [1, 2, 0, 3];
    expect(Array.from(antisymmetricPart(L, 2))).toEqual([0, 2, -2, 0]);
    expect(relativeAsymmetry([0, 1, -1, 0], 2)).toBeCloseTo(2, 12);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(Array.from(embeddings([[1, 2]], 2))).toEqual([2, 4]);
  });
});

describe('the setup sentence names the factor c the matrices use', () => {
  test.each([['en', enReading], ['ko', koReading]])('%s: c = 2.6, then c = -1.25 after the control changes it', (lang, strings) => {
    const t = translator(strings, {});
    const model = createReading(engine);
    expect(t('setup', setupParams(model.reading))).toContain('$c$ = 2.6');
    model.setFactor(-1.25);
    expect(t('setup', setupParams(model.reading))).toContain('$c$ = \u22121.25');
    expect(model.reading.x[0]).toBeCloseTo(-1.25 * DEFAULT_BASE[0][0], 6);   // the matrices shown use the same c
    model.setFactor(NaN);   // a typo: the numbers shown, and the sentence, keep the last valid c
    expect(t('setup', setupParams(model.reading))).toContain('$c$ = \u22121.25');
  });
});

// Section 9 (#order): shuffling the tokens shuffles the outputs exactly;
// positional encodings break that.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import {
  DEFAULT_PERMUTATION, DEFAULT_X, computeOrder, createOrder, isPermutation, parsePermutation, permuteBoth,
  permuteRows, randomPermutation, rowDifferences,
} from '../../web/src/sections/order/state.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });

// A small deterministic generator for the test's own random choices.
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('without positional encodings, the outputs shuffle with the tokens', () => {
  test('article 003’s permutation [3,1,5,0,4,2]: every row’s difference is exactly 0', () => {
    const r = computeOrder(engine, { perm: DEFAULT_PERMUTATION });
    expect(r.rowDiffs).toEqual([0, 0, 0, 0, 0, 0]);
    expect(r.maxDiff).toBe(0);
    // the weights are the old ones with rows and columns moved
    expect(Array.from(r.shuffled.weights)).toEqual(Array.from(r.expectedWeights));
    // the SIMD path agrees to within float rounding
    expect(r.fastMaxDiff).toBeLessThan(1e-5);
  });

  test('exactly 0 for 100 random permutations of 100 random inputs', () => {
    const random = seeded(1);
    for (let seed = 0; seed < 100; seed++) {
      const n = 2 + (seed % 7);
      const d = 1 + (seed % 5);
      const x = engine.randomNormal({ seed, rows: n, cols: d, stddev: 2 });
      const r = computeOrder(engine, { x, n, d, perm: randomPermutation(n, random) });
      expect(r.maxDiff, `seed ${seed}`).toBe(0);
    }
  });
});

describe('with positional encodings, they no longer do', () => {
  test('the article’s permutation: the largest difference is clearly above 0', () => {
    const r = computeOrder(engine, { perm: DEFAULT_PERMUTATION, positional: true });
    expect(r.maxDiff).toBeGreaterThan(0.1);
    // every moved token's output changes
    DEFAULT_PERMUTATION.forEach((from, pos) => { if (from !== pos) expect(r.rowDiffs[pos]).toBeGreaterThan(0); });
  });

  test('the identity permutation still gives exactly 0', () => {
    const r = computeOrder(engine, { perm: [0, 1, 2, 3, 4, 5], positional: true });
    expect(r.maxDiff).toBe(0);
  });

  test('the encodings are the engine’s sinusoids, added to the tokens', () => {
    const r = computeOrder(engine, { positional: true });
    expect(r.pe).toHaveLength(24);
    for (let pos = 0; pos < 6; pos++) {
      expect(r.pe[pos * 4 + 0]).toBeCloseTo(Math.sin(pos), 5);
      expect(r.pe[pos * 4 + 1]).toBeCloseTo(Math.cos(pos), 5);
      expect(r.pe[pos * 4 + 2]).toBeCloseTo(Math.sin(pos / 100), 5);
      expect(r.input[pos * 4]).toBeCloseTo(DEFAULT_X[pos * 4] + r.pe[pos * 4], 5);
    }
  });
});

describe('permutations', () => {
  test('parsing what a reader types', () => {
    expect(parsePermutation('3, 1, 5, 0, 4, 2', 6)).toEqual({ perm: [3, 1, 5, 0, 4, 2] });
    expect(parsePermutation(' 3 1 5 0 4 2 ', 6)).toEqual({ perm: [3, 1, 5, 0, 4, 2] });
    expect(parsePermutation('3, 1, 5', 6)).toEqual({ error: 'count', count: 3 });
    expect(parsePermutation('3, 1, 5, 0, 4, 6', 6)).toEqual({ error: 'range', value: '6' });
    expect(parsePermutation('3, 1, 5, 0, 4, -2', 6).error).toBe('range');
    expect(parsePermutation('3, 1, 5, 0, 4, 1.5', 6).error).toBe('range');
    expect(parsePermutation('3, 1, 5, 0, 4, 3', 6)).toEqual({ error: 'repeat', value: 3 });
  });

  test('random permutations are permutations; permuting rows and both axes', () => {
    const random = seeded(7);
    for (let i = 0; i < 50; i++) expect(isPermutation(randomPermutation(6, random), 6)).toBe(true);
    expect(Array.from(permuteRows(Float32Array.from([1, 2, 3, 4, 5, 6]), 2, [2, 0, 1]))).toEqual([5, 6, 1, 2, 3, 4]);
    expect(Array.from(permuteBoth(Float32Array.from([1, 2, 3, 4]), [1, 0]))).toEqual([4, 3, 2, 1]);
    expect(rowDifferences([1, 2, 3, 4], [1, 2.5, 3, 4], 2, 2)).toEqual({ perRow: [0.5, 0], max: 0.5 });
  });

  test('the model refuses a non-permutation and keeps its state', () => {
    const model = createOrder(engine);
    expect(() => model.setPermutation([0, 0, 1, 2, 3, 4])).toThrow(/perm/);
    expect(model.perm).toEqual([...DEFAULT_PERMUTATION]);
    model.setPositional(true);
    expect(model.result.maxDiff).toBeGreaterThan(0);
    model.setPermutation([0, 1, 2, 3, 4, 5]);
    expect(model.result.maxDiff).toBe(0);
    model.reset();
    expect(model.perm).toEqual([...DEFAULT_PERMUTATION]);
  });
});

// Section 10 (#cost): the live benchmark's loop (run here in Node with the real
// engines) and the memory of the full and tiled paths by shape.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { plainJsAttention } from '../../web/src/sections/cost/plain-js-attention.js';
import {
  D, LARGEST_CHOICES, SERIES, SIZES, compareTimes, flopsOf, growth, quantile, runBenchmark, sizesUpTo, summaryParts, time, totalWork,
} from '../../web/src/sections/cost/bench.js';
import { FLOAT_BYTES, formatBytes, memoryOf } from '../../web/src/sections/cost/memory.js';

let engines;
beforeAll(async () => {
  const [simd, baseline] = await Promise.all([createAttention({ build: 'simd' }), createAttention({ build: 'baseline' })]);
  engines = { simd, baseline };
});

describe('the benchmark loop', () => {
  test('runs every series at n = 64 and 128, reporting progress and each result', () => {
    const progress = [];
    const seen = [];
    const results = runBenchmark({
      engines, plainJs: plainJsAttention, sizes: [64, 128], d: D, seed: 1,
      onProgress: (p) => progress.push(p), onResult: (r) => seen.push(r),
      timing: { warmupMs: 1, budgetMs: 5, batchMs: 1, minSamples: 3 },
    });
    expect(results).toHaveLength(2 * SERIES.length);
    expect(seen).toEqual(results);
    for (const r of results) {
      expect(r.skipped).toBeUndefined();
      expect(r.ms).toBeGreaterThan(0);
      expect(r.reps).toBeGreaterThanOrEqual(3);
      expect(r.low).toBeLessThanOrEqual(r.ms);
      expect(r.high).toBeGreaterThanOrEqual(r.ms);
      expect(r.gflops).toBeCloseTo(flopsOf(r.n, r.d) / r.ms / 1e6, 9);
    }
    expect(results.map((r) => `${r.n}:${r.series}`)).toEqual(
      [64, 128].flatMap((n) => SERIES.map((s) => `${n}:${s.id}`)));
    // progress goes from 0 to the total, never backwards
    const total = totalWork([64, 128]);
    expect(progress[0]).toMatchObject({ done: 0, total });
    expect(progress[progress.length - 1]).toMatchObject({ done: total, total, n: null });
    for (let i = 1; i < progress.length; i++) expect(progress[i].done).toBeGreaterThanOrEqual(progress[i - 1].done);
  });

  test('the series time the same computation: each output agrees with plain JavaScript', () => {
    const n = 96;
    const q = engines.simd.randomNormal({ seed: 1, rows: n, cols: D });
    const k = engines.simd.randomNormal({ seed: 2, rows: n, cols: D });
    const v = engines.simd.randomNormal({ seed: 3, rows: n, cols: D });
    const args = { q, k, v, n, m: n, dk: D, dv: D };
    const expected = plainJsAttention(args);
    for (const s of SERIES.filter((x) => x.build)) {
      const out = engines[s.build].attentionOutput({ ...args, path: s.path });
      let worst = 0;
      for (let i = 0; i < out.length; i++) worst = Math.max(worst, Math.abs(out[i] - expected[i]));
      expect(worst, s.id).toBeLessThan(1e-4);
    }
  });

  test('a missing build is skipped, not faked', () => {
    const results = runBenchmark({
      engines: { baseline: engines.baseline }, plainJs: plainJsAttention, sizes: [64], timing: { warmupMs: 1, budgetMs: 2, batchMs: 1, minSamples: 3 },
    });
    expect(results.filter((r) => r.skipped).map((r) => r.series)).toEqual(['simd', 'simdTiled']);
    expect(results.find((r) => r.series === 'baseline').ms).toBeGreaterThan(0);
  });

  test('timing: a warm-up that is not counted, then repeated samples: the median and the middle half', () => {
    // A clock that a slow first call (a cold start, 30 ms) and then 1 ms calls advance.
    let clock = 0;
    let calls = 0;
    const now = () => clock;
    const fn = () => { calls += 1; clock += calls === 1 ? 30 : 1; };
    const r = time(fn, { now, warmupMs: 20, budgetMs: 50, batchMs: 4, minSamples: 5 });
    expect(r.warmup).toBe(1);          // the 30 ms call warmed up and was not counted
    expect(r.ms).toBe(1);              // every sample: batches of 1 ms calls
    expect([r.low, r.high]).toEqual([1, 1]);
    expect(r.samples).toBeGreaterThanOrEqual(5);
    // A slow call (500 ms each): warm-up of one, then the minimum number of samples.
    clock = 0;
    const slow = time(() => { clock += 500; }, { now, budgetMs: 150, minSamples: 3 });
    expect(slow).toMatchObject({ ms: 500, samples: 3, reps: 3, warmup: 1 });
  });

  test('quantiles, and the spread of noisy samples', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    // Samples 1, 2, ..., 9 ms, one per batch: median 5, middle half 3 to 7.
    let clock = 0;
    let k = 0;
    const durations = [9, 1, 8, 2, 7, 3, 6, 4, 5];   // the first call is the warm-up (9 ms)
    const r = time(() => { clock += durations[k++ % durations.length]; }, { now: () => clock, warmupMs: 0, batchMs: 0, minSamples: 9, maxSamples: 9 });
    expect(r.samples).toBe(9);
    expect(r.ms).toBe(5);
  });

  test('the summary words only what the spreads support', () => {
    const row = (n, series, ms, spread) => ({ n, series, ms, low: ms - spread, high: ms + spread });
    const run = (simdMs, baselineMs, spread) => [
      row(512, 'simd', simdMs / 4, spread / 4), row(512, 'simdTiled', simdMs / 4, spread / 4), row(512, 'baseline', baselineMs / 4, spread / 4), row(512, 'plainJs', 80, 1),
      row(1024, 'simd', simdMs, spread), row(1024, 'simdTiled', simdMs, spread), row(1024, 'baseline', baselineMs, spread), row(1024, 'plainJs', 320, 4),
    ];
    const keys = (results) => summaryParts(results).map((p) => p.key.replace('bench.summary.', ''));
    expect(keys(run(4, 12, 0.5))).toEqual(['head', 'simdFaster', 'jsSlower', 'growthAsPredicted']);
    expect(keys(run(4, 4.3, 0.5))).toEqual(['head', 'simdSame', 'jsSlower', 'growthAsPredicted']);   // overlap: no claim
    expect(keys(run(12, 4, 0.5))).toEqual(['head', 'simdSlower', 'jsSlower', 'growthAsPredicted']);
    const odd = run(4, 12, 0.1);
    odd.find((r) => r.n === 512 && r.series === 'simd').ms = 5;
    Object.assign(odd.find((r) => r.n === 512 && r.series === 'simd'), { low: 4.9, high: 5.1 });
    // The case: the time "grew 0.8 times", beyond the spread: worded as the device's noise, not as a law.
    const g = summaryParts(odd).find((p) => p.key.endsWith('growthNoisy'));
    expect(g.params.ratio).toBeCloseTo(0.8, 6);
    expect(g.params.high).toBeLessThan(1);
    const slow = run(4, 12, 0.1);
    Object.assign(slow.find((r) => r.n === 512 && r.series === 'simd'), { ms: 2, low: 1.9, high: 2.1 });
    expect(keys(slow)).toContain('growthLess');   // 2 times: more than nothing, less than n^2
    expect(compareTimes({ low: 1, high: 2 }, { low: 2.5, high: 3 })).toBe('faster');
    expect(compareTimes({ low: 1, high: 2.6 }, { low: 2.5, high: 3 })).toBe('same');
  });

  test('sizes, growth and the choices offered', () => {
    expect(sizesUpTo(128)).toEqual([64, 128]);
    expect(sizesUpTo(4096)).toEqual(SIZES);
    expect(LARGEST_CHOICES[0]).toBe(128);
    const fake = [64, 128, 256].flatMap((n) => [{ n, series: 'simd', ms: n * n }, { n, series: 'plainJs', ms: n * n * 3 }]);
    expect(growth(fake).simd).toEqual({ n: 256, ratio: 4, low: 4, high: 4 });
    expect(growth(fake).plainJs.ratio).toBeCloseTo(4, 12);
  });
});

describe('memory by shape', () => {
  test('the score matrix is n * n * 4 bytes; the trace holds four of them and the output', () => {
    const m = memoryOf(4096, 64);
    expect(m.scoreMatrix).toBe(4096 * 4096 * FLOAT_BYTES);
    expect(m.scoreMatrix).toBe(64 * 2 ** 20);   // 64 MiB
    expect(m.trace).toBe((4 * 4096 * 4096 + 4096 * 64) * 4);
    expect(m.inputs).toBe(3 * 4096 * 64 * 4);
  });

  test('the tiled path grows like n, the matrix like n squared', () => {
    const a = memoryOf(1024, 64);
    const b = memoryOf(2048, 64);
    expect(b.scoreMatrix / a.scoreMatrix).toBe(4);
    expect(b.tiled / a.tiled).toBeLessThan(2.01);
    expect(b.tiled - a.tiled).toBe(1024 * 64 * 4);   // only the output grows
    // shorter than a tile: the block shrinks with n
    expect(memoryOf(16, 8).tiled).toBe((16 * 16 + 16 * 8 + 2 * 16 + 16 * 8) * 4);
  });

  test('bytes for people, number and unit joined by a no-break space', () => {
    expect(formatBytes(512)).toBe('512\u00a0B');
    expect(formatBytes(1536)).toBe('1.5\u00a0KiB');
    expect(formatBytes(64 * 2 ** 20)).toBe('64\u00a0MiB');
    expect(formatBytes(257 * 2 ** 20)).toBe('257\u00a0MiB');
    expect(formatBytes(2 ** 30)).toBe('1\u00a0GiB');
  });
});

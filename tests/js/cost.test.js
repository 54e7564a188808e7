// Section 10 (#cost): the live benchmark's loop (run here in Node with the real
// engines) and the memory of the full and tiled paths by shape.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { plainJsAttention } from '../../web/src/sections/cost/plain-js-attention.js';
import {
  D, LARGEST_CHOICES, SERIES, SIZES, flopsOf, growth, runBenchmark, sizesUpTo, time, totalWork,
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
      timing: { budgetMs: 5, batchMs: 1 },
    });
    expect(results).toHaveLength(2 * SERIES.length);
    expect(seen).toEqual(results);
    for (const r of results) {
      expect(r.skipped).toBeUndefined();
      expect(r.ms).toBeGreaterThan(0);
      expect(r.reps).toBeGreaterThanOrEqual(1);
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
      engines: { baseline: engines.baseline }, plainJs: plainJsAttention, sizes: [64], timing: { budgetMs: 2, batchMs: 1 },
    });
    expect(results.filter((r) => r.skipped).map((r) => r.series)).toEqual(['simd', 'simdTiled']);
    expect(results.find((r) => r.series === 'baseline').ms).toBeGreaterThan(0);
  });

  test('timing: one long call is the measurement; short calls are batched and the median taken', () => {
    let clock = 0;
    const now = () => clock;
    expect(time(() => { clock += 500; }, { now, budgetMs: 150 })).toEqual({ ms: 500, reps: 1 });
    clock = 0;
    const short = time(() => { clock += 0.5; }, { now, budgetMs: 20, batchMs: 2 });
    expect(short.ms).toBeCloseTo(0.5, 12);
    expect(short.reps % 4).toBe(0);   // batches of 4 calls of 0.5 ms
  });

  test('sizes, growth and the choices offered', () => {
    expect(sizesUpTo(128)).toEqual([64, 128]);
    expect(sizesUpTo(4096)).toEqual(SIZES);
    expect(LARGEST_CHOICES[0]).toBe(128);
    const fake = [64, 128, 256].flatMap((n) => [{ n, series: 'simd', ms: n * n }, { n, series: 'plainJs', ms: n * n * 3 }]);
    expect(growth(fake).simd).toEqual({ n: 256, ratio: 4 });
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

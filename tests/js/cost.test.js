// Section 10 (#cost): the live benchmark's loop (run here in Node with the real
// engines) and the memory of the full and tiled paths by shape, against the
// peak of the real wasm heap.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { plainJsAttention } from '../../web/src/sections/cost/plain-js-attention.js';
import {
  D, LARGEST_CHOICES, SERIES, SIZES, clockResolution, compareTimes, flopsOf, growth, quantile, runBenchmark, sizesUpTo, summaryParts, time, totalWork,
} from '../../web/src/sections/cost/bench.js';
import { FLOAT_BYTES, formatBytes, memoryOf, tilesOf } from '../../web/src/sections/cost/memory.js';
import { openWorker } from '../../web/src/worker/bridge.js';
import benchmark from '../../web/src/worker/services/benchmark.js';

// Exact memory growth. Emscripten grows the wasm memory by up to 20% more than
// a call asks for; here its resize import (_emscripten_resize_heap) records the
// requested heap top and the memory grows to exactly that (whole 64 KiB pages),
// so that the memory's size after a call is the peak heap top of the call.
const realInstantiate = WebAssembly.instantiate;
let lastMemory = null;
WebAssembly.instantiate = async function exactMemoryGrowth(binary, imports) {
  let requested = 0;
  let found = false;
  for (const table of Object.values(imports)) {
    for (const [name, fn] of Object.entries(table)) {
      if (typeof fn !== 'function' || fn.name !== '_emscripten_resize_heap') continue;
      table[name] = (size) => { requested = size >>> 0; return fn(size); };
      found = true;
    }
  }
  if (!found) throw new Error('cost.test.js: no _emscripten_resize_heap import to measure the heap with');
  const result = await realInstantiate.call(this, binary, imports);
  const memory = Object.values(result.instance.exports).find((e) => e instanceof WebAssembly.Memory);
  const grow = memory.grow.bind(memory);
  memory.grow = () => grow(Math.ceil((requested - memory.buffer.byteLength) / 65536));
  lastMemory = memory;
  return result;
};
const restoreInstantiate = () => { WebAssembly.instantiate = realInstantiate; };

// A new engine module graph, so a new wasm instance with a fresh heap.
async function freshEngine() {
  vi.resetModules();
  const fresh = await import('../../web/src/engine/index.js');
  return fresh.createAttention({ build: 'simd' });
}

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
      expect(r.gflops).toBeGreaterThan(0);
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

  test('GFLOP/s from a clock where every call takes 2 ms: 4 n^2 d flops, computed by hand', () => {
    let clock = 0;
    const now = () => clock;
    // Every timed call (engine or plain JS) moves the clock by exactly 2 ms.
    const ticking = (fn) => (...a) => { const out = fn(...a); clock += 2; return out; };
    const tick = (engine) => ({ randomNormal: (a) => engine.randomNormal(a), attentionOutput: ticking((a) => engine.attentionOutput(a)) });
    const results = runBenchmark({
      engines: { simd: tick(engines.simd), baseline: tick(engines.baseline) }, plainJs: ticking(plainJsAttention),
      sizes: [64, 128], d: 64, timing: { now, warmupMs: 4, budgetMs: 1, batchMs: 1, minSamples: 3 },
    });
    for (const r of results) expect(r).toMatchObject({ ms: 2, low: 2, high: 2, samples: 3 });
    // n = 64:  4 * 64^2 * 64  = 1 048 576 flops in 2 ms = 0.524288 GFLOP/s
    // n = 128: 4 * 128^2 * 64 = 4 194 304 flops in 2 ms = 2.097152 GFLOP/s
    expect(flopsOf(64, 64)).toBe(1048576);
    expect(results.map((r) => r.gflops)).toEqual([...SERIES.map(() => 0.524288), ...SERIES.map(() => 2.097152)]);
  });

  test('a missing build is skipped, not faked', () => {
    const results = runBenchmark({
      engines: { baseline: engines.baseline }, plainJs: plainJsAttention, sizes: [64], timing: { warmupMs: 1, budgetMs: 2, batchMs: 1, minSamples: 3 },
    });
    expect(results.filter((r) => r.skipped).map((r) => r.series)).toEqual(['simd', 'simdTiled']);
    expect(results.find((r) => r.series === 'baseline').ms).toBeGreaterThan(0);
  });

  test('the service on the page (no worker): the page\'s build and plain JavaScript, the other build skipped and said so; cancel stops it', async () => {
    const worker = openWorker(benchmark, { engine: engines.simd, createWorker: () => { throw new Error('no worker'); } });
    const seen = { builds: [], progress: [], results: [] };
    const onProgress = (p) => {
      if ('builds' in p) seen.builds.push(p.builds);
      else if ('result' in p) seen.results.push(p.result);
      else seen.progress.push(p);
    };
    expect(await worker.request('run', { sizes: [64], d: D, seed: 1 }, { onProgress })).toEqual({ cancelled: false });
    expect(worker.inBackground).toBe(false);
    expect(seen.builds).toEqual([{ simd: true, baseline: false }]);
    expect(seen.results.map((r) => `${r.series}:${r.skipped ? 'skipped' : 'measured'}`))
      .toEqual(['simd:measured', 'simdTiled:measured', 'baseline:skipped', 'plainJs:measured']);
    expect(seen.progress.at(-1)).toMatchObject({ done: totalWork([64]), n: null });
    expect(summaryParts(seen.results).at(-1)).toEqual({ key: 'bench.summary.skipped', params: { series: ['baseline'] } });
    // Cancelled after its first result: it stops between samples, long before n = 4096.
    const results = [];
    const job = worker.request('run', { sizes: SIZES, d: D, seed: 1 }, {
      onProgress: (p) => { if ('result' in p) { results.push(p.result); job.cancel(); } },
    });
    expect(await job).toEqual({ cancelled: true });
    expect(results.length).toBeLessThanOrEqual(2);
    worker.close();
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

  test('timing on a coarse clock (1 ms ticks): no sample reads 0 ms, the batches last 10 ticks', () => {
    // Work of 0.1 ms a call, read on a clock that shows whole milliseconds. A
    // slow first call (30 ms) used to size the batches at one call: each read
    // 0 ms, and so did the median (the chart then had no place on its log axis).
    let t = 0;
    let calls = 0;
    const fn = () => { calls += 1; t += calls === 1 ? 30 : 0.1; };
    const still = time(fn, { now: () => Math.floor(t), warmupMs: 20, batchMs: 4, minSamples: 5 });
    expect(still.ms).toBeCloseTo(0.1, 2);
    expect(still.low).toBeGreaterThan(0);
    // A clock that moves on its own (each reading costs 1 us) in 1 ms ticks: its
    // resolution is read, and a batch lasts 10 ticks even when asked for none.
    expect(clockResolution(() => Math.floor((t += 0.001)))).toBe(1);
    calls = 0;
    const r = time(fn, { now: () => Math.floor((t += 0.001)), warmupMs: 20, batchMs: 0, minSamples: 5, maxSamples: 5 });
    expect(r.low).toBeGreaterThan(0.09);
    expect(r.high).toBeLessThan(0.12);
    expect(r.reps / r.samples).toBeGreaterThanOrEqual(90);   // 10 ms of 0.1 ms calls
    // Chromium's 0.1 ms clock: read as such (batches of 10 ticks, 1 ms, are shorter than batchMs' default 4 ms).
    expect(clockResolution(() => Math.floor((t += 0.001) * 10) / 10)).toBeCloseTo(0.1, 9);
    // A resolution given (a benchmark reads it once) is used as given: 1 ms ticks, 10 ms batches.
    calls = 1;
    const given = time(fn, { now: () => Math.floor(t), warmupMs: 1, batchMs: 0, minSamples: 3, maxSamples: 3, resolution: 1 });
    expect(given.reps).toBe(300);
  });

  test('timing refuses a clock that never moves, in words', () => {
    expect(() => time(() => {}, { now: () => 5 })).toThrow('timing: the clock did not advance over 1,000,000 calls');
    expect(clockResolution(() => 5)).toBe(0);
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

  test('the summary names the fastest series the chart shows, and compares SIMD with no SIMD on one path', () => {
    // The device's case: at n = 256 the tiled path (0.62 ms) beat the full matrix (0.72 ms).
    const row = (n, series, ms) => ({ n, series, ms, low: ms * 0.98, high: ms * 1.02 });
    const results = [
      row(128, 'simd', 0.18), row(128, 'simdTiled', 0.155), row(128, 'baseline', 0.6), row(128, 'plainJs', 2.5),
      row(256, 'simd', 0.72), row(256, 'simdTiled', 0.62), row(256, 'baseline', 2.4), row(256, 'plainJs', 10),
    ];
    const parts = Object.fromEntries(summaryParts(results).map((p) => [p.key.replace('bench.summary.', ''), p.params]));
    expect(parts.head).toEqual({ n: 256, simd: 0.72, tiled: 0.62, baseline: 2.4, js: 10 });
    expect(parts.simdFaster.times).toBeCloseTo(2.4 / 0.72, 12);   // full matrix against full matrix
    expect(parts.jsSlower).toEqual({ times: 10 / 0.62, fastest: 'simdTiled' });
    expect(parts.growthAsPredicted.fastest).toBe('simdTiled');
    expect(parts.growthAsPredicted.ratio).toBeCloseTo(0.62 / 0.155, 12);
    // Where the full matrix is the faster, it is the one named.
    Object.assign(results[5], { ms: 0.8, low: 0.79, high: 0.81 });
    const named = summaryParts(results).find((p) => p.key === 'bench.summary.jsSlower').params;
    expect(named).toEqual({ times: 10 / 0.72, fastest: 'simd' });
    // No SIMD build: the baseline is the fastest, and the head names only what was measured.
    const skip = (series) => [128, 256].map((n) => ({ n, series, skipped: true }));
    const baselineOnly = [...results.filter((r) => r.series === 'baseline' || r.series === 'plainJs'), ...skip('simd'), ...skip('simdTiled')];
    const head = summaryParts(baselineOnly);
    expect(head[0]).toEqual({ key: 'bench.summary.headBaseline', params: { n: 256, baseline: 2.4, js: 10 } });
    expect(head.map((p) => p.key.replace('bench.summary.', ''))).toEqual(['headBaseline', 'jsSlower', 'growthAsPredicted', 'skipped']);
    expect(head[1].params.fastest).toBe('baseline');
    // The page's build alone (from disk): the SIMD build's two paths and plain JavaScript.
    const simdOnly = summaryParts([...results.filter((r) => r.series !== 'baseline'), ...skip('baseline')]);
    expect(simdOnly[0]).toEqual({ key: 'bench.summary.headSimd', params: { n: 256, simd: 0.72, tiled: 0.8, js: 10 } });
    expect(simdOnly.at(-1)).toEqual({ key: 'bench.summary.skipped', params: { series: ['baseline'] } });
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

describe('memory by shape (memory.js), against the peak of the wasm heap', () => {
  // The model of the page: memoryOf(n, d, { m, tiles }) -> bytes of the full
  // path's score matrix, the full trace, the tiled path and the inputs, with the
  // block sizes of the measured build (tilesOf(engine): engine.tileSizes and
  // its lanes). Measured here: the
  // peak heap of the engine's own calls, each on a fresh instance of the SIMD
  // build whose memory grows exactly to what the call asks for (see
  // exactMemoryGrowth), so that its size after the call is the call's peak.
  const MiB = 2 ** 20;
  const PAGE = 65536;   // the heap grows by whole wasm pages: the measurement's resolution
  // The shape options of the SIMD build, the one measured (m: the keys, default n).
  const simd = (m) => ({ m, tiles: tilesOf(engines.simd) });
  afterAll(restoreInstantiate);

  // Bytes of a call's peak heap top: a fresh engine, one call, the memory's size after it.
  async function peak(call, { n, m = n, d }) {
    const engine = await freshEngine();
    const initial = lastMemory.buffer.byteLength;
    const q = new Float32Array(n * d).fill(0.5);
    const k = new Float32Array(m * d).fill(0.25);
    const v = new Float32Array(m * d).fill(1);
    const args = { q, k, v, n, m, dk: d, dv: d };
    if (call === 'trace') engine.attention(args);
    else engine.attentionOutput({ ...args, path: call });
    const bytes = lastMemory.buffer.byteLength;
    expect(bytes, `${call} n=${n} m=${m} d=${d} must outgrow the initial ${initial / MiB} MiB to be measured`).toBeGreaterThan(initial);
    return bytes;
  }

  test('the full trace: twice n costs what memoryOf(n).trace + inputs says, to the page', async () => {
    const [a, b] = [memoryOf(1024, 64, simd()), memoryOf(2048, 64, simd())];
    const measured = (await peak('trace', { n: 2048, d: 64 })) - (await peak('trace', { n: 1024, d: 64 }));
    const model = (b.trace + b.inputs) - (a.trace + a.inputs);
    expect(Math.abs(measured - model), `measured ${measured}, model ${model}`).toBeLessThanOrEqual(PAGE);
    // what the README prints for n = 4096
    expect(formatBytes(memoryOf(4096, 64, simd()).trace)).toBe('321\u00a0MiB');
  });

  test('the full output path holds one n x n matrix (memoryOf(n).scoreMatrix), the output and the inputs', async () => {
    const [a, b] = [memoryOf(2048, 64, simd()), memoryOf(4096, 64, simd())];
    const measured = (await peak('full', { n: 4096, d: 64 })) - (await peak('full', { n: 2048, d: 64 }));
    const output = (n) => n * 64 * FLOAT_BYTES;   // n x d_v
    const model = (b.scoreMatrix + b.inputs + output(4096)) - (a.scoreMatrix + a.inputs + output(2048));
    expect(Math.abs(measured - model), `measured ${measured}, model ${model}`).toBeLessThanOrEqual(PAGE);
    expect(b.scoreMatrix).toBe(64 * MiB);   // 4096 x 4096 floats
  });

  test('the tiled path never holds n x m: twice the keys cost only their own rows of K and V', async () => {
    const n = 64;
    const d = 64;
    const measured = (await peak('tiled', { n, m: 131072, d })) - (await peak('tiled', { n, m: 65536, d }));
    const keysAndValues = (m) => 2 * m * d * FLOAT_BYTES;
    const model = memoryOf(n, d, simd(131072)).tiled - memoryOf(n, d, simd(65536)).tiled;   // 0: the blocks do not grow with m
    expect(model).toBe(0);
    expect(Math.abs(measured - (keysAndValues(131072) - keysAndValues(65536)) - model)).toBeLessThanOrEqual(PAGE);
  });

  test('the tiled path\'s blocks (d_k x B_r queries, B_c x B_r scores, d_v x B_r outputs, 4 B_r row stats) are what it allocates', async () => {
    // d = 16384 makes the query and output blocks 4 MiB each, measurable to the page. The
    // heap's starting top is the same on every fresh instance: taken from a trace call.
    const traced = memoryOf(2048, 64, simd());
    const base = (await peak('trace', { n: 2048, d: 64 })) - traced.trace - traced.inputs;
    const [n, d] = [64, 16384];
    const tiledPeak = await peak('tiled', { n, d });
    const model = memoryOf(n, d, simd());
    const blocks = tiledPeak - base - model.inputs - n * d * FLOAT_BYTES;   // minus the n x d_v output
    expect(Math.abs(blocks - (model.tiled - n * d * FLOAT_BYTES)), `measured blocks ${blocks}`).toBeLessThanOrEqual(PAGE);
  });

  test('bytes for people, number and unit joined by a no-break space', () => {
    expect(formatBytes(512)).toBe('512\u00a0B');
    expect(formatBytes(1536)).toBe('1.5\u00a0KiB');
    expect(formatBytes(64 * 2 ** 20)).toBe('64\u00a0MiB');
    expect(formatBytes(257 * 2 ** 20)).toBe('257\u00a0MiB');
    expect(formatBytes(2 ** 30)).toBe('1\u00a0GiB');
  });
});

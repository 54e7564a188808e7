// Section 10's live benchmark, as plain functions: time attention against n for
// the wasm SIMD build, the wasm baseline build and plain JavaScript. No DOM and
// no worker here: ./bench-service.js runs it off the main thread (or on the
// page, between frames), and Vitest runs it in Node with the real engines.
import { quantile } from '../../lib/quantile.js';

export const D = 64;
export const SIZES = [64, 128, 256, 512, 1024, 2048, 4096];
export const LARGEST_CHOICES = [128, 256, 512, 1024, 2048, 4096];
export const DEFAULT_LARGEST = 1024;

// What is timed. 'full' is the engine's attention through one n x n score
// matrix; 'tiled' its online-softmax path that never holds it (same numbers).
export const SERIES = Object.freeze([
  { id: 'simd', build: 'simd', path: 'full' },
  { id: 'simdTiled', build: 'simd', path: 'tiled' },
  { id: 'baseline', build: 'baseline', path: 'full' },
  { id: 'plainJs', build: null, path: null },
]);

export function sizesUpTo(largest) {
  return SIZES.filter((n) => n <= largest);
}

// 4 n^2 d floating-point operations: 2 n^2 d for Q K^T, 2 n^2 d for the weights times V.
export const flopsOf = (n, d) => 4 * n * n * d;

// The work of a whole run, in units of n^2 (for the progress bar): each series
// at each size costs about n^2 d, whatever its speed.
export function totalWork(sizes, seriesCount = SERIES.length) {
  return sizes.reduce((a, n) => a + n * n, 0) * seriesCount;
}

export { quantile };

// The clock's resolution in ms: the step of `now` between two readings that
// differ (browsers coarsen performance.now(): 0.1 ms in Chromium's ordinary
// pages, 1 ms in Firefox's and in pages whose clock is stood in for, coarser
// with anti-fingerprinting). 0 when it does not advance on its own (a test's
// clock that only the timed code moves).
export function clockResolution(now, maxReads = 1e6) {
  let a = now();
  let b = a;
  for (let i = 0; i < maxReads && b === a; i++) b = now();   // onto a tick
  if (b === a) return 0;
  a = b;
  for (let i = 0; i < maxReads && b === a; i++) b = now();   // to the next one
  return b > a ? b - a : 0;
}

// The calls to give up after, when the clock has not reached its mark.
const MAX_CALLS = 1e6;
// The clock timing() and benchmark() read unless given another (tests give a stood-in one).
const performanceNow = () => performance.now();

// Times `fn` (issue 9: one slow first call, counted as the measurement, made
// the chart of a busy device non-monotonic):
// 1. warm-up: calls, not counted, until `warmupMs` have passed (at least one);
// 2. samples: each the time per call of a batch of calls that lasts at least
//    `batchMs` and at least 10 ticks of the clock (so a coarse clock costs at
//    most a tenth of a sample, and no sample reads 0 ms: with 1 ms ticks, a
//    batch sized from the warm-up once read 0 ms for 0.2 ms of work, and the
//    chart's log axis had nowhere to start); at least `minSamples`, then more
//    (up to `maxSamples`) while within `budgetMs`;
// 3. the median time per call, and the spread of the samples: their 25th and
//    75th percentiles (`low`, `high`), the middle half.
// A generator: it yields after every warm-up call and every sample, where its
// caller may pause (the time spent outside is not counted); returns the timing.
// `resolution`: the clock's, if already read (a benchmark reads it once).
// Throws if the clock stands still for MAX_CALLS calls.
export function* timing(fn, {
  warmupMs = 20, budgetMs = 150, batchMs = 4, minSamples = 5, maxSamples = 25, now = performanceNow, resolution,
} = {}) {
  const stalled = () => new Error(`timing: the clock did not advance over ${MAX_CALLS.toLocaleString('en-US')} calls`);
  let warm = 0;
  let calls = 0;
  do {
    const t = now();
    fn();
    warm += now() - t;
    calls += 1;
    if (calls >= MAX_CALLS) throw stalled();
    yield;
  } while (warm < warmupMs);
  // Each batch lasts at least this long by the clock.
  const batchSpan = Math.max(batchMs, 10 * (resolution ?? clockResolution(now)));
  const samples = [];
  let reps = 0;
  let sampled = 0;
  while (samples.length < maxSamples && (samples.length < minSamples || sampled < budgetMs)) {
    const t = now();
    let count = 0;
    let spent;
    do {
      fn();
      count += 1;
      spent = now() - t;
      if (count >= MAX_CALLS) throw stalled();
    } while (spent < batchSpan);
    sampled += spent;
    reps += count;
    samples.push(spent / count);
    yield;
  }
  samples.sort((x, y) => x - y);
  return {
    ms: quantile(samples, 0.5),
    low: quantile(samples, 0.25),
    high: quantile(samples, 0.75),
    samples: samples.length,
    reps,
    warmup: calls,
  };
}

// A generator run to its end at once: its return value.
export function finish(generator) {
  for (;;) {
    const { done, value } = generator.next();
    if (done) return value;
  }
}

// timing(), all at once.
export const time = (fn, options) => finish(timing(fn, options));

// Runs every series at every size, smallest first, and reports each result
// as soon as it is measured. `engines` maps a build name to an engine (a
// missing build's series are skipped); `plainJs` is plainJsAttention.
// A generator that yields wherever timing() does (./bench-service.js pauses
// there); returns the results.
export function* benchmark({ engines, plainJs, sizes, d = D, seed = 1, series = SERIES, onResult, onProgress, timing: timingOptions = {} }) {
  const results = [];
  const total = totalWork(sizes, series.length);
  let done = 0;
  const generator = engines.simd ?? engines.baseline;
  // The clock's resolution, read once for every timing of the run.
  const settings = { resolution: clockResolution(timingOptions.now ?? performanceNow), ...timingOptions };
  for (const n of sizes) {
    // Q, K, V: n x d standard normals, from the engine's seeded generator.
    const q = generator.randomNormal({ seed, rows: n, cols: d });
    const k = generator.randomNormal({ seed: seed + 1, rows: n, cols: d });
    const v = generator.randomNormal({ seed: seed + 2, rows: n, cols: d });
    const args = { q, k, v, n, m: n, dk: d, dv: d };
    for (const s of series) {
      onProgress?.({ done, total, n, series: s.id });
      const engine = s.build ? engines[s.build] : null;
      let result;
      if (s.build && !engine) {
        result = { n, d, series: s.id, skipped: true };
      } else {
        const fn = s.build ? () => engine.attentionOutput({ ...args, path: s.path }) : () => plainJs(args);
        const measured = yield* timing(fn, settings);
        result = { n, d, series: s.id, ...measured, gflops: flopsOf(n, d) / measured.ms / 1e6 };
      }
      results.push(result);
      done += n * n;
      onResult?.(result);
    }
  }
  onProgress?.({ done: total, total, n: null, series: null });
  return results;
}

// benchmark(), all at once.
export const runBenchmark = (options) => finish(benchmark(options));

// How the time grows: for each series, the ratio of the time at the largest
// size to that at half of it (n^2 predicts 4), and the range the spreads allow
// (the fastest of one over the slowest of the other, and the reverse).
export function growth(results) {
  const out = {};
  for (const s of SERIES) {
    const rows = results.filter((r) => r.series === s.id && !r.skipped).sort((a, b) => a.n - b.n);
    if (rows.length < 2) continue;
    const last = rows[rows.length - 1];
    const half = rows.find((r) => r.n === last.n / 2);
    if (half) {
      out[s.id] = {
        n: last.n,
        ratio: last.ms / half.ms,
        low: (last.low ?? last.ms) / (half.high ?? half.ms),
        high: (last.high ?? last.ms) / (half.low ?? half.ms),
      };
    }
  }
  return out;
}

// Which of two timings is faster, as far as their spreads tell: 'faster' (a's
// middle half lies wholly below b's), 'slower', or 'same' (they overlap: no
// difference can be read from this run).
export function compareTimes(a, b) {
  if (a.high < b.low) return 'faster';
  if (a.low > b.high) return 'slower';
  return 'same';
}

// The sentences of the summary, as keys of the section's strings with their
// numbers (unformatted; `fastest` a series id): each claim only as far as the
// spreads support it, and each about the numbers the chart shows beside it.
//   [{ key: 'bench.summary.head', params: { n, simd, tiled, baseline, js } } (headSimd, headBaseline: one build measured),
//    { key: 'bench.summary.simdFaster', params: { times } }, ...,
//    { key: 'bench.summary.skipped', params: { series: ['baseline'] } } (series not measured here)]
// SIMD against no SIMD compares one path (the full matrix) in both builds: the
// same C++, with and without the vector kernels. Plain JavaScript is compared
// with the fastest of the wasm series, whichever path that is on this device.
export function summaryParts(results) {
  const measured = results.filter((r) => !r.skipped);
  if (!measured.length) return [];
  const last = Math.max(...measured.map((r) => r.n));
  const at = (id) => measured.find((r) => r.series === id && r.n === last);
  const simd = at('simd');
  const tiled = at('simdTiled');
  const baseline = at('baseline');
  const js = at('plainJs');
  const fast = [simd, tiled, baseline].filter(Boolean).reduce((a, b) => (b.ms < a.ms ? b : a), { ms: Infinity });
  if (!fast.series || !js) return [];
  // The head names only what was measured: both builds, the SIMD build alone (from disk, the page's build),
  // or the build without SIMD alone (a browser without SIMD).
  const parts = [simd && baseline
    ? { key: 'bench.summary.head', params: { n: last, simd: simd.ms, tiled: tiled.ms, baseline: baseline.ms, js: js.ms } }
    : simd
      ? { key: 'bench.summary.headSimd', params: { n: last, simd: simd.ms, tiled: tiled.ms, js: js.ms } }
      : { key: 'bench.summary.headBaseline', params: { n: last, baseline: baseline.ms, js: js.ms } }];
  if (simd && baseline) {
    const verdict = compareTimes(simd, baseline);
    const times = verdict === 'slower' ? simd.ms / baseline.ms : baseline.ms / simd.ms;
    parts.push({ key: `bench.summary.simd${verdict[0].toUpperCase()}${verdict.slice(1)}`, params: { times } });
  }
  parts.push({ key: compareTimes(js, fast) === 'slower' ? 'bench.summary.jsSlower' : 'bench.summary.jsSame', params: { times: js.ms / fast.ms, fastest: fast.series } });
  const g = growth(measured)[fast.series];
  if (g) {
    // A time that fell from n/2 to n, beyond the spread, is the device's noise, not a law.
    const key = g.high < 1 ? 'growthNoisy' : g.low > 4 ? 'growthMore' : g.high < 4 ? 'growthLess' : 'growthAsPredicted';
    parts.push({ key: `bench.summary.${key}`, params: { ratio: g.ratio, low: g.low, high: g.high, fastest: fast.series } });
  }
  // A build that could not run here (no SIMD in this browser; on the page, only the page's build).
  const skipped = SERIES.filter((s) => results.some((r) => r.series === s.id && r.skipped)).map((s) => s.id);
  if (skipped.length) parts.push({ key: 'bench.summary.skipped', params: { series: skipped } });
  return parts;
}

// Section 10's live benchmark, as plain functions: time attention against n for
// the wasm SIMD build, the wasm baseline build and plain JavaScript. No DOM and
// no worker here: ./bench-worker.js runs runBenchmark off the main thread, and
// Vitest runs it in Node with the real engines.

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

// Times `fn`: one warm-up call; if that took longer than `budgetMs` it is the
// measurement (large n: the code is already warm from the smaller sizes).
// Otherwise calls are timed in batches of at least `batchMs` (browsers round
// performance.now() to 0.1 ms or coarser, too coarse for one call at small n),
// batches repeat until `budgetMs` has passed (at least `minBatches`, at most
// `maxBatches`), and the result is the median batch time per call.
export function time(fn, {
  budgetMs = 150, batchMs = 4, minBatches = 3, maxBatches = 25, now = () => performance.now(),
} = {}) {
  const t0 = now();
  fn();
  const first = now() - t0;
  if (first >= budgetMs) return { ms: first, reps: 1 };
  const perBatch = Math.max(1, Math.ceil(batchMs / Math.max(first, 0.01)));
  const times = [];
  const start = now();
  while (times.length < maxBatches && (times.length < minBatches || now() - start < budgetMs)) {
    const t = now();
    for (let i = 0; i < perBatch; i++) fn();
    times.push((now() - t) / perBatch);
  }
  times.sort((x, y) => x - y);
  return { ms: times[Math.floor(times.length / 2)], reps: times.length * perBatch };
}

// Runs every series at every size, smallest first, and reports each result
// as soon as it is measured. `engines` maps a build name to an engine (a
// missing build's series are skipped); `plainJs` is plainJsAttention.
export function runBenchmark({ engines, plainJs, sizes, d = D, seed = 1, series = SERIES, onResult, onProgress, timing = {} }) {
  const results = [];
  const total = totalWork(sizes, series.length);
  let done = 0;
  const generator = engines.simd ?? engines.baseline;
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
        const { ms, reps } = time(fn, timing);
        result = { n, d, series: s.id, ms, reps, gflops: flopsOf(n, d) / ms / 1e6 };
      }
      results.push(result);
      done += n * n;
      onResult?.(result);
    }
  }
  onProgress?.({ done: total, total, n: null, series: null });
  return results;
}

// How the time grows: for each series, the ratio of the time at the largest
// size to that at half of it (n^2 predicts 4).
export function growth(results) {
  const out = {};
  for (const s of SERIES) {
    const rows = results.filter((r) => r.series === s.id && !r.skipped).sort((a, b) => a.n - b.n);
    if (rows.length < 2) continue;
    const last = rows[rows.length - 1];
    const half = rows.find((r) => r.n === last.n / 2);
    if (half) out[s.id] = { n: last.n, ratio: last.ms / half.ms };
  }
  return out;
}

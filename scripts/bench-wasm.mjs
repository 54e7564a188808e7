// Times attention in WebAssembly (Node 20) against plain JavaScript.
//   node scripts/bench-wasm.mjs [--json out.json] [--sizes 64,256,1024,4096] [--d 64] [--budget-ms 400]
// For each n = m and d = d_k = d_v: the SIMD and the baseline build, each through
// attentionOutput paths 'full' (best kernels, one n x m matrix), 'tiled' (online
// softmax), 'scalar' (the full path with the scalar kernels) and 'reference'
// (attn::reference, double accumulation, full trace); and the plain JS triple
// loop (web/src/sections/cost/plain-js-attention.js; one repetition from n = 4096).
// A benchmark, not a test: prints figures (and writes them as JSON for
// scripts/bench-report.mjs), asserts nothing.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createAttention } from '../web/src/engine/index.js';
import { plainJsAttention } from '../web/src/sections/cost/plain-js-attention.js';

const { values: flags } = parseArgs({
  options: {
    json: { type: 'string' },
    sizes: { type: 'string', default: '64,256,1024,4096' },
    d: { type: 'string', default: '64' },
    'budget-ms': { type: 'string', default: '400' },
    quiet: { type: 'boolean', default: false },
  },
});
const sizes = flags.sizes.split(',').map(Number);
const d = Number(flags.d);
const budgetMs = Number(flags['budget-ms']);

// 4 n m d flops: 2 n m d for QK^T and 2 n m d for PV (the softmax is O(n m)).
export const flopsOf = (n, m, dim) => 4 * n * m * dim;

// Runs `fn` once to warm up (unless `warmup` is false), then repeats it until
// `budgetMs` has passed (at least `minReps`, at most `maxReps` times, or exactly
// `reps` times); returns the median time in ms.
function time(fn, { minReps = 3, maxReps = 50, reps, warmup = true } = {}) {
  if (warmup) fn();
  const times = [];
  const start = performance.now();
  const wanted = reps ?? maxReps;
  while (times.length < wanted && (reps !== undefined || times.length < minReps || performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], reps: times.length };
}

const [simd, baseline] = await Promise.all([createAttention({ build: 'simd' }), createAttention({ build: 'baseline' })]);
const rows = [];
const log = (...parts) => { if (!flags.quiet) console.error(...parts); };

// Warm-up: V8 first runs wasm from its baseline compiler (Liftoff) and tiers hot
// functions up to TurboFan in the background. Run every path a few times on a
// mid-size problem and give the background compiler a moment, so that the
// first timed sizes do not measure baseline code.
{
  const n = 128;
  const warm = { q: simd.randomNormal({ seed: 9, rows: n, cols: d }), k: simd.randomNormal({ seed: 10, rows: n, cols: d }),
    v: simd.randomNormal({ seed: 11, rows: n, cols: d }), n, m: n, dk: d, dv: d };
  for (let round = 0; round < 3; round++) {
    for (const engine of [simd, baseline]) {
      for (const path of ['full', 'tiled', 'scalar', 'reference']) {
        for (let i = 0; i < 10; i++) engine.attentionOutput({ ...warm, path });
      }
    }
    for (let i = 0; i < 10; i++) plainJsAttention(warm);
    await new Promise((done) => setTimeout(done, 200));
  }
}

for (const n of sizes) {
  const m = n;
  const q = simd.randomNormal({ seed: 1, rows: n, cols: d });
  const k = simd.randomNormal({ seed: 2, rows: m, cols: d });
  const v = simd.randomNormal({ seed: 3, rows: m, cols: d });
  const args = { q, k, v, n, m, dk: d, dv: d };
  const flops = flopsOf(n, m, d);
  const record = (engine, variant, fn, options) => {
    const { ms, reps } = time(fn, options);
    const row = { engine, variant, n, m, d, ms, reps, gflops: flops / ms / 1e6 };
    rows.push(row);
    log(`  ${engine.padEnd(14)} ${variant.padEnd(10)} n=${String(n).padEnd(5)} ${ms.toFixed(3).padStart(10)} ms  ` +
      `${row.gflops.toFixed(2).padStart(6)} GFLOP/s  (${reps} reps)`);
  };
  // The slow variants get fewer repetitions at large n: one, without warm-up
  // (their code is already warm from the smaller sizes), at n >= 4096.
  const slow = n >= 4096 ? { reps: 1, warmup: false } : n >= 1024 ? { minReps: 3, maxReps: 7 } : undefined;
  for (const [name, engine] of [['wasm-simd', simd], ['wasm-baseline', baseline]]) {
    record(name, 'full', () => engine.attentionOutput({ ...args, path: 'full' }));
    record(name, 'tiled', () => engine.attentionOutput({ ...args, path: 'tiled' }));
    record(name, 'scalar', () => engine.attentionOutput({ ...args, path: 'scalar' }), slow);
    record(name, 'reference', () => engine.attentionOutput({ ...args, path: 'reference' }), slow);
  }
  // Plain JS: the median of at least 5 calls up to n = 1024 (the machine may be shared).
  record('plain-js', 'triple-loop', () => plainJsAttention(args), n >= 4096 ? slow : { minReps: 5, maxReps: 50 });
}

const result = { d, sizes, node: process.version, rows };
if (flags.json) writeFileSync(flags.json, JSON.stringify(result, null, 2));
else console.log(JSON.stringify(result, null, 2));

// The backward pass in wasm (Node), at n = m = N, d = D as the native
// learning_bench measures it (issue 8: the tiled backward under 1/4 of the full
// backward's peak memory, and the backward <= 3.5x the forward in time):
//   time    one interleaved race (../harness.mjs) of the SIMD build's forward
//           (attentionOutput, tiled and full) and backward (attentionBackward,
//           tiled and full), measured as natively: the full backward
//           (attn::attention_backward, which recomputes P) over the full
//           forward; the tiled backward alone over the tiled forward, where
//           the engine's tiled call also runs the forward it needs (the row
//           log-sum-exp), so alone = call / forward - 1, per round;
//   memory  each backward call in a fresh worker thread (its own wasm memory):
//           the module's memory size before and after one call. WebAssembly
//           memory only grows, so the size after is an upper bound of the
//           call's peak and its growth a lower bound (the first 16 MiB are
//           there from the start).
// Every gradient is checked first: the tiled and full paths agree within the
// bench tolerance on every element.
import { Worker } from 'node:worker_threads';
import { pairedRatio, runRace } from '../harness.mjs';

export const N = 4096;
export const D = 64;
export const ROUNDS = 5;
export const SAMPLES = 2;
const TOLERANCE = { absolute: 1e-5, relative: 1e-4 };
const MiB = 1024 * 1024;

export function backwardProblem(engine, n = N, d = D) {
  const normal = (seed, rows) => engine.randomNormal({ seed, rows, cols: d });
  return { n, d, args: { q: normal(11, n), k: normal(12, n), v: normal(13, n), gradOutput: normal(14, n), n, m: n, dk: d, dv: d,
    longRunning: true } };
}

// Wasm memory before and after one call of `path` in a fresh worker thread.
function memoryOfOneCall(path, n, d) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./backward-memory-worker.mjs', import.meta.url), { workerData: { path, n, d } });
    worker.once('message', (message) => {
      worker.terminate();
      resolve(message);
    });
    worker.once('error', reject);
  });
}

// engine: a testing engine of the learning module, SIMD build.
export async function runBackwardRace({ engine, n = N, d = D, rounds = ROUNDS, log = () => {} }) {
  const { args } = backwardProblem(engine, n, d);
  const tiled = engine.attentionBackward({ ...args, path: 'tiled' });
  const full = engine.attentionBackward({ ...args, path: 'full' });
  let failures = 0;
  for (const name of ['gradQ', 'gradK', 'gradV']) {
    tiled[name].forEach((x, i) => {
      if (!(Math.abs(x - full[name][i]) <= TOLERANCE.absolute + TOLERANCE.relative * Math.abs(full[name][i]))) failures++;
    });
  }
  const contenders = [
    { name: 'forward-tiled', call: () => engine.attentionOutput({ ...args, path: 'tiled' }) },
    { name: 'forward-full', call: () => engine.attentionOutput({ ...args, path: 'full' }) },
    { name: 'backward-tiled', call: () => engine.attentionBackward({ ...args, path: 'tiled' }) },
    { name: 'backward-full', call: () => engine.attentionBackward({ ...args, path: 'full' }) },
  ];
  const timings = await runRace(contenders, { rounds, samples: SAMPLES });
  const [forwardTiled, forwardFull, backwardTiled, backwardFull] = timings;
  const memory = {};
  for (const path of ['tiled', 'full']) memory[path] = await memoryOfOneCall(path, n, d);
  const result = {
    workload: 'backward', environment: `Node ${process.version}`, n, m: n, d, rounds, tolerance: TOLERANCE,
    tiledVsFull: { failures, elements: 2 * n * d + n * d },
    timings: timings.map(({ name, roundMs, medianMs }) => ({ name, roundMs, medianMs })),
    backwardOverForward: { tiled: pairedRatio(backwardTiled, forwardTiled) - 1, full: pairedRatio(backwardFull, forwardFull),
      tiledCall: pairedRatio(backwardTiled, forwardTiled) },
    memory: Object.fromEntries(Object.entries(memory).map(([path, m]) => [path, { beforeMiB: m.before / MiB, afterMiB: m.after / MiB }])),
  };
  // Upper bound of tiled peak / full peak: tiled's memory after over full's growth.
  result.memory.tiledOverFullAtMost = memory.tiled.after / (memory.full.after - memory.full.before);
  log(`  backward n=${n} d=${d}: forward tiled ${forwardTiled.medianMs.toFixed(0)} ms, full ${forwardFull.medianMs.toFixed(0)} ms; ` +
    `backward tiled ${backwardTiled.medianMs.toFixed(0)} ms, full ${backwardFull.medianMs.toFixed(0)} ms; wasm memory after one call: tiled ` +
    `${(memory.tiled.after / MiB).toFixed(0)} MiB, full ${(memory.full.after / MiB).toFixed(0)} MiB; tiled vs full: ${failures} elements out of tolerance`);
  return result;
}

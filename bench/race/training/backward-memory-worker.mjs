// One attentionBackward call in a fresh wasm module (this worker thread's):
// posts { before, after }, the module's memory size in bytes around the call
// (./backward.mjs). The inputs are made in JavaScript, outside wasm memory.
import { parentPort, workerData } from 'node:worker_threads';
import { createTestingEngine } from '../../../web/src/engine/testing.js';

const { path, n, d } = workerData;
const engine = await createTestingEngine({ build: 'simd', learning: true });
const random = (length, seed) => {
  const out = new Float32Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = state / 2 ** 31 - 1;
  }
  return out;
};
const args = { q: random(n * d, 1), k: random(n * d, 2), v: random(n * d, 3), gradOutput: random(n * d, 4), n, m: n, dk: d, dv: d,
  longRunning: true, path };
const before = engine.boundaryState().memoryBytes;
engine.attentionBackward(args);
parentPort.postMessage({ before, after: engine.boundaryState().memoryBytes });

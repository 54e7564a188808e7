// Runs section 2's experiments off the main thread: the same functions as
// ./state.js, on this worker's own instance of the engine.
//   in:  { id, name: 'tenKeys' | 'trials' | 'sweep', settings }
//   out: { id, result } (with the build that computed it) or { id, error }
//
// Which build: the saturation statistics are scalar, double-precision loops
// (one dot product, one softmax row at a time) driven by the seeded sampler, so
// SIMD brings them nothing; measured on x86-64 (Node 20 and Chromium), the SIMD
// build is about 20% slower on them (d = 1024, 8 x 8, 200 trials: 85 against
// 69 ms). Both builds give bit-identical statistics (tests/js/scaling.test.js),
// so the workers load the build without SIMD, or the default if that fails.
import { createAttention } from '../../engine/index.js';
import { RUNNERS } from './state.js';

const engine = createAttention({ build: 'baseline' }).catch(() => createAttention());

self.addEventListener('message', async ({ data }) => {
  const { id, name, settings } = data;
  try {
    const e = await engine;
    const result = RUNNERS[name](e, settings);
    self.postMessage({ id, result: { ...result, build: e.build } });
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
});

// The live benchmark of section 10, off the main thread so that the page stays
// responsive however long plain JavaScript takes at n = 4096. Cancelling
// terminates this worker.
//   in:  { sizes, d, seed }
//   out: { type: 'ready', builds } once, { type: 'progress', done, total, n, series },
//        { type: 'result', result } per measurement, { type: 'done' } or { type: 'error', message }
import { createAttention } from '../../engine/index.js';
import { plainJsAttention } from './plain-js-attention.js';
import { runBenchmark } from './bench.js';

async function load(build) {
  try {
    return await createAttention({ build });
  } catch {
    return null;  // e.g. no SIMD in this browser: its series are skipped
  }
}

self.addEventListener('message', async ({ data }) => {
  try {
    const [simd, baseline] = await Promise.all([load('simd'), load('baseline')]);
    if (!simd && !baseline) throw new Error('the attention engine could not be loaded in the worker');
    self.postMessage({ type: 'ready', builds: { simd: Boolean(simd), baseline: Boolean(baseline) } });
    runBenchmark({
      engines: { simd, baseline },
      plainJs: plainJsAttention,
      sizes: data.sizes,
      d: data.d,
      seed: data.seed,
      onProgress: (p) => self.postMessage({ type: 'progress', ...p }),
      onResult: (result) => self.postMessage({ type: 'result', result }),
    });
    self.postMessage({ type: 'done' });
  } catch (err) {
    self.postMessage({ type: 'error', message: String(err?.message ?? err) });
  }
});

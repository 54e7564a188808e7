// The live benchmark of section 10 as a service of the worker bridge
// (src/worker/): off the main thread, so that the page stays responsive
// however long plain JavaScript takes at n = 4096; or, where no worker can
// start (a page opened from disk), on the page, pausing between samples so
// that the page paints and a cancel arrives (one call still holds the page:
// plain JavaScript at the largest n takes longest).
//
//   run({ sizes, d, seed }) progress { builds } once (which builds loaded), then
//                           { done, total, n, series } before each measurement and
//                           { result } after it
//                           -> { cancelled }: whether a cancel stopped it
//
// In a worker both builds load (a build that cannot, e.g. no SIMD in this
// browser, has its series skipped); on the page only the page's build runs.
import { createAttention } from '../../engine/index.js';
import { plainJsAttention } from './plain-js-attention.js';
import { benchmark } from './bench.js';

async function load(build) {
  try {
    return await createAttention({ build });
  } catch {
    return null;
  }
}

export function createService({ engine } = {}) {
  return {
    async run({ sizes, d, seed }, { progress, signal, sliceMs, nextSlice }) {
      const engines = engine
        ? { [engine.build]: engine }
        : Object.fromEntries(await Promise.all(['simd', 'baseline'].map(async (build) => [build, await load(build)])));
      if (!engines.simd && !engines.baseline) throw new Error('the attention engine could not be loaded');
      progress({ builds: { simd: Boolean(engines.simd), baseline: Boolean(engines.baseline) } });
      const steps = benchmark({
        engines, plainJs: plainJsAttention, sizes, d, seed,
        onProgress: (p) => progress(p),
        onResult: (result) => progress({ result }),
      });
      let sliceStart = performance.now();
      for (let next = steps.next(); !next.done; next = steps.next()) {
        if (performance.now() - sliceStart >= sliceMs) {
          await nextSlice(0);
          sliceStart = performance.now();
        }
        if (signal.aborted) return { cancelled: true };
      }
      return { cancelled: false };
    },
  };
}

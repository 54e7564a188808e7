// Section 2's experiments as a service of the worker bridge (src/worker/):
// the same functions as ./state.js, on the worker's own instance of the engine
// (or the page's, where no worker can start). Each request is one experiment,
// named as in RUNNERS (tenKeys, trials, sweep), with its settings; the reply is
// its result and the build that computed it.
//
// Which build: the saturation statistics are scalar, double-precision loops
// (one dot product, one softmax row at a time) driven by the seeded sampler, so
// SIMD brings them nothing; measured on x86-64 (Node 20 and Chromium), the SIMD
// build is about 20% slower on them (d = 1024, 8 x 8, 200 trials: 85 against
// 69 ms). Both builds give bit-identical statistics (tests/js/scaling.test.js),
// so a worker loads the build without SIMD, or the default if that fails.
import { createAttention } from '../../engine/index.js';
import { RUNNERS } from './state.js';

export function createService({ engine = createAttention({ build: 'baseline' }).catch(() => createAttention()) } = {}) {
  return Object.fromEntries(Object.entries(RUNNERS).map(([name, run]) => [name, async (settings) => {
    const e = await engine;
    return { ...run(e, settings), build: e.build };
  }]));
}

// The engine's test entry: what tests and the benchmark need and the public
// API (./index.js) does not offer. Not shipped in the npm package.
//
//   const t = await createTestingEngine({ build: 'simd' });   // { learning: true or 'basic' }: a learning module
//   t.attentionOutput({ ...args, path: 'reference' });   // also 'scalar'
//   t.randomStream({ seed: 1, count: 8 });               // the generator's raw streams
//   const before = t.boundaryState();                    // stack pointer, handles, memory
//
// The testing engine runs on the same Emscripten module as the public engine
// of its build (one per page), so boundaryState() sees what every call did.
import { makeEngine, ALL_PATHS } from './engine.js';
import { ALL_BACKWARD_PATHS } from './learning.js';
import { count, flag, options, seedHalves, unwrap } from './arguments.js';
import { learningOption, loadBuild, requestedBuild, wasmBinaryFor } from './load-build.js';
import { checkWork } from './work-limits.js';

export { loadBuild } from './load-build.js';
export { ALL_PATHS } from './engine.js';
export { ALL_BACKWARD_PATHS } from './learning.js';

export async function createTestingEngine(settings = {}) {
  options('settings', settings);
  const learning = learningOption('settings.learning', settings.learning);
  const build = await requestedBuild(settings.build);
  const module = await loadBuild(build, { wasmBinary: wasmBinaryFor(build, settings.wasmBinary, learning), learning });
  return Object.freeze({
    // Every function of the public engine; attentionOutput also takes path
    // 'scalar' (the full path with the scalar kernels) and 'reference'
    // (attn::reference, double accumulation); with learning, attentionBackward
    // also takes path 'reference' (attn::reference::attention_backward, double)
    // and each trainer has parameters() and lastBatch() (model 'attention'), or
    // parameterBlocks() and lastEngineBatch() (the engine's models).
    ...makeEngine(module, build, { paths: ALL_PATHS, backwardPaths: ALL_BACKWARD_PATHS, learning, testing: true }),

    // The raw Emscripten module (cpp/bindings/attention.d.ts): no argument
    // checks, returns its errors instead of throwing them.
    module,

    // The raw streams of the core's generator: `count` normal() draws (doubles)
    // and, from a second generator with the same seed, `count` next_u64() draws.
    randomStream(a) {
      options('randomStream', a);
      const { seedHigh, seedLow } = seedHalves(a.seed);
      const draws = count('count', a.count);
      checkWork('randomStream', { count: draws }, flag('longRunning', a.longRunning));
      const { normals, u64High, u64Low } = unwrap(module.randomStream(seedHigh, seedLow, draws));
      const u64 = new BigUint64Array(u64High.length);
      for (let i = 0; i < u64.length; i++) u64[i] = (BigInt(u64High[i]) << 32n) | BigInt(u64Low[i]);
      return { normals, u64 };
    },

    // What every call must leave as it found it: the shadow-stack pointer, the
    // number of live Embind handles, and the size of the wasm memory in bytes.
    boundaryState() {
      return {
        stackPointer: module.stackSave(),
        handles: module.count_emval_handles(),
        memoryBytes: module.HEAP8.buffer.byteLength,
      };
    },
  });
}

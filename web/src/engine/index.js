// The attention engine: the public JavaScript API over the WebAssembly builds
// of the C++ attention core (cpp/bindings). See index.d.ts for the contract.
//
//   const engine = await createAttention();          // SIMD build where supported
//   const { weights, output } = engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2 });
//
// - Each build is loaded once per page (./load-build.js), however many widgets
//   ask for it; createAttention resolves to one engine object per build.
// - createAttention({ learning: true }) loads the learning module of that build
//   instead (the same core plus the backward pass and the trainer:
//   attentionBackward, createTrainer; ./learning.js, ./trainer.js). Without it
//   those two functions throw, naming the option.
// - Arguments are checked in ./arguments.js (types, array state, sizes, option
//   values) and ./work-limits.js (work per call) before anything reaches the
//   bindings; shapes and values are checked by the core, whose errors arrive as
//   RangeError (shape, size) or Error (value) with the core's message. The
//   engine stays usable after any of them.
// - Every result is a fresh array copied out of wasm memory (attentionOutput's
//   `out`: into the caller's array instead).
// - Tests and benchmarks: ./testing.js (the raw module, the scalar and
//   reference paths, the generator's raw streams). Not part of this API.
import { makeEngine } from './engine.js';
import { loadBuild, moduleKey, requestedBuild, wasmBinaryFor } from './load-build.js';
import { describe, flag } from './arguments.js';

export { preferredBuild } from './load-build.js';
export { WORK_LIMIT, LONG_RUNNING_WORK_LIMIT } from './work-limits.js';
export { TRAINER_MEMORY_LIMIT } from './trainer.js';

const enginePromises = new Map();  // moduleKey(build, learning) -> Promise<engine>

// Resolves to the engine object (the same object for every call with the same
// build and learning option).
export async function createAttention(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options: expected an object, got ${describe(options)}`);
  }
  const learning = flag('options.learning', options.learning);
  const build = await requestedBuild(options.build);
  const wasmBinary = wasmBinaryFor(build, options.wasmBinary, learning);   // checked even when cached
  const key = moduleKey(build, learning);
  if (!enginePromises.has(key)) {
    const promise = loadBuild(build, { wasmBinary, learning }).then((module) => makeEngine(module, build, { learning }));
    enginePromises.set(key, promise);
    promise.catch(() => enginePromises.delete(key));
  }
  return enginePromises.get(key);
}

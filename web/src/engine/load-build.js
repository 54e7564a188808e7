// Loading the WebAssembly builds of the core (cpp/bindings), each once per page
// however many engines and widgets ask for it. Two builds ('simd', 'baseline'),
// each as three modules, chosen by createAttention's `learning`
// (cpp/bindings/CMakeLists.txt):
//   false    attention-<build>           the forward functions
//   'basic'  attention-backward-<build>  + the backward pass and the trainer of
//                                         model 'attention' (the one-layer model)
//   true     attention-learning-<build>  + the model engine: every model
// so that a page downloads only the code it runs (the engine more than doubles
// the learning code; a trainer of another model on the 'basic' module is the
// core's Error naming the module that has it).
//
// - Bytes instead of a fetch: `wasmBinary` instantiates from the given .wasm
//   bytes (a page opened from disk, where nothing can be fetched, carries them
//   inline). Either one BufferSource (for the module that is chosen) or one per
//   module, keyed as MODULE_LOADERS below: { simd, baseline, backwardSimd,
//   backwardBaseline, learningSimd, learningBaseline } (any of them).
// - Browsers: Vite bundles the Emscripten ES6 module and its .wasm (found by the
//   module through new URL(..., import.meta.url)). Node 20: the same module, with
//   the .wasm bytes read by node:fs and passed as `wasmBinary`.
import { describe } from './arguments.js';

// The test wasm-feature-detect's simd() makes: does this WebAssembly engine
// validate a tiny module that uses SIMD128 (i8x16.splat, i8x16.popcnt)? Inlined
// so that the engine has no run-time dependency (the npm package ships it as is).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0,
  253, 15, 253, 98, 11]);
export const BUILD_NAMES = Object.freeze(['simd', 'baseline']);

// Static import() strings, so that Vite bundles every module as a lazy chunk.
// Keyed by moduleKey(build, learning), which is also its key in `wasmBinary`.
const MODULE_LOADERS = {
  simd: () => import('./wasm/attention-simd.mjs'),
  baseline: () => import('./wasm/attention-baseline.mjs'),
  backwardSimd: () => import('./wasm/attention-backward-simd.mjs'),
  backwardBaseline: () => import('./wasm/attention-backward-baseline.mjs'),
  learningSimd: () => import('./wasm/attention-learning-simd.mjs'),
  learningBaseline: () => import('./wasm/attention-learning-baseline.mjs'),
};
export const MODULE_KEYS = Object.freeze(Object.keys(MODULE_LOADERS));

// The values of `learning` and the part of the module's name each picks.
const MODULE_PARTS = new Map([[false, ''], ['basic', 'backward'], [true, 'learning']]);

// createAttention's `learning`: false (omitted), 'basic' or true, or a TypeError naming `name`.
export function learningOption(name, value) {
  if (value === undefined) return false;
  if (!MODULE_PARTS.has(value)) throw new TypeError(`${name}: expected true, 'basic' or false, got ${describe(value)}`);
  return value;
}

// 'simd', 'backwardSimd', 'learningSimd', ... (MODULE_LOADERS' keys).
export const moduleKey = (build, learning = false) => {
  const part = MODULE_PARTS.get(learning);
  return part ? `${part}${build[0].toUpperCase()}${build.slice(1)}` : build;
};
// The file name of a module without its extension: attention-simd, attention-backward-simd, ...
export const fileStem = (build, learning = false) => {
  const part = MODULE_PARTS.get(learning);
  return `attention-${part ? `${part}-` : ''}${build}`;
};

// Every module's file name without its extension (for the packaging scripts).
export const MODULE_STEMS = Object.freeze([...MODULE_PARTS.keys()]
  .flatMap((learning) => BUILD_NAMES.map((build) => fileStem(build, learning))));

const modulePromises = new Map();  // moduleKey -> Promise<Emscripten module>

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

// Node only: the .wasm bytes next to this file. The specifiers are built so that
// bundlers neither follow node:fs nor emit a second copy of the .wasm.
async function readWasmBytesInNode(stem) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ fsModule);
  const file = new URL('./wasm/' + `${stem}.wasm`, import.meta.url);
  return readFile(file);
}

async function instantiate(build, learning, wasmBinary) {
  const stem = fileStem(build, learning);
  let factory;
  try {
    factory = (await MODULE_LOADERS[moduleKey(build, learning)]()).default;
  } catch (cause) {
    throw new Error(`attention engine: cannot load the module ${stem} (web/src/engine/wasm/${stem}.mjs); ` +
      'run scripts/build-wasm.sh first', { cause });
  }
  // Only wasmBinary and locateFile: the glue is linked to read no other option
  // (INCOMING_MODULE_JS_API in cpp/bindings/CMakeLists.txt; add a new one there too).
  const moduleOptions = {};
  if (wasmBinary) {
    moduleOptions.wasmBinary = wasmBinary;
    // Never resolve a URL next to the module (there may be no file to fetch).
    moduleOptions.locateFile = (path) => path;
  } else if (isNode) {
    moduleOptions.wasmBinary = await readWasmBytesInNode(stem);
  }
  return factory(moduleOptions);
}

function bytesOf(name, value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError(`${name}: expected the .wasm bytes (an ArrayBuffer or a typed array), got ${describe(value)}`);
}

// The bytes given for the module of `build` and `learning`, if any: one
// BufferSource, or one per module ({ simd, baseline, backwardSimd, ... }).
export function wasmBinaryFor(build, wasmBinary, learning = false) {
  if (wasmBinary === undefined || wasmBinary === null) return null;
  if (wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(wasmBinary)) return bytesOf('wasmBinary', wasmBinary);
  if (typeof wasmBinary !== 'object') {
    throw new TypeError(`wasmBinary: expected the .wasm bytes or { ${MODULE_KEYS.join(', ')} }, ` +
      `got ${describe(wasmBinary)}`);
  }
  const key = moduleKey(build, learning);
  const bytes = wasmBinary[key];
  return bytes === undefined || bytes === null ? null : bytesOf(`wasmBinary.${key}`, bytes);
}

// The Emscripten module of one build (with `learning`: 'basic' or true, the
// learning modules), instantiated once. `wasmBinary` (optional): the .wasm bytes
// of this module, used instead of fetching the file the first time it is loaded.
export function loadBuild(build, { wasmBinary, learning } = {}) {
  if (!BUILD_NAMES.includes(build)) {
    throw new TypeError(`build: expected 'simd' or 'baseline', got ${describe(build)}`);
  }
  learning = learningOption('learning', learning);
  const key = moduleKey(build, learning);
  if (!modulePromises.has(key)) {
    const promise = instantiate(build, learning, wasmBinaryFor(build, wasmBinary, learning));
    modulePromises.set(key, promise);
    promise.catch(() => modulePromises.delete(key));  // a later call may retry
  }
  return modulePromises.get(key);
}

// Which build 'auto' picks here: SIMD when this WebAssembly engine validates SIMD128.
export async function preferredBuild() {
  return WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'baseline';
}

// The build an engine option asks for: 'auto' (default), 'simd' or 'baseline'.
export async function requestedBuild(requested = 'auto') {
  if (requested !== 'auto' && !BUILD_NAMES.includes(requested)) {
    throw new TypeError(`options.build: expected 'auto', 'simd' or 'baseline', got ${describe(requested)}`);
  }
  return requested === 'auto' ? preferredBuild() : requested;
}

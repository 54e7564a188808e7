// The attention engine: the JavaScript API over the WebAssembly builds of the
// C++ attention core (cpp/bindings). See index.d.ts for the full contract.
//
//   const engine = await createAttention();          // SIMD build where supported
//   const { weights, output } = engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2 });
//
// - Each build is loaded once per page (the promise is cached per build), however
//   many widgets ask for it.
// - Bytes instead of a fetch: createAttention({ wasmBinary }) instantiates from
//   the given .wasm bytes (a page opened from disk, where nothing can be fetched,
//   carries them inline). Either one BufferSource (for the build that is chosen)
//   or { simd, baseline }.
// - Browsers: Vite bundles the Emscripten ES6 module and its .wasm (found by the
//   module through new URL(..., import.meta.url)). Node 20: the same module, with
//   the .wasm bytes read by node:fs and passed as `wasmBinary`.
// - Argument TYPES are checked here (TypeError naming the argument); shapes and
//   values are checked by the core, whose errors arrive as RangeError (shape,
//   size) or Error (value) with the core's message. The engine stays usable.
// - Every result is a fresh array copied out of wasm memory.

// The test wasm-feature-detect's simd() makes: does this WebAssembly engine
// validate a tiny module that uses SIMD128 (i8x16.splat, i8x16.popcnt)? Inlined
// so that the engine has no run-time dependency (the npm package ships it as is).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0,
  253, 15, 253, 98, 11]);
const simdSupported = async () => WebAssembly.validate(SIMD_PROBE);
const BUILD_NAMES = ['simd', 'baseline'];

// Static import() strings, so that Vite bundles both builds as lazy chunks.
const MODULE_LOADERS = {
  simd: () => import('./wasm/attention-simd.mjs'),
  baseline: () => import('./wasm/attention-baseline.mjs'),
};

const modulePromises = new Map();  // build -> Promise<Emscripten module>
const enginePromises = new Map();  // build -> Promise<engine>

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

// Node only: the .wasm bytes next to this file. The specifiers are built so that
// bundlers neither follow node:fs nor emit a second copy of the .wasm.
async function readWasmBytesInNode(build) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ fsModule);
  const file = new URL('./wasm/' + `attention-${build}.wasm`, import.meta.url);
  return readFile(file);
}

async function instantiate(build, wasmBinary) {
  let factory;
  try {
    factory = (await MODULE_LOADERS[build]()).default;
  } catch (cause) {
    throw new Error(`attention engine: cannot load the ${build} build (web/src/engine/wasm/attention-${build}.mjs); ` +
      'run scripts/build-wasm.sh first', { cause });
  }
  const moduleOptions = {};
  if (wasmBinary) {
    moduleOptions.wasmBinary = wasmBinary;
    // Never resolve a URL next to the module (there may be no file to fetch).
    moduleOptions.locateFile = (path) => path;
  } else if (isNode) {
    moduleOptions.wasmBinary = await readWasmBytesInNode(build);
  }
  return factory(moduleOptions);
}

function bytesOf(name, value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError(`${name}: expected the .wasm bytes (an ArrayBuffer or a typed array), got ${describe(value)}`);
}

// The bytes given for `build`, if any: one BufferSource, or { simd, baseline }.
function wasmBinaryFor(build, wasmBinary) {
  if (wasmBinary === undefined || wasmBinary === null) return null;
  if (wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(wasmBinary)) return bytesOf('wasmBinary', wasmBinary);
  if (typeof wasmBinary !== 'object') {
    throw new TypeError(`wasmBinary: expected the .wasm bytes or { simd, baseline }, got ${describe(wasmBinary)}`);
  }
  const bytes = wasmBinary[build];
  return bytes === undefined || bytes === null ? null : bytesOf(`wasmBinary.${build}`, bytes);
}

// The Emscripten module of one build, instantiated once. `wasmBinary`
// (optional): the .wasm bytes of this build, used instead of fetching the file
// the first time the build is loaded.
export function loadBuild(build, { wasmBinary } = {}) {
  if (!BUILD_NAMES.includes(build)) {
    throw new TypeError(`build: expected 'simd' or 'baseline', got ${describe(build)}`);
  }
  if (!modulePromises.has(build)) {
    const promise = instantiate(build, wasmBinaryFor(build, wasmBinary));
    modulePromises.set(build, promise);
    promise.catch(() => modulePromises.delete(build));  // a later call may retry
  }
  return modulePromises.get(build);
}

// Which build `auto` picks here: SIMD when this WebAssembly engine validates SIMD128.
export async function preferredBuild() {
  return (await simdSupported()) ? 'simd' : 'baseline';
}

// Resolves to the engine object (the same object for every call with the same build).
export async function createAttention(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options: expected an object, got ${describe(options)}`);
  }
  const requested = options.build ?? 'auto';
  if (requested !== 'auto' && !BUILD_NAMES.includes(requested)) {
    throw new TypeError(`options.build: expected 'auto', 'simd' or 'baseline', got ${describe(requested)}`);
  }
  const build = requested === 'auto' ? await preferredBuild() : requested;
  const wasmBinary = wasmBinaryFor(build, options.wasmBinary);   // checked even when cached
  if (!enginePromises.has(build)) {
    const promise = loadBuild(build, { wasmBinary }).then((module) => makeEngine(module, build));
    enginePromises.set(build, promise);
    promise.catch(() => enginePromises.delete(build));
  }
  return enginePromises.get(build);
}

// ---- argument checks (types only; the core checks shapes and values) ------------

function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `an Array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  return typeof value === 'function' ? 'a function' : `a ${value.constructor?.name ?? 'object'}`;
}

function float32(name, value) {
  if (!(value instanceof Float32Array)) {
    throw new TypeError(`${name}: expected a Float32Array, got ${describe(value)}`);
  }
  return value;
}

function optionalFloat32(name, value) {
  return value === undefined || value === null ? new Float32Array(0) : float32(name, value);
}

const MAX_U32 = 0xffffffff;

// A size or count: an integer in [0, 2^32). Zero reaches the core, which says
// what it expected.
function count(name, value) {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name}: expected a non-negative integer, got ${describe(value)}`);
  }
  if (value < 0 || value > MAX_U32) {
    throw new RangeError(`${name}: expected an integer from 0 to ${MAX_U32}, got ${value}`);
  }
  return value;
}

function args(name, value) {
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`${name}: expected an options object, got ${describe(value)}`);
  }
  return value;
}

// A 64-bit seed as two 32-bit halves. Accepts a non-negative safe integer or a BigInt.
function seedHalves(value = 0) {
  if (typeof value === 'bigint') {
    if (value < 0n || value >= 1n << 64n) throw new RangeError(`seed: expected 0 <= seed < 2^64, got ${value}`);
    return { seedHigh: Number(value >> 32n), seedLow: Number(value & 0xffffffffn) };
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`seed: expected a non-negative safe integer or a BigInt, got ${describe(value)}`);
  }
  return { seedHigh: Math.floor(value / 2 ** 32), seedLow: value >>> 0 };
}

// scale: omitted or true = 1/sqrt(d_k); false = none; a number = that factor.
function scaleFields(scale) {
  if (scale === undefined || scale === true) return { scaleMode: 0, scale: 1 };
  if (scale === false) return { scaleMode: 1, scale: 1 };
  if (typeof scale === 'number') return { scaleMode: 2, scale };
  throw new TypeError(`scale: expected a number, true or false, got ${describe(scale)}`);
}

const NO_KEEP = new Uint8Array(0);

// mask: omitted / null / 'none'; 'causal'; { validKeys } (key padding); a Uint8Array(n*m) keep-matrix.
function maskFields(mask) {
  if (mask === undefined || mask === null || mask === 'none') return { maskKind: 0, validKeys: 0, keep: NO_KEEP };
  if (mask === 'causal') return { maskKind: 1, validKeys: 0, keep: NO_KEEP };
  if (mask instanceof Uint8Array) return { maskKind: 3, validKeys: 0, keep: mask };
  if (typeof mask === 'object' && !ArrayBuffer.isView(mask) && 'validKeys' in mask) {
    return { maskKind: 2, validKeys: count('mask.validKeys', mask.validKeys), keep: NO_KEEP };
  }
  throw new TypeError(
    `mask: expected 'causal', { validKeys } or a Uint8Array(n*m) keep-matrix, got ${describe(mask)}`);
}

function attentionCall(a) {
  const { maskKind, validKeys, keep } = maskFields(a.mask);
  const call = {
    n: count('n', a.n), m: count('m', a.m), dk: count('dk', a.dk), dv: count('dv', a.dv),
    ...scaleFields(a.scale), maskKind, validKeys,
  };
  return [float32('q', a.q), float32('k', a.k), float32('v', a.v), call, keep];
}

// The bindings return an Error object instead of throwing through wasm frames.
function unwrap(result) {
  if (result instanceof Error || Object.prototype.toString.call(result) === '[object Error]') throw result;
  return result;
}

const PATHS = ['tiled', 'full', 'scalar', 'reference'];

// ---- the engine object ---------------------------------------------------------

function makeEngine(module, build) {
  const simdWidth = module.simdWidth();
  return Object.freeze({
    build,
    simd: build === 'simd',
    simdWidth,

    attention(a) {
      return unwrap(module.attention(...attentionCall(args('attention', a))));
    },

    // Output only. path 'tiled' (default): the core's online-softmax path, never
    // holds n x m. 'full': the SIMD kernels through one n x m matrix. For
    // benchmarks also 'scalar' (same, scalar kernels) and 'reference' (double).
    attentionOutput(a) {
      args('attentionOutput', a);
      const path = a.path ?? 'tiled';
      if (!PATHS.includes(path)) {
        throw new TypeError(`path: expected 'tiled' or 'full', got ${describe(path)}`);
      }
      return unwrap(module.attentionOutput(...attentionCall(a), path));
    },

    // The scalar reference trace (plain loops, double accumulation).
    attentionReference(a) {
      return unwrap(module.attentionReference(...attentionCall(args('attentionReference', a))));
    },

    multiHead(a) {
      args('multiHead', a);
      const x = float32('x', a.x);
      const context = optionalFloat32('context', a.context);
      const wq = float32('wq', a.wq), wk = float32('wk', a.wk), wv = float32('wv', a.wv), wo = float32('wo', a.wo);
      const heads = count('heads', a.heads);
      const dModel = a.dModel === undefined ? Math.floor(Math.sqrt(wq.length)) : count('dModel', a.dModel);
      const rowsOf = (array) => (dModel > 0 ? Math.floor(array.length / dModel) : 0);
      const n = a.n === undefined ? rowsOf(x) : count('n', a.n);
      const m = a.m === undefined ? (context.length > 0 ? rowsOf(context) : n) : count('m', a.m);
      const { maskKind, validKeys, keep } = maskFields(a.mask);
      return unwrap(module.multiHead(x, context, wq, wk, wv, wo, { n, m, dModel, heads, maskKind, validKeys }, keep));
    },

    saturation(a = {}) {
      args('saturation', a);
      const call = {
        dk: count('dk', a.dk ?? 64), queries: count('queries', a.queries ?? 8),
        keys: count('keys', a.keys ?? 8), trials: count('trials', a.trials ?? 200), ...seedHalves(a.seed),
      };
      return unwrap(module.saturation(call));
    },

    scores(a) {
      args('scores', a);
      if (typeof a.kind !== 'string') {
        throw new TypeError(`kind: expected 'dot', 'scaledDot', 'general' or 'additive', got ${describe(a.kind)}`);
      }
      const call = {
        n: count('n', a.n), m: count('m', a.m), ds: count('ds', a.ds), dh: count('dh', a.dh),
        da: count('da', a.da ?? 0),
      };
      return unwrap(module.scores(a.kind, float32('s', a.s), float32('h', a.h), call,
        optionalFloat32('wa', a.wa), optionalFloat32('ua', a.ua), optionalFloat32('va', a.va)));
    },

    context(a) {
      args('context', a);
      return unwrap(module.context(float32('alignment', a.alignment), float32('h', a.h),
        count('n', a.n), count('m', a.m), count('dh', a.dh)));
    },

    // Row softmax of a rows x cols matrix (one row of all of `logits` when omitted).
    softmax(logits, rows, cols) {
      float32('logits', logits);
      const r = rows === undefined ? 1 : count('rows', rows);
      const c = cols === undefined ? (r > 0 ? Math.floor(logits.length / r) : 0) : count('cols', cols);
      return unwrap(module.softmax(logits, r, c));
    },

    rowStats(probabilities) {
      return unwrap(module.rowStats(float32('probabilities', probabilities)));
    },

    // J = diag(p) - p p^T, cols x cols row-major, as a Float64Array.
    softmaxJacobian(probabilities) {
      return unwrap(module.softmaxJacobian(float32('probabilities', probabilities)));
    },

    positionalEncoding(n, dModel) {
      return unwrap(module.positionalEncoding(count('n', n), count('dModel', dModel)));
    },

    randomNormal(a) {
      args('randomNormal', a);
      const { seedHigh, seedLow } = seedHalves(a.seed);
      const stddev = a.stddev ?? 1;
      if (typeof stddev !== 'number') throw new TypeError(`stddev: expected a number, got ${describe(stddev)}`);
      return unwrap(module.randomNormal(seedHigh, seedLow, count('rows', a.rows), count('cols', a.cols), stddev));
    },

    // The raw streams of the core's generator: `count` normal() draws (doubles) and,
    // from a second generator with the same seed, `count` next_u64() draws.
    randomStream(a) {
      args('randomStream', a);
      const { seedHigh, seedLow } = seedHalves(a.seed);
      const { normals, u64High, u64Low } = unwrap(module.randomStream(seedHigh, seedLow, count('count', a.count)));
      const u64 = new BigUint64Array(u64High.length);
      for (let i = 0; i < u64.length; i++) u64[i] = (BigInt(u64High[i]) << 32n) | BigInt(u64Low[i]);
      return { normals, u64 };
    },
  });
}

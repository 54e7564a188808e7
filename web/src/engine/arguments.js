// The engine's argument checks: the one place where JavaScript values are
// checked before they cross into WebAssembly, and turned into the one form the
// bindings take (cpp/bindings/attention_bindings.cpp):
//
//   arrays   a fresh plain view (Float32Array or Uint8Array) over the caller's
//            attached, non-shared ArrayBuffer, outside the engine's own memory
//   sizes    integers from 0 to 2^32 - 1 (size_t in wasm32)
//   options  strings naming the core's enum values ('causal', 'given', ...)
//   numbers  plain numbers (NaN and infinities included: the core names them)
//
// Why so strict: the bindings copy each array with TypedArray.prototype.set
// from inside WebAssembly. A detached array makes that throw THROUGH the wasm
// frames, which skips the C++ destructors and leaves the shadow-stack pointer
// lower and Embind handles alive on every such call (the module dies after
// ~65,000 of them); a view of the module's own memory is detached by the
// first allocation that grows it; a shared buffer may change during the call.
// So nothing the bindings receive can throw: each array is re-made here from
// the intrinsic %TypedArray% getters (a subclass or an own `length` property
// cannot lie about it), each number fits its C++ type, each option is a string.
//
// What is checked where (each thing once):
//   types, array state, integer sizes, public option values,  here (TypeError / RangeError)
//     the length of an array a result is written into
//   work per call                                             ./work-limits.js (RangeError)
//   scale factor fits a float (the double is checked          the bindings (RangeError)
//     before narrowing); option strings of the raw module
//   lengths, dimensions >= 1, sizes in memory, finite         the core (RangeError / Error)
//     values, mask entries 0/1, validKeys <= m, scale > 0

// The getters of %TypedArray%.prototype read a view's internal slots.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (name) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, name).get;
const typedArrayTag = intrinsic(Symbol.toStringTag);  // 'Float32Array', ... or undefined
const bufferOf = intrinsic('buffer');
const byteOffsetOf = intrinsic('byteOffset');
const lengthOf = intrinsic('length');
// Throws for anything but a real (non-shared) ArrayBuffer.
const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;

const isTypedArray = (value) => typedArrayTag.call(value) !== undefined;

function isSharedBuffer(buffer) {
  try {
    arrayBufferByteLength.call(buffer);
    return false;
  } catch {
    return true;
  }
}

// How a value is shown in an error message.
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return `an Array of length ${value.length}`;
  if (isTypedArray(value)) return `a ${typedArrayTag.call(value)} of length ${lengthOf.call(value)}`;
  if (ArrayBuffer.isView(value)) return 'a DataView';
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}` : 'an object';
}

// The checks on typed-array arguments of one engine: `module` is its
// Emscripten module, whose memory views are refused.
export function arrayChecks(module) {
  // `value` as a fresh plain view of type `Type` over the same bytes, or a
  // TypeError naming the argument.
  function view(name, value, Type) {
    const wanted = Type.name;
    if (typedArrayTag.call(value) !== wanted) {
      throw new TypeError(`${name}: expected a ${wanted}, got ${describe(value)}`);
    }
    const buffer = bufferOf.call(value);
    if (isSharedBuffer(buffer)) {
      throw new TypeError(`${name}: expected a ${wanted} over an ArrayBuffer, got one over a SharedArrayBuffer ` +
        '(copy it first: another thread could change it during the call)');
    }
    if (buffer === module.HEAP8.buffer) {
      throw new TypeError(`${name}: expected a ${wanted} outside the engine's WebAssembly memory, got a view of it ` +
        '(copy it first: the call may grow the memory and detach it)');
    }
    try {
      return new Type(buffer, byteOffsetOf.call(value), lengthOf.call(value));
    } catch {
      // Constructing a view over a detached buffer (or out of a shrunk resizable one) throws.
      throw new TypeError(`${name}: expected a ${wanted} over an attached ArrayBuffer, got a detached ${wanted} ` +
        '(its buffer was transferred, e.g. by postMessage)');
    }
  }
  return {
    float32: (name, value) => view(name, value, Float32Array),
    // An array the bindings write a result of rows*cols floats into (`formula`
    // names rows*cols: 'n*dv'): a RangeError if it holds another number, since
    // TypedArray.set into a shorter array would throw inside the bindings.
    float32Result(name, value, formula, rows, cols) {
      const array = view(name, value, Float32Array);
      if (array.length !== rows * cols) {
        throw new RangeError(`${name}: expected ${formula} = ${rows}*${cols} = ${rows * cols} floats, got ${array.length}`);
      }
      return array;
    },
    // Omitted (undefined or null): an empty array.
    optionalFloat32: (name, value) => (value === undefined || value === null ? new Float32Array(0) : view(name, value, Float32Array)),
    uint8: (name, value) => view(name, value, Uint8Array),
  };
}

export const MAX_SIZE = 0xffffffff;  // size_t in wasm32

// A size or count: an integer in [0, 2^32). Zero reaches the core, which says
// what it expected.
export function count(name, value) {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name}: expected a non-negative integer, got ${describe(value)}`);
  }
  if (value < 0 || value > MAX_SIZE) {
    throw new RangeError(`${name}: expected an integer from 0 to ${MAX_SIZE}, got ${value}`);
  }
  return value;
}

export function optionalCount(name, value, fallback) {
  return value === undefined ? fallback : count(name, value);
}

// The options object of a call.
export function options(name, value) {
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`${name}: expected an options object, got ${describe(value)}`);
  }
  return value;
}

// The options argument of a function with positional arguments: { longRunning? }.
export const trailingOptions = (name, value) => (value === undefined ? {} : options(name, value));

export function number(name, value) {
  if (typeof value !== 'number') throw new TypeError(`${name}: expected a number, got ${describe(value)}`);
  return value;
}

export function flag(name, value) {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`${name}: expected true or false, got ${describe(value)}`);
  return value;
}

// "'a', 'b' or 'c'" (each name as `shown` writes it).
export const listOf = (names, shown = (s) => `'${s}'`) => names.map(shown).join(', ').replace(/, ([^,]*)$/, ' or $1');

// One of `choices` (strings), or a TypeError listing them.
export function choice(name, value, choices) {
  if (typeof value !== 'string' || !choices.includes(value)) {
    throw new TypeError(`${name}: expected ${listOf(choices)}, got ${describe(value)}`);
  }
  return value;
}

// A 64-bit seed as two 32-bit halves. Accepts a non-negative safe integer or a BigInt.
export function seedHalves(value = 0) {
  if (typeof value === 'bigint') {
    if (value < 0n || value >= 1n << 64n) throw new RangeError(`seed: expected 0 <= seed < 2^64, got ${value}`);
    return { seedHigh: Number(value >> 32n), seedLow: Number(value & 0xffffffffn) };
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`seed: expected a non-negative safe integer or a BigInt, got ${describe(value)}`);
  }
  return { seedHigh: Math.floor(value / 2 ** 32), seedLow: value >>> 0 };
}

// scale: omitted or true = 1/sqrt(d_k); false = none; a number = that factor
// (a double: the bindings check that a float holds it, the core that it is
// finite and positive).
export function scaleOption(scale) {
  if (scale === undefined || scale === true) return { scale: 'inverseSqrtDk', scaleFactor: 1 };
  if (scale === false) return { scale: 'none', scaleFactor: 1 };
  if (typeof scale === 'number') return { scale: 'given', scaleFactor: scale };
  throw new TypeError(`scale: expected a number, true or false, got ${describe(scale)}`);
}

const NO_KEEP = new Uint8Array(0);

// mask: omitted / null / 'none'; 'causal'; { validKeys } (key padding); a
// Uint8Array(n*m) keep-matrix. -> { mask, validKeys, keep }, the bindings' form.
export function maskOption(mask, arrays) {
  if (mask === undefined || mask === null || mask === 'none') return { mask: 'none', validKeys: 0, keep: NO_KEEP };
  if (mask === 'causal') return { mask: 'causal', validKeys: 0, keep: NO_KEEP };
  if (typedArrayTag.call(mask) === 'Uint8Array') return { mask: 'keep', validKeys: 0, keep: arrays.uint8('mask', mask) };
  if (typeof mask === 'object' && !ArrayBuffer.isView(mask) && !Array.isArray(mask) && 'validKeys' in mask) {
    return { mask: 'keyPadding', validKeys: count('mask.validKeys', mask.validKeys), keep: NO_KEEP };
  }
  throw new TypeError(
    `mask: expected 'none', 'causal', { validKeys } or a Uint8Array(n*m) keep-matrix, got ${describe(mask)}`);
}

// The core names arguments as its C++ API spells them (d_k, w_q,
// mask.valid_keys); the engine's callers gave dk, wq, mask.validKeys. The
// argument an error message starts with is renamed to what the caller gave
// ("d_model: expected at least 1" -> "dModel: ..."; "n*d_model: ..." ->
// "n*dModel: ..."); the rest of the message stays the core's.
const CALLER_NAMES = Object.freeze({
  d_k: 'dk', d_v: 'dv', d_model: 'dModel', d_s: 'ds', d_h: 'dh', d_a: 'da',
  w_q: 'wq', w_k: 'wk', w_v: 'wv', w_o: 'wo', w_a: 'wa', u_a: 'ua', v_a: 'va',
  'mask.valid_keys': 'mask.validKeys', 'mask.keep': 'mask',
  grad_output: 'gradOutput', batch_size: 'batchSize', learning_rate: 'learningRate', weight_decay: 'weightDecay',
});
const LEADING_ARGUMENT = /^([\w.*]+)(?=(\[\d+\])?: )/;

export function callerNamed(message) {
  return message.replace(LEADING_ARGUMENT, (names) => names.split('*').map((name) => CALLER_NAMES[name] ?? name).join('*'));
}

// The bindings return an Error object instead of throwing through wasm frames.
export function unwrap(result) {
  if (result instanceof Error || Object.prototype.toString.call(result) === '[object Error]') {
    result.message = callerNamed(result.message);
    throw result;
  }
  return result;
}

// Shared helpers of the engine tests (tests/js/engine*.test.js).
import { expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';

// The one tolerance rule of the JavaScript tests, per element:
//   |actual - expected| <= ABS_TOL + REL_TOL * |expected|
// float32 arithmetic in different orders (SIMD lanes, tiles, FMA natively)
// differs by a few ulps per accumulation; these bounds leave room for d up to
// a few hundred while catching any real error.
export const ABS_TOL = 1e-5;
export const REL_TOL = 1e-4;

export function withinTolerance(actual, expected) {
  if (Number.isNaN(actual) || Number.isNaN(expected)) return false;
  if (actual === expected) return true;  // also equal infinities
  return Math.abs(actual - expected) <= ABS_TOL + REL_TOL * Math.abs(expected);
}

// Asserts two arrays have the same length and agree elementwise under the rule;
// reports the first index that does not.
export function expectClose(actual, expected, label = 'array') {
  expect(actual.length, `${label}: length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!withinTolerance(actual[i], expected[i])) {
      expect.fail(`${label}[${i}]: got ${actual[i]}, expected ${expected[i]} ` +
        `(tolerance ${ABS_TOL} + ${REL_TOL}*|expected|)`);
    }
  }
}

export function expectNoNaN(array, label = 'array') {
  const index = Array.prototype.findIndex.call(array, Number.isNaN);
  expect(index, `${label}: first NaN at`).toBe(-1);
}

export const loadBoth = () => Promise.all([createAttention({ build: 'simd' }), createAttention({ build: 'baseline' })]);

// A small deterministic generator for test inputs (independent of the core's Rng).
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomMatrix(random, rows, cols, spread = 2) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) out[i] = (random() * 2 - 1) * spread;
  return out;
}

export function rowSums(matrix, rows, cols) {
  const sums = [];
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += matrix[i * cols + j];
    sums.push(s);
  }
  return sums;
}

export function identity(d) {
  const out = new Float32Array(d * d);
  for (let i = 0; i < d; i++) out[i * d + i] = 1;
  return out;
}

// Rows of `matrix` (rows x cols) in the order `order` (new row r = old row order[r]).
export function permuteRows(matrix, cols, order) {
  const out = new Float32Array(order.length * cols);
  order.forEach((from, to) => out.set(matrix.subarray(from * cols, (from + 1) * cols), to * cols));
  return out;
}

// ---- bad arrays: what the engine must refuse before the bindings see them ------

// A Float32Array (or `Type`) whose buffer was transferred, as postMessage(buf, [buf]) does.
export function detachedArray(length = 2, Type = Float32Array) {
  const array = new Type(length);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

// A Float32Array over a SharedArrayBuffer holding `values`.
export function sharedArray(values, Type = Float32Array) {
  const array = new Type(new SharedArrayBuffer(values.length * Type.BYTES_PER_ELEMENT));
  array.set(values);
  return array;
}

// A view of `length` elements of the engine's own WebAssembly memory
// (`module`: the testing engine's raw module). Never written to.
export function wasmMemoryArray(module, length = 2, Type = Float32Array) {
  return new Type(module.HEAP8.buffer, 1024, length);
}

// The worked example of article 001 (q = (1, 0); keys (1,0), (0,1), (1,1);
// values (2,0), (0,2), (1,1)) and its expected weights and output at the
// default scale 1/sqrt(2), computed here from the formula.
export function workedExample() {
  const args = {
    q: new Float32Array([1, 0]), k: new Float32Array([1, 0, 0, 1, 1, 1]), v: new Float32Array([2, 0, 0, 2, 1, 1]),
    n: 1, m: 3, dk: 2, dv: 2,
  };
  const e = Math.exp(Math.SQRT1_2);  // exp(s_j / sqrt(2)) for s = (1, 0, 1): e, 1, e
  const total = 2 * e + 1;
  return { args, weights: [e / total, 1 / total, e / total], output: [(2 * e + e) / total, (2 + e) / total] };
}

// Asserts that `engine` still computes the worked example: weights
// 0.401/0.198/0.401, output (1.203, 0.797).
export function expectWorkedExample(engine) {
  const { args, weights, output } = workedExample();
  const trace = engine.attention(args);
  expectClose(trace.weights, weights, 'worked example weights');
  expectClose(trace.output, output, 'worked example output');
  expect(Array.from(trace.weights, (x) => x.toFixed(3))).toEqual(['0.401', '0.198', '0.401']);
  expect(Array.from(trace.output, (x) => x.toFixed(3))).toEqual(['1.203', '0.797']);
}

// Runs fn and returns what it threw; if it did not throw, calls `otherwise`
// (by default: throws 'expected a throw').
export function thrown(fn, otherwise = () => { throw new Error('expected a throw'); }) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return otherwise();
}

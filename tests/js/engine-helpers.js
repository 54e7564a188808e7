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

// Bad input through the engine: a wrong TYPE is a TypeError naming the argument
// (checked in JavaScript); a wrong length, size or value comes from the core as
// RangeError / Error with the core's message naming the argument, what was
// expected and what was given. The module keeps working after any of them.
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { expectClose, thrown, workedExample } from './engine-helpers.js';

const good = () => workedExample().args;
const workedOutput = () => workedExample().output;

describe.each(['simd', 'baseline'])('errors (%s build)', (build) => {
  const engine = () => createAttention({ build });

  it('a wrong length is a RangeError naming the argument, the expected and the given length', async () => {
    const e = await engine();
    const error = thrown(() => e.attention({ ...good(), k: new Float32Array(5) }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/^k: /);
    expect(error.message).toContain('6');
    expect(error.message).toContain('got 5');
    expect(() => e.attention({ ...good(), v: new Float32Array(7) })).toThrow(/^v: .*got 7/);
    expect(() => e.attention({ ...good(), q: new Float32Array(3) })).toThrow(/^q: .*got 3/);
    expect(() => e.attentionOutput({ ...good(), q: new Float32Array(3), path: 'full' })).toThrow(/^q: .*got 3/);
  });

  it('NaN and infinite inputs are an Error naming the element', async () => {
    const e = await engine();
    const q = new Float32Array([1, NaN]);
    const error = thrown(() => e.attention({ ...good(), q }));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/^q\[1\]: .*NaN/);
    const v = new Float32Array([2, 0, 0, 2, 1, Infinity]);
    expect(() => e.attention({ ...good(), v })).toThrow(/^v\[5\]: /);
    for (const path of ['tiled', 'full']) {
      expect(() => e.attentionOutput({ ...good(), q, path })).toThrow(/^q\[1\]: .*NaN/);
    }
  });

  it('a keep-matrix of the wrong length is a RangeError; entries other than 0/1 are an Error', async () => {
    const e = await engine();
    const error = thrown(() => e.attention({ ...good(), mask: new Uint8Array(2) }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/mask|keep/);
    expect(error.message).toContain('got 2');
    expect(() => e.attention({ ...good(), mask: new Uint8Array([1, 2, 1]) })).toThrow(/mask|keep/);
    expect(() => e.attention({ ...good(), mask: { validKeys: 4 } })).toThrow(/valid/i);
  });

  it('a non-Float32Array is a TypeError naming the argument', async () => {
    const e = await engine();
    const error = thrown(() => e.attention({ ...good(), q: [1, 0] }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('q: expected a Float32Array, got an Array of length 2');
    expect(() => e.attention({ ...good(), v: new Float64Array(6) })).toThrow(/^v: expected a Float32Array, got a Float64Array/);
    expect(() => e.attention({ ...good(), mask: [1, 1, 1] })).toThrow(TypeError);
    expect(() => e.attention({ ...good(), mask: 'upper' })).toThrow(TypeError);
    expect(() => e.attention({ ...good(), scale: '2' })).toThrow(/^scale: /);
    expect(() => e.attention({ ...good(), n: 1.5 })).toThrow(/^n: expected a non-negative integer/);
    expect(() => e.attention({ ...good(), n: -1 })).toThrow(RangeError);
    expect(() => e.attention()).toThrow(TypeError);
    expect(() => e.multiHead({ x: new Float32Array(4), heads: 1, wq: null })).toThrow(/^wq: /);
    expect(() => e.softmax([1, 2])).toThrow(/^logits: /);
    expect(() => e.scores({ kind: 'cosine', s: new Float32Array(1), h: new Float32Array(1), n: 1, m: 1, ds: 1, dh: 1 }))
      .toThrow(/^kind: /);
    expect(() => e.attentionOutput({ ...good(), path: 'fast' })).toThrow(/^path: /);
    expect(() => e.randomNormal({ seed: -1, rows: 1, cols: 1 })).toThrow(/^seed: /);
  });

  it('a bad scale, zero sizes, heads not dividing d_model and sizes beyond memory are reported', async () => {
    const e = await engine();
    for (const scale of [0, -1, NaN, Infinity]) {
      expect(() => e.attention({ ...good(), scale }), `scale ${scale}`).toThrow(/scale/);
    }
    expect(() => e.attention({ ...good(), n: 0, q: new Float32Array(0) })).toThrow(/\bn\b/);
    const x = new Float32Array(2 * 6), w = new Float32Array(36);
    expect(() => e.multiHead({ x, heads: 4, wq: w, wk: w, wv: w, wo: w })).toThrow(RangeError);
    // The argument is named as the caller gave it (issue 12: dModel: 0 was reported as "n: expected at least 1")
    expect(thrown(() => e.multiHead({ x, heads: 1, wq: w, wk: w, wv: w, wo: w, dModel: 0 })).message)
      .toBe('dModel: expected at least 1, got 0');
    expect(thrown(() => e.multiHead({ x, heads: 0, wq: w, wk: w, wv: w, wo: w })).message)
      .toBe('heads: expected at least 1, got 0');
    expect(thrown(() => e.attention({ ...good(), dk: 0 })).message).toMatch(/^dk: expected at least 1, got 0$/);
    // Beyond memory (longRunning: past the engine's default work limit, to reach the core).
    const ones = new Float32Array(20000).fill(1);
    const error = thrown(() => e.attention({ q: ones, k: ones, v: ones, n: 20000, m: 20000, dk: 1, dv: 1, longRunning: true }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe('n*m: expected at most 268435456 elements, got 400000000');
    // n*m = 2^32 wraps to 0 in a 32-bit size_t; the core must still refuse it (the
    // engine's work limit refuses it first, so ask the raw module).
    const { module: raw } = await createTestingEngine({ build });
    const call = { dk: 1, dv: 1, scale: 'inverseSqrtDk', scaleFactor: 1, mask: 'none', validKeys: 0 };
    for (const n of [65536, 70000]) {
      const big = new Float32Array(n).fill(1);
      const returned = raw.attentionTrace(big, big, big, { ...call, n, m: n }, new Uint8Array(0), false, false);
      expect(returned, `n = m = ${n}`).toBeInstanceOf(RangeError);
      expect(returned.message).toBe(`n*m: expected at most 268435456 elements, got ${n * n}`);
    }
  });

  it('keeps working after many errors, with the same numbers as before', async () => {
    const e = await engine();
    const before = e.attention(good());
    for (let i = 0; i < 2000; i++) {
      expect(() => e.attention({ ...good(), k: new Float32Array(5) })).toThrow(RangeError);
      expect(() => e.attention({ ...good(), q: new Float32Array([NaN, 0]) })).toThrow(Error);
    }
    const after = e.attention(good());
    expect(after).toEqual(before);
    expectClose(after.output, workedOutput(), 'output');
  });
});

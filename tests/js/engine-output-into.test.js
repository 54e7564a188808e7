// attentionOutput({ ..., out }): the output written into the caller's array.
//
// - Into `out`, by every path and mask, the same floats as a fresh result, bit
//   for bit; `out` itself is returned; every element is written (out starts
//   as NaN); the inputs are not touched.
// - In a loop the call allocates no result in JavaScript: 1,000 calls at
//   n = 128, d = 64 leave the process's array-buffer total within one result
//   (fresh results, 1,000 x 32 KiB, raise it by tens of them before a
//   collection: the control). out: null or undefined is a fresh result.
// - A wrong length is a RangeError naming out, n*dv and both counts; a wrong
//   type a TypeError; after either, the caller's array is untouched and the
//   engine computes the worked example. (Detached, shared and wasm-memory
//   views of out: engine-boundary.test.js, with every other array argument.)
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { ALL_PATHS, createTestingEngine } from '../../web/src/engine/testing.js';
import { expectClose, expectWorkedExample, randomMatrix, seededRandom, thrown, workedExample } from './engine-helpers.js';

const bits = (array) => Array.from(new Uint32Array(array.buffer, array.byteOffset, array.length));

function problem(n, m, dk, dv, seed) {
  const random = seededRandom(seed);
  return { q: randomMatrix(random, n, dk), k: randomMatrix(random, m, dk), v: randomMatrix(random, m, dv), n, m, dk, dv };
}

describe.each(['simd', 'baseline'])('attentionOutput into out (%s build)', (build) => {
  it('writes the same floats as a fresh result, by every path and mask, and returns out itself', async () => {
    const t = await createTestingEngine({ build });
    const args = problem(7, 13, 5, 3, 11);
    const before = [bits(args.q), bits(args.k), bits(args.v)];
    const masks = [undefined, 'causal', { validKeys: 9 }, Uint8Array.from({ length: 7 * 13 }, (_, i) => (i * 7) % 3 > 0)];
    for (const path of ALL_PATHS) {
      for (const mask of masks) {
        const label = `${path} ${mask?.constructor?.name ?? mask}`;
        const fresh = t.attentionOutput({ ...args, mask, path });
        const out = new Float32Array(7 * 3).fill(NaN);
        const returned = t.attentionOutput({ ...args, mask, path, out });
        expect(returned, label).toBe(out);
        expect(bits(out), label).toEqual(bits(fresh));
      }
    }
    expect([bits(args.q), bits(args.k), bits(args.v)]).toEqual(before);
  });

  it('writes the worked example into a view inside a larger buffer, and nothing around it', async () => {
    const e = await createAttention({ build });
    const { args, output } = workedExample();
    const buffer = new Float32Array(6).fill(-7);
    const out = buffer.subarray(2, 4);
    expect(e.attentionOutput({ ...args, out })).toBe(out);
    expectClose(out, output, 'out');
    expect(Array.from(buffer.subarray(0, 2))).toEqual([-7, -7]);
    expect(Array.from(buffer.subarray(4))).toEqual([-7, -7]);
  });

  it('allocates no result in JavaScript in a loop (a fresh result does: the control)', async () => {
    const e = await createAttention({ build });
    const args = problem(128, 128, 64, 64, 3);
    const out = new Float32Array(128 * 64);
    const resultBytes = out.byteLength;
    // The most the total size of the live and not yet collected array buffers grows across 1,000 calls.
    const growth = (call) => {
      call();
      const start = process.memoryUsage().arrayBuffers;
      let most = 0;
      for (let i = 0; i < 1000; i++) {
        call();
        most = Math.max(most, process.memoryUsage().arrayBuffers - start);
      }
      return most;
    };
    expect(growth(() => e.attentionOutput({ ...args, out }))).toBeLessThanOrEqual(resultBytes);
    expect(growth(() => e.attentionOutput(args))).toBeGreaterThan(10 * resultBytes);
    expect(growth(() => e.attentionOutput({ ...args, out: null }))).toBeGreaterThan(10 * resultBytes);
  });

  it('a wrong length is a RangeError naming out and n*dv; a wrong type a TypeError; the array is untouched', async () => {
    const e = await createAttention({ build });
    const { args } = workedExample();  // n = 1, dv = 2
    for (const length of [0, 1, 3]) {
      const out = new Float32Array(length).fill(5);
      const error = thrown(() => e.attentionOutput({ ...args, out }));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toBe(`out: expected n*dv = 1*2 = 2 floats, got ${length}`);
      expect(Array.from(out)).toEqual(new Array(length).fill(5));
    }
    for (const [bad, shown] of [[new Float64Array(2), 'a Float64Array of length 2'], [[0, 0], 'an Array of length 2'],
      [2, '2'], [new Uint32Array(2), 'a Uint32Array of length 2']]) {
      const error = thrown(() => e.attentionOutput({ ...args, out: bad }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe(`out: expected a Float32Array, got ${shown}`);
    }
    // The engine's own errors come first and leave out untouched too.
    const out = new Float32Array(2).fill(5);
    expect(() => e.attentionOutput({ ...args, q: new Float32Array([NaN, 0]), out })).toThrow(/^q\[0\]: /);
    expect(Array.from(out)).toEqual([5, 5]);
    expectWorkedExample(e);
  });
});

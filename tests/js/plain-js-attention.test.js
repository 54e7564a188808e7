// The plain JavaScript baseline of the benchmarks computes the same attention as
// the engine (so that comparing their speed compares like with like).
import { it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { plainJsAttention } from '../../web/src/sections/cost/plain-js-attention.js';
import { expectClose, randomMatrix, seededRandom } from './engine-helpers.js';

it('article 001 worked example: output (1.203, 0.797)', () => {
  const output = plainJsAttention({
    q: new Float32Array([1, 0]), k: new Float32Array([1, 0, 0, 1, 1, 1]), v: new Float32Array([2, 0, 0, 2, 1, 1]),
    n: 1, m: 3, dk: 2, dv: 2,
  });
  expect(Array.from(output, (x) => x.toFixed(3))).toEqual(['1.203', '0.797']);
});

it('equals the engine on random shapes, default and given scale', async () => {
  const engine = await createAttention();
  const random = seededRandom(5);
  for (const [n, m, dk, dv] of [[1, 1, 1, 1], [3, 7, 5, 2], [16, 16, 64, 64], [9, 33, 17, 8]]) {
    const args = { q: randomMatrix(random, n, dk), k: randomMatrix(random, m, dk), v: randomMatrix(random, m, dv), n, m, dk, dv };
    expectClose(plainJsAttention(args), engine.attention(args).output, `${n}x${m}x${dk}x${dv}`);
    expectClose(plainJsAttention({ ...args, scale: 1 }), engine.attention({ ...args, scale: false }).output, 'unscaled');
  }
});

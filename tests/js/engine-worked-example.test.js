// Article 001's worked example through the engine API, with the expected
// numbers computed here from the formula (never copied from the article):
//   d_k = 2, q = (1, 0), keys (1,0), (0,1), (1,1), values (2,0), (0,2), (1,1)
//   s_j = q.k_j * scale,  w_j = exp(s_j) / sum_l exp(s_l),  output = sum_j w_j v_j
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { ALL_PATHS, createTestingEngine } from '../../web/src/engine/testing.js';
import { expectClose } from './engine-helpers.js';

const q = new Float32Array([1, 0]);
const keys = [[1, 0], [0, 1], [1, 1]];
const values = [[2, 0], [0, 2], [1, 1]];
const k = new Float32Array(keys.flat());
const v = new Float32Array(values.flat());
const shape = { n: 1, m: 3, dk: 2, dv: 2 };

function expected(scale) {
  const scores = keys.map(([a, b]) => 1 * a + 0 * b);
  const exps = scores.map((s) => Math.exp(s * scale));
  const total = exps.reduce((a, b) => a + b, 0);
  const weights = exps.map((e) => e / total);
  const output = [0, 1].map((c) => weights.reduce((acc, w, j) => acc + w * values[j][c], 0));
  return { scores, scaled: scores.map((s) => s * scale), weights, output };
}

describe.each(['simd', 'baseline'])('article 001 worked example (%s build)', (build) => {
  it('default scale 1/sqrt(d_k): weights 0.401/0.198/0.401, output (1.203, 0.797)', async () => {
    const engine = await createAttention({ build });
    const want = expected(1 / Math.sqrt(2));
    const trace = engine.attention({ q, k, v, ...shape });
    expect(trace.scale).toBeCloseTo(Math.SQRT1_2, 7);
    expectClose(trace.scores, want.scores, 'scores');
    expectClose(trace.scaled, want.scaled, 'scaled');
    expectClose(trace.masked, want.scaled, 'masked (no mask)');
    expectClose(trace.weights, want.weights, 'weights');
    expectClose(trace.output, want.output, 'output');
    // The rounded figures the page shows.
    expect(Array.from(trace.weights, (w) => w.toFixed(3))).toEqual(['0.401', '0.198', '0.401']);
    expect(Array.from(trace.output, (o) => o.toFixed(3))).toEqual(['1.203', '0.797']);
  });

  it('scale false: weights 0.422/0.155/0.422', async () => {
    const engine = await createAttention({ build });
    const want = expected(1);
    const trace = engine.attention({ q, k, v, ...shape, scale: false });
    expect(trace.scale).toBe(1);
    expectClose(trace.weights, want.weights, 'weights');
    expectClose(trace.output, want.output, 'output');
    expect(Array.from(trace.weights, (w) => w.toFixed(3))).toEqual(['0.422', '0.155', '0.422']);
  });

  it('a given scale is applied as given', async () => {
    const engine = await createAttention({ build });
    const want = expected(3);
    const trace = engine.attention({ q, k, v, ...shape, scale: 3 });
    expect(trace.scale).toBe(3);
    expectClose(trace.weights, want.weights, 'weights');
  });

  it('every output path gives the same output (the test entry has all four)', async () => {
    const engine = await createAttention({ build });
    const testing = await createTestingEngine({ build });
    const want = expected(1 / Math.sqrt(2)).output;
    expect(ALL_PATHS).toEqual(['tiled', 'full', 'scalar', 'reference']);
    for (const path of ALL_PATHS) {
      expectClose(testing.attentionOutput({ q, k, v, ...shape, path }), want, `attentionOutput ${path}`);
    }
    for (const path of ['tiled', 'full']) {
      expectClose(engine.attentionOutput({ q, k, v, ...shape, path }), want, `public attentionOutput ${path}`);
    }
    expectClose(engine.attentionOutput({ q, k, v, ...shape }), want, 'attentionOutput default');
    expectClose(engine.attentionReference({ q, k, v, ...shape }).output, want, 'attentionReference');
  });
});

// Properties of attention that hold for any input, checked through the engine API
// on both builds: rows of weights sum to 1, masked weights are exactly 0, a fully
// masked row is zeros (not NaN), permuting tokens permutes the outputs, one head
// with identity projections is plain attention, and cross-attention has n != m.
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import {
  expectClose, expectNoNaN, identity, permuteRows, randomMatrix, rowSums, seededRandom,
} from './engine-helpers.js';

function inputs(seed, n, m, dk, dv, spread = 2) {
  const random = seededRandom(seed);
  return {
    q: randomMatrix(random, n, dk, spread), k: randomMatrix(random, m, dk, spread),
    v: randomMatrix(random, m, dv, spread), n, m, dk, dv,
  };
}

describe.each(['simd', 'baseline'])('invariants (%s build)', (build) => {
  const engine = () => createAttention({ build });

  it('each row of weights sums to 1, for odd and vector-width shapes and large logits', async () => {
    const e = await engine();
    for (const [n, m, dk, spread] of [[1, 1, 1, 2], [3, 5, 7, 2], [4, 8, 16, 2], [9, 17, 33, 2], [6, 6, 4, 40]]) {
      const a = inputs(n * 100 + m, n, m, dk, 3, spread);
      const { weights, output } = e.attention(a);
      expectNoNaN(weights, 'weights');
      expectNoNaN(output, 'output');
      expectClose(rowSums(weights, n, m), new Array(n).fill(1), `row sums ${n}x${m}`);
      expect(weights.every((w) => w >= 0 && w <= 1)).toBe(true);
    }
  });

  it('masked weights are exactly 0 and the rest renormalise (causal, padding, keep-matrix)', async () => {
    const e = await engine();
    const n = 5, m = 7;
    const a = inputs(7, n, m, 4, 3);
    const keep = new Uint8Array(n * m).map((_, i) => ((i * 7) % 3 === 0 ? 0 : 1));
    keep[0] = 1;  // every row keeps at least one key
    const masks = {
      causal: (i, j) => j <= i,
      padding: (i, j) => j < 4,
      keep: (i, j) => keep[i * m + j] === 1,
    };
    for (const [name, mask] of [['causal', 'causal'], ['padding', { validKeys: 4 }], ['keep', keep]]) {
      const trace = e.attention({ ...a, mask });
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < m; j++) {
          const cell = i * m + j;
          if (masks[name](i, j)) {
            expect(trace.masked[cell], `${name} masked[${i},${j}]`).toBe(trace.scaled[cell]);
          } else {
            expect(trace.masked[cell], `${name} masked[${i},${j}]`).toBe(-Infinity);
            expect(Object.is(trace.weights[cell], 0), `${name} weight[${i},${j}] is +0`).toBe(true);
          }
        }
      }
      // 1 for a row that keeps a key (every row here), 0 for a fully masked one: read from the mask, not the weights
      const keepsAKey = (i) => Array.from({ length: m }, (_, j) => masks[name](i, j)).some(Boolean);
      expectClose(rowSums(trace.weights, n, m), Array.from({ length: n }, (_, i) => (keepsAKey(i) ? 1 : 0)), `${name} row sums`);
      expectClose(e.attentionOutput({ ...a, mask }), trace.output, `${name}: tiled output vs trace`);
    }
  });

  it('a fully masked row gets zero weights and a zero output row, not NaN', async () => {
    const e = await engine();
    const n = 3, m = 4;
    const a = inputs(11, n, m, 2, 2);
    const keep = new Uint8Array(n * m).fill(1);
    keep.fill(0, m, 2 * m);  // row 1 sees no key
    for (const path of ['trace', 'tiled', 'full']) {
      const output = path === 'trace' ? e.attention({ ...a, mask: keep }).output
        : e.attentionOutput({ ...a, mask: keep, path });
      expectNoNaN(output, path);
      expect(Array.from(output.subarray(2, 4)), `${path}: output row 1`).toEqual([0, 0]);
    }
    const { weights } = e.attention({ ...a, mask: keep });
    expect(Array.from(weights.subarray(m, 2 * m))).toEqual([0, 0, 0, 0]);
    // Key padding with no valid key: every row is fully masked.
    const none = e.attention({ ...a, mask: { validKeys: 0 } });
    expect(none.weights.every((w) => w === 0)).toBe(true);
    expect(none.output.every((o) => o === 0)).toBe(true);
  });

  it('permuting the tokens permutes the outputs (self-attention, no positions)', async () => {
    const e = await engine();
    const n = 6, dModel = 8, random = seededRandom(3);
    const x = randomMatrix(random, n, dModel);
    const w = () => randomMatrix(random, dModel, dModel, 0.5);
    const weights = { wq: w(), wk: w(), wv: w(), wo: w() };
    const order = [4, 0, 5, 2, 1, 3];
    const plain = e.multiHead({ x, heads: 2, ...weights });
    const shuffled = e.multiHead({ x: permuteRows(x, dModel, order), heads: 2, ...weights });
    expectClose(shuffled.output, permuteRows(plain.output, dModel, order), 'multi-head output');
    // And in single-head attention: permuting keys with their values changes nothing.
    const a = inputs(5, 3, 6, 4, 4);
    const base = e.attention(a).output;
    const moved = e.attention({ ...a, k: permuteRows(a.k, 4, order), v: permuteRows(a.v, 4, order) }).output;
    expectClose(moved, base, 'keys and values permuted together');
  });

  it('one head with identity projections equals plain attention on X', async () => {
    const e = await engine();
    const n = 5, dModel = 6;
    const x = randomMatrix(seededRandom(9), n, dModel);
    const eye = identity(dModel);
    const result = e.multiHead({ x, heads: 1, wq: eye, wk: eye, wv: eye, wo: eye });
    const plain = e.attention({ q: x, k: x, v: x, n, m: n, dk: dModel, dv: dModel });
    expect(result.headWeights).toHaveLength(1);
    expectClose(result.headWeights[0], plain.weights, 'head weights');
    expectClose(result.output, plain.output, 'output');
    expectClose(result.concat, plain.output, 'concat');
    expectClose(result.q, x, 'Q = X I');
  });

  it('cross-attention: n queries over m != n keys, with shapes to match', async () => {
    const e = await engine();
    const n = 3, m = 5, dModel = 8, heads = 4, random = seededRandom(21);
    const x = randomMatrix(random, n, dModel), context = randomMatrix(random, m, dModel);
    const w = () => randomMatrix(random, dModel, dModel, 0.5);
    const r = e.multiHead({ x, context, heads, wq: w(), wk: w(), wv: w(), wo: w() });
    expect(r.output).toHaveLength(n * dModel);
    expect(r.q).toHaveLength(n * dModel);
    expect(r.k).toHaveLength(m * dModel);
    expect(r.v).toHaveLength(m * dModel);
    expect(r.headWeights).toHaveLength(heads);
    for (const weights of r.headWeights) {
      expect(weights).toHaveLength(n * m);
      expectClose(rowSums(weights, n, m), [1, 1, 1], 'head row sums');
    }
    const a = inputs(8, 2, 7, 3, 5);
    const t = e.attention(a);
    expect([t.scores.length, t.weights.length, t.output.length]).toEqual([14, 14, 10]);
  });

  it('softmax helpers: rows sum to 1, -Infinity gets 0, and the statistics match their formulas', async () => {
    const e = await engine();
    const logits = new Float32Array([95, 100, 90, -Infinity, 0, 0, 0, 0]);
    const p = e.softmax(logits, 2, 4);
    expect(p[3]).toBe(0);
    expectClose(rowSums(p, 2, 4), [1, 1], 'row sums');
    expectClose(p.subarray(4), [0.25, 0.25, 0.25, 0.25], 'uniform row');
    const stats = e.rowStats(p.subarray(4));
    expect(stats.maxWeight).toBeCloseTo(0.25, 6);
    expect(stats.entropy).toBeCloseTo(Math.log(4), 6);
    expect(stats.jacobianTrace).toBeCloseTo(4 * 0.25 * 0.75, 6);
    const jacobian = e.softmaxJacobian(p.subarray(4));
    expect(jacobian).toBeInstanceOf(Float64Array);
    expect(jacobian[0]).toBeCloseTo(0.25 * 0.75, 6);
    expect(jacobian[1]).toBeCloseTo(-0.25 * 0.25, 6);
  });

  it('scores family and context vectors follow their formulas', async () => {
    const e = await engine();
    const s = new Float32Array([1, 2, 0.5, -1]);  // n = 2, ds = 2
    const h = new Float32Array([3, 1, 0, 2, -1, 1]);  // m = 3, dh = 2
    const dims = { s, h, n: 2, m: 3, ds: 2, dh: 2 };
    const dot = (i, j) => s[i * 2] * h[j * 2] + s[i * 2 + 1] * h[j * 2 + 1];
    const want = Array.from({ length: 6 }, (_, c) => dot(Math.floor(c / 3), c % 3));
    expectClose(e.scores({ kind: 'dot', ...dims }), want, 'dot');
    expectClose(e.scores({ kind: 'scaledDot', ...dims }), want.map((x) => x / Math.SQRT2), 'scaledDot');
    expectClose(e.scores({ kind: 'general', ...dims, wa: identity(2) }), want, 'general with W_a = I');
    // additive with d_a = 1: e_ij = v tanh(W_a s_i + U_a h_j)
    const wa = new Float32Array([0.5, -0.25]), ua = new Float32Array([0.1, 0.3]), va = new Float32Array([2]);
    const additive = Array.from({ length: 6 }, (_, c) => {
      const i = Math.floor(c / 3), j = c % 3;
      return 2 * Math.tanh(s[i * 2] * 0.5 - s[i * 2 + 1] * 0.25 + h[j * 2] * 0.1 + h[j * 2 + 1] * 0.3);
    });
    expectClose(e.scores({ kind: 'additive', ...dims, wa, ua, va, da: 1 }), additive, 'additive');
    const alignment = e.softmax(e.scores({ kind: 'dot', ...dims }), 2, 3);
    const c = e.context({ alignment, h, n: 2, m: 3, dh: 2 });
    const wantContext = [0, 1, 0, 1].map((_, idx) => {
      const i = Math.floor(idx / 2), col = idx % 2;
      return [0, 1, 2].reduce((acc, j) => acc + alignment[i * 3 + j] * h[j * 2 + col], 0);
    });
    expectClose(c, wantContext, 'context');
  });

  it('positional encoding follows sin/cos of pos / 10000^(2i/d_model)', async () => {
    const e = await engine();
    const n = 7, dModel = 6;
    const pe = e.positionalEncoding(n, dModel);
    expect(pe).toHaveLength(n * dModel);
    const want = [];
    for (let pos = 0; pos < n; pos++) {
      for (let c = 0; c < dModel; c++) {
        const angle = pos / 10000 ** ((2 * Math.floor(c / 2)) / dModel);
        want.push(c % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
      }
    }
    expectClose(pe, want, 'PE');
  });

  it('the saturation experiment: scaling keeps logits near unit spread and the softmax unsaturated', async () => {
    const e = await engine();
    const r = e.saturation({ dk: 512, queries: 1, keys: 10, trials: 200, seed: 42 });
    expect(r.logitStd).toBeGreaterThan(Math.sqrt(512) * 0.85);
    expect(r.logitStd).toBeLessThan(Math.sqrt(512) * 1.15);
    expect(r.maxWeight.raw).toBeGreaterThan(r.maxWeight.scaled);
    expect(r.entropy.raw).toBeLessThan(r.entropy.scaled);
    expect(r.gradient.raw).toBeLessThan(r.gradient.scaled);
    expect(r.entropy.scaled).toBeLessThanOrEqual(Math.log(10) + 1e-9);
    expect(r.saturatedShare.raw).toBeGreaterThan(r.saturatedShare.scaled);
    // Same seed, same numbers; another seed, other numbers.
    expect(e.saturation({ dk: 512, queries: 1, keys: 10, trials: 200, seed: 42 })).toEqual(r);
    expect(e.saturation({ dk: 512, queries: 1, keys: 10, trials: 200, seed: 43 }).logitStd).not.toBe(r.logitStd);
  });

  it('randomNormal is reproducible from its seed, including 64-bit BigInt seeds', async () => {
    const e = await engine();
    const a = e.randomNormal({ seed: 7, rows: 50, cols: 40 });
    expect(e.randomNormal({ seed: 7n, rows: 50, cols: 40 })).toEqual(a);
    expect(e.randomNormal({ seed: 8, rows: 50, cols: 40 })).not.toEqual(a);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    const std = Math.sqrt(a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length);
    expect(Math.abs(mean)).toBeLessThan(0.1);
    expect(Math.abs(std - 1)).toBeLessThan(0.1);
    const scaled = e.randomNormal({ seed: 7, rows: 50, cols: 40, stddev: 3 });
    expectClose(scaled, Array.from(a, (x) => 3 * x), 'stddev 3');
    const big = e.randomNormal({ seed: (1n << 63n) + 5n, rows: 1, cols: 8 });
    expect(big).not.toEqual(e.randomNormal({ seed: 5, rows: 1, cols: 8 }));
  });
});

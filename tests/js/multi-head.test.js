// Section 6 (#multi-head) state: h in {1, 2, 4, 8}, seeded projections, FLOPs.
import { describe, it, expect, beforeAll } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { D_MODEL, HEAD_CHOICES, N_TOKENS, computeMultiHead, createMultiHead, drawInputs, flopCount }
  from '../../web/src/sections/multi-head/state.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });

describe('multi-head state', () => {
  it('one weight matrix per head, each n x n with rows summing to 1', () => {
    const model = createMultiHead(engine, { heads: 2 });
    for (const h of HEAD_CHOICES) {
      model.setHeads(h);
      const r = model.result;
      expect(r.heads).toBe(h);
      expect(r.dk).toBe(D_MODEL / h);
      expect(r.headWeights).toHaveLength(h);
      for (const w of r.headWeights) {
        expect(w).toHaveLength(N_TOKENS * N_TOKENS);
        for (let i = 0; i < N_TOKENS; i++) {
          expect(w.subarray(i * N_TOKENS, (i + 1) * N_TOKENS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
        }
      }
      expect(r.concat).toHaveLength(N_TOKENS * D_MODEL);
      expect(r.output).toHaveLength(N_TOKENS * D_MODEL);
    }
    expect(() => model.setHeads(3)).toThrow(/heads/);
  });

  it('the heads of one projection differ, and h = 1 is plain attention over the full width', () => {
    const model = createMultiHead(engine, { heads: 4 });
    const [a, b] = model.result.headWeights;
    expect(Array.from(a)).not.toEqual(Array.from(b));
    model.setHeads(1);
    const { x, wq, wk, wv } = model.drawn;
    const mul = (m, w) => {
      const out = new Float32Array(N_TOKENS * D_MODEL);
      for (let i = 0; i < N_TOKENS; i++) for (let c = 0; c < D_MODEL; c++) {
        let s = 0;
        for (let t = 0; t < D_MODEL; t++) s += m[i * D_MODEL + t] * w[t * D_MODEL + c];
        out[i * D_MODEL + c] = s;
      }
      return out;
    };
    const trace = engine.attention({ q: mul(x, wq), k: mul(x, wk), v: mul(x, wv), n: N_TOKENS, m: N_TOKENS, dk: D_MODEL, dv: D_MODEL });
    Array.from(trace.weights).forEach((w, i) => expect(model.result.headWeights[0][i]).toBeCloseTo(w, 4));
  });

  it('projections are reproducible from the seed; a new seed draws new ones, the embeddings stay', () => {
    const first = drawInputs(engine, 1);
    const again = drawInputs(engine, 1);
    expect(Array.from(again.wq)).toEqual(Array.from(first.wq));
    const model = createMultiHead(engine, { heads: 2, seed: 1 });
    const before = Array.from(model.result.headWeights[0]);
    model.redraw();
    expect(model.seed).toBe(2);
    expect(Array.from(model.drawn.wq)).not.toEqual(Array.from(first.wq));
    expect(Array.from(model.drawn.x)).toEqual(Array.from(first.x));
    expect(Array.from(model.result.headWeights[0])).not.toEqual(before);
    model.reset();
    expect(Array.from(model.result.headWeights[0])).toEqual(before);
  });

  it('FLOPs of the attention products are the same for every h (4 n^2 d_model)', () => {
    const counts = HEAD_CHOICES.map((h) => flopCount({ n: N_TOKENS, dModel: D_MODEL, heads: h }));
    for (const f of counts) {
      expect(f.attention).toBe(4 * N_TOKENS * N_TOKENS * D_MODEL);
      expect(f.projections).toBe(8 * N_TOKENS * D_MODEL * D_MODEL);
      expect(f.softmaxExps).toBe(f.heads * N_TOKENS * N_TOKENS);
    }
    expect(counts.map((f) => f.dk)).toEqual([8, 4, 2, 1]);
    expect(() => flopCount({ n: 6, dModel: 8, heads: 3 })).toThrow(/heads/);
    expect(computeMultiHead(engine, drawInputs(engine, 5), 8).flopTable).toHaveLength(4);
  });
});

// Section 4 (#sentence) state: article 004's sentence computed, not copied.
import { describe, it, expect, beforeAll } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { DEFAULT_EMBEDDINGS, TOKENS, computeSentence, createSentence, identicalTokenPairs, isSymmetric }
  from '../../web/src/sections/sentence/state.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });

function reference(x) {
  const n = x.length;
  const d = x[0].length;
  const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);
  const scores = x.map((a) => x.map((b) => dot(a, b)));
  const weights = scores.map((row) => {
    const e = row.map((s) => Math.exp(s / Math.sqrt(d)));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / sum);
  });
  const output = weights.map((w) => Array.from({ length: d }, (_, c) => w.reduce((acc, wj, j) => acc + wj * x[j][c], 0)));
  return { n, scores, weights, output };
}

describe('sentence state', () => {
  it('five tokens with Q = K = V = X: scores, weights and outputs match the formula', () => {
    const r = computeSentence(engine, DEFAULT_EMBEDDINGS);
    const want = reference(DEFAULT_EMBEDDINGS);
    expect(TOKENS).toEqual(['karina', 'is', 'to', 'the', 'store']);
    for (let i = 0; i < 5; i++) {
      for (let j = 0; j < 5; j++) {
        expect(r.scores[i * 5 + j]).toBeCloseTo(want.scores[i][j], 6);
        expect(r.weights[i * 5 + j]).toBeCloseTo(want.weights[i][j], 6);
      }
      for (let c = 0; c < 2; c++) expect(r.output[i * 2 + c]).toBeCloseTo(want.output[i][c], 5);
      expect(r.rowSums[i]).toBeCloseTo(1, 6);
    }
  });

  it('scores are symmetric (Q = K), weights are not; "to" and "the" coincide', () => {
    const r = computeSentence(engine, DEFAULT_EMBEDDINGS);
    expect(r.scoresSymmetric).toBe(true);
    expect(r.weightsSymmetric).toBe(false);
    expect(r.identicalRows).toEqual([[2, 3]]);
    expect(isSymmetric([1, 2, 2, 1], 2)).toBe(true);
    expect(identicalTokenPairs([[1, 0], [0, 1]])).toEqual([]);
  });

  it('editing an embedding recomputes; a non-number is reported, then the engine keeps working', () => {
    const model = createSentence(engine);
    const before = Array.from(model.result.weights);
    model.setEmbedding(0, 1, 2);
    expect(Array.from(model.result.weights)).not.toEqual(before);
    expect(model.result.identicalRows).toEqual([[2, 3]]);
    model.setEmbedding(1, 0, NaN);
    // The box as its label names it, counted from 1: token 2 ("is"), component 1.
    expect(model.failure).toMatchObject({ problem: 'notANumber', field: { key: 'embeddings.cell', params: { token: 'is', c: 1 } } });
    model.reset();
    expect(model.error).toBeNull();
    expect(Array.from(model.result.weights)).toEqual(before);
  });

  it('which tokens look at another more than at themselves: only “store” (0.25 to “to” and “the”, 0.21 to itself)', () => {
    const { prefersOther } = createSentence(engine).result;
    // Independently: the row of "store" (0.5, 1) is softmax([0.5, 1, 1.5, 1.5, 1.25] / sqrt 2).
    const row = [0.5, 1, 1.5, 1.5, 1.25].map((s) => Math.exp(s / Math.SQRT2));
    const sum = row.reduce((a, b) => a + b, 0);
    expect(prefersOther).toHaveLength(1);
    const [p] = prefersOther;
    expect([p.i, p.j]).toEqual([4, 2]);
    expect(p.other).toBeCloseTo(row[2] / sum, 6);
    expect(p.self).toBeCloseTo(row[4] / sum, 6);
    expect([p.dot, p.norm2]).toEqual([1.5, 1.25]);
    // karina, is and to tie between themselves and others: not "more than".
  });
});

// Section 5 (#masking) state: -inf before the softmax, weights exactly 0, rows
// renormalised, a fully masked row gives zeros (never NaN).
import { describe, it, expect, beforeAll } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { DEFAULT_EMBEDDINGS, computeMasking, createMasking, maskOption, rowBreakdown }
  from '../../web/src/sections/masking/state.js';
import { formatNumber, NEG_INFINITY } from '../../web/src/lib/format.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });
const n = DEFAULT_EMBEDDINGS.length;

function expectRowsNormalised(r) {
  for (let i = 0; i < n; i++) {
    if (r.fullyMasked.includes(i)) expect(r.rowSums[i]).toBe(0);
    else expect(r.rowSums[i]).toBeCloseTo(1, 6);
  }
  for (const w of r.weights) expect(Number.isNaN(w)).toBe(false);
}

describe('masking state', () => {
  it('causal: the upper triangle is -inf with weight exactly 0; rows sum to 1', () => {
    const model = createMasking(engine, { mode: 'causal' });
    const r = model.result;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (j > i) {
          expect(r.masked[i * n + j]).toBe(-Infinity);
          expect(r.weights[i * n + j]).toBe(0);
          expect(r.keep[i * n + j]).toBe(0);
        } else {
          expect(r.masked[i * n + j]).toBe(r.scaled[i * n + j]);
          expect(r.weights[i * n + j]).toBeGreaterThan(0);
        }
      }
    }
    expect(r.weights[0]).toBe(1);   // the first query sees only itself
    expectRowsNormalised(r);
  });

  it('padding: the last key is masked for every query', () => {
    const r = computeMasking(engine, { embeddings: DEFAULT_EMBEDDINGS, mode: 'padding', validKeys: n - 1 });
    for (let i = 0; i < n; i++) expect(r.weights[i * n + n - 1]).toBe(0);
    expectRowsNormalised(r);
  });

  it('renormalisation: the open weights of a masked row are the softmax over the open keys', () => {
    const r = computeMasking(engine, { embeddings: DEFAULT_EMBEDDINGS, mode: 'causal' });
    const i = 2;
    const open = Array.from(r.scaled.subarray(i * n, i * n + i + 1));
    const e = open.map(Math.exp);
    const sum = e.reduce((a, b) => a + b, 0);
    e.forEach((v, j) => expect(r.weights[i * n + j]).toBeCloseTo(v / sum, 6));
    const bd = rowBreakdown(r, i);
    expect(bd.exps.slice(i + 1)).toEqual([0, 0]);   // e^{-inf} = 0
    expect(bd.sumExp).toBeCloseTo(sum, 5);
    expect(formatNumber(bd.masked[4])).toBe(NEG_INFINITY);
  });

  it('clicking a cell masks it (weight 0, row renormalised) and clicking again unmasks it', () => {
    const model = createMasking(engine, { mode: 'none' });
    const before = model.result.weights[1 * n + 3];
    expect(before).toBeGreaterThan(0);
    model.toggle(1, 3);
    expect(model.state.mode).toBe('custom');
    expect(model.result.weights[1 * n + 3]).toBe(0);
    expect(model.result.masked[1 * n + 3]).toBe(-Infinity);
    expectRowsNormalised(model.result);
    model.toggle(1, 3);
    expect(model.result.weights[1 * n + 3]).toBeCloseTo(before, 7);
  });

  it('a row with every key masked: zero weights, zero output, reported — never NaN', () => {
    const model = createMasking(engine, { mode: 'causal' });
    model.toggle(0, 0);   // query 0 saw only key 0
    const r = model.result;
    expect(r.fullyMasked).toEqual([0]);
    expect(Array.from(r.weights.subarray(0, n))).toEqual([0, 0, 0, 0, 0]);
    expect(Array.from(r.output.subarray(0, 2))).toEqual([0, 0]);
    expectRowsNormalised(r);
    const bd = rowBreakdown(r, 0);
    expect(bd.allMasked).toBe(true);
    expect(bd.weightSum).toBe(0);
  });

  it('switching preset after custom clicks starts fresh; reset restores causal', () => {
    const model = createMasking(engine, { mode: 'causal' });
    model.toggle(4, 0).setMode('none');
    expect(model.result.fullyMasked).toEqual([]);
    expect(Array.from(model.result.keep).every((k) => k === 1)).toBe(true);
    model.setMode('custom');   // custom from "none": everything open
    expect(Array.from(model.result.keep).every((k) => k === 1)).toBe(true);
    model.reset();
    expect(model.state.mode).toBe('causal');
    expect(model.result.weights[1]).toBe(0);
    expect(() => model.setMode('sideways')).toThrow(/mask mode/);
    expect(maskOption('padding', { validKeys: 3 })).toEqual({ validKeys: 3 });
  });
});

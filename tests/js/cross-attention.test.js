// Section 7 (#cross-attention) state: n queries x m keys, and the three places.
import { describe, it, expect, beforeAll } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { DECODER_EMBEDDINGS, DECODER_TOKENS, ENCODER_EMBEDDINGS, ENCODER_TOKENS, computeCross, createCross }
  from '../../web/src/sections/cross-attention/state.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });

describe('cross-attention state', () => {
  it('decoder queries attend to encoder keys: a rectangular n x m matrix whose rows sum to 1', () => {
    const r = computeCross(engine, { encoder: ENCODER_EMBEDDINGS, decoder: DECODER_EMBEDDINGS });
    const n = DECODER_TOKENS.length;
    const m = ENCODER_TOKENS.length;
    expect([r.n, r.m]).toEqual([3, 4]);
    expect(r.cross.weights).toHaveLength(n * m);
    expect(r.cross.output).toHaveLength(n * r.d);
    r.rowSums.forEach((s) => expect(s).toBeCloseTo(1, 6));
    // By the formula, in double precision.
    const d = r.d;
    DECODER_EMBEDDINGS.forEach((q, i) => {
      const s = ENCODER_EMBEDDINGS.map((k) => k.reduce((a, x, c) => a + x * q[c], 0) / Math.sqrt(d));
      const e = s.map(Math.exp);
      const sum = e.reduce((a, b) => a + b, 0);
      e.forEach((v, j) => expect(r.cross.weights[i * m + j]).toBeCloseTo(v / sum, 6));
    });
    expect(r.strongest.map((j) => ENCODER_TOKENS[j])).toEqual(['I', 'hungry', 'hungry']);
  });

  it('the three places: encoder self (m x m), masked decoder self (n x n, causal), cross (n x m)', () => {
    const r = computeCross(engine, { encoder: ENCODER_EMBEDDINGS, decoder: DECODER_EMBEDDINGS });
    expect(r.encoderSelf.weights).toHaveLength(16);
    expect(r.decoderSelf.weights).toHaveLength(9);
    expect(Array.from(r.encoderSelf.masked).includes(-Infinity)).toBe(false);
    for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) {
      expect(r.decoderSelf.weights[i * 3 + j]).toBe(0);
      expect(r.decoderSelf.masked[i * 3 + j]).toBe(-Infinity);
    }
    expect(r.decoderSelf.weights[0]).toBe(1);
  });

  it('editing recomputes; an invalid entry is reported and the model recovers', () => {
    const model = createCross(engine);
    const before = Array.from(model.result.cross.weights);
    model.setDecoder(0, 0, 0);
    expect(Array.from(model.result.cross.weights)).not.toEqual(before);
    model.setEncoder(2, 1, NaN);
    expect(model.failure).toMatchObject({ problem: 'notANumber', field: { key: 'inputs.cell', params: { token: 'very', c: 2 } } });
    model.reset();
    expect(model.error).toBeNull();
    expect(Array.from(model.result.cross.weights)).toEqual(before);
  });

  it('place 3 is wired as in a Transformer: queries from the output of place 2, keys and values from the output of place 1', () => {
    const r = computeCross(engine, { encoder: ENCODER_EMBEDDINGS, decoder: DECODER_EMBEDDINGS });
    const d = 3;
    const q = r.decoderSelf.output;
    const kv = r.encoderSelf.output;
    for (let i = 0; i < r.n; i++) {
      const s = Array.from({ length: r.m }, (_, j) => {
        let dot = 0;
        for (let c = 0; c < d; c++) dot += q[i * d + c] * kv[j * d + c];
        return Math.exp(dot / Math.sqrt(d));
      });
      const sum = s.reduce((a, b) => a + b, 0);
      s.forEach((e, j) => expect(r.encoderDecoder.weights[i * r.m + j]).toBeCloseTo(e / sum, 5));
    }
    // Not the first panel's map, which attends from the decoder tokens to the encoder tokens.
    expect(Array.from(r.encoderDecoder.weights)).not.toEqual(Array.from(r.cross.weights));
  });
});

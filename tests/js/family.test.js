// Section 8 (#family): five score functions on one toy translation.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import {
  ALIGNMENT, DEFAULT_SEED, METHODS, SOURCE, TARGET, computeFamily, concatShift, createFamily, drawToy, recoversAlignment, rowArgmax,
} from '../../web/src/sections/family/state.js';
import {
  KEY_DIM, drawProjections, engineProduct, identityHolds, matrixRank, projectionIdentity,
} from '../../web/src/sections/family/projections.js';
import { translator } from '../../web/src/i18n/lookup.js';
import enStrings from '../../web/src/i18n/en/family.js';
import koStrings from '../../web/src/i18n/ko/family.js';

let engine;
let family;
beforeAll(async () => {
  engine = await createAttention();
  family = computeFamily(engine, drawToy(engine, DEFAULT_SEED));
});

describe('the toy translation', () => {
  test('three source words, three target words, four decoder states', () => {
    const { toy } = family;
    expect(SOURCE).toEqual(['I', 'am', 'hungry']);
    expect(TARGET).toEqual(['나는', '배가', '고프다']);
    expect(toy.encoder).toHaveLength(3 * 4);
    expect(toy.decoder).toHaveLength(4 * 4);
    expect(toy.wa).toHaveLength(4 * 3);
    expect(toy.ua).toHaveLength(4 * 3);
    expect(toy.va).toHaveLength(3);
    expect(toy.wGeneral).toHaveLength(16);
  });

  test('each decoder state is drawn near the states of the words it translates', () => {
    const { toy } = family;
    for (let t = 1; t <= 3; t++) {
      const target = Array.from({ length: 4 }, (_, c) => ALIGNMENT[t - 1].reduce((a, w, j) => a + w * toy.encoder[j * 4 + c], 0));
      const distance = Math.hypot(...target.map((v, c) => v - toy.decoder[t * 4 + c]));
      expect(distance).toBeLessThan(2);
    }
  });

  test('reproducible from a seed, different for another seed', () => {
    const again = computeFamily(engine, drawToy(engine, DEFAULT_SEED));
    for (const m of METHODS) expect(Array.from(again.methods[m.id].weights)).toEqual(Array.from(family.methods[m.id].weights));
    const other = computeFamily(engine, drawToy(engine, DEFAULT_SEED + 1));
    expect(Array.from(other.methods.dot.weights)).not.toEqual(Array.from(family.methods.dot.weights));
  });
});

describe('five alignment matrices', () => {
  test('every alignment row is a softmax: positive, summing to 1', () => {
    for (const m of METHODS) {
      const w = family.methods[m.id].weights;
      expect(w).toHaveLength(9);
      for (let i = 0; i < 3; i++) {
        const row = Array.from(w.subarray(i * 3, i * 3 + 3));
        expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
        for (const x of row) expect(x).toBeGreaterThan(0);
      }
    }
  });

  test('Luong dot is s_t . h_j with the current state, and scaled dot is it over sqrt(d)', () => {
    const { toy } = family;
    const dot = family.methods.dot.scores;
    const scaled = family.methods.scaledDot.scores;
    for (let t = 0; t < 3; t++) {
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let c = 0; c < 4; c++) s += toy.decoder[(t + 1) * 4 + c] * toy.encoder[j * 4 + c];
        expect(dot[t * 3 + j]).toBeCloseTo(s, 4);
        expect(scaled[t * 3 + j]).toBeCloseTo(s / 2, 4);
      }
    }
  });

  test('Bahdanau uses the previous state: its rows are concat’s moved down by one, exactly', () => {
    const b = family.methods.bahdanau;
    const c = family.methods.concat;
    expect(b.state).toBe('previous');
    expect(c.state).toBe('current');
    for (let t = 0; t < 2; t++) {
      expect(Array.from(b.scores.subarray((t + 1) * 3, (t + 2) * 3))).toEqual(Array.from(c.scores.subarray(t * 3, t * 3 + 3)));
    }
    // and its first row comes from the start state s_0
    const fromStart = engine.scores({
      kind: 'additive', s: family.toy.decoder.slice(0, 4), h: family.toy.encoder, n: 1, m: 3, ds: 4, dh: 4,
      wa: family.toy.wa, ua: family.toy.ua, va: family.toy.va, da: 3,
    });
    expect(Array.from(b.scores.subarray(0, 3))).toEqual(Array.from(fromStart));
  });

  test('concatShift: the largest gap between concat\'s weights and Bahdanau\'s moved up by one (what the note prints)', () => {
    expect(concatShift(family)).toBe(0);   // the same scores, so the same softmax, bit for bit
    // A weight moved by 0.25 in concat's first row is the gap it reports; Bahdanau's first row is never compared.
    const concat = family.methods.concat.weights.slice();
    concat[1] += 0.25;
    const bahdanau = family.methods.bahdanau.weights.slice();
    bahdanau[0] += 0.5;
    const changed = { ...family, methods: { ...family.methods, concat: { weights: concat }, bahdanau: { weights: bahdanau } } };
    expect(concatShift(changed)).toBeCloseTo(0.25, 6);
  });

  test('with the default seed, dot and scaled dot recover the built-in alignment', () => {
    for (const id of ['dot', 'scaledDot']) {
      const best = family.methods[id].best;
      expect(SOURCE[best[0]]).toBe('I');        // 나는 -> I
      expect(SOURCE[best[1]]).toBe('hungry');   // 배가 -> hungry
      expect(['am', 'hungry']).toContain(SOURCE[best[2]]);  // 고프다 -> am hungry
    }
  });

  test('the context vectors are the engine’s weighted sums of the encoder states', () => {
    const { toy } = family;
    const { weights, context } = family.methods.general;
    for (let t = 0; t < 3; t++) for (let c = 0; c < 4; c++) {
      const expected = [0, 1, 2].reduce((a, j) => a + weights[t * 3 + j] * toy.encoder[j * 4 + c], 0);
      expect(context[t * 4 + c]).toBeCloseTo(expected, 5);
    }
  });

  test('row argmax, and the model', () => {
    expect(rowArgmax([0.1, 0.7, 0.2, 0.5, 0.2, 0.3], 2, 3)).toEqual([1, 0]);
    const model = createFamily(engine);
    expect(model.seed).toBe(DEFAULT_SEED);
    model.setSeed(42);
    expect(model.seed).toBe(42);
    expect(model.result.toy.seed).toBe(42);
  });
});

describe('what the page says about the alignment agrees with the numbers', () => {
  test('the default seed: dot and scaled dot put their largest weights where the states were drawn', () => {
    const { methods } = createFamily(engine).result;
    expect(recoversAlignment(methods.dot.best)).toBe(true);
    expect(recoversAlignment(methods.scaledDot.best)).toBe(true);
    expect(recoversAlignment([0, 2, 1])).toBe(true);    // 고프다 -> am: half the share, a largest one
    expect(recoversAlignment([0, 1, 2])).toBe(false);   // 배가 -> am: not where it was drawn
  });
});

describe('scaled dot-product with projections is Luong\'s general score with W_a = W_Q W_K^T / sqrt(d_k)', () => {
  test('the engine\'s product is the matrix product', () => {
    const a = new Float32Array([1, 2, 3, 4, 5, 6]);          // 2 x 3
    const b = new Float32Array([1, 0, 0, 1, 2, -1]);         // 3 x 2
    expect(Array.from(engineProduct(engine, a, b, 2, 3, 2))).toEqual([7, -1, 16, -1]);
  });

  test('for several seeds: the two score matrices agree to float32 rounding, and W_a has rank d_k = 2 of 4', () => {
    for (const seed of [DEFAULT_SEED, 2, 42, 999]) {
      const toy = drawToy(engine, seed);
      const p = projectionIdentity(engine, toy, drawProjections(engine, seed, toy.d));
      expect(p.dk).toBe(KEY_DIM);
      // The identity, checked in doubles from the projections themselves: q.k / sqrt(dk) and s^T W_a h.
      const current = toy.decoder.slice(4, 16);
      for (let t = 0; t < 3; t++) {
        for (let j = 0; j < 3; j++) {
          let viaProjections = 0;
          for (let c = 0; c < KEY_DIM; c++) {
            let q = 0;
            let k = 0;
            for (let i = 0; i < 4; i++) {
              q += current[t * 4 + i] * p.wq[i * KEY_DIM + c];
              k += toy.encoder[j * 4 + i] * p.wk[i * KEY_DIM + c];
            }
            viaProjections += q * k;
          }
          expect(p.scaled[t * 3 + j]).toBeCloseTo(viaProjections / Math.sqrt(KEY_DIM), 5);
          expect(p.general[t * 3 + j]).toBeCloseTo(viaProjections / Math.sqrt(KEY_DIM), 5);
        }
      }
      expect(p.difference).toBeLessThan(1e-5 * Math.max(1, p.largestScore));
      expect(p.difference).toBeGreaterThanOrEqual(0);
      expect(p.rank).toBe(KEY_DIM);
      expect(p.pivots).toHaveLength(KEY_DIM);
      expect(Math.min(...p.pivots)).toBeGreaterThan(1e-3 * p.largest);
      expect(identityHolds(p)).toBe(true);
    }
  });

  test('the elimination finds the rank of matrices whose rank is known, and a failed identity is not called one', () => {
    expect(matrixRank(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), 3, 3).rank).toBe(3);
    expect(matrixRank(new Float32Array([1, 2, 3, 2, 4, 6, 1, 1, 1]), 3, 3).rank).toBe(2);   // row 2 = 2 x row 1
    expect(matrixRank(new Float32Array([1, 2, 2, 4]), 2, 2)).toMatchObject({ rank: 1, pivots: [2] });
    expect(matrixRank(new Float32Array(4), 2, 2).rank).toBe(0);
    expect(identityHolds({ difference: 0, largestScore: 2, rank: 3, dk: 2 })).toBe(false);
    expect(identityHolds({ difference: 0.01, largestScore: 2, rank: 2, dk: 2 })).toBe(false);
  });

  test('the note says the numbers computed, in both languages, and the family links to the trained family', () => {
    const { projection } = createFamily(engine).result;
    for (const [strings, pointer] of [[enStrings, 'only when it scores the states themselves'], [koStrings, '상태 자체에 점수를 매길 때뿐']]) {
      const t = translator(strings);
      expect(t('concatNote')).toContain(pointer);
      const text = t('projection.result', { d: 4, dk: 2, n: 3, m: 3, difference: 'D', largest: 'L', rank: projection.rank, pivots: 'P', residue: 'R' });
      for (const piece of ['D', 'L', 'P', 'R', `${projection.rank}`, '3 × 3']) expect(text).toContain(piece);
      expect(t('after')).toContain('href="#family-trained"');
    }
  });
});

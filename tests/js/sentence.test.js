// Section 4 (#sentence) state: article 004's sentence computed, not copied.
import { describe, it, expect, beforeAll } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { DEFAULT_EMBEDDINGS, TOKENS, computeSentence, createSentence, identicalTokenPairs, isSymmetric }
  from '../../web/src/sections/sentence/state.js';
import { articleRounding, articleRoundingText } from '../../web/src/sections/sentence/article-note.js';
import { formatNumber } from '../../web/src/lib/format.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/sentence.js';
import ko from '../../web/src/i18n/ko/sentence.js';

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

describe('the note on the article’s numbers', () => {
  // Independently, in double: QK^T = X X^T, divided by 1.41 (the article) and by sqrt 2, to two decimals.
  function differingByHand() {
    const x = DEFAULT_EMBEDDINGS;
    const found = {};
    for (const a of x) {
      for (const b of x) {
        const score = a[0] * b[0] + a[1] * b[1];
        const [article, exact] = [score / 1.41, score / Math.SQRT2];
        if (article.toFixed(2) !== exact.toFixed(2)) found[score] = [(found[score]?.[0] ?? 0) + 1, article, exact];
      }
    }
    return found;
  }

  it('the article’s A (divided by 1.41) against the engine’s (by sqrt 2): QK^T = 2 in 4 entries, 1.25 in 1', () => {
    const r = articleRounding(engine);
    expect(r.divisor).toBe(1.41);
    expect(r.total).toBe(25);
    const byHand = differingByHand();
    expect(r.groups.map((g) => g.score).sort()).toEqual(Object.keys(byHand).map(Number).sort());
    expect(r.groups.map((g) => [g.score, g.cells])).toEqual([[2, 4], [1.25, 1]]);
    for (const g of r.groups) {
      expect(g.article).toBeCloseTo(byHand[g.score][1], 5);
      expect(g.exact).toBeCloseTo(byHand[g.score][2], 5);
    }
  });

  it.each([['en', en], ['ko', ko]])('in %s, says which entries differ and by how much, as the section shows them', (lang, strings) => {
    const text = articleRoundingText(translator(strings, {}), articleRounding(engine));
    const shown = computeSentence(engine, DEFAULT_EMBEDDINGS).scaled;   // the A the section shows, to two decimals
    expect(text).toMatch(lang === 'en' ? /5 of its 25 entries/ : /25개 성분 가운데 5개/);
    expect(text).toMatch(lang === 'en' ? /\(4 of the 25 entries\)/ : /\(25개 중 4개\)/);
    expect(text).toMatch(lang === 'en' ? /\(1 of the 25 entries\)/ : /\(25개 중 1개\)/);
    // The article's values and the engine's, as the section's matrix shows them (to-to: 2, store-store: 1.25).
    for (const [cell, article, fullArticle, fullExact] of [[2 * 5 + 2, '1.42', '1.4184', '1.4142'], [4 * 5 + 4, '0.89', '0.8865', '0.8839']]) {
      const exact = formatNumber(shown[cell], 2);
      expect(text).toContain(`${fullArticle}${lang === 'en' ? ' shows as ' : '는 '}${article}`);
      expect(text).toContain(`${fullExact}${lang === 'en' ? ' as ' : '는 '}${exact}`);
      expect(exact).not.toBe(article);
    }
    expect(text).not.toMatch(/\{/);   // every placeholder filled
  });
});

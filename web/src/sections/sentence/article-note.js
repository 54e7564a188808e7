// Section 4's note on the article's numbers. Article 004 divides QK^T by
// "sqrt(2) ≈ 1.41", so its scaled matrix A is right to that rounding only.
// Both ways are computed by the engine from the article's embeddings (the
// scale given as 1/1.41, and the default 1/sqrt(d)) and set side by side as
// the article prints them, to two decimals: the entries that differ, grouped
// by their score. Plain module, no DOM (tested in Node).
import { formatNumber, formatTrimmed } from '../../lib/format.js';
import { DEFAULT_EMBEDDINGS } from './state.js';

const DIGITS = 2;   // the article prints A to two decimals

// { divisor: 1.41, total: n*n, groups: [{ score, cells, article, exact }] }: for each
// score whose two scaled values show differently, how many entries hold it and both values.
export function articleRounding(engine, embeddings = DEFAULT_EMBEDDINGS) {
  const n = embeddings.length;
  const d = embeddings[0].length;
  const x = Float32Array.from(embeddings.flat());
  const call = { q: x, k: x, v: x, n, m: n, dk: d, dv: d };
  const divisor = Number(Math.sqrt(d).toFixed(DIGITS));
  const exact = engine.attention(call);
  const article = engine.attention({ ...call, scale: 1 / divisor });
  const groups = new Map();
  exact.scores.forEach((score, i) => {
    if (formatNumber(article.scaled[i], DIGITS) === formatNumber(exact.scaled[i], DIGITS)) return;
    const group = groups.get(score) ?? { score, cells: 0, article: article.scaled[i], exact: exact.scaled[i] };
    group.cells += 1;
    groups.set(score, group);
  });
  return { divisor, d, total: n * n, groups: [...groups.values()] };
}

// The note's first paragraph, in the language of `t`, from articleRounding's result.
export function articleRoundingText(t, { divisor, d, total, groups }) {
  const differences = groups.map((g) => t('articleNote.difference', {
    score: formatTrimmed(g.score), cells: g.cells, total, divisor: formatNumber(divisor, DIGITS),
    articleFull: formatNumber(g.article, 4), article: formatNumber(g.article, DIGITS),
    exactFull: formatNumber(g.exact, 4), exact: formatNumber(g.exact, DIGITS),
  }));
  const params = { divisor: formatNumber(divisor, DIGITS), d, total, count: groups.reduce((a, g) => a + g.cells, 0) };
  return groups.length === 0 ? t('articleNote.scaledSame', params)
    : t('articleNote.scaledDiffers', { ...params, differences: differences.join(' ') });
}

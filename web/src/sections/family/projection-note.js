// Section 8, the note under the cards: scaled dot-product with projections is
// Luong's general score with W_a = W_Q W_K^T / sqrt(d_k) (./projections.js).
// The identity as a formula, W_a as a table, and what was computed for this
// seed: the largest difference between the two score matrices, and W_a's
// rank from its elimination's pivots. Updated with the seed.
import { h, html, setHTML } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { matrixTable } from '../../components/matrix-table.js';
import { formatNumber, formatScientific } from '../../lib/format.js';
import formulas from './formulas.tex.js';
import { identityHolds } from './projections.js';

export function projectionNote(t, { d }) {
  const columns = Array.from({ length: d }, (_, c) => String(c + 1));
  const table = matrixTable({ rows: d, cols: d, digits: 3, colLabels: columns, rowLabels: columns, caption: t('projection.table') });
  const result = h('p', { class: 'fa-projection-result' });
  const el = h('div', { class: 'fa-projection', id: 'family-projection' },
    html('p', { class: 'fa-projection-title' }, t('projection.title')),
    html('p', {}, t('projection.intro')),
    formula(formulas.projection).el,
    table.el,
    result);
  return {
    el,
    // p: projectionIdentity's result for the current seed.
    update(p) {
      table.update(p.wa);
      setHTML(result, t(identityHolds(p) ? 'projection.result' : 'projection.resultNot', {
        d: p.d, dk: p.dk, n: p.n, m: p.m,
        difference: formatScientific(p.difference), largest: formatNumber(p.largestScore, 3),
        rank: p.rank, pivots: p.pivots.map((x) => formatNumber(x, 3)).join(', '), residue: formatScientific(p.residue),
      }));
      Object.assign(el.dataset, { rank: String(p.rank), difference: String(p.difference) });
    },
  };
}

// Section 6, the cost: the FLOP count of one layer for every h (the same
// attention cost whatever h), the current h marked.
import { h, html, setHTML } from '../../lib/dom.js';
import { formula } from '../../components/formula.js';
import { formatInteger } from '../../lib/format.js';
import { D_MODEL, N_TOKENS } from './state.js';
import formulas from './formulas.tex.js';
// .matrix, .matrix-scroll: no matrix component here brings the sheet in.
import '../../components/matrix.css';

const COLUMNS = ['h', 'dk', 'scores', 'mix', 'attention', 'projections', 'exps'];

export function costPanel(model, { t, lang }) {
  // The table does not depend on the projections: built once, then the current row marked.
  const body = h('tbody', {}, model.result.flopTable.map((f) => h('tr', { dataset: { heads: String(f.heads) } },
    h('th', { scope: 'row', text: String(f.heads) }),
    ...[f.dk, f.scores, f.mix, f.attention, f.projections, f.softmaxExps].map((x) => h('td', { class: 'num', text: formatInteger(x, lang) })))));
  const note = h('p', { class: 'mh-cost-note' });
  return {
    el: h('div', {},
      html('h3', { class: 'mh-subtitle' }, t('cost.title')),
      html('p', {}, t('cost.text')),
      formula(formulas.cost).el,
      h('div', { class: 'matrix-scroll is-wide' }, h('table', { class: 'matrix mh-cost-table' },
        html('caption', {}, t('cost.caption')),
        h('thead', {}, h('tr', {}, COLUMNS.map((col) => html('th', { scope: 'col' }, t(`cost.columns.${col}`))))),
        body)),
      note),
    update() {
      const r = model.result;
      for (const row of body.rows) {
        const current = row.dataset.heads === String(r.heads);
        row.classList.toggle('is-current', current);
        if (current) row.setAttribute('aria-current', 'true');
        else row.removeAttribute('aria-current');
      }
      setHTML(note, t('cost.note', {
        h: r.heads, attention: formatInteger(r.flops.attention, lang), n: N_TOKENS, d: D_MODEL,
        exps: formatInteger(r.flops.softmaxExps, lang),
      }));
    },
  };
}

// Section "family-trained", the variants side by side in a table: the steps
// each took to the target (or where it is while it trains), its accuracy on
// every held-out sentence, and how often its attention's largest weight sat on
// the reference's word over held-out sentences. Rebuilt for each new set of
// runs; its cells updated as they report.
import { h, html, setText } from '../../lib/dom.js';
import { AGREEMENT_EXAMPLES, MAX_STEPS, TARGET, variantName } from './state.js';
import { formatPercent } from '../../lib/format.js';

export function resultsTable({ t }) {
  const body = h('tbody');
  const el = h('div', { class: 'matrix-scroll' }, h('table', { class: 'matrix ft-results', id: 'family-trained-results' },
    html('caption', {}, t('results.caption', { target: formatPercent(TARGET, 0), examples: AGREEMENT_EXAMPLES })),
    h('thead', {}, h('tr', {},
      html('th', { scope: 'col' }, t('results.variant')),
      html('th', { scope: 'col' }, t('results.steps', { target: formatPercent(TARGET, 0) })),
      html('th', { scope: 'col' }, t('results.accuracy')),
      html('th', { scope: 'col' }, t('results.agreement')))),
    body));
  let rows = new Map();   // id -> { steps, accuracy, agreement, tr }

  return {
    el,
    reset(state) {
      rows = new Map();
      body.replaceChildren(...state.order.map((id, i) => {
        const cells = { steps: h('td', { class: 'num' }), accuracy: h('td', { class: 'num' }), agreement: h('td', { class: 'num' }) };
        const tr = h('tr', { dataset: { variant: id } },
          h('th', { scope: 'row' }, h('span', { class: `ft-swatch ft-series-${i + 1}`, 'aria-hidden': 'true' }), h('span', { text: variantName(t, state.runs[id].variant) })),
          cells.steps, cells.accuracy, cells.agreement);
        rows.set(id, { ...cells, tr });
        return tr;
      }));
    },
    draw(state) {
      for (const id of state.order) {
        const run = state.runs[id];
        const row = rows.get(id);
        if (!row) continue;
        const latest = run.points.at(-1);
        row.tr.dataset.status = run.status;
        if (run.status === 'waiting') {
          setText(row.steps, t('results.waiting'));
        } else if (run.status === 'done') {
          setText(row.steps, run.reachedAt === null ? t('results.notReached', { steps: MAX_STEPS }) : String(run.reachedAt));
        } else {
          setText(row.steps, t('results.training', { step: run.step, accuracy: latest ? formatPercent(latest.generatedAccuracy) : '\u2014' }));
        }
        setText(row.accuracy, run.final ? formatPercent(run.final.generatedAccuracy) : '\u2014');
        setText(row.agreement, run.agreement ? formatPercent(run.agreement.agreement) : '\u2014');
        if (run.final) {
          Object.assign(row.tr.dataset, {
            reached: run.reachedAt === null ? '' : String(run.reachedAt),
            accuracy: String(run.final.generatedAccuracy), agreement: String(run.agreement.agreement),
          });
        }
      }
    },
  };
}

// Section 3, why a token can look at its pair more than at itself: the
// selected token's dot products, norms and cosines (from the engine's logits
// L = X X^T), and the sentence that reads them.
import { h, html, setHTML } from '../../lib/dom.js';
import { mathLabel } from '../../components/math-label.js';
import { formatFull, formatNumber } from '../../lib/format.js';
import { TOKENS } from './state.js';

export function whyPanel(model, { t, labels }) {
  const n = TOKENS.length;
  const text = h('p', { class: 'rw-why-text' });
  const body = h('tbody');
  const table = h('table', { class: 'matrix rw-dot-table' },
    html('caption', {}, t('why.tableCaption')),
    h('thead', {}, h('tr', {}, h('td'), ...['dot', 'norm', 'cos', 'weight']
      .map((c) => h('th', { scope: 'col' }, mathLabel(t(`why.columns.${c}`), t(`why.columnsPlain.${c}`)))))),
    body);
  return {
    el: h('div', { class: 'panel rw-panel rw-why' }, text, h('div', { class: 'matrix-scroll is-wide' }, table)),
    update(params) {
      const { reading, gaze } = model;
      const i = gaze.i;
      const whyKey = gaze.prefersPair ? 'why.pair' : gaze.selfNorm >= gaze.pairNorm ? 'why.self' : 'why.selfAligned';
      setHTML(text, t(whyKey, {
        ...params,
        selfDot: formatNumber(gaze.selfDot, 3), pairDot: formatNumber(gaze.pairDot, 3),
        selfNorm: formatNumber(gaze.selfNorm, 3), pairNorm: formatNumber(gaze.pairNorm, 3),
        cos: formatNumber(gaze.cos, 3),
      }));
      body.replaceChildren(...TOKENS.map((_, j) => {
        const dot = reading.logits[i * n + j];
        const cos = dot / (reading.norms[i] * reading.norms[j]);
        return h('tr', { class: [j === i && 'is-self', j === gaze.pair && 'is-pair'] },
          h('th', { scope: 'row', html: `${TOKENS[i]} · ${labels[j]}` }),
          ...[dot, reading.norms[j], cos, gaze.row[j]].map((x) => h('td', { class: 'num', text: formatNumber(x, 3), title: formatFull(x) })));
      }));
    },
  };
}

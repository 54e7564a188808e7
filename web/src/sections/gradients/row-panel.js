// Section "gradients", one row: the weights of one query of the sweep's first
// trial at a chosen d_k, raw and scaled, and the softmax Jacobian of each,
// J = diag(p) - p p^T (engine.softmaxJacobian), as heatmaps with their trace
// and the size of the gradient that reaches that query. Computed at once on
// every change (a few small engine calls).
import { h, html, setText } from '../../lib/dom.js';
import { liveText } from '../../lib/live-text.js';
import { rangeSlider } from '../../components/range-slider.js';
import { choiceGroup } from '../../components/choice-group.js';
import { heatmap } from '../../components/heatmap.js';
import { weightColumns } from '../../components/weight-columns.js';
import { formatNumber, formatScientific } from '../../lib/format.js';
import { DIMENSIONS, SHAPE, rowSummary } from './state.js';

const KINDS = ['raw', 'scaled'];

export function rowPanel(model, { t, changed }) {
  const { m, n } = SHAPE;
  const keys = Array.from({ length: m }, (_, j) => `<i>k</i><sub>${j + 1}</sub>`);
  const dk = rangeSlider({
    label: t('row.controls.dk'), values: DIMENSIONS, value: model.settings.row.dk, format: String,
    onChange: (v) => { model.set('row', { dk: v }); update(); changed(); },
  });
  const query = choiceGroup({
    legend: t('row.controls.query'),
    options: Array.from({ length: n }, (_, i) => ({ value: i, label: String(i + 1) })),
    value: model.settings.row.query,
    onChange: (v) => { model.set('row', { query: v }); update(); changed(); },
  });
  query.el.classList.add('gr-query-choice');

  const sides = Object.fromEntries(KINDS.map((kind) => {
    const bars = weightColumns({ labels: keys, caption: t(`row.weights.${kind}`), tone: kind, digits: 3 });
    const map = heatmap({
      rows: m, cols: m, rowLabels: keys.map((_, i) => `<i>p</i><sub>${i + 1}</sub>`), colLabels: keys.map((_, j) => `<i>s</i><sub>${j + 1}</sub>`),
      // One colour scale for both rows: 1/4 is the largest |J_ij| any row can have (p_i = 1/2).
      rowRole: 'k', colRole: 'k', digits: 2, diverging: true, maxAbs: 0.25, compact: true,
      caption: t(`row.jacobian.${kind}`), tableSummary: t('table.show'),
    });
    const stats = liveText(h('p', { class: 'gr-stats' }));
    const el = h('div', { class: ['gr-half', `gr-${kind}`] }, bars.el, map.el, stats.el);
    return [kind, { bars, map, stats, el }];
  }));
  const summary = liveText(h('p', { class: 'gr-summary', 'aria-live': 'polite' }));
  // An alert only while there is an error (an empty alert is still one to assistive technology).
  const error = h('p', { class: 'input-error', hidden: true });

  const el = h('div', { class: 'panel gr-panel', id: 'gradients-row' },
    h('p', { class: 'panel-title', html: t('row.title') }),
    html('p', { class: 'gr-intro' }, t('row.intro')),
    h('div', { class: 'controls-row gr-controls' }, dk.el, query.el),
    h('div', { class: 'gr-pair' }, KINDS.map((kind) => sides[kind].el)),
    summary.el, error);

  function update() {
    const row = model.result;
    error.hidden = !model.error;
    if (model.error) error.setAttribute('role', 'alert');
    else error.removeAttribute('role');
    setText(error, model.error ?? '');
    if (!row) return;
    for (const kind of KINDS) {
      const side = row[kind];
      sides[kind].bars.update(side.weights, { summary: t('row.barsLabel', { values: side.weights.map((w) => formatNumber(w, 3)).join(', ') }) });
      sides[kind].map.update(side.jacobian);
      sides[kind].stats.set(t('row.stats'), {
        max: formatNumber(side.maxWeight, 4), trace: formatScientific(side.trace, 2), largest: formatScientific(side.largest, 2),
        gradient: formatScientific(side.gradient, 2),
      });
    }
    const { key, params } = rowSummary(row);
    const shown = { dk: String, query: String, max: (x) => formatNumber(x, 4), smax: (x) => formatNumber(x, 3), traceRatio: (x) => formatNumber(x, x >= 100 ? 0 : 1), gradientRatio: (x) => formatNumber(x, x >= 100 ? 0 : 1) };
    summary.set(t(key), Object.fromEntries(Object.entries(params).map(([name, x]) => [name, (shown[name] ?? ((v) => formatScientific(v, 2)))(x)])));
    el.dataset.dk = String(row.dk);
    el.dataset.query = String(row.query + 1);
  }

  return { el, update };
}

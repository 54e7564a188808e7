// Section 2, experiment 1: one query and ten keys (article 000's d_k = 512),
// the softmax of the raw and of the scaled scores side by side. Computed on the
// main thread (well under a millisecond) whenever d_k or the seed changes.
import { h, html, setHTML } from '../../lib/dom.js';
import { rangeSlider } from '../../components/range-slider.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { weightColumns } from '../../components/weight-columns.js';
import { mathLabel } from '../../components/math-label.js';
import { formatFull, formatNumber, subscript } from '../../lib/format.js';
import { DIMENSIONS } from './state.js';
import { argmax, extent } from './format.js';
import { experimentTiming } from './experiment-timing.js';

export function tenKeysPanel(model, { t, changed, timingContext }) {
  const e1 = model.settings.tenKeys;
  const keyLabels = Array.from({ length: e1.keys }, (_, j) => `<i>k</i><sub>${j + 1}</sub>`);
  const rawColumns = weightColumns({ labels: keyLabels, tone: 'raw', caption: t('tenKeys.rawCaption') });
  const scaledColumns = weightColumns({ labels: keyLabels, tone: 'scaled', caption: '' });
  const rawStats = h('p', { class: 'sc-stats' });
  const scaledStats = h('p', { class: 'sc-stats' });
  const summary = h('p', { class: 'sc-summary', 'aria-live': 'polite' });
  const tableBody = h('tbody');
  const timing = experimentTiming('tenKeys', timingContext);
  const dk = rangeSlider({
    label: t('controls.dk'), values: DIMENSIONS, value: e1.dk, format: String,
    onInput: (value) => { model.set('tenKeys', { dk: value }); show(); changed(); },
  });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: e1.seed,
    onChange: (value) => { model.set('tenKeys', { seed: value }); show(); changed(); },
  });
  seed.button.dataset.action = 'rerun';

  const el = h('div', { class: 'panel sc-panel', id: 'scaling-ten-keys', dataset: { experiment: 'tenKeys' } },
    h('p', { class: 'panel-title', html: t('tenKeys.title') }),
    html('p', { class: 'sc-intro' }, t('tenKeys.intro')),
    h('div', { class: 'controls-row sc-controls' }, dk.el, seed.el),
    h('div', { class: 'sc-pair' },
      h('div', { class: 'sc-half sc-raw' }, rawColumns.el, rawStats),
      h('div', { class: 'sc-half sc-scaled' }, scaledColumns.el, scaledStats)),
    summary,
    h('details', { class: 'table-alt' },
      html('summary', {}, t('tenKeys.tableSummary')),
      h('div', { class: 'matrix-scroll' },
        h('table', { class: 'matrix sc-table' },
          html('caption', { class: 'visually-hidden' }, t('tenKeys.tableCaption')),
          h('thead', {}, h('tr', {}, ['key', 'score', 'scaledScore', 'rawWeight', 'scaledWeight']
            .map((c) => h('th', { scope: 'col' }, mathLabel(t(`tenKeys.columns.${c}`), t(`tenKeys.columnsPlain.${c}`)))))),
          tableBody))),
    timing.el);

  const statsLine = (stats) => t('stats', {
    max: formatNumber(stats.maxWeight, 3),
    entropy: formatNumber(stats.entropy, 3),
    gradient: formatNumber(stats.jacobianTrace, 3),
  });

  function show() {
    const r = model.results.tenKeys;
    const divisor = formatNumber(1 / r.scale, 2);
    scaledColumns.setCaption(t('tenKeys.scaledCaption', { divisor }));
    const values = (ws) => ws.map((w) => formatNumber(w, 3)).join(', ');
    rawColumns.update(r.raw.weights, { summary: t('tenKeys.barsRaw', { values: values(r.raw.weights) }) });
    scaledColumns.update(r.scaled.weights, { summary: t('tenKeys.barsScaled', { values: values(r.scaled.weights) }) });
    setHTML(rawStats, statsLine(r.raw.stats));
    setHTML(scaledStats, statsLine(r.scaled.stats));
    const [lo, hi] = extent(r.scores);
    const [slo, shi] = extent(r.scaledScores);
    const top = argmax(r.raw.weights);
    // 'almost one-hot' only when it is (a small d_k does not saturate).
    setHTML(summary, t(top.value > 0.9 ? 'tenKeys.summary' : 'tenKeys.summaryMild', {
      dk: r.dk, min: formatNumber(lo, 1), max: formatNumber(hi, 1), key: `k${subscript(top.index + 1)}`,
      top: formatNumber(top.value, 3), divisor, smin: formatNumber(slo, 2), smax: formatNumber(shi, 2),
      stop: formatNumber(r.scaled.stats.maxWeight, 3),
    }));
    tableBody.replaceChildren(...r.scores.map((s, j) => h('tr', {},
      h('th', { scope: 'row', class: 'role-text-k', html: keyLabels[j] }),
      ...[s, r.scaledScores[j], r.raw.weights[j], r.scaled.weights[j]].map((x) => h('td', { class: 'num', text: formatFull(x) })))));
    timing.update(r);
    el.dataset.run = String(Number(el.dataset.run ?? 0) + 1);
  }

  return { el, show };
}

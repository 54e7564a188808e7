// Section 2, experiment 3: the sweep over d = 4 ... 1024 (article 003): logit
// spread, largest weight, entropy and sum p(1 - p), raw against scaled, as four
// plots and a table. Runs in the background workers, split over them by d.
import { h, html, setHTML } from '../../lib/dom.js';
import { rangeSlider } from '../../components/range-slider.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { lineChart } from '../../components/line-chart.js';
import { mathLabel } from '../../components/math-label.js';
import { formatFull, formatNumber, formatInteger } from '../../lib/format.js';
import { SWEEP_TRIAL_COUNTS, gradientRatio, scaledLogitStd } from './state.js';
import { extent, sweepSeries, sweepTableRows } from './format.js';
import { experimentTiming } from './experiment-timing.js';
import { sweepIntro } from './intros.js';
import { liveText } from '../../lib/live-text.js';

const RAW = { color: 'var(--c-raw)', marker: 'circle' };
const SCALED = { color: 'var(--c-scaled)', marker: 'square', dash: '6 3' };
const STATS = ['logitStd', 'maxWeight', 'entropy', 'gradient'];
const TABLE_ID = 'scaling-sweep-table';

export function sweepPanel(model, { t, lang, changed, rerun, timingContext }) {
  const e3 = model.settings.sweep;
  const fmtInt = (x) => formatInteger(x, lang);
  const head = h('thead', {},
    h('tr', {}, h('td', { rowspan: '2' }),
      ...STATS.map((stat) =>
        h('th', { scope: 'colgroup', colspan: '2', class: 'sc-group' }, mathLabel(t(`sweep.stats.${stat}`), t(`sweep.statsPlain.${stat}`))))),
    h('tr', {}, ...STATS.flatMap(() => [
      html('th', { scope: 'col', class: 'sc-head-raw' }, t('columns.rawShort')),
      h('th', { scope: 'col', class: 'sc-head-scaled' }, mathLabel(t('columns.scaledShort'), t('columns.scaledPlain')))])));
  const body = h('tbody');
  const caption = h('caption');
  const timing = experimentTiming('sweep', timingContext);
  const summary = h('p', { class: 'sc-summary sc-result', 'aria-live': 'polite' });
  const uniform = h('p', { class: 'sc-uniform' });
  const intro = liveText(h('p', { class: 'sc-intro' }));
  const showIntro = () => intro.set(t('sweep.intro'), sweepIntro(model.settings.sweep, lang));
  const set = (changes) => { model.set('sweep', changes); showIntro(); run(); changed(); };
  const trials = rangeSlider({ label: t('controls.trials'), values: SWEEP_TRIAL_COUNTS, value: e3.trials, format: fmtInt, onChange: (v) => set({ trials: v }) });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }), label: t('controls.seed'), newLabel: t('controls.newSeed'), value: e3.seed, onChange: (v) => set({ seed: v }) });
  seed.button.dataset.action = 'rerun';

  const [dmin, dmax] = [e3.dims[0] / 1.5, e3.dims[e3.dims.length - 1] * 1.5];
  const xAxis = { label: t('sweep.xLabel'), scale: 'log', ticks: e3.dims, format: String, domain: [dmin, dmax] };
  const plotSpecs = {
    logitStd: { scale: 'log', format: (v) => formatNumber(v, v < 1 ? 1 : 0) },
    maxWeight: { scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] },
    entropy: { scale: 'linear', min: 0, format: (v) => formatNumber(v, 1) },
    gradient: { scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] },
  };
  const plots = {};
  for (const [stat, y] of Object.entries(plotSpecs)) {
    plots[stat] = lineChart({
      title: t(`sweep.plots.${stat}.title`),
      description: t('sweep.plotDescription'),
      caption: t(`sweep.stats.${stat}`),
      x: xAxis,
      y: { ...y, label: '' },
      height: 190,
      series: [
        { id: 'raw', label: t('columns.raw'), plainLabel: t('columns.rawPlain'), ...RAW },
        { id: 'scaled', label: t('sweep.scaledLegend'), plainLabel: t('columns.scaledPlain'), ...SCALED },
      ],
      table: false,
      className: 'sc-plot',
    });
    plots[stat].el.querySelector('svg').setAttribute('aria-describedby', TABLE_ID);
  }

  const el = h('div', { class: 'panel sc-panel', id: 'scaling-sweep', dataset: { experiment: 'sweep' } },
    h('p', { class: 'panel-title', html: t('sweep.title') }),
    intro.el,
    h('div', { class: 'controls-row sc-controls' }, trials.el, seed.el),
    uniform,
    h('div', { class: 'sc-plots sc-result' }, Object.values(plots).map((p) => p.el)),
    summary,
    h('div', { class: 'matrix-scroll is-wide sc-result' }, h('table', { class: 'matrix sc-table sc-sweep-table', id: TABLE_ID }, caption, head, body)),
    timing.el);

  function showTable(r) {
    body.replaceChildren(...sweepTableRows(r).map((cells, i) => {
      const row = r.rows[i];
      const full = [row.logitStd, scaledLogitStd(row), row.maxWeight.raw, row.maxWeight.scaled,
        row.entropy.raw, row.entropy.scaled, row.gradient.raw, row.gradient.scaled];
      return h('tr', {},
        h('th', { scope: 'row', text: cells[0] }),
        ...cells.slice(1).map((text, c) =>
          h('td', { class: ['num', c % 2 === 0 ? 'sc-cell-raw' : 'sc-cell-scaled'], text, title: formatFull(full[c]) })));
    }));
  }

  function showPlots(r) {
    const series = sweepSeries(r);
    const line = (value) => [[dmin, value], [dmax, value]];
    const refLabel = (key, value) => t(`sweep.references.${key}`, { value: formatNumber(value, 3) });
    plots.logitStd.update({
      series: series.logitStd,
      references: [{ label: t('sweep.references.sqrtD'), points: r.rows.map((row) => [row.dk, Math.sqrt(row.dk)]) }],
    });
    plots.maxWeight.update({ series: series.maxWeight, references: [{ label: refLabel('uniformMax', 1 / r.keys), points: line(1 / r.keys) }] });
    plots.entropy.update({
      series: series.entropy,
      references: [{ label: refLabel('uniformEntropy', r.uniform.entropy), points: line(r.uniform.entropy) }],
      yDomain: [0, r.uniform.entropy * 1.08],
    });
    plots.gradient.update({ series: series.gradient, references: [{ label: refLabel('uniformGradient', r.uniform.jacobianTrace), points: line(r.uniform.jacobianTrace) }] });
  }

  function show() {
    const r = model.results.sweep;
    setHTML(caption, t('sweep.caption', { trials: fmtInt(r.trials), seed: r.seed, n: r.queries, m: r.keys }));
    setHTML(uniform, t('sweep.uniform', {
      m: r.keys, entropy: formatNumber(r.uniform.entropy, 3), gradient: formatNumber(r.uniform.jacobianTrace, 3),
    }));
    showTable(r);
    showPlots(r);
    const first = r.rows[0];
    const last = r.rows[r.rows.length - 1];
    const [smin, smax] = extent(r.rows.map((row) => row.maxWeight.scaled));
    setHTML(summary, t('sweep.summary', {
      d1: first.dk, dN: last.dk, std1: formatNumber(first.logitStd, 2), stdN: formatNumber(last.logitStd, 2),
      maxN: formatNumber(last.maxWeight.raw, 3), entN: formatNumber(last.entropy.raw, 3),
      uniform: formatNumber(r.uniform.entropy, 3), smin: formatNumber(smin, 3), smax: formatNumber(smax, 3),
      gradN: formatNumber(last.gradient.raw, 4), sgradN: formatNumber(last.gradient.scaled, 4),
      ratio: formatNumber(gradientRatio(r), 1),
    }));
    timing.update(r);
  }
  const run = () => rerun('sweep', el, show);

  showIntro();
  return {
    el,
    show: () => (model.results.sweep ? show() : run()),
    destroy() { Object.values(plots).forEach((p) => p.destroy()); },
  };
}

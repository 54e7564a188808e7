// Section 2 view: why the scores are divided by sqrt(d_k). The variance
// argument as formulas, then three experiments that the engine runs from a
// seed, each raw against scaled and each rerunnable. State: ./state.js.
import { h, html, setHTML, setText } from '../../components/dom.js';
import { formula } from '../../components/formula.js';
import { rangeSlider } from '../../components/range-slider.js';
import { seedControl } from '../../components/seed-control.js';
import { weightColumns } from '../../components/weight-columns.js';
import { weightBar } from '../../components/weight-bar.js';
import { lineChart } from '../../components/line-chart.js';
import { mathLabel } from '../../components/math-label.js';
import { formatFull, formatNumber, subscript } from '../../lib/format.js';
import {
  DIMENSIONS, TRIAL_COUNTS, SWEEP_TRIAL_COUNTS, createScaling, gradientRatio, scaledLogitStd,
} from './state.js';
import { argmax, extent, formatMs, formatShare, sweepSeries, sweepTableRows } from './format.js';
import { createExperimentPool } from './experiment-pool.js';
import params, { cloneSettings } from './params.js';
import formulas from './formulas.tex.js';
import '../../components/matrix.css';
import './scaling.css';

export default { mount, params };

// One pool of background workers per page, shared by every mount (a language
// switch mounts the section again).
let pool = null;
function experimentPool(engine) {
  pool ??= createExperimentPool({
    engine,
    size: 2,
    createWorker: () => new Worker(new URL('./experiment-worker.js', import.meta.url), { type: 'module' }),
  });
  return pool;
}

const RAW = { color: 'var(--c-raw)', marker: 'circle' };
const SCALED = { color: 'var(--c-scaled)', marker: 'square', dash: '6 3' };
const integer = (lang) => (x) => x.toLocaleString(lang === 'ko' ? 'ko-KR' : 'en-US');

function mount(root, { engine, t, lang, store, initial, onChange }) {
  const model = (store.model ??= createScaling(engine, initial ?? params.defaults()));
  // The host keeps links and widget attributes in step with the settings.
  const changed = () => onChange?.(cloneSettings(model.settings));
  const fmtInt = integer(lang);
  const buildName = (build) => t(build === 'simd' ? 'timing.simd' : 'timing.baseline');
  root.classList.add('sc-root');
  const charts = [];

  // Experiments 2 and 3 run in the background; a newer request wins.
  const pools = experimentPool(engine);
  const requests = { trials: 0, sweep: 0 };
  let destroyed = false;
  async function rerun(name, panel, show) {
    const mine = ++requests[name];
    panel.setAttribute('aria-busy', 'true');
    panel.classList.add('is-running');
    try {
      const result = await pools.run(name, { ...model.settings[name] });
      if (destroyed || mine !== requests[name]) return;
      model.results[name] = result;
      show();
      panel.dataset.run = String(Number(panel.dataset.run ?? 0) + 1);
    } catch (err) {
      console.error(err);
    } finally {
      if (!destroyed && mine === requests[name]) {
        panel.removeAttribute('aria-busy');
        panel.classList.remove('is-running');
      }
    }
  }

  // A panel footer: how long the reader waited (data-ms) and the engine took
  // (data-engine-ms), with the seed: kept in data attributes for the tests.
  function timing(name) {
    const el = h('p', { class: 'sc-timing', dataset: { experiment: name }, text: t('timing.running') });
    return {
      el,
      update(result) {
        const ms = result.wallMs ?? result.ms;
        el.dataset.ms = String(ms);
        el.dataset.engineMs = String(result.ms);
        el.dataset.seed = String(result.seed);
        const background = result.wallMs !== undefined && pools.inBackground;
        const build = result.build ?? engine.build;
        el.dataset.build = build;
        const why = build !== engine.build && build === 'baseline' ? ` ${t('timing.whyBaseline')}` : '';
        setText(el, t(background ? 'timing.background' : 'timing.line', { ms: formatMs(ms), build: buildName(build) }) + why);
      },
    };
  }

  // ---- Experiment 1: one query, ten keys --------------------------------------
  const e1 = model.settings.tenKeys;
  const keyLabels = Array.from({ length: e1.keys }, (_, j) => `<i>k</i><sub>${j + 1}</sub>`);
  const rawColumns = weightColumns({ labels: keyLabels, tone: 'raw', caption: t('tenKeys.rawCaption') });
  const scaledColumns = weightColumns({ labels: keyLabels, tone: 'scaled', caption: '' });
  const rawStats = h('p', { class: 'sc-stats' });
  const scaledStats = h('p', { class: 'sc-stats' });
  const e1Summary = h('p', { class: 'sc-summary', 'aria-live': 'polite' });
  const e1Table = h('tbody');
  const e1Timing = timing('tenKeys');
  const e1Dk = rangeSlider({
    label: t('controls.dk'), values: DIMENSIONS, value: e1.dk, format: String,
    onInput: (dk) => { model.set('tenKeys', { dk }); showTenKeys(); changed(); },
  });
  const e1Seed = seedControl({
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: e1.seed,
    onChange: (seed) => { model.set('tenKeys', { seed }); showTenKeys(); changed(); },
  });
  e1Seed.button.dataset.action = 'rerun';

  const experiment1 = h('div', { class: 'panel sc-panel', id: 'scaling-ten-keys', dataset: { experiment: 'tenKeys' } },
    h('p', { class: 'panel-title', html: t('tenKeys.title') }),
    html('p', { class: 'sc-intro' }, t('tenKeys.intro')),
    h('div', { class: 'controls-row sc-controls' }, e1Dk.el, e1Seed.el),
    h('div', { class: 'sc-pair' },
      h('div', { class: 'sc-half sc-raw' }, rawColumns.el, rawStats),
      h('div', { class: 'sc-half sc-scaled' }, scaledColumns.el, scaledStats)),
    e1Summary,
    h('details', { class: 'table-alt' },
      html('summary', {}, t('tenKeys.tableSummary')),
      h('div', { class: 'matrix-scroll' },
        h('table', { class: 'matrix sc-table' },
          html('caption', { class: 'visually-hidden' }, t('tenKeys.tableCaption')),
          h('thead', {}, h('tr', {}, ['key', 'score', 'scaledScore', 'rawWeight', 'scaledWeight']
            .map((c) => h('th', { scope: 'col' }, mathLabel(t(`tenKeys.columns.${c}`), t(`tenKeys.columnsPlain.${c}`)))))),
          e1Table))),
    e1Timing.el);

  function statsLine(stats) {
    return t('stats', {
      max: formatNumber(stats.maxWeight, 3),
      entropy: formatNumber(stats.entropy, 3),
      gradient: formatNumber(stats.jacobianTrace, 3),
    });
  }

  function showTenKeys() {
    const r = model.results.tenKeys ?? model.run('tenKeys');
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
    setHTML(e1Summary, t(top.value > 0.9 ? 'tenKeys.summary' : 'tenKeys.summaryMild', {
      dk: r.dk, min: formatNumber(lo, 1), max: formatNumber(hi, 1), key: `k${subscript(top.index + 1)}`,
      top: formatNumber(top.value, 3), divisor, smin: formatNumber(slo, 2), smax: formatNumber(shi, 2),
      stop: formatNumber(r.scaled.stats.maxWeight, 3),
    }));
    e1Table.replaceChildren(...r.scores.map((s, j) => h('tr', {},
      h('th', { scope: 'row', class: 'role-text-k', html: keyLabels[j] }),
      ...[s, r.scaledScores[j], r.raw.weights[j], r.scaled.weights[j]].map((x) => h('td', { class: 'num', text: formatFull(x) })))));
    e1Timing.update(r);
    experiment1.dataset.run = String(Number(experiment1.dataset.run ?? 0) + 1);
  }

  // ---- Experiment 2: many trials ----------------------------------------------
  const e2 = model.settings.trials;
  const e2Rows = ['maxWeight', 'saturatedShare', 'gradient', 'entropy'];
  const e2Cells = {};
  const e2Body = h('tbody', {}, e2Rows.map((stat) => {
    const cells = ['raw', 'scaled'].map((kind) => {
      const value = h('span', { class: 'sc-cell-value' });
      const bar = weightBar({ role: kind });
      return { td: h('td', { class: `num sc-cell sc-cell-${kind}` }, value, bar.el), value, bar };
    });
    e2Cells[stat] = cells;
    return h('tr', {}, html('th', { scope: 'row' }, t(`trials.rows.${stat}`)), cells.map((c) => c.td));
  }));
  const e2Caption = h('caption');
  const e2Timing = timing('trials');
  const e2Dk = rangeSlider({
    label: t('controls.dk'), values: DIMENSIONS, value: e2.dk, format: String,
    onChange: (dk) => { Object.assign(model.settings.trials, { dk }); rerun('trials', experiment2, showTrials); changed(); },
  });
  const e2Trials = rangeSlider({
    label: t('controls.trials'), values: TRIAL_COUNTS, value: e2.trials, format: fmtInt,
    onChange: (trials) => { Object.assign(model.settings.trials, { trials }); rerun('trials', experiment2, showTrials); changed(); },
  });
  const e2Seed = seedControl({
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: e2.seed,
    onChange: (seed) => { Object.assign(model.settings.trials, { seed }); rerun('trials', experiment2, showTrials); changed(); },
  });
  e2Seed.button.dataset.action = 'rerun';
  const e2Summary = h('p', { class: 'sc-summary sc-result', 'aria-live': 'polite' });

  const experiment2 = h('div', { class: 'panel sc-panel', id: 'scaling-trials', dataset: { experiment: 'trials' } },
    h('p', { class: 'panel-title', html: t('trials.title') }),
    html('p', { class: 'sc-intro' }, t('trials.intro')),
    h('div', { class: 'controls-row sc-controls' }, e2Dk.el, e2Trials.el, e2Seed.el),
    h('div', { class: 'matrix-scroll sc-result' },
      h('table', { class: 'matrix sc-table sc-trials-table' }, e2Caption,
        h('thead', {}, h('tr', {}, h('td'),
          html('th', { scope: 'col', class: 'sc-head-raw' }, t('columns.raw')),
          html('th', { scope: 'col', class: 'sc-head-scaled' }, t('columns.scaled')))),
        e2Body)),
    e2Summary,
    html('p', { class: 'sc-cite' }, t('trials.cite')),
    e2Timing.el);

  function showTrials() {
    const r = model.results.trials;
    setHTML(e2Caption, t('trials.caption', { dk: r.dk, keys: r.keys, trials: fmtInt(r.trials), seed: r.seed }));
    const shown = {
      maxWeight: (x) => formatNumber(x, 3),
      saturatedShare: (x) => formatShare(x),
      gradient: (x) => formatNumber(x, 3),
      entropy: (x) => formatNumber(x, 3),
    };
    const barOf = { maxWeight: (x) => x, saturatedShare: (x) => x, gradient: (x) => x, entropy: (x) => x / Math.log(r.keys) };
    for (const stat of e2Rows) {
      ['raw', 'scaled'].forEach((kind, i) => {
        const x = r[stat][kind];
        const cell = e2Cells[stat][i];
        setText(cell.value, shown[stat](x));
        cell.td.title = formatFull(x);
        cell.bar.update(barOf[stat](x));
      });
    }
    setHTML(e2Summary, t('trials.summary', {
      share: formatShare(r.saturatedShare.raw), ratio: formatNumber(r.gradient.scaled / r.gradient.raw, 1),
    }));
    e2Timing.update(r);
  }

  // ---- Experiment 3: the sweep over d ---------------------------------------
  const e3 = model.settings.sweep;
  const e3Head = h('thead', {},
    h('tr', {}, h('td', { rowspan: '2' }),
      ...['logitStd', 'maxWeight', 'entropy', 'gradient'].map((stat) =>
        h('th', { scope: 'colgroup', colspan: '2', class: 'sc-group' }, mathLabel(t(`sweep.stats.${stat}`), t(`sweep.statsPlain.${stat}`))))),
    h('tr', {}, ...['logitStd', 'maxWeight', 'entropy', 'gradient'].flatMap(() => [
      html('th', { scope: 'col', class: 'sc-head-raw' }, t('columns.rawShort')),
      h('th', { scope: 'col', class: 'sc-head-scaled' }, mathLabel(t('columns.scaledShort'), t('columns.scaledPlain')))])));
  const e3Body = h('tbody');
  const e3Caption = h('caption');
  const e3TableId = 'scaling-sweep-table';
  const e3Timing = timing('sweep');
  const e3Summary = h('p', { class: 'sc-summary sc-result', 'aria-live': 'polite' });
  const e3Uniform = h('p', { class: 'sc-uniform' });
  const e3Trials = rangeSlider({
    label: t('controls.trials'), values: SWEEP_TRIAL_COUNTS, value: e3.trials, format: fmtInt,
    onChange: (trials) => { Object.assign(model.settings.sweep, { trials }); rerun('sweep', experiment3, showSweep); changed(); },
  });
  const e3Seed = seedControl({
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: e3.seed,
    onChange: (seed) => { Object.assign(model.settings.sweep, { seed }); rerun('sweep', experiment3, showSweep); changed(); },
  });
  e3Seed.button.dataset.action = 'rerun';

  const xAxis = { label: t('sweep.xLabel'), scale: 'log', ticks: e3.dims, format: String, domain: [e3.dims[0] / 1.5, e3.dims[e3.dims.length - 1] * 1.5] };
  const plotSpecs = {
    logitStd: { y: { scale: 'log', format: (v) => formatNumber(v, v < 1 ? 1 : 0) } },
    maxWeight: { y: { scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] } },
    entropy: { y: { scale: 'linear', min: 0, format: (v) => formatNumber(v, 1) } },
    gradient: { y: { scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] } },
  };
  const plots = {};
  for (const [stat, spec] of Object.entries(plotSpecs)) {
    plots[stat] = lineChart({
      title: t(`sweep.plots.${stat}.title`),
      description: t('sweep.plotDescription'),
      caption: t(`sweep.stats.${stat}`),
      x: xAxis,
      y: { ...spec.y, label: '' },
      height: 190,
      series: [
        { id: 'raw', label: t('columns.raw'), plainLabel: t('columns.rawPlain'), ...RAW },
        { id: 'scaled', label: t('sweep.scaledLegend'), plainLabel: t('columns.scaledPlain'), ...SCALED },
      ],
      table: false,
      className: 'sc-plot',
    });
    plots[stat].el.querySelector('svg').setAttribute('aria-describedby', e3TableId);
    charts.push(plots[stat]);
  }

  const experiment3 = h('div', { class: 'panel sc-panel', id: 'scaling-sweep', dataset: { experiment: 'sweep' } },
    h('p', { class: 'panel-title', html: t('sweep.title') }),
    html('p', { class: 'sc-intro' }, t('sweep.intro')),
    h('div', { class: 'controls-row sc-controls' }, e3Trials.el, e3Seed.el),
    e3Uniform,
    h('div', { class: 'sc-plots sc-result' }, Object.values(plots).map((p) => p.el)),
    e3Summary,
    h('div', { class: 'matrix-scroll sc-result' }, h('table', { class: 'matrix sc-table sc-sweep-table', id: e3TableId }, e3Caption, e3Head, e3Body)),
    e3Timing.el);

  function showSweep() {
    const r = model.results.sweep;
    setHTML(e3Caption, t('sweep.caption', { trials: fmtInt(r.trials), seed: r.seed, n: r.queries, m: r.keys }));
    setHTML(e3Uniform, t('sweep.uniform', {
      m: r.keys, entropy: formatNumber(r.uniform.entropy, 3), gradient: formatNumber(r.uniform.jacobianTrace, 3),
    }));
    e3Body.replaceChildren(...sweepTableRows(r).map((cells, i) => h('tr', {},
      h('th', { scope: 'row', text: cells[0] }),
      ...cells.slice(1).map((text, c) => {
        const row = r.rows[i];
        const full = [row.logitStd, scaledLogitStd(row), row.maxWeight.raw, row.maxWeight.scaled,
          row.entropy.raw, row.entropy.scaled, row.gradient.raw, row.gradient.scaled][c];
        return h('td', { class: ['num', c % 2 === 0 ? 'sc-cell-raw' : 'sc-cell-scaled'], text, title: formatFull(full) });
      }))));
    const series = sweepSeries(r);
    const line = (value) => [[e3.dims[0] / 1.5, value], [e3.dims[e3.dims.length - 1] * 1.5, value]];
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
    const first = r.rows[0];
    const last = r.rows[r.rows.length - 1];
    const [smin, smax] = extent(r.rows.map((row) => row.maxWeight.scaled));
    setHTML(e3Summary, t('sweep.summary', {
      d1: first.dk, dN: last.dk, std1: formatNumber(first.logitStd, 2), stdN: formatNumber(last.logitStd, 2),
      maxN: formatNumber(last.maxWeight.raw, 3), entN: formatNumber(last.entropy.raw, 3),
      uniform: formatNumber(r.uniform.entropy, 3), smin: formatNumber(smin, 3), smax: formatNumber(smax, 3),
      gradN: formatNumber(last.gradient.raw, 4), sgradN: formatNumber(last.gradient.scaled, 4),
      ratio: formatNumber(gradientRatio(r), 1),
    }));
    e3Timing.update(r);
  }

  // ---- layout ----------------------------------------------------------------------
  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' },
      html('p', {}, t('argument.intro')),
      formula(formulas.mean).el,
      html('p', {}, t('argument.variance')),
      formula(formulas.variance).el,
      html('p', {}, t('argument.scaled')),
      formula(formulas.scaled).el,
      html('p', {}, t('argument.experiments'))),
    experiment1,
    experiment2,
    h('div', { class: 'prose' },
      html('h3', {}, t('gradient.title')),
      html('p', {}, t('gradient.text')),
      formula(formulas.jacobian).el,
      html('p', {}, t('gradient.entropy')),
      formula(formulas.entropy).el),
    experiment3,
    html('div', { class: 'prose' }, t('after')));

  // Experiment 1 takes well under a millisecond: it runs here, at once. The
  // two heavier ones run in the background (results kept across a language switch).
  showTenKeys();
  if (model.results.trials) showTrials(); else rerun('trials', experiment2, showTrials);
  if (model.results.sweep) showSweep(); else rerun('sweep', experiment3, showSweep);

  return {
    destroy() {
      destroyed = true;
      charts.forEach((c) => c.destroy());
    },
  };
}

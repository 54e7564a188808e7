// Section 10, the live benchmark: attention against n for the wasm SIMD build,
// the build without SIMD and plain JavaScript, run on request in a Web Worker
// (./bench-worker.js) with progress and a cancel button. The measured points
// and the run's status live in `state` (kept across a language switch).
import { h, html, setHTML, setText, uid } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { lineChart } from '../../components/line-chart.js';
import { formatNumber } from '../../lib/format.js';
import { D, LARGEST_CHOICES, SERIES, sizesUpTo, summaryParts } from './bench.js';

const STYLE = {
  simd: { color: 'var(--c-simd)', marker: 'circle' },
  simdTiled: { color: 'var(--c-simd)', marker: 'square', dash: '6 4' },
  baseline: { color: 'var(--c-baseline)', marker: 'diamond' },
  plainJs: { color: 'var(--c-js)', marker: 'triangle' },
};

// Milliseconds on a log axis: 0.01, 0.1, 1, 10, 100, 1,000.
const tickMs = (v) => (v >= 1 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(2))));
const formatMs = (ms) => (ms >= 100 ? formatNumber(ms, 0) : ms >= 10 ? formatNumber(ms, 1) : ms >= 1 ? formatNumber(ms, 2) : formatNumber(ms, 3));

export function benchPanel(state, { t, engine, xAxis, changed }) {
  let worker = null;
  const seriesLabel = (id) => t(`bench.series.${id}`);
  const largest = choiceGroup({
    legend: t('bench.largest'),
    options: LARGEST_CHOICES.map((n) => ({ value: n, label: n.toLocaleString('en-US') })),
    value: state.largest,
    onChange: (n) => { state.largest = n; showPlan(); changed({ largest: n }); },
  });
  largest.el.id = 'cost-largest';
  const runButton = button({ label: t('bench.run'), icon: '\u25b6', variant: 'primary', onClick: () => start() });
  runButton.el.dataset.action = 'run';
  const cancelButton = button({ label: t('bench.cancel'), icon: '\u25a0', onClick: () => cancel() });
  cancelButton.el.dataset.action = 'cancel';
  const planText = h('p', { class: 'co-plan' });
  const statusId = uid('bench-status');
  const progress = h('progress', { class: 'co-progress', max: '1', value: '0', 'aria-labelledby': statusId });
  const status = h('p', { class: 'co-status', id: statusId, role: 'status', 'aria-live': 'polite' });
  const summary = h('p', { class: 'co-summary', 'aria-live': 'polite' });
  const chart = lineChart({
    title: t('bench.chartTitle'),
    description: t('bench.chartDescription'),
    caption: t('bench.chartCaption'),
    x: xAxis,
    y: { label: t('bench.yLabel'), scale: 'log', format: tickMs, formatFull: (ms) => `${formatMs(ms)} ms`, emptyDomain: [0.01, 10000] },
    height: 300,
    series: SERIES.map((s) => ({ id: s.id, label: seriesLabel(s.id), plainLabel: seriesLabel(s.id), ...STYLE[s.id] })),
    table: { summary: t('table.show'), caption: t('bench.chartTitle'), xHeader: 'n' },
    className: 'co-chart',
  });

  const el = h('div', { class: 'panel co-panel', id: 'cost-bench', dataset: { state: state.status } },
    h('p', { class: 'panel-title', html: t('bench.title') }),
    html('p', { class: 'co-intro' }, t('bench.intro')),
    h('div', { class: 'co-controls' }, largest.el, h('div', { class: 'controls-row co-buttons' }, runButton.el, cancelButton.el)),
    planText,
    h('div', { class: 'co-progress-row' }, progress, status),
    chart.el,
    summary);

  function showPlan() {
    const sizes = sizesUpTo(state.largest);
    setHTML(planText, t('bench.plan', { sizes: sizes.map((n) => n.toLocaleString('en-US')).join(', '), d: D }));
  }

  function setStatus(next, text) {
    state.status = next;
    el.dataset.state = next;
    runButton.el.disabled = next === 'running';
    cancelButton.el.disabled = next !== 'running';
    largest.el.disabled = next === 'running';
    if (text !== undefined) setText(status, text);
  }

  // Each point: the median, with a bar over the middle half of the samples.
  function showResults() {
    const series = {};
    for (const s of SERIES) {
      series[s.id] = state.results.filter((r) => r.series === s.id && !r.skipped).map((r) => [r.n, r.ms, r.low ?? r.ms, r.high ?? r.ms]);
    }
    const anchor = series.simd.length ? series.simd : series.baseline;
    const references = [];
    if (anchor.length >= 1) {
      const [nMax, tMax] = anchor[anchor.length - 1];
      const ns = [...new Set(state.results.map((r) => r.n))].sort((a, b) => a - b);
      references.push({ label: t('bench.reference'), points: ns.map((n) => [n, tMax * (n / nMax) ** 2]) });
    }
    chart.update({ series, references });
    if (state.status === 'done') {
      const shown = {
        n: (n) => n.toLocaleString('en-US'), simd: formatMs, tiled: formatMs, baseline: formatMs, js: formatMs, fastest: (id) => t(`bench.series.${id}`),
      };
      const text = summaryParts(state.results).map(({ key, params }) => t(key, Object.fromEntries(Object.entries(params)
        .map(([name, x]) => [name, x === null ? '\u2014' : (shown[name] ?? ((v) => formatNumber(v, 1)))(x)]))));
      setHTML(summary, text.join(' '));
    } else if (state.status === 'idle') {
      setHTML(summary, t('bench.notRun'));
    }
  }

  function start() {
    if (worker) return;
    const sizes = sizesUpTo(state.largest);
    state.results = [];
    showResults();
    setText(summary, '');
    progress.value = 0;
    let w;
    try {
      w = new Worker(new URL('./bench-worker.js', import.meta.url), { type: 'module' });
    } catch {
      // No workers here (a page opened from disk): the benchmark would freeze
      // the page for seconds, so it is not run on the main thread.
      setStatus('error', t('bench.noWorker'));
      return;
    }
    setStatus('running', t('bench.starting'));
    worker = w;
    w.addEventListener('message', ({ data }) => {
      if (w !== worker) return;
      if (data.type === 'ready') {
        state.builds = data.builds;
      } else if (data.type === 'progress') {
        progress.value = data.total ? data.done / data.total : 0;
        if (data.n !== null) {
          setText(status, t('bench.measuring', {
            n: data.n.toLocaleString('en-US'), series: seriesLabel(data.series).replace(/<[^>]+>/g, ''),
            percent: Math.round((100 * data.done) / data.total),
          }));
        }
      } else if (data.type === 'result') {
        state.results.push(data.result);
        showResults();
      } else if (data.type === 'done') {
        finish('done', t('bench.done'));
      } else if (data.type === 'error') {
        finish('error', t('bench.failed', { message: data.message }));
      }
    });
    w.addEventListener('error', (event) => {
      event.preventDefault();
      if (w === worker) finish('error', t('bench.noWorker'));
    });
    w.postMessage({ sizes, d: D, seed: 1 });
  }

  function finish(next, text) {
    worker?.terminate();
    worker = null;
    if (next === 'done') progress.value = 1;
    setStatus(next, text);
    showResults();
  }

  function cancel() {
    if (!worker) return;
    finish('cancelled', t('bench.cancelled', { count: state.results.length }));
  }

  showPlan();
  const resumed = state.status === 'running' ? 'cancelled' : state.status;
  const statusText = { idle: t('bench.idle'), done: t('bench.done'), cancelled: t('bench.cancelled', { count: state.results.length }) };
  setStatus(resumed, statusText[resumed] ?? '');
  showResults();
  if (engine) el.dataset.engine = engine.build;

  return {
    el,
    destroy() {
      if (worker) finish('cancelled', '');
      chart.destroy();
    },
  };
}

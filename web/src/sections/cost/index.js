// Section 10 view: why attention costs O(n^2), with the complexity table of
// article 002 and a benchmark run live in the reader's browser, on request, in
// a Web Worker (./bench-worker.js) with progress and a cancel button; and the
// memory of the full score matrix against the tiled path, by shape.
import { h, html, setHTML, setText, uid } from '../../components/dom.js';
import '../../components/formula.css';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { lineChart } from '../../components/line-chart.js';
import { formatNumber } from '../../lib/format.js';
import { D, DEFAULT_LARGEST, LARGEST_CHOICES, SERIES, SIZES, growth, sizesUpTo } from './bench.js';
import { formatBytes, memoryOf } from './memory.js';
import params from './params.js';
import '../../components/matrix.css';
import './cost.css';

export default { mount, params };

const SERIES_STYLE = {
  simd: { color: 'var(--c-simd)', marker: 'circle' },
  simdTiled: { color: 'var(--c-simd)', marker: 'square', dash: '6 4' },
  baseline: { color: 'var(--c-baseline)', marker: 'diamond' },
  plainJs: { color: 'var(--c-js)', marker: 'triangle' },
};
const MEMORY_STYLE = {
  trace: { color: 'var(--c-js)', marker: 'triangle' },
  scoreMatrix: { color: 'var(--c-simd)', marker: 'circle' },
  tiled: { color: 'var(--c-baseline)', marker: 'square', dash: '6 4' },
};

// n from 64 to 4096 on a log axis, with a margin either side.
const X_AXIS = (t) => ({
  label: t('bench.xLabel'), scale: 'log', ticks: SIZES, format: (n) => n.toLocaleString('en-US'),
  domain: [SIZES[0] / 1.4, SIZES[SIZES.length - 1] * 1.4],
});
// Bytes on a log axis, every factor of 4: 16 KiB, 64 KiB, ..., 256 MiB.
const BYTE_TICKS = Array.from({ length: 8 }, (_, i) => 2 ** (14 + 2 * i));

// Milliseconds on a log axis: 0.01, 0.1, 1, 10, 100, 1,000.
const tickMs = (v) => (v >= 1 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(2))));
const formatMs = (ms) => (ms >= 100 ? formatNumber(ms, 0) : ms >= 10 ? formatNumber(ms, 1) : ms >= 1 ? formatNumber(ms, 2) : formatNumber(ms, 3));

function mount(root, { engine, t, store, initial, onChange }) {
  const state = (store.state ??= {
    largest: (initial ?? params.defaults()).largest ?? DEFAULT_LARGEST, results: [], status: 'idle', builds: null,
  });
  root.classList.add('co-root');
  let worker = null;
  const seriesLabel = (id) => t(`bench.series.${id}`);

  // ---- complexity table -------------------------------------------------------
  const table = t('complexity');
  const complexityTable = h('div', { class: 'matrix-scroll' },
    h('table', { class: 'matrix co-complexity' },
      html('caption', {}, table.caption),
      h('thead', {}, h('tr', {}, table.columns.map((c) => html('th', { scope: 'col' }, c)))),
      h('tbody', {}, table.rows.map((row, i) => h('tr', { class: i === 0 && 'is-attention' },
        html('th', { scope: 'row' }, row[0]),
        row.slice(1).map((cell, c) => html('td', { dataset: { label: table.columns[c + 1] } }, cell)))))));

  // ---- the benchmark -------------------------------------------------------------
  const largest = choiceGroup({
    legend: t('bench.largest'),
    options: LARGEST_CHOICES.map((n) => ({ value: n, label: n.toLocaleString('en-US') })),
    value: state.largest,
    onChange: (n) => { state.largest = n; showPlan(); onChange?.({ largest: n }); },
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

  const timeChart = lineChart({
    title: t('bench.chartTitle'),
    description: t('bench.chartDescription'),
    caption: t('bench.chartCaption'),
    x: X_AXIS(t),
    y: { label: t('bench.yLabel'), scale: 'log', format: tickMs, formatFull: (ms) => `${formatMs(ms)} ms`, emptyDomain: [0.01, 10000] },
    height: 300,
    series: SERIES.map((s) => ({ id: s.id, label: seriesLabel(s.id), plainLabel: seriesLabel(s.id), ...SERIES_STYLE[s.id] })),
    table: { summary: t('table.show'), caption: t('bench.chartTitle'), xHeader: 'n' },
    className: 'co-chart',
  });

  const benchPanel = h('div', { class: 'panel co-panel', id: 'cost-bench', dataset: { state: state.status } },
    h('p', { class: 'panel-title', html: t('bench.title') }),
    html('p', { class: 'co-intro' }, t('bench.intro')),
    h('div', { class: 'co-controls' }, largest.el, h('div', { class: 'controls-row co-buttons' }, runButton.el, cancelButton.el)),
    planText,
    h('div', { class: 'co-progress-row' }, progress, status),
    timeChart.el,
    summary);

  // ---- memory, by shape ------------------------------------------------------------
  const memoryChart = lineChart({
    title: t('memory.chartTitle'),
    description: t('memory.chartDescription'),
    caption: t('memory.chartCaption'),
    x: X_AXIS(t),
    y: { label: t('memory.yLabel'), scale: 'log', format: formatBytes, formatFull: formatBytes, ticks: BYTE_TICKS, min: 2 ** 13, max: 2 ** 29 },
    height: 280,
    series: ['trace', 'scoreMatrix', 'tiled'].map((id) => ({ id, label: t(`memory.series.${id}`), plainLabel: t(`memory.series.${id}`), ...MEMORY_STYLE[id] })),
    table: { summary: t('table.show'), caption: t('memory.chartTitle'), xHeader: 'n' },
    className: 'co-chart',
  });
  const memoryNote = h('p', { class: 'co-summary' });

  root.append(
    h('div', { class: 'prose' }, html('p', { class: 'section-lede' }, t('lede'))),
    h('div', { class: 'prose' }, html('p', {}, t('complexityIntro'))),
    h('div', { class: 'panel co-panel co-table-panel' }, complexityTable),
    h('div', { class: 'prose' },
      html('p', {}, t('whyQuadratic')),
      html('div', { class: 'co-formula' }, t('costFormula')),
      html('p', {}, t('tradeoff'))),
    benchPanel,
    h('div', { class: 'prose' }, html('h3', {}, t('memory.title')), html('p', {}, t('memory.intro'))),
    h('div', { class: 'panel co-panel', id: 'cost-memory' }, memoryChart.el, memoryNote),
    html('div', { class: 'prose' }, t('after')));

  // ---- behaviour -----------------------------------------------------------------------
  function showPlan() {
    const sizes = sizesUpTo(state.largest);
    setHTML(planText, t('bench.plan', { sizes: sizes.map((n) => n.toLocaleString('en-US')).join(', '), d: D }));
  }

  function setStatus(next, text) {
    state.status = next;
    benchPanel.dataset.state = next;
    runButton.el.disabled = next === 'running';
    cancelButton.el.disabled = next !== 'running';
    largest.el.disabled = next === 'running';
    if (text !== undefined) setText(status, text);
  }

  function showResults() {
    const series = {};
    for (const s of SERIES) series[s.id] = state.results.filter((r) => r.series === s.id && !r.skipped).map((r) => [r.n, r.ms]);
    const anchor = series.simd.length ? series.simd : series.baseline;
    const references = [];
    if (anchor.length >= 1) {
      const [nMax, tMax] = anchor[anchor.length - 1];
      const ns = [...new Set(state.results.map((r) => r.n))].sort((a, b) => a - b);
      references.push({ label: t('bench.reference'), points: ns.map((n) => [n, tMax * (n / nMax) ** 2]) });
    }
    timeChart.update({ series, references });
    const g = growth(state.results);
    const last = state.results.length ? Math.max(...state.results.map((r) => r.n)) : 0;
    const at = (id) => state.results.find((r) => r.series === id && r.n === last && !r.skipped);
    if (state.status === 'done' && at('plainJs')) {
      const fast = at('simd') ?? at('baseline');
      setHTML(summary, t('bench.summary', {
        n: last.toLocaleString('en-US'),
        simd: at('simd') ? formatMs(at('simd').ms) : '—',
        baseline: at('baseline') ? formatMs(at('baseline').ms) : '—',
        js: formatMs(at('plainJs').ms),
        speedup: formatNumber(at('plainJs').ms / fast.ms, 1),
        ratio: g.simd ? formatNumber(g.simd.ratio, 1) : g.baseline ? formatNumber(g.baseline.ratio, 1) : '—',
      }));
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

  // Memory by shape, for every size.
  const rows = SIZES.map((n) => memoryOf(n, D));
  memoryChart.update({ series: {
    trace: rows.map((r) => [r.n, r.trace]),
    scoreMatrix: rows.map((r) => [r.n, r.scoreMatrix]),
    tiled: rows.map((r) => [r.n, r.tiled]),
  } });
  const big = rows[rows.length - 1];
  setHTML(memoryNote, t('memory.note', {
    n: big.n.toLocaleString('en-US'), matrix: formatBytes(big.scoreMatrix), trace: formatBytes(big.trace),
    tiled: formatBytes(big.tiled), ratio: formatNumber(big.scoreMatrix / big.tiled, 0),
  }));

  showPlan();
  const resumed = state.status === 'running' ? 'cancelled' : state.status;
  setStatus(resumed, resumed === 'idle' ? t('bench.idle') : resumed === 'done' ? t('bench.done') : resumed === 'cancelled' ? t('bench.cancelled', { count: state.results.length }) : '');
  showResults();
  if (engine) benchPanel.dataset.engine = engine.build;

  return {
    destroy() {
      if (worker) finish('cancelled', '');
      timeChart.destroy();
      memoryChart.destroy();
    },
  };
}

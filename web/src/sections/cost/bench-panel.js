// Section 10, the live benchmark: attention against n for the wasm SIMD build,
// the build without SIMD and plain JavaScript, run on request in a Web Worker
// (./bench-run.js) with progress and a cancel button; the controls
// (./bench-controls.js), the chart (./bench-chart.js) and the summary, which
// words only what the spreads support (./bench.js summaryParts). The measured
// points and the run's status live in `state` (kept across a language switch).
import { h, html, setHTML, setText, uid } from '../../lib/dom.js';
import { formatNumber } from '../../lib/format.js';
import { D, sizesUpTo, summaryParts } from './bench.js';
import { benchChart, formatMs } from './bench-chart.js';
import { benchControls } from './bench-controls.js';
import { benchmarkRun } from './bench-run.js';

// The summary's sentences, their numbers written for people.
function summaryText(t, results) {
  const label = (id) => t(`bench.series.${id}`);
  const shown = {
    n: (n) => n.toLocaleString('en-US'), simd: formatMs, tiled: formatMs, baseline: formatMs, js: formatMs,
    fastest: label, series: (ids) => ids.map(label).join(', '),
  };
  return summaryParts(results).map(({ key, params }) => t(key, Object.fromEntries(Object.entries(params)
    .map(([name, x]) => [name, x === null ? '\u2014' : (shown[name] ?? ((v) => formatNumber(v, 1)))(x)])))).join(' ');
}

export function benchPanel(state, { t, engine, xAxis, changed }) {
  const controls = benchControls({
    t, largest: state.largest,
    onLargest: (n) => { state.largest = n; changed({ largest: n }); },
    onRun: () => start(),
    onCancel: () => cancel(),
  });
  const statusId = uid('bench-status');
  const progress = h('progress', { class: 'co-progress', max: '1', value: '0', 'aria-labelledby': statusId });
  const status = h('p', { class: 'co-status', id: statusId, role: 'status', 'aria-live': 'polite' });
  const summary = h('p', { class: 'co-summary', 'aria-live': 'polite' });
  const chart = benchChart({ t, xAxis });

  const el = h('div', { class: 'panel co-panel', id: 'cost-bench', dataset: { state: state.status } },
    h('p', { class: 'panel-title', html: t('bench.title') }),
    html('p', { class: 'co-intro' }, t('bench.intro')),
    controls.row,
    controls.plan,
    h('div', { class: 'co-progress-row' }, progress, status),
    chart.el,
    summary);

  const run = benchmarkRun({
    engine,
    onBuilds: (builds) => { state.builds = builds; },
    onProgress: ({ done, total, n, series }) => {
      progress.value = total ? done / total : 0;
      if (n === null) return;
      setText(status, t('bench.measuring', {
        n: n.toLocaleString('en-US'), series: t(`bench.series.${series}`).replace(/<[^>]+>/g, ''),
        percent: Math.round((100 * done) / total),
      }));
    },
    onResult: (result) => {
      state.results.push(result);
      show();
    },
    onDone: () => finish('done', t('bench.done')),
    onFailed: (message) => finish('error', t('bench.failed', { message })),
  });

  function setStatus(next, text) {
    state.status = next;
    el.dataset.state = next;
    controls.setRunning(next === 'running');
    if (text !== undefined) setText(status, text);
  }

  function show() {
    chart.show(state.results);
    if (state.status === 'done') setHTML(summary, summaryText(t, state.results));
    else if (state.status === 'idle') setHTML(summary, t('bench.notRun'));
  }

  function start() {
    if (run.running) return;
    state.results = [];
    show();
    setText(summary, '');
    progress.value = 0;
    run.start({ sizes: sizesUpTo(state.largest), d: D, seed: 1 });
    el.dataset.background = String(run.inBackground);
    setStatus('running', t(run.inBackground ? 'bench.starting' : 'bench.startingOnPage'));
    // Why the page pauses, while it does.
    if (!run.inBackground) setHTML(summary, t('bench.onPage'));
  }

  function finish(next, text) {
    run.cancel();
    if (next === 'done') progress.value = 1;
    setStatus(next, text);
    show();
  }

  function cancel() {
    if (run.running) finish('cancelled', t('bench.cancelled', { count: state.results.length }));
  }

  const resumed = state.status === 'running' ? 'cancelled' : state.status;
  const statusText = { idle: t('bench.idle'), done: t('bench.done'), cancelled: t('bench.cancelled', { count: state.results.length }) };
  setStatus(resumed, statusText[resumed] ?? '');
  show();
  if (engine) el.dataset.engine = engine.build;

  return {
    el,
    destroy() {
      if (run.running) finish('cancelled', '');
      chart.destroy();
    },
  };
}

// Section "induction", the training: the seed, train and stop, the two runs'
// counters and curves (loss, accuracy on the repeat against chance, each
// head's previous-token and prefix-match score), redrawn at most every
// CHART_MS while they train. The runs live in `store.runs` (kept across a
// language switch); the driver (./runs.js) is loaded with the worker bridge at
// the first click.
import { h, html, setText } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { lineChart } from '../../components/line-chart.js';
import { trainingCurves } from '../../components/training-curves.js';
import { formatNumber } from '../../lib/format.js';
import { throttledDraw } from '../../lib/throttled-draw.js';
import { sectionRun } from '../../training/section-run.js';
import { RUNS, chanceOf, emptyRuns } from './state.js';

const CHART_MS = 250;
const RUN_STYLE = {
  two: { color: 'var(--c-scaled)', marker: 'none' },
  one: { color: 'var(--c-raw)', marker: 'none', dash: '6 3' },
};
// One line per head: the two-layer model's layer 1 and 2, the one-layer model's head.
const HEAD_SERIES = [
  { id: 'two-0', run: 'two', layer: 0, style: { color: 'var(--c-scaled)', marker: 'square', dash: '2 3' } },
  { id: 'two-1', run: 'two', layer: 1, style: { color: 'var(--c-scaled)', marker: 'circle' } },
  { id: 'one-0', run: 'one', layer: 0, style: { color: 'var(--c-raw)', marker: 'triangle', dash: '6 3' } },
];
const shown = (x, digits = 3) => (x === null || x === undefined ? '\u2014' : formatNumber(x, digits));

export function trainingPanel(model, { t, engine, store, changed, onRuns }) {
  const state = (store.training ??= { status: 'idle', runs: null, seed: null, failure: null, seconds: null });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.settings.seed,
    onChange: (v) => { model.set({ seed: v }); changed(); if (state.status === 'running') start(); },
  });
  const buttons = {
    train: button({ label: t('buttons.train'), icon: '\u25b6', variant: 'primary', onClick: () => start() }),
    stop: button({ label: t('buttons.stop'), icon: '\u25a0', onClick: () => stop('stopped') }),
  };
  for (const [name, b] of Object.entries(buttons)) b.el.dataset.action = name;
  const status = h('p', { class: 'in-status', role: 'status' });
  const counters = h('p', { class: 'in-counters' });

  const runSeries = (name) => RUNS.map((run) => ({ id: run, label: t(`runs.${run}`), plainLabel: t(`runs.${run}`), ...RUN_STYLE[run] }));
  const curves = trainingCurves({
    t, prefix: 'charts', height: 200, className: 'in-chart',
    series: { loss: runSeries('loss'), accuracy: runSeries('accuracy') },
  });
  const headChart = (name) => lineChart({
    title: t(`charts.${name}.title`), description: t(`charts.${name}.description`), caption: t(`charts.${name}.caption`),
    x: { label: t('charts.xLabel'), scale: 'linear', format: (v) => String(Math.round(v)) },
    y: { label: '', scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] },
    height: 200, className: 'in-chart',
    series: HEAD_SERIES.map((s) => ({ id: s.id, label: t(`heads.${s.id}`), plainLabel: t(`heads.${s.id}`), ...s.style })),
    table: { summary: t('table.show'), caption: t(`charts.${name}.title`), xHeader: t('charts.step') },
  });
  const scores = { previousToken: headChart('previousToken'), prefixMatch: headChart('prefixMatch') };

  const el = h('div', { class: 'panel in-panel', id: 'induction-training', dataset: { state: state.status } },
    h('p', { class: 'panel-title', html: t('training.title') }),
    html('p', { class: 'in-intro' }, t('training.intro')),
    h('div', { class: 'controls-row in-controls' }, seed.el),
    h('div', { class: 'controls-row in-buttons' }, buttons.train.el, buttons.stop.el),
    status, counters,
    h('div', { class: 'in-plots' }, curves.loss.el, curves.accuracy.el, scores.previousToken.el, scores.prefixMatch.el));

  let startedAt = 0;
  const life = sectionRun({
    state, redraw: () => redraw(), onStatus: (next) => showStatus(next),
    load: () => import('./runs.js').then(({ inductionRuns }) => inductionRuns({
      engine,
      onUpdate: () => redraw(),
      onDone: () => { state.seconds = (performance.now() - startedAt) / 1000; life.setStatus('done'); redraw(); },
      onFailed: (message) => life.fail(message),
    })),
  });

  function showStatus(next) {
    el.dataset.state = next;
    buttons.train.el.disabled = next === 'running';
    buttons.stop.el.disabled = next !== 'running';
    onRuns?.(state);
  }
  function statusText() {
    const step = (run) => state.runs?.[run].step ?? 0;
    if (state.status === 'running') return t('status.running', { two: step('two'), one: step('one') });
    if (state.status === 'done') return t('status.done', { seconds: formatNumber(state.seconds, 1), two: step('two'), one: step('one') });
    if (state.status === 'stopped' && state.failure) return t('status.failed', { message: state.failure });
    return t(state.status === 'stopped' ? 'status.stopped' : 'status.idle');
  }

  function draw() {
    setText(status, statusText());
    const runs = state.runs;
    if (!runs) {
      setText(counters, '');
      return;
    }
    const last = (run) => runs[run].points.at(-1);
    setText(counters, RUNS.map((run) => t(`counters.${run}`, { step: runs[run].step, loss: shown(last(run)?.loss), accuracy: shown(last(run)?.accuracy) })).join(' \u00b7 '));
    Object.assign(el.dataset, { two: String(runs.two.step), one: String(runs.one.step), accuracy: String(last('two')?.accuracy ?? '') });
    const curve = (key) => Object.fromEntries(RUNS.map((run) => [run, runs[run].points.filter((p) => p[key] !== null).map((p) => [p.step, p[key]])]));
    const trainer = runs.two.trainer;
    curves.loss.update({ series: curve('loss') });
    curves.accuracy.update({
      series: curve('accuracy'),
      references: trainer ? [{ label: t('charts.chance', { chance: formatNumber(chanceOf(trainer), 3) }), points: [[0, chanceOf(trainer)], [Math.max(runs.two.step, runs.one.step, 1), chanceOf(trainer)]] }] : [],
    });
    for (const [score, chart] of Object.entries(scores)) {
      chart.update({
        series: Object.fromEntries(HEAD_SERIES.map((s) => [s.id, runs[s.run].points.map((p) => [p.step, p.headScores?.find((x) => x.layer === s.layer)?.[score] ?? 0])])),
      });
    }
    onRuns?.(state);
  }
  const drawing = throttledDraw(draw, { ms: CHART_MS, busy: () => state.status === 'running' });
  const redraw = () => drawing.request();

  function start() {
    state.seconds = null;
    state.seed = model.settings.seed;
    state.runs = emptyRuns();
    startedAt = performance.now();
    life.start((driver) => driver.start({ seed: state.seed }, state.runs));
  }
  const stop = (next) => life.stop(next);

  // A run cut short by a language switch (the section is mounted again) is not resumed.
  life.setStatus(state.status === 'running' ? 'stopped' : state.status);
  drawing.now();

  return {
    el,
    destroy() {
      life.end();
      drawing.cancel();
      curves.destroy();
      Object.values(scores).forEach((c) => c.destroy());
    },
  };
}

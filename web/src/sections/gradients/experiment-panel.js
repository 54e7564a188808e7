// Section "gradients", the decisive experiment: the same model trained twice
// from the same seed, with and without the division by sqrt(d_k), each run in
// its own worker (src/training/), on request. The held-out loss and accuracy
// of both runs plot as they come; when both are done, the summary says what
// they showed (./experiment.js). The runs live in `state` (kept across a
// language switch).
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { rangeSlider } from '../../components/range-slider.js';
import { seedControl } from '../../components/seed-control.js';
import { lineChart } from '../../components/line-chart.js';
import { formatFull, formatLogTick, formatNumber } from '../../lib/format.js';
import { createTrainingClient, createTrainingWorker } from '../../training/training-client.js';
import { RUNS, STEP_CHOICES, TRAIN_DIMENSIONS, compareRuns, evaluateEvery, runOptions } from './experiment.js';

const STYLE = {
  scaled: { color: 'var(--c-scaled)', marker: 'square', dash: '6 3' },
  raw: { color: 'var(--c-raw)', marker: 'circle' },
};

export function experimentPanel(model, { t, engine, store, changed, createWorker = createTrainingWorker }) {
  const state = (store.experiment ??= { status: 'idle', runs: null, settings: null });
  const settings = () => model.settings.train;
  const clients = {};

  const dk = rangeSlider({
    label: t('experiment.controls.dk'), values: TRAIN_DIMENSIONS, value: settings().dk, format: String,
    onChange: (v) => { model.set('train', { dk: v }); settingsChanged(); },
  });
  const seed = seedControl({
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: settings().seed,
    onChange: (v) => { model.set('train', { seed: v }); settingsChanged(); },
  });
  const steps = choiceGroup({
    legend: t('experiment.controls.steps'),
    options: STEP_CHOICES.map((s) => ({ value: s, label: String(s) })),
    value: settings().steps,
    onChange: (v) => { model.set('train', { steps: v }); settingsChanged(); },
  });
  const runButton = button({ label: t('experiment.run'), icon: '\u25b6', variant: 'primary', onClick: () => start() });
  runButton.el.dataset.action = 'run';
  const stopButton = button({ label: t('experiment.stop'), icon: '\u25a0', onClick: () => stop('stopped') });
  stopButton.el.dataset.action = 'stop';

  const series = RUNS.map((run) => ({ id: run, label: t(`experiment.runs.${run}`), plainLabel: t(`experiment.runsPlain.${run}`), ...STYLE[run] }));
  const xAxis = { label: t('experiment.xLabel'), scale: 'linear', format: (v) => String(Math.round(v)) };
  const lossChart = lineChart({
    title: t('experiment.loss.title'), description: t('experiment.loss.description'), caption: t('experiment.loss.caption'),
    x: xAxis, y: { label: '', scale: 'log', format: formatLogTick, emptyDomain: [0.01, 10] },
    height: 220, series, table: { summary: t('table.show'), caption: t('experiment.loss.title'), xHeader: t('experiment.step') },
    className: 'gr-plot',
  });
  const accuracyChart = lineChart({
    title: t('experiment.accuracy.title'), description: t('experiment.accuracy.description'), caption: t('experiment.accuracy.caption'),
    x: xAxis, y: { label: '', scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], emptyDomain: [0, 1] },
    height: 220, series, table: { summary: t('table.show'), caption: t('experiment.accuracy.title'), xHeader: t('experiment.step') },
    className: 'gr-plot',
  });
  const status = h('p', { class: 'gr-status', role: 'status' });
  const summary = h('p', { class: 'gr-summary', 'aria-live': 'polite' });

  const el = h('div', { class: 'panel gr-panel', id: 'gradients-experiment', dataset: { state: state.status } },
    h('p', { class: 'panel-title', html: t('experiment.title') }),
    html('p', { class: 'gr-intro' }, t('experiment.intro')),
    h('div', { class: 'controls-row gr-controls' }, dk.el, steps.el, seed.el),
    h('p', { class: 'gr-plan' }),
    h('div', { class: 'controls-row gr-buttons' }, runButton.el, stopButton.el),
    status,
    h('div', { class: 'gr-plots' }, lossChart.el, accuracyChart.el),
    summary);
  const plan = el.querySelector('.gr-plan');

  function showPlan() {
    const s = settings();
    setHTML(plan, t('experiment.plan', { dk: s.dk, steps: s.steps, every: evaluateEvery(s.steps) }));
  }

  function setStatus(next) {
    state.status = next;
    el.dataset.state = next;
    runButton.el.disabled = next === 'running';
    stopButton.el.disabled = next !== 'running';
  }

  // Redrawn at most once per frame, however many messages arrive.
  let frame = 0;
  function draw() {
    frame = 0;
    const runs = state.runs;
    const curve = (key) => Object.fromEntries(RUNS.map((run) => [run, (runs?.[run].points ?? []).map((p) => [p.step, p[key]])]));
    lossChart.update({ series: curve('heldOutLoss') });
    accuracyChart.update({ series: curve('accuracy') });
    if (state.status === 'running') {
      setText(status, t('experiment.running', Object.fromEntries(RUNS.map((run) => [run, runs[run].step]))));
    } else if (state.status === 'done') {
      setText(status, t('experiment.done', { steps: state.settings.steps, dk: state.settings.dk }));
    } else if (state.status === 'stopped') {
      setText(status, t('experiment.stopped'));
    } else {
      setText(status, t('experiment.idle'));
    }
    if (state.status === 'done') {
      const points = Object.fromEntries(RUNS.map((run) => [run, runs[run].points]));
      const shown = { target: (x) => `${formatNumber(100 * x, 0)}%`, times: (x) => formatNumber(x, 1), a: String, b: String, steps: String,
        accScaled: (x) => formatNumber(x, 3), accRaw: (x) => formatNumber(x, 3), lossScaled: (x) => formatNumber(x, 3), lossRaw: (x) => formatNumber(x, 3) };
      setHTML(summary, compareRuns(points, { steps: state.settings.steps }).map(({ key, params }) =>
        t(key, Object.fromEntries(Object.entries(params).map(([name, x]) => [name, x === null ? '\u2014' : (shown[name] ?? formatFull)(x)])))).join(' '));
    } else {
      setHTML(summary, '');
    }
  }
  const redraw = () => { frame ||= requestAnimationFrame(draw); };

  function onMessage(run, message) {
    if (state.status !== 'running') return;
    const r = state.runs[run];
    if (message.type === 'started' || message.type === 'progress') {
      r.points.push(...message.points);
      r.step = message.step;
    } else if (message.type === 'paused' && message.reason === 'until') {
      r.done = true;
      clients[run]?.stop();
      delete clients[run];
      if (RUNS.every((name) => state.runs[name].done)) setStatus('done');
    } else if (message.type === 'error') {
      console.error(message.message);
      stop('stopped');
      setText(status, t('experiment.failed', { message: message.message }));
      return;
    }
    redraw();
  }

  function start() {
    stop(null);
    const s = { ...settings() };
    state.settings = s;
    state.runs = Object.fromEntries(RUNS.map((run) => [run, { points: [], step: 0, done: false }]));
    setStatus('running');
    for (const run of RUNS) {
      const client = createTrainingClient({ createWorker, engine, onMessage: (message) => onMessage(run, message) });
      clients[run] = client;
      client.send({ type: 'start', options: runOptions(s, run) });
      client.send({ type: 'play', until: s.steps, evaluateEvery: evaluateEvery(s.steps), probe: false });
    }
    redraw();
  }

  // Terminates both workers; `next`: the status after (null: about to start again).
  function stop(next) {
    for (const run of Object.keys(clients)) {
      clients[run].stop();
      delete clients[run];
    }
    if (next) {
      setStatus(next);
      redraw();
    }
  }

  // New settings: the finished runs no longer answer them.
  function settingsChanged() {
    showPlan();
    changed();
    if (state.status === 'running') start();
  }

  showPlan();
  // A run cut short by a language switch (the section is mounted again) is not resumed.
  setStatus(state.status === 'running' ? 'stopped' : state.status);
  draw();

  return {
    el,
    destroy() {
      stop(null);
      cancelAnimationFrame(frame);
      lossChart.destroy();
      accuracyChart.destroy();
    },
  };
}

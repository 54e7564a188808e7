// Section "decoding", the training: the seed, the model, train and stop, the
// run's counters and curves (training loss, generated accuracy on held-out
// sentences against the target), redrawn at most every CHART_MS while it
// trains. The run lives in `store.training` (kept across a language switch);
// the driver (./runs.js) is loaded with the worker bridge at the first click.
// decode(sentence) hands the reader's sentence to the trained run.
import { h, html, setText } from '../../lib/dom.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { seedControl, MAX_SEED } from '../../components/seed-control.js';
import { trainingCurves } from '../../components/training-curves.js';
import { formatNumber } from '../../lib/format.js';
import { throttledDraw } from '../../lib/throttled-draw.js';
import { sectionRun } from '../../training/section-run.js';
import { MODELS, TARGET, emptyRun } from './state.js';

const CHART_MS = 250;
const SERIES = [{ id: 'run', color: 'var(--c-scaled)', marker: 'none' }];
const shown = (x, digits = 3) => (x === null || x === undefined ? '\u2014' : formatNumber(x, digits));

export function trainingPanel(model, { t, engine, store, changed, onRun, onRefused }) {
  const state = (store.training ??= { status: 'idle', run: null, failure: null });
  const seed = seedControl({ invalidLabel: t('seedInvalid', { max: MAX_SEED }),
    label: t('controls.seed'), newLabel: t('controls.newSeed'), value: model.settings.seed,
    onChange: (v) => { model.set({ seed: v }); changed(); if (state.status === 'running') start(); },
  });
  const models = choiceGroup({
    legend: t('controls.model'), value: model.settings.model,
    options: MODELS.map((m) => ({ value: m, label: t(`models.${m}`) })),
    onChange: (v) => { model.set({ model: v }); changed(); if (state.status === 'running') start(); },
  });
  const buttons = {
    train: button({ label: t('buttons.train'), icon: '\u25b6', variant: 'primary', onClick: () => start() }),
    stop: button({ label: t('buttons.stop'), icon: '\u25a0', onClick: () => stop('stopped') }),
  };
  for (const [name, b] of Object.entries(buttons)) b.el.dataset.action = name;
  const status = h('p', { class: 'dc-status', role: 'status' });
  const counters = h('p', { class: 'dc-counters' });
  const label = () => t(`models.${state.run?.trainer?.options.model ?? model.settings.model}`);
  const curves = trainingCurves({
    t, prefix: 'charts', height: 200, className: 'dc-chart',
    series: SERIES.map((s) => ({ ...s, label: label(), plainLabel: label() })),
  });

  const el = h('div', { class: 'panel dc-panel', id: 'decoding-training', dataset: { state: state.status } },
    h('p', { class: 'panel-title', html: t('training.title') }),
    html('p', { class: 'dc-intro' }, t('training.intro', { target: formatNumber(100 * TARGET, 0) })),
    h('div', { class: 'controls-row dc-controls' }, models.el, seed.el),
    h('div', { class: 'controls-row dc-buttons' }, buttons.train.el, buttons.stop.el),
    status, counters,
    h('div', { class: 'dc-plots' }, curves.loss.el, curves.accuracy.el));

  const life = sectionRun({
    state, redraw: () => redraw(), onStatus: (next) => showStatus(next),
    load: () => import('./runs.js').then(({ decodingRuns }) => decodingRuns({
      engine,
      onUpdate: () => redraw(),
      onDone: () => { life.setStatus('done'); redraw(); },
      onFailed: (message) => life.fail(message),
      onRefused: (message, sentence) => onRefused?.(message, sentence),
    })),
  });

  function showStatus(next) {
    el.dataset.state = next;
    buttons.train.el.disabled = next === 'running';
    buttons.stop.el.disabled = next !== 'running';
    onRun?.(state);
  }
  function statusText() {
    const run = state.run;
    if (state.status === 'running') return t(run?.done ? 'status.decoding' : 'status.running', { step: run?.step ?? 0 });
    if (state.status === 'done') return t('status.done', { seconds: formatNumber(run.seconds, 1), step: run.step });
    if (state.status === 'stopped' && state.failure) return t('status.failed', { message: state.failure });
    return t(state.status === 'stopped' ? 'status.stopped' : 'status.idle');
  }

  function draw() {
    setText(status, statusText());
    const run = state.run;
    if (!run) {
      setText(counters, '');
      onRun?.(state);
      return;
    }
    const last = run.points.at(-1);
    setText(counters, t('counters', { step: run.step, loss: shown(last?.loss), accuracy: shown(last?.generatedAccuracy) }));
    Object.assign(el.dataset, { step: String(run.step), accuracy: String(last?.generatedAccuracy ?? '') });
    const curve = (key) => ({ run: run.points.filter((p) => p[key] !== null).map((p) => [p.step, p[key]]) });
    curves.loss.update({ series: curve('loss') });
    curves.accuracy.update({
      series: curve('generatedAccuracy'),
      references: [{ label: t('charts.target', { target: formatNumber(TARGET, 2) }), points: [[0, TARGET], [Math.max(run.step, 1), TARGET]] }],
    });
    onRun?.(state);
  }
  const drawing = throttledDraw(draw, { ms: CHART_MS, busy: () => state.status === 'running' });
  const redraw = () => drawing.request();

  function start() {
    state.run = emptyRun();
    life.start((driver) => driver.start({ ...model.settings }, state.run));
  }
  const stop = (next) => life.stop(next);

  // A run cut short by a language switch (the section is mounted again) is not resumed;
  // a trained one keeps what it showed, but its worker is gone: typed sentences need a new run.
  life.setStatus(state.status === 'running' ? 'stopped' : state.status);
  drawing.now();

  return {
    el,
    // false: no trained run to ask (the reader is told to train first).
    decode: (sentence) => Boolean(life.driver?.decode(sentence)),
    destroy() {
      life.end();
      drawing.cancel();
      curves.destroy();
    },
  };
}

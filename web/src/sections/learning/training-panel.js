// Section "learning", the training: the model's settings, play / pause / one
// step / reset, the curves (training loss, held-out accuracy) and the probe
// sentence's attention weights, redrawn as the run reports (at most once per
// frame). The run trains in a worker (src/training/training-client.js);
// reset terminates it. Changing a setting resets to the untrained model of
// the new settings (./state.js, computed on the page).
import { h, html, setText } from '../../lib/dom.js';
import { liveText } from '../../lib/live-text.js';
import { button } from '../../components/button.js';
import { choiceGroup } from '../../components/choice-group.js';
import { seedControl } from '../../components/seed-control.js';
import { toggleSwitch } from '../../components/toggle-switch.js';
import { lineChart } from '../../components/line-chart.js';
import { formatLogTick, formatNumber } from '../../lib/format.js';
import { createTrainingClient, createTrainingWorker } from '../../training/training-client.js';
import { HEAD_CHOICES, LEARNING_RATES, MAX_STEPS, TASKS, alignmentOf, applyMessage, progressSummary, trainerOptions } from './state.js';
import { alignmentMap } from './alignment-map.js';
import { stow } from '../../lib/stowed.js';
import { whenIdle } from '../../lib/idle.js';

const LINE = { color: 'var(--ink-soft)', marker: 'none' };
export const LANGUAGES = Object.freeze({ reverse: ['zxx', 'zxx'], translate: ['en', 'ko'] });

export function trainingPanel(model, { t, engine, store, changed, createWorker = createTrainingWorker, onTranslation, onReset }) {
  const settings = () => model.settings;
  const fresh = () => ({ ...structuredClone(model.result), playing: false });
  store.run ??= fresh();
  // A run cut short by a re-mount (a language switch) lost its worker.
  store.status = store.status === 'playing' || store.status === 'paused' ? 'stopped' : (store.status ?? 'idle');
  let client = null;

  // ---- controls ------------------------------------------------------------------
  const set = (changes) => { model.set(changes); changed(); reset(); };
  const task = choiceGroup({
    legend: t('controls.task'), options: TASKS.map((v) => ({ value: v, label: t(`tasks.${v}.name`) })),
    value: settings().task, onChange: (v) => set({ task: v }),
  });
  task.el.id = 'learning-task';
  const heads = choiceGroup({
    legend: t('controls.heads'), options: HEAD_CHOICES.map((v) => ({ value: v, label: String(v) })),
    value: settings().heads, onChange: (v) => set({ heads: v }),
  });
  heads.el.id = 'learning-heads';
  const rate = choiceGroup({
    legend: t('controls.learningRate'), options: LEARNING_RATES.map((v) => ({ value: v, label: String(v) })),
    value: settings().learningRate, onChange: (v) => set({ learningRate: v }),
  });
  rate.el.id = 'learning-rate';
  const scaling = toggleSwitch({ label: t('controls.scaling'), ariaLabel: t('controls.scalingPlain'), checked: settings().scale, onChange: (v) => set({ scale: v }) });
  scaling.el.id = 'learning-scaling';
  const seed = seedControl({ label: t('controls.seed'), newLabel: t('controls.newSeed'), value: settings().seed, onChange: (v) => set({ seed: v }) });

  const buttons = {
    play: button({ label: t('buttons.play'), icon: '\u25b6', variant: 'primary', onClick: () => play() }),
    pause: button({ label: t('buttons.pause'), icon: '\u275a\u275a', onClick: () => pause() }),
    step: button({ label: t('buttons.step'), icon: '+1', onClick: () => oneStep() }),
    reset: button({ label: t('buttons.reset'), icon: '\u21ba', onClick: () => reset() }),
  };
  for (const [name, b] of Object.entries(buttons)) b.el.dataset.action = name;

  // ---- curves --------------------------------------------------------------------
  const xAxis = { label: t('charts.xLabel'), scale: 'linear', format: (v) => String(Math.round(v)) };
  const lossChart = lineChart({
    title: t('charts.loss.title'), description: t('charts.loss.description'), caption: t('charts.loss.caption'),
    x: xAxis, y: { label: '', scale: 'log', format: formatLogTick, emptyDomain: [0.01, 10] },
    height: 200, series: [{ id: 'loss', label: t('charts.loss.series'), plainLabel: t('charts.loss.series'), ...LINE }],
    table: { summary: t('table.show'), caption: t('charts.loss.title'), xHeader: t('charts.step') }, className: 'le-chart',
  });
  const accuracyChart = lineChart({
    title: t('charts.accuracy.title'), description: t('charts.accuracy.description'), caption: t('charts.accuracy.caption'),
    x: xAxis, y: { label: '', scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], emptyDomain: [0, 1] },
    height: 200, series: [{ id: 'accuracy', label: t('charts.accuracy.series'), plainLabel: t('charts.accuracy.series'), ...LINE }],
    table: { summary: t('table.show'), caption: t('charts.accuracy.title'), xHeader: t('charts.step') }, className: 'le-chart',
  });

  const status = h('p', { class: 'le-status', role: 'status' });
  const counters = h('p', { class: 'le-counters' });
  const summary = liveText(h('p', { class: 'le-summary' }));
  const mapSlot = h('div', { class: 'le-map-slot' });
  let map = null;

  const el = h('div', { class: 'panel le-panel', id: 'learning-training' },
    h('p', { class: 'panel-title', html: t('training.title') }),
    html('p', { class: 'le-intro' }, t('training.intro')),
    h('div', { class: 'controls-row le-controls' }, task.el, heads.el, rate.el),
    h('div', { class: 'controls-row le-controls' }, scaling.el, seed.el),
    h('div', { class: 'controls-row le-buttons' }, ...Object.values(buttons).map((b) => b.el)),
    status, counters,
    h('div', { class: 'le-plots' }, lossChart.el, accuracyChart.el),
    mapSlot,
    summary.el);

  // One map per task, built the first time the task is shown and kept in the
  // page: the other task's is stowed (lib/stowed.js), so a task change shows it
  // again without rebuilding its style and layout. The shown one holds the id.
  // The heads' small maps (up to 8 x 64 cells) are built when h changes, in a
  // task of their own, after the averaged map the reader is looking at, and
  // kept per h (alignment-map.js); the other choices of h are built while idle.
  const maps = {};
  let headsTimer = 0;
  let preparing = [];   // cancels of the idle builds of the other choices of h
  function buildMap() {
    const run = store.run;
    const { task, heads: h } = settings();
    map = maps[task] ??= alignmentMap({
      t, reading: run.probe, heads: 1, expected: run.trainer.alignment,
      caption: t('map.probeCaption'), languages: LANGUAGES[task], id: null,
    });
    if (map.el.parentNode !== mapSlot) mapSlot.append(map.el);
    for (const each of Object.values(maps)) {
      const shown = each === map;
      stow(each.el, !shown);
      if (shown) each.el.id = 'learning-probe';
      else each.el.removeAttribute('id');
    }
    clearTimeout(headsTimer);
    if (map.heads !== h) headsTimer = setTimeout(() => map.setHeads(h, store.run.probe), 0);
    preparing.forEach((cancel) => cancel());
    const shown = map;
    preparing = HEAD_CHOICES.map((count) => whenIdle(() => shown.prepareHeads(count)));
  }

  // ---- drawing: while the run plays, the averaged weights and the counters 10
  // times a second, the rest (curves, heads, output, sentences) 4 times (the
  // worker reports up to 30 times a second; drawing all of each report kept
  // the main thread of this 2-core machine busy a third of the time); all of it
  // at once when the run stops --------------------------------------------------
  const DRAW_MS = 100;
  const CHART_MS = 250;
  let frame = 0;
  let timer = 0;
  let drawnAt = -Infinity;
  let chartsAt = -Infinity;
  function draw() {
    frame = 0;
    timer = 0;
    const run = store.run;
    const point = run.points[run.points.length - 1];
    const now = performance.now();
    drawnAt = now;
    const details = !run.playing || now - chartsAt >= CHART_MS;
    const shown = (x, digits = 3) => (x === null || x === undefined ? '\u2014' : formatNumber(x, digits));
    map.update(run.probe, { details });
    setText(counters, t('training.counters', { step: run.step, loss: shown(point?.loss), accuracy: shown(point?.accuracy) }));
    const { aligned, total } = alignmentOf(run.probe, run.trainer.alignment);
    Object.assign(el.dataset, { step: String(run.step), accuracy: String(point?.accuracy ?? ''), aligned: String(aligned), total: String(total) });
    if (!details) return;
    chartsAt = now;
    lossChart.update({ series: { loss: run.points.filter((p) => p.loss !== null).map((p) => [p.step, p.loss]) } });
    accuracyChart.update({ series: { accuracy: run.points.map((p) => [p.step, p.accuracy]) } });
    const parts = progressSummary(run, settings().task);
    // The parts' numbers merged first, then formatted once (formatting each
    // part alone let a later part without a loss blank out the first's).
    const params = Object.assign({}, ...parts.map((part) => part.params));
    summary.set(parts.map(({ key }) => t(key)).join(' '), {
      ...params, loss: shown(params.loss), accuracy: shown(params.accuracy),
      target: `${formatNumber(100 * (params.target ?? 0), 0)}%`,
    });
  }
  function redraw() {
    // A run that stopped draws at the next frame: a draw held back by the
    // playing pace would leave the counters behind the status for up to DRAW_MS.
    if (timer && !store.run.playing) { clearTimeout(timer); timer = 0; }
    if (frame || timer) return;
    const wait = store.run.playing ? drawnAt + DRAW_MS - performance.now() : 0;
    if (wait > 0) timer = setTimeout(() => { timer = 0; frame = requestAnimationFrame(draw); }, wait);
    else frame = requestAnimationFrame(draw);
  }

  function setStatus(next) {
    store.status = next;
    const run = store.run;
    Object.assign(el.dataset, { state: next, step: String(run.step) });
    const atLimit = run.step >= MAX_STEPS;
    buttons.play.el.disabled = next === 'playing' || atLimit;
    buttons.pause.el.disabled = next !== 'playing';
    buttons.step.el.disabled = atLimit;
    buttons.reset.el.disabled = next === 'idle';
    const key = next === 'paused' && atLimit ? 'status.limit' : `status.${next}`;
    setText(status, t(key, { step: run.step, limit: MAX_STEPS }));
  }

  function onMessage(message) {
    applyMessage(store.run, message);
    if (message.type === 'paused') setStatus('paused');
    if (message.type === 'error') {
      console.error(message.message);
      stopClient();
      setStatus('idle');
      setText(status, t('status.failed', { message: message.message }));
    }
    if (message.type === 'translation') onTranslation?.(message);
    redraw();
  }

  function ensureClient() {
    if (client) return;
    if (store.status === 'stopped') restart();
    client = createTrainingClient({ createWorker, engine, onMessage });
    client.send({ type: 'start', options: trainerOptions(settings()) });
  }
  function stopClient() {
    client?.stop();
    client = null;
  }
  // The untrained model of the current settings, as at the start.
  function restart() {
    store.run = fresh();
    buildMap();
  }

  function play() {
    ensureClient();
    client.send({ type: 'play', paced: true, until: MAX_STEPS, probe: true });
    setStatus('playing');
    redraw();
  }
  function pause() {
    client?.send({ type: 'pause' });
  }
  function oneStep() {
    ensureClient();
    client.send({ type: 'step' });
    setStatus('paused');
  }
  function reset() {
    stopClient();
    restart();
    setStatus('idle');
    draw();
    onReset?.();
  }

  buildMap();
  setStatus(store.status);
  draw();

  return {
    el,
    // The steps the model shown has trained (0: untrained).
    get step() { return store.run.step; },
    // Sends the reader's sentence to the trained model (its answer comes to
    // onTranslation); false when no run holds one (the untrained model reads it).
    translate(id, sentence) {
      if (!client || store.run.step === 0) return false;
      client.send({ type: 'translate', id, sentence });
      return true;
    },
    destroy() {
      stopClient();
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(headsTimer);
      preparing.forEach((cancel) => cancel());
      lossChart.destroy();
      accuracyChart.destroy();
    },
  };
}

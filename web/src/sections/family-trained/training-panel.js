// Section "family-trained", the training: the controls (./training-controls.js),
// the learning curves of every variant (training loss, and generated accuracy
// on the held-out part), the table of steps to the target and what was
// measured at the end (./results-table.js), each variant's learned alignment
// of the probe sentence (./alignment-maps.js), and the sentences that say what
// this run measured (./state.js describeRuns). The runs go through ./runs.js;
// their state lives in `store` (a language switch re-mounts the section:
// finished runs stay, runs cut short say so).
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { trainingCurves } from '../../components/training-curves.js';
import { applyEvent, describeRuns, doneCount, emptyRuns, variantName } from './state.js';
import { familyRuns } from './runs.js';
import { trainingControls } from './training-controls.js';
import { resultsTable } from './results-table.js';
import { alignmentMaps } from './alignment-maps.js';

const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'circle', 'square'];
const DASHES = [null, '6 3', null, '2 3', '8 3 2 3', null];
// The runs report up to 100 times a second between them: the counters at most
// every DRAW_MS, the curves and the maps every CHART_MS.
const DRAW_MS = 100;
const CHART_MS = 250;

export function trainingPanel(model, { t, engine, store, onSettings }) {
  const settings = () => model.settings;
  store.runs ??= emptyRuns(settings());
  if (store.status === 'running') store.status = 'stopped';
  store.status ??= 'idle';

  const runs = familyRuns({ engine, onEvent });
  const controls = trainingControls(settings(), {
    t,
    onSet: (changes) => {
      runs.stop();
      model.set(changes);
      onSettings();
      store.runs = emptyRuns(settings());
      controls.refresh();
      rebuild();
      setStatus('idle');
      draw();
    },
    actions: { play: () => play(), stop: () => stop() },
  });
  const status = h('p', { class: 'ft-status', role: 'status' });
  const plots = h('div', { class: 'ft-plots' });
  const table = resultsTable({ t });
  const maps = alignmentMaps({ t });
  const summary = h('div', { class: 'ft-summary' });
  const el = h('div', { class: 'panel ft-panel', id: 'family-trained-runs' },
    h('p', { class: 'panel-title', html: t('training.title') }),
    html('p', { class: 'ft-intro' }, t('training.intro')),
    ...controls.rows,
    status, plots, table.el,
    html('p', { class: 'ft-maps-intro' }, t('maps.intro')),
    maps.el, summary);

  let curves = null;
  // The curves, the table and the maps for the variants of store.runs.
  function rebuild() {
    curves?.destroy();
    const series = store.runs.order.map((id, i) => {
      const label = variantName(t, store.runs.runs[id].variant);
      return { id, label, plainLabel: label, color: `var(--c-series-${i + 1})`, marker: MARKERS[i], dash: DASHES[i] ?? undefined };
    });
    curves = trainingCurves({ t, prefix: 'charts', series, height: 220, className: 'ft-chart' });
    plots.replaceChildren(curves.accuracy.el, curves.loss.el);
    table.reset(store.runs);
    maps.reset();
  }

  let frame = 0;
  let timer = 0;
  let drawnAt = -Infinity;
  let chartsAt = -Infinity;
  function draw() {
    frame = 0;
    timer = 0;
    const now = performance.now();
    drawnAt = now;
    const state = store.runs;
    table.draw(state);
    el.dataset.done = String(doneCount(state));
    setStatusText();
    if (store.status === 'running' && now - chartsAt < CHART_MS) return;
    chartsAt = now;
    const points = (id, metric) => state.runs[id].points.filter((p) => p[metric] !== null && p[metric] !== undefined).map((p) => [p.step, p[metric]]);
    curves.update({
      loss: Object.fromEntries(state.order.map((id) => [id, points(id, 'loss')])),
      accuracy: Object.fromEntries(state.order.map((id) => [id, points(id, 'generatedAccuracy')])),
    });
    maps.draw(state);
    if (store.status === 'done') setHTML(summary, describeRuns(t, state).map((s) => `<p>${s}</p>`).join(''));
    else summary.replaceChildren();
  }
  function redraw() {
    if (timer && store.status !== 'running') { clearTimeout(timer); timer = 0; }
    if (frame || timer) return;
    const wait = store.status === 'running' ? drawnAt + DRAW_MS - performance.now() : 0;
    if (wait > 0) timer = setTimeout(() => { timer = 0; frame = requestAnimationFrame(draw); }, wait);
    else frame = requestAnimationFrame(draw);
  }

  function setStatusText() {
    const state = store.runs;
    setText(status, t(`status.${store.status}`, {
      done: doneCount(state), count: state.order.length, message: state.error ?? '',
      seconds: state.ms === null ? '' : (state.ms / 1000).toFixed(1),
    }));
  }
  function setStatus(next) {
    store.status = next;
    el.dataset.state = next;
    if (store.runs.ms !== null) el.dataset.ms = String(Math.round(store.runs.ms));
    else delete el.dataset.ms;
    controls.setStatus(next);
    setStatusText();
  }

  function onEvent(event) {
    const state = store.runs;
    if (event.type === 'finished') {
      state.ms = event.ms;
      setStatus('done');
    } else if (event.type === 'error') {
      console.error(event.message);
      state.error = event.message;
      setStatus('failed');
    } else {
      applyEvent(state, event);
    }
    redraw();
  }

  function play() {
    store.runs = emptyRuns(settings());
    rebuild();
    setStatus('running');
    runs.start(settings());
    draw();
  }
  function stop() {
    runs.stop();
    setStatus('stopped');
    draw();
  }

  rebuild();
  setStatus(store.status);
  draw();
  return {
    el,
    destroy() {
      runs.stop();
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      curves?.destroy();
    },
  };
}

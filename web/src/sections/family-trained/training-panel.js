// Section "family-trained", the training: the controls (./training-controls.js),
// the learning curves of every variant (training loss, and generated accuracy
// on the held-out part), the table of steps to the target and what was
// measured at the end (./results-table.js), each variant's learned alignment
// of the probe sentence (./alignment-maps.js), and the sentences that say what
// this run measured (./state.js describeRuns). The runs go through ./runs.js;
// their state lives in `store` (a language switch re-mounts the section:
// finished runs stay, runs cut short say so).
import { h, html, setHTML } from '../../lib/dom.js';
import { runsPanel } from '../../training/runs-panel.js';
import { trainingCurves } from '../../components/training-curves.js';
import { applyEvent, describeRuns, doneCount, emptyRuns, variantName } from './state.js';
import { familyRuns } from './runs.js';
import { trainingControls } from './training-controls.js';
import { resultsTable } from './results-table.js';
import { alignmentMaps } from './alignment-maps.js';

const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'circle', 'square'];
const DASHES = [null, '6 3', null, '2 3', '8 3 2 3', null];
// While the runs train, the table and the status are redrawn at most every
// 100 ms (src/training/runs-panel.js), the curves and the maps every CHART_MS.
const CHART_MS = 250;

export function trainingPanel(model, { t, engine, store, onSettings }) {
  const settings = () => model.settings;
  const controls = trainingControls(settings(), {
    t,
    onSet: (changes) => {
      model.set(changes);
      onSettings();
      panel.reset();
    },
    actions: { play: () => panel.play(), stop: () => panel.stop() },
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
  // The curves, the table and the maps for the variants of a new set of runs.
  function rebuild(state) {
    curves?.destroy();
    const series = state.order.map((id, i) => {
      const label = variantName(t, state.runs[id].variant);
      return { id, label, plainLabel: label, color: `var(--c-series-${i + 1})`, marker: MARKERS[i], dash: DASHES[i] ?? undefined };
    });
    curves = trainingCurves({ t, prefix: 'charts', series, height: 220, className: 'ft-chart' });
    plots.replaceChildren(curves.accuracy.el, curves.loss.el);
    table.reset(state);
    maps.reset();
  }

  let chartsAt = -Infinity;
  function draw(state, phase) {
    table.draw(state);
    const now = performance.now();
    if (phase === 'running' && now - chartsAt < CHART_MS) return;
    chartsAt = now;
    const points = (id, metric) => state.runs[id].points.filter((p) => p[metric] !== null && p[metric] !== undefined).map((p) => [p.step, p[metric]]);
    curves.update({
      loss: Object.fromEntries(state.order.map((id) => [id, points(id, 'loss')])),
      accuracy: Object.fromEntries(state.order.map((id) => [id, points(id, 'generatedAccuracy')])),
    });
    maps.draw(state);
    if (phase === 'done') setHTML(summary, describeRuns(t, state).map((s) => `<p>${s}</p>`).join(''));
    else summary.replaceChildren();
  }

  const panel = runsPanel({
    store, settings, empty: emptyRuns, applyEvent, doneCount, count: (state) => state.order.length,
    makeRuns: (onEvent) => familyRuns({ engine, onEvent }),
    el, status, controls, t, draw, onReset: rebuild,
  });
  return {
    el,
    destroy() {
      panel.destroy();
      curves?.destroy();
    },
  };
}

// Section "bottleneck", the sweep: its settings (seed, step budget) and
// play / stop (./sweep-controls.js), the chart of held-out accuracy against
// the source length (one line per model, a point per finished run), the table
// of the runs as they train, and the sentences that say what this sweep
// measured (./state.js describeSweep). The runs go through ./runs.js; the
// sweep's state lives in `store` (a language switch re-mounts the section:
// finished runs stay, a sweep cut short says so).
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { runsPanel } from '../../training/runs-panel.js';
import { lineChart } from '../../components/line-chart.js';
import { formatFull, formatPercent } from '../../lib/format.js';
import { EXAMPLES_WHILE_TRAINING, LENGTHS, MODELS, TARGET, applyEvent, describeSweep, doneCount, emptySweep, runId, seriesOf } from './state.js';
import { bottleneckRuns } from './runs.js';
import { sweepControls } from './sweep-controls.js';

const SERIES = {
  rnn: { color: 'var(--c-plain)', marker: 'circle', dash: '6 3' },
  bahdanau: { color: 'var(--c-attentive)', marker: 'square' },
};

export function sweepPanel(model, { t, engine, store, onSettings }) {
  const settings = () => model.settings;
  const controls = sweepControls(settings(), {
    t,
    onSet: (changes) => {
      model.set(changes);
      onSettings();
      panel.reset();
    },
    actions: { play: () => panel.play(), stop: () => panel.stop() },
  });

  const label = (id) => t(`models.${id}.short`);
  const chart = lineChart({
    title: t('chart.title'), description: t('chart.description'), caption: t('chart.caption'),
    x: { label: t('chart.xLabel'), scale: 'linear', domain: [LENGTHS[0] - 1, LENGTHS[LENGTHS.length - 1] + 1], ticks: LENGTHS, format: String },
    y: {
      label: t('chart.yLabel'), scale: 'linear', min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], emptyDomain: [0, 1],
      format: (v) => formatPercent(v, 0), formatFull: (v) => `${formatPercent(v, 1)} (${formatFull(v)})`,
    },
    series: MODELS.map((id) => ({ id, label: label(id), plainLabel: label(id), ...SERIES[id] })),
    height: 260, className: 'bn-chart',
    table: { summary: t('table.show'), caption: t('chart.title'), xHeader: t('chart.xLabel') },
  });

  // The runs as they train: a row per length, a cell per model.
  const cells = {};
  const table = h('table', { class: 'matrix bn-runs' },
    html('caption', {}, t('runs.caption', { part: EXAMPLES_WHILE_TRAINING })),
    h('thead', {}, h('tr', {}, html('th', { scope: 'col' }, t('runs.length')), MODELS.map((id) => html('th', { scope: 'col' }, label(id))))),
    h('tbody', {}, LENGTHS.map((length) => h('tr', {},
      h('th', { scope: 'row', text: String(length) }),
      MODELS.map((id) => {
        const cell = h('td', { class: 'num', dataset: { run: runId(id, length) } });
        cells[runId(id, length)] = cell;
        return cell;
      })))));
  const status = h('p', { class: 'bn-status', role: 'status' });
  const summary = h('div', { class: 'bn-summary' });
  const el = h('div', { class: 'panel bn-panel', id: 'bottleneck-sweep' },
    h('p', { class: 'panel-title', html: t('sweep.title') }),
    html('p', { class: 'bn-intro' }, t('sweep.intro')),
    ...controls.rows,
    status, chart.el, h('div', { class: 'matrix-scroll' }, table), summary);

  function cellText(run) {
    switch (run.status) {
      case 'training': return run.latest === null ? t('runs.starting') : t('runs.training', { step: run.step, accuracy: formatPercent(run.latest) });
      case 'evaluating': return t('runs.evaluating', { step: run.step });
      case 'done': return run.reachedAt === null
        ? t('runs.budget', { accuracy: formatPercent(run.final.generatedAccuracy), steps: run.step })
        : t('runs.reached', { accuracy: formatPercent(run.final.generatedAccuracy), step: run.reachedAt, target: formatPercent(TARGET, 0) });
      default: return t('runs.waiting');
    }
  }

  function draw(sweep, phase) {
    for (const [id, run] of Object.entries(sweep.runs)) {
      const cell = cells[id];
      setText(cell, cellText(run));
      cell.dataset.status = run.status;
      if (run.final) Object.assign(cell.dataset, { accuracy: String(run.final.generatedAccuracy), reached: run.reachedAt === null ? '' : String(run.reachedAt) });
      else { delete cell.dataset.accuracy; delete cell.dataset.reached; }
    }
    chart.update({ series: seriesOf(sweep) });
    // What the runs measured in one paragraph, what the budget allowed in another.
    if (phase === 'done') {
      const sentences = describeSweep(t, sweep);
      setHTML(summary, `<p>${sentences.slice(0, -1).join(' ')}</p><p>${sentences.at(-1)}</p>`);
    } else {
      summary.replaceChildren();
    }
  }

  const panel = runsPanel({
    store, settings, empty: emptySweep, applyEvent, doneCount, count: () => LENGTHS.length * MODELS.length,
    makeRuns: (onEvent) => bottleneckRuns({ engine, onEvent }),
    el, status, controls, t, draw,
  });
  return {
    el,
    destroy() {
      panel.destroy();
      chart.destroy();
    },
  };
}

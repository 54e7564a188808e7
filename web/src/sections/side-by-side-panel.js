// The training panel of a section that trains one model twice, differing in
// one option, side by side (sections "mask-reason" and "positions-trained"):
// the section's controls, train / stop, the status, each run's counters and
// the curves (training loss; held-out accuracy). The runs go to the training
// pool's two workers through src/training/measured-runs.js, each until its
// target or its budget; when one ends it is evaluated on every held-out
// example and read on the probe (the `final` of its record). What they report
// is kept in `store.record` (src/training/side-by-side.js; it survives a
// language switch, which re-mounts the section: a run cut short says so).
//
//   const panel = sideBySidePanel({ t, engine, store, ids, plan, finish?, controls, lines, references?, onRecord });
//   plan(): the runs of the current settings (the pool's { id, options, play, cost });
//   finish(request): what a run's `final` holds (default: measure, { evaluation, probe });
//   references(record): the accuracy chart's reference lines (e.g. chance);
//   lines: { loss: [series], accuracy: [series] }, each series { id, run, metric, ...line style };
//   onRecord(record, status): after each redraw;  panel.reset(): forget the runs (settings changed).
//
// Its words are the section's: controls.seed, buttons.{train, stop},
// status.{idle, running, done, stopped, failed} (with each run's step by its
// id, seconds, message), counters.<id>, charts.*, table.show.
import { h, html, setText } from '../lib/dom.js';
import { button } from '../components/button.js';
import { trainingCurves } from '../components/training-curves.js';
import { formatNumber } from '../lib/format.js';
import { measuredRuns } from '../training/measured-runs.js';
import { applyEvent, emptyRecord, lastLoss, measure } from '../training/side-by-side.js';

// The runs report up to 100 times a second between them: redrawn at most this often.
const DRAW_MS = 200;
const shown = (x, digits = 3) => (typeof x === 'number' ? formatNumber(x, digits) : '\u2014');


export function sideBySidePanel({ t, engine, store, ids, plan, finish = measure, controls = [], lines, references = () => [], onRecord, id, className }) {
  store.record ??= null;
  if (store.status === 'running') store.status = 'stopped';
  store.status ??= 'idle';

  const buttons = {
    train: button({ label: t('buttons.train'), icon: '\u25b6', variant: 'primary', onClick: () => start() }),
    stop: button({ label: t('buttons.stop'), icon: '\u25a0', onClick: () => stop() }),
  };
  for (const [name, b] of Object.entries(buttons)) b.el.dataset.action = name;
  const status = h('p', { class: 'sbs-status', role: 'status' });
  const counters = h('div', { class: 'sbs-counters' });
  const curves = trainingCurves({
    t, prefix: 'charts', height: 200, className: 'sbs-chart',
    series: Object.fromEntries(Object.entries(lines).map(([chart, list]) => [chart, list.map(({ id: line, run, metric, ...style }) => ({ id: line, ...style }))])),
  });
  const el = h('div', { class: ['panel', 'sbs-panel', className], id },
    h('p', { class: 'panel-title', html: t('training.title') }),
    html('p', { class: 'sbs-intro' }, t('training.intro')),
    controls.length ? h('div', { class: 'controls-row sbs-controls' }, ...controls) : null,
    h('div', { class: 'controls-row sbs-buttons' }, buttons.train.el, buttons.stop.el),
    status, counters,
    h('div', { class: 'sbs-plots' }, curves.loss.el, curves.accuracy.el));

  const runs = measuredRuns({ engine, finish, onEvent });
  function onEvent(event) {
    if (!store.record) return;
    applyEvent(store.record, event);
    if (event.type === 'finished' || event.type === 'error') {
      if (event.type === 'error') console.error(event.message);
      // The end is drawn at once, so that whatever reads data-state="done" finds it drawn.
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      draw();
      setStatus(event.type === 'finished' ? 'done' : 'failed');
      onRecord?.(store.record, store.status);
      return;
    }
    redraw();
  }

  function statusText() {
    const record = store.record;
    const params = {
      ...Object.fromEntries(ids.map((run) => [run, record?.runs[run].step ?? 0])),
      seconds: record?.ms == null ? '' : formatNumber(record.ms / 1000, 1),
      message: record?.error ?? '',
    };
    return t(`status.${store.status}`, params);
  }
  function setStatus(next) {
    store.status = next;
    el.dataset.state = next;
    if (store.record?.ms != null) el.dataset.ms = String(Math.round(store.record.ms));
    else delete el.dataset.ms;
    buttons.train.el.disabled = next === 'running';
    buttons.stop.el.disabled = next !== 'running';
    setText(status, statusText());
  }

  let timer = 0;
  let frame = 0;
  let drawnAt = -Infinity;
  function draw() {
    timer = 0;
    frame = 0;
    drawnAt = performance.now();
    setText(status, statusText());
    const record = store.record;
    counters.replaceChildren(...(record ? ids.map((run) => {
      const r = record.runs[run];
      const last = r.final?.evaluation ?? r.points.at(-1);
      const dataset = { run, step: String(r.step), ...(r.final ? { accuracy: String(last.accuracy), generated: String(last.generatedAccuracy) } : {}) };
      return html('p', { dataset }, t(`counters.${run}`, {
        step: r.step, loss: shown(lastLoss(r)), accuracy: shown(last?.accuracy), generated: shown(last?.generatedAccuracy),
      }));
    }) : []));
    const series = (list) => Object.fromEntries(list.map(({ id: line, run, metric }) => [line,
      (record?.runs[run].points ?? []).filter((p) => typeof p[metric] === 'number').map((p) => [p.step, p[metric]])]));
    curves.loss.update({ series: series(lines.loss) });
    curves.accuracy.update({ series: series(lines.accuracy), references: record ? references(record) : [] });
    onRecord?.(record, store.status);
  }
  function redraw() {
    if (timer || frame) return;
    const wait = store.status === 'running' ? Math.max(0, drawnAt + DRAW_MS - performance.now()) : 0;
    timer = setTimeout(() => { timer = 0; frame = requestAnimationFrame(draw); }, wait);
  }

  function start() {
    store.record = emptyRecord(ids);
    setStatus('running');
    runs.start(plan());
    draw();
  }
  function stop() {
    runs.stop();
    setStatus('stopped');
    draw();
  }

  setStatus(store.status);
  draw();
  return {
    el,
    // The settings changed: the runs so far are of other settings.
    reset() {
      runs.stop();
      store.record = null;
      setStatus('idle');
      draw();
    },
    destroy() {
      runs.stop();
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      curves.destroy();
    },
  };
}

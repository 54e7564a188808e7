// Section "gradients", the decisive experiment: the same model trained twice
// from the same seed, with and without the division by sqrt(d_k), each run in
// its own worker, on request (./experiment-runs.js, loaded with the worker
// bridge at the first click: a reader who never runs it does not download
// them). The held-out loss and accuracy of both runs plot as they come; when
// both are done, the summary says what they showed (./experiment.js). The
// runs live in `state` (kept across a language switch).
import { h, html, setHTML, setText } from '../../lib/dom.js';
import { trainingCurves } from '../../components/training-curves.js';
import { formatFull, formatNumber } from '../../lib/format.js';
import { RUNS, compareRuns, emptyRuns, evaluateEvery } from './experiment.js';
import { experimentControls } from './experiment-controls.js';

const STYLE = {
  scaled: { color: 'var(--c-scaled)', marker: 'square', dash: '6 3' },
  raw: { color: 'var(--c-raw)', marker: 'circle' },
};
// How the summary's numbers are written (formatFull for the others).
const SHOWN = {
  target: (x) => `${formatNumber(100 * x, 0)}%`, times: (x) => formatNumber(x, 1), a: String, b: String, steps: String,
  accScaled: (x) => formatNumber(x, 3), accRaw: (x) => formatNumber(x, 3), lossScaled: (x) => formatNumber(x, 3), lossRaw: (x) => formatNumber(x, 3),
};

export function experimentPanel(model, { t, engine, store, changed }) {
  const state = (store.experiment ??= { status: 'idle', runs: null, settings: null, failure: null });
  const settings = () => model.settings.train;

  const controls = experimentControls(settings(), {
    t,
    onSet: (changes) => { model.set('train', changes); settingsChanged(); },
    onRun: () => start(),
    onStop: () => stop('stopped'),
  });
  const curves = trainingCurves({
    t, prefix: 'experiment', height: 220, className: 'gr-plot',
    series: RUNS.map((run) => ({ id: run, label: t(`experiment.runs.${run}`), plainLabel: t(`experiment.runsPlain.${run}`), ...STYLE[run] })),
  });
  const status = h('p', { class: 'gr-status', role: 'status' });
  const summary = h('p', { class: 'gr-summary', 'aria-live': 'polite' });
  const el = h('div', { class: 'panel gr-panel', id: 'gradients-experiment', dataset: { state: state.status } },
    h('p', { class: 'panel-title', html: t('experiment.title') }),
    html('p', { class: 'gr-intro' }, t('experiment.intro')),
    controls.settingsRow, controls.plan, controls.buttonsRow,
    status,
    h('div', { class: 'gr-plots' }, curves.loss.el, curves.accuracy.el),
    summary);

  const failed = (message) => {
    console.error(message);
    state.failure = message;
    stop('stopped');
  };
  let runs = null;      // the two runs' driver, once loaded
  let loading = null;
  const loadRuns = () => (loading ??= import('./experiment-runs.js').then(({ experimentRuns }) => (runs = experimentRuns({
    engine, onUpdate: () => redraw(), onDone: () => { setStatus('done'); redraw(); }, onFailed: failed,
  }))));
  let starts = 0;       // a start that a later start or a stop overtook does nothing

  function showPlan() {
    const s = settings();
    controls.showPlan(t('experiment.plan', { dk: s.dk, steps: s.steps, every: evaluateEvery(s.steps) }));
  }

  function setStatus(next) {
    state.status = next;
    el.dataset.state = next;
    controls.setRunning(next === 'running');
  }

  function statusText() {
    if (state.status === 'running') return t('experiment.running', Object.fromEntries(RUNS.map((run) => [run, state.runs[run].step])));
    if (state.status === 'done') return t('experiment.done', { steps: state.settings.steps, dk: state.settings.dk });
    if (state.status === 'stopped' && state.failure) return t('experiment.failed', { message: state.failure });
    return t(state.status === 'stopped' ? 'experiment.stopped' : 'experiment.idle');
  }

  // Redrawn at most once per frame, however many messages arrive.
  let frame = 0;
  function draw() {
    frame = 0;
    const curve = (key) => Object.fromEntries(RUNS.map((run) => [run, (state.runs?.[run].points ?? []).map((p) => [p.step, p[key]])]));
    curves.update({ loss: curve('heldOutLoss'), accuracy: curve('accuracy') });
    setText(status, statusText());
    if (state.status !== 'done') {
      setHTML(summary, '');
      return;
    }
    const points = Object.fromEntries(RUNS.map((run) => [run, state.runs[run].points]));
    setHTML(summary, compareRuns(points, { steps: state.settings.steps }).map(({ key, params }) =>
      t(key, Object.fromEntries(Object.entries(params).map(([name, x]) => [name, x === null ? '\u2014' : (SHOWN[name] ?? formatFull)(x)])))).join(' '));
  }
  const redraw = () => { frame ||= requestAnimationFrame(draw); };

  function start() {
    const mine = ++starts;
    state.failure = null;
    state.settings = { ...settings() };
    state.runs = emptyRuns();
    setStatus('running');
    redraw();
    loadRuns().then((loaded) => { if (mine === starts) loaded.start(state.settings, state.runs); },
      (err) => { loading = null; if (mine === starts) failed(String(err?.message ?? err)); });
  }

  // Terminates both workers; `next`: the status after.
  function stop(next) {
    starts += 1;
    runs?.stop();
    setStatus(next);
    redraw();
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
      starts += 1;
      runs?.stop();
      cancelAnimationFrame(frame);
      curves.destroy();
    },
  };
}

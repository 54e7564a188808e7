// Section "learning", the training: the model's settings and the run's
// buttons (./training-controls.js), what the run shows (./progress-view.js,
// ./probe-maps.js), redrawn as it reports (at most once per frame), and the
// run itself, in a worker (src/training/training-run.js); reset terminates
// it. Changing a setting resets to the untrained model of the new settings
// (./state.js, computed on the page).
import { h, html, setText } from '../../lib/dom.js';
import { trainingRun } from '../../training/training-run.js';
import { MAX_STEPS, applyMessage, trainerOptions } from './state.js';
import { trainingControls } from './training-controls.js';
import { probeMaps } from './probe-maps.js';
import { progressView } from './progress-view.js';

// While the run plays, the averaged weights and the counters are drawn 10
// times a second, the rest (curves, heads, output, sentences) 4 times (the
// worker reports up to 30 times a second; drawing all of each report kept the
// main thread of this 2-core machine busy a third of the time); all of it at
// once when the run stops.
const DRAW_MS = 100;
const CHART_MS = 250;

export function trainingPanel(model, { t, engine, store, changed, onTranslation, onReset }) {
  const settings = () => model.settings;
  const fresh = () => ({ ...structuredClone(model.result), playing: false });
  store.run ??= fresh();
  // A run cut short by a re-mount (a language switch) lost its worker.
  store.status = store.status === 'playing' || store.status === 'paused' ? 'stopped' : (store.status ?? 'idle');
  let run = null;

  const controls = trainingControls(settings(), {
    t,
    onSet: (changes) => { model.set(changes); changed(); reset(); },
    actions: { play: () => play(), pause: () => run?.pause(), step: () => oneStep(), reset: () => reset() },
  });
  const status = h('p', { class: 'le-status', role: 'status' });
  const maps = probeMaps({ t });
  const el = h('div', { class: 'panel le-panel', id: 'learning-training' });
  const view = progressView({ t, panel: el, maps });
  el.append(
    h('p', { class: 'panel-title', html: t('training.title') }),
    html('p', { class: 'le-intro' }, t('training.intro')),
    ...controls.rows,
    status, view.counters, view.plots, maps.el, view.summary);

  let frame = 0;
  let timer = 0;
  let drawnAt = -Infinity;
  let chartsAt = -Infinity;
  function draw() {
    frame = 0;
    timer = 0;
    const now = performance.now();
    drawnAt = now;
    const details = !store.run.playing || now - chartsAt >= CHART_MS;
    if (details) chartsAt = now;
    view.draw(store.run, settings().task, { details });
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
    const { step } = store.run;
    Object.assign(el.dataset, { state: next, step: String(step) });
    const atLimit = step >= MAX_STEPS;
    controls.setStatus(next, atLimit);
    setText(status, t(next === 'paused' && atLimit ? 'status.limit' : `status.${next}`, { step, limit: MAX_STEPS }));
  }

  function onMessage(message) {
    applyMessage(store.run, message);
    if (message.type === 'paused') setStatus('paused');
    if (message.type === 'error') {
      console.error(message.message);
      stopRun();
      setStatus('idle');
      setText(status, t('status.failed', { message: message.message }));
    }
    if (message.type === 'translation') onTranslation?.(message);
    redraw();
  }

  function ensureRun() {
    if (run) return;
    if (store.status === 'stopped') restart();
    run = trainingRun({ engine, onMessage });
    run.start(trainerOptions(settings()));
  }
  function stopRun() {
    run?.stop();
    run = null;
  }
  // The untrained model of the current settings, as at the start.
  function restart() {
    store.run = fresh();
    maps.show(store.run, settings());
  }

  function play() {
    ensureRun();
    run.play({ paced: true, until: MAX_STEPS, probe: true });
    setStatus('playing');
    redraw();
  }
  function oneStep() {
    ensureRun();
    run.step();
    setStatus('paused');
  }
  function reset() {
    stopRun();
    restart();
    setStatus('idle');
    draw();
    onReset?.();
  }

  maps.show(store.run, settings());
  setStatus(store.status);
  draw();

  return {
    el,
    // The steps the model shown has trained (0: untrained).
    get step() { return store.run.step; },
    // Sends the reader's sentence to the trained model (its answer comes to
    // onTranslation); false when no run holds one (the untrained model reads it).
    translate(id, sentence) {
      if (!run || store.run.step === 0) return false;
      run.translate(id, sentence);
      return true;
    },
    destroy() {
      stopRun();
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      maps.destroy();
      view.destroy();
    },
  };
}

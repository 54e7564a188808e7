// The page side of a section's measured runs (./measured-runs.js): the runs
// the second page trains side by side (bottleneck's sweep, the trained
// family). What every such panel does alike:
//   - the runs' state lives in the section's store (store.runs, what `empty()`
//     makes; store.status), so a language switch, which re-mounts the section,
//     keeps finished runs; runs cut short by it lost their workers: 'stopped';
//   - each event is applied (`applyEvent`, the section's state.js); 'finished'
//     sets the total ms, 'error' the message;
//   - the status: 'idle' | 'running' | 'done' | 'stopped' | 'failed', on the
//     panel (data-state, data-ms, data-done: for the end-to-end tests), in its
//     status line (t('status.<status>', { done, count, seconds, message })) and
//     to the controls (controls.setStatus);
//   - the section's `draw(state, status)` at the next frame, at most every
//     DRAW_MS while running (the runs report up to 100 times a second).
//
//   const panel = runsPanel({
//     store, settings,                      // settings(): the section's current settings
//     empty, applyEvent, doneCount, count,  // the section's state.js: empty(settings) -> state, ...; count(state)
//     makeRuns,                             // (onEvent) -> { start(settings), stop() }: the section's runs.js
//     el, status, controls, t,              // the panel, its status line, its controls ({ setStatus }), its text
//     draw,                                 // draw(state, status): the section's charts, tables, sentences
//     onReset });                           // onReset(state): a new set of runs is about to be drawn
//   panel.play(); panel.stop();
//   panel.reset();      // the settings changed: stop, new empty runs, 'idle'
//   panel.destroy();
import { setText } from '../lib/dom.js';

export const DRAW_MS = 100;

export function runsPanel({ store, settings, empty, applyEvent, doneCount, count, makeRuns, el, status, controls, t, draw, onReset = () => {} }) {
  store.runs ??= empty(settings());
  if (store.status === 'running') store.status = 'stopped';
  store.status ??= 'idle';
  const runs = makeRuns(onEvent);

  let frame = 0;
  let timer = 0;
  let drawnAt = -Infinity;
  function drawNow() {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = 0;
    timer = 0;
    drawnAt = performance.now();
    draw(store.runs, store.status);
    el.dataset.done = String(doneCount(store.runs));
    setStatusText();
  }
  function redraw() {
    // Once the runs are over, the last draw is not held back.
    if (timer && store.status !== 'running') { clearTimeout(timer); timer = 0; }
    if (frame || timer) return;
    const wait = store.status === 'running' ? drawnAt + DRAW_MS - performance.now() : 0;
    if (wait > 0) timer = setTimeout(() => { timer = 0; frame = requestAnimationFrame(drawNow); }, wait);
    else frame = requestAnimationFrame(drawNow);
  }

  function setStatusText() {
    const state = store.runs;
    setText(status, t(`status.${store.status}`, {
      done: doneCount(state), count: count(state), message: state.error ?? '',
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

  function fresh(next) {
    store.runs = empty(settings());
    onReset(store.runs);
    setStatus(next);
  }

  onReset(store.runs);
  setStatus(store.status);
  drawNow();
  return {
    play() {
      fresh('running');
      runs.start(settings());
      drawNow();
    },
    stop() {
      runs.stop();
      setStatus('stopped');
      drawNow();
    },
    reset() {
      runs.stop();
      fresh('idle');
      drawNow();
    },
    destroy() {
      runs.stop();
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    },
  };
}

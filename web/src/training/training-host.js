// The training protocol: one trainer of the engine's learning module
// (engine.createTrainer), driven by messages. It runs in the training worker
// (./training-worker.js) and, where no worker can start (a page opened from
// disk), on the page itself in short slices (./training-client.js). Plain JS,
// no DOM: Vitest drives it in Node with the real engine.
//
//   in:  { type: 'start', options }       a new trainer (createTrainer's options); the previous one is disposed
//        { type: 'play', until?, paced?, evaluateEvery?, probe? }
//                                          train until step `until` (or a 'pause'): `paced`, the
//                                          reader's pace (./pace.js); `evaluateEvery`, a point at
//                                          every multiple of it (else one per message); `probe`
//                                          (default true), the probe's weights with each message
//        { type: 'pause' }
//        { type: 'step' }                  one step (a run stops first)
//        { type: 'translate', id, sentence }
//        { type: 'dispose' }               the trainer's memory is freed
//   out: { type: 'started', trainer: { options, vocabulary, alignment, sourceLength, targetLength, heldOut },
//          step: 0, points: [point], probe }
//        { type: 'progress', step, points: [point, ...], probe?, playing }
//        { type: 'paused', step, reason: 'asked' | 'until' }
//        { type: 'translation', id, reading } or { type: 'translation', id, error }
//        { type: 'error', message }
//   point: { step, loss, accuracy, heldOutLoss }: `loss` is the training loss of step `step`
//          (null at step 0), `accuracy` and `heldOutLoss` the held-out evaluation after it.
import { FRAME_MS, batchLimit, evaluatesAt } from './pace.js';

import { describeTrainer } from './describe-trainer.js';

export { describeTrainer };

const messageOf = (err) => String(err?.message ?? err);

// A point of the curves: the training loss of the step just taken and the
// held-out evaluation after it.
export function pointOf(trainer, step, loss) {
  const { accuracy, loss: heldOutLoss } = trainer.evaluate();
  return { step, loss, accuracy, heldOutLoss };
}

// engine: the engine (with the learning module) or a promise of it.
// post(message): sends a message out. schedule(fn, ms): runs fn later (a
// batch at a time, so that messages are received between batches).
// batchMs: the longest a batch trains before it reports.
export function createTrainingHost({
  engine, post, schedule = (fn, ms) => setTimeout(fn, ms), now = () => performance.now(), batchMs = 20,
}) {
  let trainer = null;
  let step = 0;
  let run = null;     // { until, paced, evaluateEvery, probe, token }
  let runs = 0;
  let queue = Promise.resolve();

  function stopRun() {
    run = null;
  }

  function requireTrainer(type) {
    if (!trainer) throw new Error(`${type}: no trainer; send { type: 'start', options } first`);
    return trainer;
  }

  function batch(token) {
    if (!run || run.token !== token) return;
    const started = now();
    const limit = batchLimit(step, run);
    const points = [];
    let loss = null;
    try {
      for (let taken = 0; taken < limit && (taken === 0 || now() - started < batchMs); taken++) {
        ({ step, loss } = trainer.step(1));
        if (evaluatesAt(step, run)) points.push(pointOf(trainer, step, loss));
      }
      if (!run.evaluateEvery && points.at(-1)?.step !== step) points.push(pointOf(trainer, step, loss));
    } catch (err) {
      stopRun();
      post({ type: 'error', message: messageOf(err) });
      return;
    }
    const done = step >= run.until;
    post({ type: 'progress', step, points, probe: run.probe ? trainer.probe() : undefined, playing: !done });
    if (done) {
      stopRun();
      post({ type: 'paused', step, reason: 'until' });
      return;
    }
    schedule(() => batch(token), run.paced ? Math.max(0, FRAME_MS - (now() - started)) : 0);
  }

  const handlers = {
    start(e, { options }) {
      stopRun();
      trainer?.dispose();
      trainer = null;
      trainer = e.createTrainer(options);
      step = 0;
      post({ type: 'started', trainer: describeTrainer(trainer), step, points: [pointOf(trainer, 0, null)], probe: trainer.probe() });
    },
    play(e, { until = Infinity, paced = false, evaluateEvery = 0, probe = true }) {
      requireTrainer('play');
      if (step >= until) {
        post({ type: 'paused', step, reason: 'until' });
        return;
      }
      run = { until, paced, evaluateEvery, probe, token: ++runs };
      const token = run.token;
      schedule(() => batch(token), 0);
    },
    pause() {
      if (!run) return;
      stopRun();
      post({ type: 'paused', step, reason: 'asked' });
    },
    step() {
      requireTrainer('step');
      stopRun();
      const r = trainer.step(1);
      step = r.step;
      post({ type: 'progress', step, points: [pointOf(trainer, step, r.loss)], probe: trainer.probe(), playing: false });
    },
    translate(e, { id, sentence }) {
      try {
        post({ type: 'translation', id, reading: requireTrainer('translate').translate(sentence) });
      } catch (err) {
        post({ type: 'translation', id, error: messageOf(err) });
      }
    },
    dispose() {
      stopRun();
      trainer?.dispose();
      trainer = null;
    },
  };

  return {
    // Messages are handled in the order received (the first waits for the engine).
    handle(message) {
      queue = queue.then(async () => {
        const handler = handlers[message?.type];
        if (!handler) throw new Error(`training: unknown message type ${JSON.stringify(message?.type)}`);
        handler(await engine, message);
      }).catch((err) => post({ type: 'error', message: messageOf(err) }));
      return queue;
    },
    get playing() { return run !== null; },
    get step() { return step; },
  };
}

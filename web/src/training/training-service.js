// The training service: one trainer of the engine's learning module
// (engine.createTrainer), driven by requests over the worker bridge
// (src/worker/bridge.js): in a worker, or on the page in short slices where no
// worker can start. Plain JS, no DOM: Vitest drives it in Node with the real engine.
//
//   start(options)  -> { trainer: { options, vocabulary, alignment, sourceLength, targetLength, heldOut },
//                        step: 0, points: [point], probe }
//                      a new trainer (createTrainer's options); the previous one is disposed
//   play({ until?, paced?, evaluateEvery?, probe? })
//                   progress { step, points: [point, ...], probe?, playing } per batch
//                   -> { step, reason }: 'until' (reached `until`), 'asked' (the request was
//                      cancelled: a pause), 'stopped' (another request stopped the run)
//                   `paced`: the reader's pace (./pace.js); `evaluateEvery`: a point at every
//                   multiple of it (else one per batch); `probe` (default true): the probe's
//                   weights with each batch
//   step()          -> { step, points: [point], probe, playing: false }: one step (a run stops first)
//   translate(sentence) -> the trained model's reading of the sentence
//   dispose()       the trainer's memory is freed
//   point: { step, loss, accuracy, heldOutLoss }: `loss` is the training loss of step `step`
//          (null at step 0), `accuracy` and `heldOutLoss` the held-out evaluation after it.
import { createAttention } from '../engine/index.js';
import { FRAME_MS, batchLimit, evaluatesAt } from './pace.js';
import { describeTrainer } from './describe-trainer.js';

// A point of the curves: the training loss of the step just taken and the
// held-out evaluation after it.
export function pointOf(trainer, step, loss) {
  const { accuracy, loss: heldOutLoss } = trainer.evaluate();
  return { step, loss, accuracy, heldOutLoss };
}

// engine: the engine (with the learning module) or a promise of it; in a
// worker (none given), its own, of the same build as the page's (the .wasm is
// fetched once). A batch trains for at most the bridge's slice (sliceMs).
export function createService({ engine = createAttention({ learning: true }), now = () => performance.now() } = {}) {
  let trainer = null;
  let step = 0;
  let run = null;     // the playing run: { until, paced, evaluateEvery, probe }

  function requireTrainer(name) {
    if (!trainer) throw new Error(`${name}: no trainer; request start(options) first`);
    return trainer;
  }

  // One batch of the run: steps until its limit or `batchMs`, the points it takes.
  function batch(r, batchMs) {
    const started = now();
    const limit = batchLimit(step, r);
    const points = [];
    let loss = null;
    for (let taken = 0; taken < limit && (taken === 0 || now() - started < batchMs); taken++) {
      ({ step, loss } = trainer.step(1));
      if (evaluatesAt(step, r)) points.push(pointOf(trainer, step, loss));
    }
    if (!r.evaluateEvery && points.at(-1)?.step !== step) points.push(pointOf(trainer, step, loss));
    return { points, started };
  }

  return {
    async start(options) {
      const e = await engine;
      run = null;
      trainer?.dispose();
      trainer = null;
      trainer = e.createTrainer(options);
      step = 0;
      return { trainer: describeTrainer(trainer), step, points: [pointOf(trainer, 0, null)], probe: trainer.probe() };
    },

    async play({ until = Infinity, paced = false, evaluateEvery = 0, probe = true } = {}, { progress, signal, sliceMs, nextSlice }) {
      await engine;
      requireTrainer('play');
      const mine = { until, paced, evaluateEvery, probe };
      run = mine;
      if (step >= until) {
        run = null;
        return { step, reason: 'until' };
      }
      await nextSlice(0);
      for (;;) {
        if (run !== mine) return { step, reason: 'stopped' };
        if (signal.aborted) {
          run = null;
          return { step, reason: 'asked' };
        }
        let result;
        try {
          result = batch(mine, sliceMs);
        } catch (err) {
          run = null;
          throw err;
        }
        const done = step >= until;
        progress({ step, points: result.points, probe: probe ? trainer.probe() : undefined, playing: !done });
        if (done) {
          run = null;
          return { step, reason: 'until' };
        }
        await nextSlice(paced ? Math.max(0, FRAME_MS - (now() - result.started)) : 0);
      }
    },

    async step() {
      await engine;
      requireTrainer('step');
      run = null;
      const r = trainer.step(1);
      step = r.step;
      return { step, points: [pointOf(trainer, step, r.loss)], probe: trainer.probe(), playing: false };
    },

    async translate(sentence) {
      await engine;
      return requireTrainer('translate').translate(sentence);
    },

    async dispose() {
      await engine;
      run = null;
      trainer?.dispose();
      trainer = null;
    },
  };
}

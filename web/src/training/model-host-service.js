// The model host: one trainer of the model engine (engine.createTrainer with
// a `model`), trained to a held-out target and read in every way the engine
// offers, driven by requests over the worker bridge (src/worker/bridge.js).
// Sections "induction" and "decoding" use it (their runs.js), one host per
// model, each in a worker of its own: until the page's shared multi-model
// service stands, this is the one place their requests are answered. Plain
// JS, no DOM: Vitest drives it in Node with the real engine.
//
//   start(options)    -> { trainer: describeTrainer(...) + { parameterCount, work } }
//   train({ until, every, examples, stopAt?, headScores?, probe? })
//                     progress { step, point, probe? } every `every` steps:
//                       point { step, loss, accuracy, generatedAccuracy, heldOutLoss, headScores? }:
//                       `loss` the mean training loss of the steps since the last point,
//                       the rest evaluate({ examples }) on the first `examples` held-out examples
//                     -> { step, reason }: 'target' (point[stopAt.metric] >= stopAt.value),
//                        'until' (step `until` reached), 'asked' (cancelled)
//   evaluate(options) -> trainer.evaluate(options) ({ ablate?, examples? })
//   probe()           -> trainer.probe()
//   headScores()      -> trainer.headScores()
//   generate({ sentence?, cache? }) -> trainer.generate(sentence, { cache })
//   timeGenerate({ sentence?, rounds, calls }) -> { cache: [ms], recompute: [ms], generation }
//                     each sample `calls` generate()s of the sentence, with the cache and
//                     without, in alternating order, after one unmeasured call of each
//   dispose()         the trainer's memory is freed
import { createAttention } from '../engine/index.js';
import { describeTrainer } from './describe-trainer.js';

// One held-out point after `step`: the mean training loss since the last point
// and the evaluation on the first `examples` held-out examples.
export function pointOf(trainer, { step, losses, examples, headScores }) {
  const e = trainer.evaluate(examples ? { examples } : {});
  const point = {
    step,
    loss: losses.length ? losses.reduce((a, b) => a + b, 0) / losses.length : null,
    accuracy: e.accuracy,
    generatedAccuracy: e.generatedAccuracy,
    heldOutLoss: e.loss,
  };
  if (headScores) point.headScores = trainer.headScores();
  return point;
}

// Whether a point meets the target: stopAt { metric, value }, or none (never).
export const meetsTarget = (point, stopAt) => Boolean(stopAt) && point[stopAt.metric] >= stopAt.value;

// engine: the page's engine or a promise of it (where no worker starts: used
// if it has every model, learning: true, as the second page's has); none in a
// worker. Otherwise the service loads the learning module with every model
// itself, at its first request: a section of this host needs no learning
// module on the page, and its widget downloads that module only when the reader trains.
export function createService({ engine, now = () => performance.now() } = {}) {
  const loaded = Promise.resolve(engine).then((e) => (e?.learning === true ? e : createAttention({ learning: true })));
  let trainer = null;
  let training = null;   // the train request that runs

  const requireTrainer = (name) => {
    if (!trainer) throw new Error(`${name}: no trainer; request start(options) first`);
    return trainer;
  };

  return {
    async start(options) {
      const e = await loaded;
      training = null;
      trainer?.dispose();
      trainer = null;
      trainer = e.createTrainer({ ...options, longRunning: true });
      return { trainer: { ...describeTrainer(trainer), parameterCount: trainer.parameterCount, work: { ...trainer.work } } };
    },

    async train({ until, every = 25, examples = 0, stopAt = null, headScores = false, probe = false } = {}, { progress, signal, sliceMs, nextSlice }) {
      await loaded;
      const t = requireTrainer('train');
      const mine = {};
      training = mine;
      let losses = [];
      let step = t.stepsTaken;
      while (step < until) {
        if (training !== mine) return { step, reason: 'stopped' };
        if (signal.aborted) return { step, reason: 'asked' };
        const started = now();
        let point = null;
        // Steps until the slice is used or a point is due.
        do {
          const r = t.step(1);
          step = r.step;
          losses.push(r.loss);
          if (step % every === 0 || step >= until) {
            point = pointOf(t, { step, losses, examples, headScores });
            losses = [];
          }
        } while (!point && now() - started < sliceMs);
        if (point) {
          progress({ step, point, probe: probe ? t.probe() : undefined });
          if (meetsTarget(point, stopAt)) {
            training = null;
            return { step, reason: 'target' };
          }
        }
        await nextSlice(0);
      }
      training = null;
      return { step, reason: 'until' };
    },

    async evaluate(options) {
      await loaded;
      return requireTrainer('evaluate').evaluate(options ?? {});
    },
    async probe() {
      await loaded;
      return requireTrainer('probe').probe();
    },
    async headScores() {
      await loaded;
      return requireTrainer('headScores').headScores();
    },
    async generate({ sentence, cache = true } = {}) {
      await loaded;
      return requireTrainer('generate').generate(sentence, { cache });
    },

    async timeGenerate({ sentence, rounds = 15, calls = 4 } = {}, { signal, nextSlice }) {
      await loaded;
      const t = requireTrainer('timeGenerate');
      const generation = t.generate(sentence, { cache: true });
      t.generate(sentence, { cache: false });   // unmeasured: the first call of each pays for its code
      const times = { cache: [], recompute: [] };
      const sample = (cache) => {
        const started = now();
        for (let i = 0; i < calls; i++) t.generate(sentence, { cache });
        return (now() - started) / calls;
      };
      for (let round = 0; round < rounds && !signal?.aborted; round++) {
        // Alternating which goes first: neither always runs on a warmer or a busier machine.
        const order = round % 2 === 0 ? [true, false] : [false, true];
        for (const cache of order) times[cache ? 'cache' : 'recompute'].push(sample(cache));
        await nextSlice(0);
      }
      return { ...times, generation };
    },

    async dispose() {
      await loaded;
      training = null;
      trainer?.dispose();
      trainer = null;
    },
  };
}

// The training service: trainers of a learning module of the engine
// (engine.createTrainer), held by id, driven by requests over the worker bridge
// (src/worker/bridge.js): in a worker, or on the page in short slices where no
// worker can start. Plain JS, no DOM: Vitest drives it in Node with the real
// engine (tests/js/training.test.js). Sections use it through
// ./training-run.js (one trainer, played by the reader) or ./training-pool.js
// (several runs spread over two workers).
//
// Every request names its trainer: `id`, a string chosen by the caller. Each
// trainer has at most one run (a play) at a time; start, step and dispose of
// an id stop its run (its play replies 'stopped'); the other requests read the
// trainer between the run's batches and leave the run going.
//
//   start({ id, options, measure? })
//       -> { id, trainer: { options, vocabulary, alignment, sourceLength, targetLength, heldOut },
//            step: 0, points: [point], probe }
//       a new trainer (createTrainer's options; the engine of its model's module,
//       learningModuleFor); a trainer of that id is disposed first
//   play({ id, until?, target?, evaluateEvery?, measure?, probe?, paced? })
//       progress { id, step, points: [point, ...], probe?, playing } per batch
//       -> { id, step, reason, point }: reason 'until' (step reached `until`), 'target' (a point
//          reached `target`), 'asked' (the request was cancelled: a pause), 'stopped' (another
//          request stopped the run); point: the last point taken (null if none)
//       until: the most steps (default: no limit); target: { metric, atLeast } or { metric, atMost }
//          on a point's figure (e.g. { metric: 'generatedAccuracy', atLeast: 0.95 }), checked at
//          each point; evaluateEvery: a point at every multiple of it and at `until` (default: one
//          per batch); probe (default true): the probe's reading with each batch; paced: the
//          reader's pace (./pace.js), for watching
//   step({ id, count?, measure? })  -> { id, step, points: [point], probe, playing: false }: count steps (default 1)
//   evaluate({ id, examples?, ablate? })     -> trainer.evaluate: { loss, accuracy, generatedAccuracy, sequenceAccuracy }
//   alignmentAgreement({ id, examples? })    -> { agreement, oneRight, positions, examples }
//   probe({ id })                             -> the probe sentence's reading (every attention map)
//   translate({ id, sentence })               -> the sentence's reading (an Error naming unknown words)
//   generate({ id, sentence?, cache? })       -> trainer.generate's { source, tokens, steps } and
//                                                ms: its time in this thread (performance.now())
//   headScores({ id })                        -> [{ layer, head, previousToken, prefixMatch }]
//   dispose({ id })                           frees that trainer (nothing if there is none)
//
//   measure: what a point holds besides the step and the training loss:
//     { examples?: n }     held-out examples each evaluation reads (default: all; fewer cost less:
//                          the engine's models decode every one greedily)
//     { agreement?: n }    trainer.alignmentAgreement(n) as the point's `agreement`
//     { headScores?: true } trainer.headScores() as the point's `headScores` (model 'decoder')
//   point: { step, loss, accuracy, heldOutLoss, generatedAccuracy, sequenceAccuracy,
//            agreement?, headScores? }: `loss` the training loss of step `step` (null at step 0), the
//          rest the held-out evaluation after it (heldOutLoss: its loss).
import { createAttention } from '../engine/index.js';
import { FRAME_MS, batchLimit, evaluatesAt } from './pace.js';
import { describeTrainer } from './describe-trainer.js';

const now = () => performance.now();

// A point of the curves: the training loss of the step just taken and the
// held-out evaluation after it, with what `measure` asks for.
export function pointOf(trainer, step, loss, measure = {}) {
  const { examples, agreement, headScores } = measure;
  const evaluation = trainer.evaluate(examples === undefined ? undefined : { examples });
  const point = {
    step, loss, accuracy: evaluation.accuracy, heldOutLoss: evaluation.loss,
    generatedAccuracy: evaluation.generatedAccuracy, sequenceAccuracy: evaluation.sequenceAccuracy,
  };
  if (agreement !== undefined) point.agreement = trainer.alignmentAgreement(agreement).agreement;
  if (headScores) point.headScores = trainer.headScores();
  return point;
}

// Whether `point` reaches `target` ({ metric, atLeast } or { metric, atMost }).
export function reaches(point, target) {
  if (!target || !point) return false;
  const value = point[target.metric];
  if (typeof value !== 'number') return false;
  return target.atLeast !== undefined ? value >= target.atLeast : value <= target.atMost;
}

function checkTarget(target) {
  if (target === undefined) return;
  const ok = target && typeof target.metric === 'string'
    && (typeof target.atLeast === 'number') !== (typeof target.atMost === 'number');
  if (!ok) throw new TypeError(`target: expected { metric, atLeast } or { metric, atMost }, got ${JSON.stringify(target)}`);
}

// The learning module a trainer of `model` needs (createAttention's `learning`):
// 'basic' (the backward pass and model 'attention' only) or true (every model).
export const learningModuleFor = (model = 'attention') => (model === 'attention' ? 'basic' : true);

// Whether an engine's module has the models of `needed` (learningModuleFor):
// the module with every model has the one-layer model too.
const hasModule = (engine, needed) => engine?.learning === needed || engine?.learning === true;

// engine: the page's engine or a promise of it (where no worker starts), used
// for a trainer if its module has the trainer's model; none in a worker. Any
// other trainer gets the engine of the module its model needs
// (learningModuleFor), of the page engine's build if there is one: a section
// that trains in this service needs no learning module on the page, and its
// widget downloads the module when the reader trains (in its worker, or on the
// page). A batch trains for at most the bridge's slice (sliceMs). `clock`: ms,
// for tests.
export function createService({ engine, now: clock = now } = {}) {
  const engineFor = async (model) => {
    const given = await engine;
    const needed = learningModuleFor(model);
    return hasModule(given, needed) ? given : createAttention({ learning: needed, ...(given ? { build: given.build } : {}) });
  };
  // id -> { ready: Promise, trainer, step, run }; run: the playing run's options, or null.
  const trainers = new Map();

  function idOf(payload, name) {
    const id = payload?.id;
    if (typeof id !== 'string' || id === '') throw new TypeError(`${name}: id: expected a string naming a trainer, got ${JSON.stringify(id)}`);
    return id;
  }
  // The trainer `id` once its start has finished.
  async function entryOf(payload, name) {
    const id = idOf(payload, name);
    const entry = trainers.get(id);
    if (entry) await entry.ready;
    if (!entry?.trainer || trainers.get(id) !== entry) throw new Error(`${name}: no trainer "${id}"; request start({ id, options }) first`);
    return entry;
  }

  // One batch of a run: steps until its limit, `batchMs` or a point that
  // reaches the target; the points it takes.
  function batch(entry, r, batchMs) {
    const started = clock();
    const limit = batchLimit(entry.step, r);
    const points = [];
    let loss = null;
    for (let taken = 0; taken < limit && (taken === 0 || clock() - started < batchMs); taken++) {
      ({ step: entry.step, loss } = entry.trainer.step(1));
      if (evaluatesAt(entry.step, r)) {
        points.push(pointOf(entry.trainer, entry.step, loss, r.measure));
        if (reaches(points.at(-1), r.target)) break;
      }
    }
    if (!r.evaluateEvery && points.at(-1)?.step !== entry.step) points.push(pointOf(entry.trainer, entry.step, loss, r.measure));
    return { points, started };
  }

  return {
    async start(payload) {
      const id = idOf(payload, 'start');
      const { options, measure } = payload;
      const previous = trainers.get(id);
      const entry = { trainer: null, step: 0, run: null, ready: null };
      trainers.set(id, entry);
      entry.ready = (async () => {
        await previous?.ready.catch(() => {});
        if (previous) previous.run = null;
        previous?.trainer?.dispose();
        const e = await engineFor(options?.model);
        if (trainers.get(id) !== entry) return;   // started again meanwhile
        entry.trainer = e.createTrainer(options);
      })();
      try {
        await entry.ready;
      } catch (err) {
        if (trainers.get(id) === entry) trainers.delete(id);
        throw err;
      }
      if (!entry.trainer) throw Object.assign(new Error(`start: trainer "${id}" was started again`), { name: 'AbortError' });
      const { trainer } = entry;
      return { id, trainer: describeTrainer(trainer), step: 0, points: [pointOf(trainer, 0, null, measure)], probe: trainer.probe() };
    },

    async play(payload, { progress, signal, sliceMs, nextSlice }) {
      const entry = await entryOf(payload, 'play');
      const { id } = payload;
      const { until = Infinity, target, evaluateEvery = 0, measure = {}, probe = true, paced = false } = payload;
      checkTarget(target);
      const mine = { until, target, evaluateEvery, measure, paced };
      entry.run = mine;
      let last = null;
      const end = (reason) => {
        if (entry.run === mine) entry.run = null;
        return { id, step: entry.step, reason, point: last };
      };
      if (entry.step >= until) return end('until');
      await nextSlice(0);
      for (;;) {
        if (entry.run !== mine) return { id, step: entry.step, reason: 'stopped', point: last };
        if (signal.aborted) return end('asked');
        let result;
        try {
          result = batch(entry, mine, sliceMs);
        } catch (err) {
          end('failed');
          throw err;
        }
        last = result.points.at(-1) ?? last;
        const reason = reaches(last, target) && result.points.length > 0 ? 'target' : entry.step >= until ? 'until' : null;
        progress({ id, step: entry.step, points: result.points, probe: probe ? entry.trainer.probe() : undefined, playing: !reason });
        if (reason) return end(reason);
        await nextSlice(paced ? Math.max(0, FRAME_MS - (clock() - result.started)) : 0);
      }
    },

    async step(payload) {
      const entry = await entryOf(payload, 'step');
      const { id, count = 1, measure } = payload;
      entry.run = null;
      const r = entry.trainer.step(count);
      entry.step = r.step;
      return { id, step: entry.step, points: [pointOf(entry.trainer, entry.step, r.loss, measure)], probe: entry.trainer.probe(), playing: false };
    },

    async evaluate(payload) {
      const { trainer } = await entryOf(payload, 'evaluate');
      const { examples, ablate } = payload;
      return trainer.evaluate({ ...(examples === undefined ? {} : { examples }), ...(ablate === undefined ? {} : { ablate }) });
    },

    async alignmentAgreement(payload) {
      const { trainer } = await entryOf(payload, 'alignmentAgreement');
      return payload.examples === undefined ? trainer.alignmentAgreement() : trainer.alignmentAgreement(payload.examples);
    },

    async probe(payload) {
      return (await entryOf(payload, 'probe')).trainer.probe();
    },

    async translate(payload) {
      return (await entryOf(payload, 'translate')).trainer.translate(payload.sentence);
    },

    async generate(payload) {
      const { trainer } = await entryOf(payload, 'generate');
      const { sentence, cache } = payload;
      const started = clock();
      const generation = trainer.generate(sentence, cache === undefined ? undefined : { cache });
      return { ...generation, ms: clock() - started };
    },

    async headScores(payload) {
      return (await entryOf(payload, 'headScores')).trainer.headScores();
    },

    async dispose(payload) {
      const id = idOf(payload, 'dispose');
      const entry = trainers.get(id);
      if (!entry) return;
      trainers.delete(id);
      await entry.ready.catch(() => {});
      entry.run = null;
      entry.trainer?.dispose();
      entry.trainer = null;
    },
  };
}

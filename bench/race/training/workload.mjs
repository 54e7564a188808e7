// The training workload of the race: steps of the project's seq2seq model
// (createTrainer with the default options of a task, seed SEED) on its own
// batches. Every contender trains the same model (sizes, batch, AdamW, scale)
// from the same initial parameters on the same batches, so that its losses can
// be checked against the project's, step by step, before it is timed.
//
// A call is STEPS_PER_CALL training steps in a worker thread (the page trains
// in a Web Worker): one message there, one back with the last loss. The
// figure is ms per step (the call's time / STEPS_PER_CALL, the message's round
// trip included: well under 0.1 ms).
export const SEED = 42;
export const TASKS = ['reverse', 'translate'];
export const STEPS_PER_CALL = 50;
export const BATCHES = 64;     // distinct batches the peers cycle through (the project draws its own)
export const CHECK_STEPS = 5;  // losses compared before timing

// The tolerance of the loss check (this workload's and ./transformer-workload.mjs's):
// |loss - project's| <= absolute + relative |project's|.
// The sums run in other orders (and tfjs uses its own exp, log and tanh), so the
// losses of a few steps agree to about 1e-6; a model that differs in any way
// (a transposed weight, a missing residual or mask, another scale) is off by 1e-3 and more.
export const TOLERANCE = { absolute: 1e-5, relative: 1e-4 };

// engine: a testing engine of the learning module (createTestingEngine({ learning: true })).
// -> the problem: sizes and options, the initial parameters and their layout,
//    the positional encoding, BATCHES batches and the project's losses on them.
export function makeProblem(engine, task) {
  const trainer = engine.createTrainer({ task, seed: SEED });
  const { heads, dModel, batchSize, scale, learningRate, weightDecay } = trainer.options;
  const S = trainer.sourceLength, T = trainer.targetLength;
  const Vs = trainer.vocabulary.source.length, Vt = trainer.vocabulary.target.length;
  // The flat parameter layout of attn/seq2seq_model.hpp.
  const sizes = { embedding: Vs * dModel, positions: T * dModel, wq: dModel * dModel, wk: dModel * dModel,
    wv: dModel * dModel, wo: dModel * dModel, wout: Vt * dModel, bout: Vt };
  const layout = {};
  let offset = 0;
  for (const [name, size] of Object.entries(sizes)) {
    layout[name] = offset;
    offset += size;
  }
  const initial = trainer.parameters();
  if (offset !== initial.length) throw new Error(`training workload: layout of ${offset} floats, the model has ${initial.length}`);
  const batches = [];
  const losses = [];
  for (let i = 0; i < BATCHES; i++) {
    losses.push(trainer.step().loss);
    const { sources, targets } = trainer.lastBatch();
    batches.push({ sources: Array.from(sources), targets: Array.from(targets) });
  }
  trainer.dispose();
  return {
    kind: 'seq2seq', task, seed: SEED, trainerOptions: {}, stepsPerCall: STEPS_PER_CALL, heads, dModel, batchSize, learningRate, weightDecay, S, T, Vs, Vt,
    scale: scale ? Math.fround(1 / Math.sqrt(dModel / heads)) : 1,
    parameterCount: initial.length, sizes, layout, initial,
    positions: engine.positionalEncoding(S, dModel), batches, losses,
  };
}

// losses of CHECK_STEPS steps -> { ok, maxError } against the project's losses on the same batches.
export function checkLosses(problem, losses) {
  let maxError = 0;
  let ok = losses.length === CHECK_STEPS;
  losses.forEach((loss, i) => {
    const expected = problem.losses[i];
    const error = Math.abs(loss - expected);
    maxError = Number.isNaN(error) ? Infinity : Math.max(maxError, error);
    if (!(error <= TOLERANCE.absolute + TOLERANCE.relative * Math.abs(expected))) ok = false;
  });
  return { ok, maxError, losses };
}

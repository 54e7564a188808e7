// The transformer workload of the training race (issue 22): training steps of
// the engine's `transformer` at the issue's shape (2 layers, dModel 64, 4 heads,
// MLP 256, batch 32, source 16 and target 16 words: task reverse with
// sourceLength 16, whose decoder sees T = 17 positions, BOS or EOS added), seed
// SEED, on the project's own batches. Every contender trains the same model
// from the same initial parameters (the testing engine's parameters() and
// parameterBlocks()) on the same batches (lastEngineBatch()), so its losses
// are checked against the project's, step by step, before it is timed.
//
// Checked, not raced: the same model on task translate, whose sentences vary in
// length, so that the padding masks (source keys, target keys) and the counted
// positions of the loss are exercised; reverse pads nothing.
//
// A call is as many steps as take about CALL_MS (at least one; ./race.mjs times a
// warm call of each contender to choose): its steps take from ~20 ms (native) to
// ~500 ms (tfjs, plain form) of CPU, and on a shared machine every call first waits
// for a core (measured here at load 5-11: ~0.1 s a call), so calls of one length wait
// alike, where calls of the same number of steps would not. The loss check is
// ./workload.mjs's (checkLosses, its TOLERANCE).
export const SEED = 42;
export const CALL_MS = 400;
export const BATCHES = 16;  // distinct batches the peers cycle through (the project draws its own)

// What the issue asks for, checked against the trainer's options before anything runs.
export const ISSUE_SHAPE = { layers: 2, dModel: 64, heads: 4, mlp: 256, batchSize: 32, sourceLength: 16, targetWords: 16 };

export const RACED = { task: 'reverse', trainerOptions: { model: 'transformer', sourceLength: 16 }, race: true };
export const CHECKED_ONLY = { task: 'translate', trainerOptions: { model: 'transformer' }, race: false };

// engine: a testing engine of the learning module; spec: RACED or CHECKED_ONLY.
// -> the problem: the options, the initial parameters and their blocks, the
//    sinusoids, BATCHES batches and the project's losses on them.
export function makeTransformerProblem(engine, { task, trainerOptions, race }) {
  const trainer = engine.createTrainer({ task, seed: SEED, ...trainerOptions, longRunning: true });
  try {
    const options = trainer.options;
    const blocks = trainer.parameterBlocks();
    const mlp = blocks.find((b) => b.name === 'encoder.0.mlp.w1')?.cols;
    if (race) {
      const shape = { layers: options.layers, dModel: options.dModel, heads: options.heads, mlp, batchSize: options.batchSize,
        sourceLength: trainer.sourceLength, targetWords: trainer.targetLength };
      if (JSON.stringify(shape) !== JSON.stringify(ISSUE_SHAPE)) {
        throw new Error(`transformer workload: the trainer's shape ${JSON.stringify(shape)} is not the issue's ${JSON.stringify(ISSUE_SHAPE)}`);
      }
    }
    const initial = trainer.parameters();
    const last = blocks[blocks.length - 1];
    if (last.offset + last.rows * last.cols !== initial.length) {
      throw new Error(`transformer workload: the blocks end at ${last.offset + last.rows * last.cols}, the model has ${initial.length} parameters`);
    }
    const batches = [];
    const losses = [];
    for (let i = 0; i < BATCHES; i++) {
      losses.push(trainer.step().loss);
      batches.push(trainer.lastEngineBatch());
    }
    const longest = Math.max(...batches.map((b) => Math.max(b.sourceLength, b.targetLength)));
    const first = batches[0];
    return {
      kind: 'transformer', task, seed: SEED, trainerOptions, race, stepsPerCall: 1, callMs: CALL_MS,
      options: { ...options }, mlp, parameterCount: initial.length,
      S: first.sourceLength, T: first.targetLength, batchSize: first.size,
      blocks, initial, sinusoids: engine.positionalEncoding(longest, options.dModel), batches, losses,
    };
  } finally {
    trainer.dispose();
  }
}

// createTrainer: a small sequence-to-sequence model with one attention layer,
// trained by the core (attn::Trainer, attn/trainer.hpp, through
// cpp/bindings/trainer_bindings.cpp) on 'reverse' or 'translate'. See
// index.d.ts for the contract.
//
//   const trainer = engine.createTrainer({ task: 'reverse', seed: 1 });
//   trainer.step(10);            // -> { step: 10, loss }
//   trainer.evaluate();          // -> { loss, accuracy } on held-out examples
//   trainer.probe();             // -> the probe example's words and attention weights
//   trainer.dispose();           // frees its wasm memory; later calls throw
//
// Every argument is checked here (./arguments.js) and every call's work
// (./work-limits.js) before the bindings see it; the core names what it
// refuses (heads must divide dModel, ...). Each trainer owns one C++ object in
// the module's memory: dispose() frees it (a trainer that is garbage collected
// without dispose() is freed too, later, where the runtime has a
// FinalizationRegistry).
import { choice, count, describe, flag, listOf, number, optionalCount, options, seedHalves, trailingOptions, unwrap } from './arguments.js';
import { checkWork } from './work-limits.js';

export const TASKS = Object.freeze(['reverse', 'translate']);
export const TRAINER_OPTIONS = Object.freeze(['task', 'seed', 'heads', 'dModel', 'scale', 'learningRate', 'batchSize',
  'weightDecay', 'longRunning']);
// A typed sentence is at most this long (a sentence of the tasks has fewer than 100).
export const MAX_SENTENCE_LENGTH = 1000;

// Frees the C++ trainer of a trainer object that was collected without dispose().
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((handle) => { if (!handle.isDeleted()) handle.delete(); })
  : null;

// The bindings' TrainerCall: every option, the omitted ones from the core's defaults.
function trainerCall(module, a) {
  options('createTrainer', a);
  for (const name of Object.keys(a)) {
    if (!TRAINER_OPTIONS.includes(name)) {
      throw new TypeError(`createTrainer: expected the options ${listOf(TRAINER_OPTIONS)}, got an unknown option '${name}'`);
    }
  }
  const task = choice('task', a.task, TASKS);
  if (a.seed === undefined) throw new TypeError('seed: expected a non-negative safe integer or a BigInt, got undefined');
  const defaults = unwrap(module.trainerDefaults(task));
  const given = (name, check) => (a[name] === undefined ? defaults[name] : check(name, a[name]));
  return {
    task,
    ...seedHalves(a.seed),
    heads: given('heads', count),
    dModel: given('dModel', count),
    batchSize: given('batchSize', count),
    scale: a.scale === undefined ? true : flag('scale', a.scale),
    learningRate: given('learningRate', number),
    weightDecay: given('weightDecay', number),
  };
}

// Deep-frozen copies of the task's words, for the trainer's properties.
const frozenStrings = (strings) => Object.freeze([...strings]);

export function makeTrainer(module, a, { testing = false } = {}) {
  const call = trainerCall(module, a);
  const longRunningByDefault = flag('longRunning', a.longRunning);
  let handle = new module.Trainer();
  let resolved, task;
  try {
    resolved = unwrap(handle.start(call));
    task = unwrap(handle.task());
  } catch (error) {
    handle.delete();
    throw error;
  }

  // The sizes the work formulas name (./work-limits.js).
  const parameterCount = (task.source.length + task.targetLength + task.target.length) * resolved.dModel +
    4 * resolved.dModel * resolved.dModel + task.target.length;
  const sizes = {
    batchSize: resolved.batchSize, dModel: resolved.dModel, heads: resolved.heads, S: task.sourceLength,
    T: task.targetLength, V: task.target.length, parameters: parameterCount, heldOut: task.heldOut,
  };
  const longRunningOf = (name, callOptions) =>
    longRunningByDefault || flag('longRunning', trailingOptions(name, callOptions).longRunning);

  // The live C++ trainer, or an Error naming the call after dispose().
  const live = (name) => {
    if (handle === null) {
      throw new Error(`trainer.${name}: this trainer was disposed (dispose() freed its memory); ` +
        'create another with createTrainer()');
    }
    return handle;
  };

  const trainer = {
    task: resolved.task,
    // Every option, the defaults filled in (the core's Trainer::defaults).
    options: Object.freeze({ ...resolved, seed: a.seed }),
    parameterCount,
    sourceLength: task.sourceLength,
    targetLength: task.targetLength,
    heldOut: task.heldOut,
    // The words a reader may type (groups: by class, in the order of `pattern`),
    // and every token id's text (source, target).
    vocabulary: Object.freeze({
      source: frozenStrings(task.source),
      target: frozenStrings(task.target),
      groups: Object.freeze(task.groups.map((g) => Object.freeze({ name: g.name, words: frozenStrings(g.words) }))),
      pattern: task.pattern,
    }),
    // alignment[t]: the source position that target position t translates.
    alignment: Object.freeze([...task.alignment]),

    get disposed() {
      return handle === null;
    },

    // `count` steps of AdamW on fresh batches -> { step: steps taken so far, loss: the last step's training loss }.
    step(steps = 1, callOptions) {
      const h = live('step');
      const n = count('count', steps);
      checkWork('trainerStep', { count: n, ...sizes }, longRunningOf('options', callOptions));
      return unwrap(h.step(n));
    },

    // -> { loss, accuracy } over the held-out examples (never trained on).
    evaluate(callOptions) {
      const h = live('evaluate');
      checkWork('trainerEvaluate', sizes, longRunningOf('options', callOptions));
      return unwrap(h.evaluate());
    },

    // The probe example (the first held-out one): its words, the model's output and attention weights.
    probe() {
      return unwrap(live('probe').probe());
    },

    // A typed sentence of the task's vocabulary -> the model's output and attention weights.
    translate(sentence) {
      const h = live('translate');
      if (typeof sentence !== 'string') throw new TypeError(`sentence: expected a string, got ${describe(sentence)}`);
      if (sentence.length > MAX_SENTENCE_LENGTH) {
        throw new RangeError(`sentence: expected at most ${MAX_SENTENCE_LENGTH} characters, got ${sentence.length}`);
      }
      return unwrap(h.translate(sentence));
    },

    // Frees the C++ trainer; later calls throw. Calling it again does nothing.
    dispose() {
      if (handle === null) return;
      finalizer?.unregister(trainer);
      handle.delete();
      handle = null;
    },
  };
  if (testing) {
    // Every parameter (Float32Array, the model's layout: attn/seq2seq_model.hpp).
    trainer.parameters = () => unwrap(live('parameters').parameters());
    // The last step's batch: { sources: Int32Array B*S, targets: Int32Array B*T }.
    trainer.lastBatch = () => unwrap(live('lastBatch').lastBatch());
  }
  Object.freeze(trainer);
  finalizer?.register(trainer, handle, trainer);
  return trainer;
}

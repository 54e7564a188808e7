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
// The options and their rules are the core's table (attn/trainer_options.hpp,
// read once per module: trainerOptionTable below). Here, with it: the names
// (an unknown one is a TypeError) and each value's JavaScript type; the core
// then checks ranges, choices and the options that do not apply to the chosen
// model or task, naming each as written here. Before a trainer is made, what
// it needs (Trainer::footprint) is counted against the limits:
//   memory  the live trainers of one engine hold at most TRAINER_MEMORY_LIMIT
//           bytes (WebAssembly memory never shrinks: a forgotten dispose()
//           costs at most that; a trainer collected without dispose() is
//           freed later by a FinalizationRegistry, and only then counts no more)
//   work    making it (./work-limits.js trainerCreate), and one step() and one
//           evaluate() must fit the long-running limit, or no call of it could run.
import { describe, listOf, options, trailingOptions, unwrap, count, flag } from './arguments.js';
import { LONG_RUNNING_WORK_LIMIT, checkWork, workOf } from './work-limits.js';

// A typed sentence is at most this long (a sentence of the tasks has fewer than 100).
export const MAX_SENTENCE_LENGTH = 1000;
// The memory the live trainers of one engine may hold (one trainer of the
// largest width, dModel 1024, needs about 87 MiB).
export const TRAINER_MEMORY_LIMIT = 256 * 2 ** 20;
// createTrainer's own option (not the core's): see below.
const ENGINE_OPTIONS = Object.freeze(['longRunning']);

const deepFreeze = (value) => {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

// The core's table of the trainer's options (attn/trainer_options.hpp), frozen:
// [{ name, kind: 'choice' | 'count' | 'number' | 'flag' | 'seed', meaning,
//    choices, minimum, maximum, minimumExcluded, required, models, tasks,
//    defaults: [{ task, model, value }] }]. One per module.
const tables = new WeakMap();
export function trainerOptionTable(module) {
  if (!tables.has(module)) tables.set(module, deepFreeze(unwrap(module.trainerOptionTable())));
  return tables.get(module);
}

// Each kind's JavaScript type: a check and what it expects, or how the value
// crosses to the core (a seed as its decimal digits: 64 bits do not fit a double).
const KINDS = {
  choice: { is: (v) => typeof v === 'string', expected: (row) => listOf(row.choices) },
  count: { is: Number.isInteger, expected: () => 'an integer' },
  number: { is: (v) => typeof v === 'number', expected: () => 'a number' },
  flag: { is: (v) => typeof v === 'boolean', expected: () => 'true or false' },
  seed: {
    is: (v) => typeof v === 'bigint' || (Number.isSafeInteger(v) && v >= 0),
    expected: () => 'a non-negative safe integer or a BigInt',
    crossing: (v) => String(v),
  },
};

// The caller's options -> the given ones in the form the bindings take, or a
// TypeError naming an unknown option or a value of the wrong type.
function givenOptions(table, a) {
  options('createTrainer', a);
  const names = table.map((row) => row.name);
  for (const name of Object.keys(a)) {
    if (!names.includes(name) && !ENGINE_OPTIONS.includes(name)) {
      throw new TypeError(`createTrainer: expected the options ${listOf([...names, ...ENGINE_OPTIONS])}, ` +
        `got an unknown option '${name}'`);
    }
  }
  const given = {};
  for (const row of table) {
    const value = a[row.name];
    if (value === undefined && !row.required) continue;
    const kind = KINDS[row.kind];
    if (!kind.is(value)) throw new TypeError(`${row.name}: expected ${kind.expected(row)}, got ${describe(value)}`);
    given[row.name] = kind.crossing ? kind.crossing(value) : value;
  }
  return given;
}

// The trainers alive in each module's memory: { count, bytes }.
const ledgers = new WeakMap();
const ledgerOf = (module) => {
  if (!ledgers.has(module)) ledgers.set(module, { count: 0, bytes: 0 });
  return ledgers.get(module);
};
const MiB = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

// Frees the C++ trainer of a trainer object that was collected without dispose().
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ handle, bytes, ledger }) => {
    if (handle.isDeleted()) return;
    handle.delete();
    ledger.count -= 1;
    ledger.bytes -= bytes;
  })
  : null;

// RangeError unless a trainer of `need` (the core's footprint) can run its
// calls and fits the limits: one step() and one evaluate() within what any
// call may do, its memory within what the live trainers may hold, and making
// it within the work limit.
function checkNeeds(need, ledger, longRunning) {
  const { options: o, bytes } = need;
  const sizes = workSizes(need);
  for (const [call, kind, values] of [['step()', 'trainerStep', { ...sizes, count: 1 }], ['evaluate()', 'trainerEvaluate', sizes]]) {
    const { formula, values: shown, work } = workOf(kind, values);
    if (work > LONG_RUNNING_WORK_LIMIT) {
      throw new RangeError(`createTrainer: one ${call} of this model is ${formula} = ${shown} = ${work} units of work, ` +
        `more than a call may do even with longRunning (${LONG_RUNNING_WORK_LIMIT}): smaller dModel (${o.dModel}), ` +
        `heads (${o.heads}) or batchSize (${o.batchSize}) need less`);
    }
  }
  if (ledger.bytes + bytes > TRAINER_MEMORY_LIMIT) {
    const held = ledger.count === 0 ? '' : `, and the ${ledger.count} live trainers of this engine hold ${MiB(ledger.bytes)}`;
    const advice = ledger.count === 0
      ? `: smaller dModel (${o.dModel}) or batchSize (${o.batchSize}) need less`
      : ': dispose() the trainers you no longer use (one dropped without dispose() is freed only after a garbage collection)';
    throw new RangeError(`createTrainer: this trainer needs ${MiB(bytes)} of WebAssembly memory${held}, of the ` +
      `${MiB(TRAINER_MEMORY_LIMIT)} the trainers of one engine may hold${advice}`);
  }
  checkWork('trainerCreate', sizes, longRunning);
}

// The sizes the work formulas name (./work-limits.js).
const workSizes = (need) => ({
  batchSize: need.options.batchSize, dModel: need.options.dModel, heads: need.options.heads, S: need.sourceLength,
  T: need.targetLength, V: need.targetVocabulary, parameters: need.parameters, heldOut: need.heldOut,
});

// A string's UTF-16 code units: a lone surrogate reaches the core as itself
// (the bindings' own string conversion would make it another character).
function codeUnits(text) {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

// Deep-frozen copies of the task's words, for the trainer's properties.
const frozenStrings = (strings) => Object.freeze([...strings]);

export function makeTrainer(module, a, { testing = false } = {}) {
  const given = givenOptions(trainerOptionTable(module), a);
  const longRunningByDefault = flag('longRunning', a.longRunning);
  const need = unwrap(module.trainerFootprint(given));
  const ledger = ledgerOf(module);
  checkNeeds(need, ledger, longRunningByDefault);

  let handle = new module.Trainer();
  let resolved, task;
  try {
    const started = handle.start(given);
    if (started instanceof RangeError && started.message.startsWith('memory:')) {
      throw new RangeError(`createTrainer: this trainer needs ${MiB(need.bytes)} of WebAssembly memory, and the engine ` +
        `could not grow its memory that far (it has ${MiB(module.HEAP8.buffer.byteLength)})`);
    }
    resolved = unwrap(started);
    task = unwrap(handle.task());
  } catch (error) {
    handle.delete();
    throw error;
  }
  ledger.count += 1;
  ledger.bytes += need.bytes;

  const sizes = workSizes(need);
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
  let stepsWhenDisposed = 0;

  const trainer = {
    task: resolved.task,
    // Every option, the defaults filled in (the core's table), the seed as given.
    options: Object.freeze({ ...resolved, seed: a.seed }),
    parameterCount: need.parameters,
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

    // Steps taken so far: after a step(count) refused midway, the ones before it.
    get stepsTaken() {
      return handle === null ? stepsWhenDisposed : handle.stepsTaken();
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
      return unwrap(h.translate(codeUnits(sentence)));
    },

    // Frees the C++ trainer; later calls throw. Calling it again does nothing.
    dispose() {
      if (handle === null) return;
      finalizer?.unregister(trainer);
      stepsWhenDisposed = handle.stepsTaken();
      handle.delete();
      handle = null;
      ledger.count -= 1;
      ledger.bytes -= need.bytes;
    },
  };
  if (testing) {
    // Every parameter (Float32Array, the model's layout: attn/seq2seq_model.hpp).
    trainer.parameters = () => unwrap(live('parameters').parameters());
    // The last step's batch: { sources: Int32Array B*S, targets: Int32Array B*T }.
    trainer.lastBatch = () => unwrap(live('lastBatch').lastBatch());
  }
  Object.freeze(trainer);
  finalizer?.register(trainer, { handle, bytes: need.bytes, ledger }, trainer);
  return trainer;
}

// What the live trainers of a module hold: { count, bytes } (for the tests).
export const liveTrainers = (module) => ({ ...ledgerOf(module) });

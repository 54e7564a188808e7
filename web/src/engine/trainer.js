// createTrainer: a model trained by the core (attn::Trainer, attn/trainer.hpp,
// through cpp/bindings/trainer_bindings.cpp): model 'attention' (one
// cross-attention layer whose queries are the target positions) or one of the
// model engine's, 'rnn', 'bahdanau', 'luong', 'transformer', 'decoder', on
// 'reverse', 'translate' or 'induction'. See index.d.ts for the contract.
//
//   const trainer = engine.createTrainer({ task: 'reverse', seed: 1, model: 'transformer' });
//   trainer.step(10);            // -> { step: 10, loss }
//   trainer.evaluate();          // -> { loss, accuracy, generatedAccuracy, sequenceAccuracy } on held-out examples
//   trainer.evaluate({ ablate: [{ kind: 'cross', layer: 1, head: 0 }] });   // with that head's output zeroed
//   trainer.probe();             // -> the probe example: its words, weights and every attention map (layers)
//   trainer.generate();          // -> the probe's output decoded greedily, a token and its weights per step
//   trainer.headScores();        // -> each head of a decoder: previous-token and prefix-match scores
//   trainer.dispose();           // frees its wasm memory; later calls throw
//
// The options and their rules are the core's table (attn/trainer_options.hpp,
// read once per module: trainerOptionTable below). Here, with it: the names
// (an unknown one is a TypeError) and each value's JavaScript type; the core
// then checks ranges, choices and the options that do not apply to the chosen
// model or task, naming each as written here. The same split for every call:
// types here, values by the core (evaluate's ablate[i].layer, a sentence's words).
// Before a trainer is made, what it needs (Trainer::footprint) is counted
// against the limits:
//   memory  the live trainers of one engine hold at most TRAINER_MEMORY_LIMIT
//           bytes (WebAssembly memory never shrinks: a forgotten dispose()
//           costs at most that; a trainer collected without dispose() is
//           freed later by a FinalizationRegistry, and only then counts no more)
//   work    the core's counts of making it, of one step() and of one
//           evaluate() (stepWork, evaluateWork, createWork: ./work-limits.js
//           says how every call's work follows from them); one step() and one
//           evaluate() must fit the long-running limit, or no call of it could run.
import { count, describe, flag, listOf, options, trailingOptions, unwrap } from './arguments.js';
import { LONG_RUNNING_WORK_LIMIT, checkWork } from './work-limits.js';

// A typed sentence is at most this long (a sentence of the tasks has fewer than 100).
export const MAX_SENTENCE_LENGTH = 1000;
// The memory the live trainers of one engine may hold (one trainer of the
// largest width, dModel 1024, needs about 87 MiB).
export const TRAINER_MEMORY_LIMIT = 256 * 2 ** 20;
// evaluate's ablate holds at most this many heads (a model has at most a few
// hundred: a longer list only costs its conversion).
export const MAX_ABLATED_HEADS = 4096;
// headScores() reads at most this many held-out sequences (the core's sample:
// EngineTrainer::head_scores, cpp/src/training/engine_trainer.cpp).
const HEAD_SCORE_EXAMPLES = 64;
// alignmentAgreement() reads this many held-out sentences unless told.
const ALIGNMENT_EXAMPLES = 128;
// createTrainer's own option (not the core's): see below.
const ENGINE_OPTIONS = Object.freeze(['longRunning']);
// The options that size a model, named in the advice of a trainer that is too large.
const SIZE_OPTIONS = Object.freeze(['dModel', 'heads', 'layers', 'sourceLength', 'batchSize']);

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

// "smaller dModel (64), layers (2) or batchSize (32) need less": the options that size this model
// (`sizing` of them: an evaluation's work does not depend on batchSize).
const sizeAdvice = (o, sizing = SIZE_OPTIONS) =>
  `smaller ${listOf(sizing.filter((name) => o[name] !== undefined), (name) => `${name} (${o[name]})`)} need less`;
const EVALUATION_SIZE_OPTIONS = SIZE_OPTIONS.filter((name) => name !== 'batchSize');
const MEMORY_SIZE_OPTIONS = SIZE_OPTIONS.filter((name) => name !== 'heads');

// The values the trainer's work formulas name (./work-limits.js): the core's
// counts, in whole units, and the task's sizes.
const workValues = (need) => ({
  stepWork: Math.ceil(need.stepWork), evaluateWork: Math.ceil(need.evaluateWork), createWork: Math.ceil(need.createWork),
  heldOut: need.heldOut, T: need.targetLength, batchSize: need.options.batchSize,
  examples: Math.min(need.heldOut, HEAD_SCORE_EXAMPLES),
});

// RangeError unless a trainer of `need` (the core's footprint) can run its
// calls and fits the limits: one step() and one evaluate() within what any
// call may do, its memory within what the live trainers may hold, and making
// it within the work limit.
function checkNeeds(need, ledger, longRunning) {
  const { options: o, bytes } = need;
  const work = workValues(need);
  for (const [call, units, sizing] of [['step()', work.stepWork, SIZE_OPTIONS],
    ['evaluate()', work.evaluateWork, EVALUATION_SIZE_OPTIONS]]) {
    if (units > LONG_RUNNING_WORK_LIMIT) {
      throw new RangeError(`createTrainer: one ${call} of this model is ${units} units of work (the core's count), ` +
        `more than a call may do even with longRunning (${LONG_RUNNING_WORK_LIMIT}): ${sizeAdvice(o, sizing)}`);
    }
  }
  if (ledger.bytes + bytes > TRAINER_MEMORY_LIMIT) {
    const held = ledger.count === 0 ? '' : `, and the ${ledger.count} live trainers of this engine hold ${MiB(ledger.bytes)}`;
    const advice = ledger.count === 0
      ? `: ${sizeAdvice(o, MEMORY_SIZE_OPTIONS)}`
      : ': dispose() the trainers you no longer use (one dropped without dispose() is freed only after a garbage collection)';
    throw new RangeError(`createTrainer: this trainer needs ${MiB(bytes)} of WebAssembly memory${held}, of the ` +
      `${MiB(TRAINER_MEMORY_LIMIT)} the trainers of one engine may hold${advice}`);
  }
  checkWork('trainerCreate', work, longRunning, 'createTrainer');
}

// A string's UTF-16 code units: a lone surrogate reaches the core as itself
// (the bindings' own string conversion would make it another character).
function codeUnits(text) {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

// A typed sentence as its code units, or an error naming it.
function sentenceUnits(sentence) {
  if (typeof sentence !== 'string') throw new TypeError(`sentence: expected a string, got ${describe(sentence)}`);
  if (sentence.length > MAX_SENTENCE_LENGTH) {
    throw new RangeError(`sentence: expected at most ${MAX_SENTENCE_LENGTH} characters, got ${sentence.length}`);
  }
  return codeUnits(sentence);
}

const HEAD_KEYS = Object.freeze(['layer', 'head', 'kind']);

// evaluate's `ablate` -> [{ kind, layer, head }] as the bindings read them
// (kind '' when omitted: the model's only kind with heads, for the decoder),
// or an error naming the entry. Each property is read once.
function ablatedHeads(ablate) {
  if (ablate === undefined) return [];
  if (!Array.isArray(ablate)) throw new TypeError(`ablate: expected an Array of { layer, head, kind? }, got ${describe(ablate)}`);
  const { length } = ablate;
  if (length > MAX_ABLATED_HEADS) throw new RangeError(`ablate: expected at most ${MAX_ABLATED_HEADS} heads, got ${length}`);
  return Array.from({ length }, (_, i) => {
    const name = `ablate[${i}]`;
    const entry = ablate[i];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw new TypeError(`${name}: expected { layer, head, kind? }, got ${describe(entry)}`);
    }
    for (const key of Object.keys(entry)) {
      if (!HEAD_KEYS.includes(key)) throw new TypeError(`${name}: expected { layer, head, kind? }, got an unknown key '${key}'`);
    }
    const { layer, head, kind } = entry;
    if (kind !== undefined && typeof kind !== 'string') throw new TypeError(`${name}.kind: expected a string, got ${describe(kind)}`);
    return { kind: kind ?? '', layer: count(`${name}.layer`, layer), head: count(`${name}.head`, head) };
  });
}

// One step of generate() as the API names it (the bindings' words are the task's tokens).
const generatedStep = ({ word, end, cacheLength, maps }) => ({ token: word, end, cacheLength, weights: maps });

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

  const work = workValues(need);
  // Whether a call may do up to the long-running limit: the trainer's option, or the call's.
  const longRunning = (callOptions) => longRunningByDefault || flag('longRunning', callOptions.longRunning);
  // The live C++ trainer, or an Error naming the call after dispose().
  const live = (name) => {
    if (handle === null) {
      throw new Error(`trainer.${name}: this trainer was disposed (dispose() freed its memory); ` +
        'create another with createTrainer()');
    }
    return handle;
  };
  // RangeError unless call `name` (its work `kind`) fits the limit its options allow.
  const checkCall = (name, kind, callOptions, values = work) =>
    checkWork(kind, values, longRunning(callOptions), `trainer.${name}`);
  let stepsWhenDisposed = 0;

  const trainer = {
    task: resolved.task,
    // Every option, the defaults filled in (the core's table), the seed as given.
    options: Object.freeze({ ...resolved, seed: a.seed }),
    parameterCount: need.parameters,
    sourceLength: task.sourceLength,
    targetLength: task.targetLength,
    heldOut: task.heldOut,
    // The core's count of the work of one step(), one evaluate() and of making this trainer.
    work: Object.freeze({ step: work.stepWork, evaluate: work.evaluateWork, create: work.createWork }),
    // The words a reader may type (groups: by class, in the order of `pattern`),
    // and every token id's text (source, target).
    vocabulary: Object.freeze({
      source: frozenStrings(task.source),
      target: frozenStrings(task.target),
      groups: Object.freeze(task.groups.map((g) => Object.freeze({ name: g.name, words: frozenStrings(g.words) }))),
      pattern: task.pattern,
    }),
    // alignment[t]: the source position that target position t translates (the probe's).
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
      checkCall(`step(${n})`, 'trainerStep', trailingOptions('options', callOptions), { ...work, count: n });
      return unwrap(h.step(n));
    },

    // -> { loss, accuracy, generatedAccuracy, sequenceAccuracy } over the held-out examples (never trained on),
    // with the heads of `ablate` zeroed.
    // options.examples: the first that many held-out examples (default: all of them).
    evaluate(callOptions) {
      const h = live('evaluate');
      const o = trailingOptions('options', callOptions);
      const heads = ablatedHeads(o.ablate);
      const examples = o.examples === undefined ? task.heldOut : Math.min(count('examples', o.examples), task.heldOut);
      if (examples < 1) throw new RangeError(`examples: expected at least 1, got ${examples}`);
      checkCall('evaluate()', 'trainerEvaluate', o, { ...work, examples });
      return unwrap(h.evaluate(heads, examples));
    },

    // The share of the aligned target positions (content words) whose largest
    // alignment weight is on the reference's source word, over the first
    // `examples` held-out sentences (default 128): { agreement, positions, examples }; oneRight: the
    // share whose largest weight is on the source word after the reference's.
    alignmentAgreement(examples = ALIGNMENT_EXAMPLES, callOptions) {
      const h = live('alignmentAgreement');
      const n = Math.min(count('examples', examples), task.heldOut);
      if (n < 1) throw new RangeError(`examples: expected at least 1, got ${n}`);
      checkCall('alignmentAgreement()', 'trainerAlignment', trailingOptions('options', callOptions), { ...work, examples: n });
      return unwrap(h.alignmentAgreement(n));
    },

    // The probe example (the first held-out one): its words, the model's output and attention weights.
    probe(callOptions) {
      const h = live('probe');
      checkCall('probe()', 'trainerProbe', trailingOptions('options', callOptions));
      return unwrap(h.probe());
    },

    // A typed sentence of the task's vocabulary -> the model's output and attention weights.
    translate(sentence, callOptions) {
      const h = live('translate');
      const units = sentenceUnits(sentence);
      checkCall('translate()', 'trainerTranslate', trailingOptions('options', callOptions));
      return unwrap(h.translate(units));
    },

    // Greedy decoding of a typed sentence (omitted: the probe's source), one token per step:
    // { source, tokens, steps: [{ token, end, cacheLength, weights }] }.
    generate(sentence, callOptions) {
      const h = live('generate');
      if (sentence === '') throw new RangeError("sentence: expected a sentence, got '' (omit it for the probe's)");
      const units = sentence === undefined ? new Uint16Array(0) : sentenceUnits(sentence);
      const o = trailingOptions('options', callOptions);
      const cache = o.cache === undefined || flag('cache', o.cache);
      checkCall('generate()', cache ? 'trainerGenerate' : 'trainerGenerateRecomputing', o);
      const g = unwrap(h.generate(units, cache));
      return { source: g.source, tokens: g.words, steps: g.steps.map(generatedStep) };
    },

    // Per head of a decoder-only model: [{ layer, head, previousToken, prefixMatch }].
    headScores(callOptions) {
      const h = live('headScores');
      checkCall('headScores()', 'trainerHeadScores', trailingOptions('options', callOptions));
      return unwrap(h.headScores());
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
    // Every parameter (Float32Array, the model's layout: attn/seq2seq_model.hpp, or the engine's blocks).
    trainer.parameters = () => unwrap(live('parameters').parameters());
    // The last step's batch ('attention' model): { sources: Int32Array B*S, targets: Int32Array B*T }.
    trainer.lastBatch = () => unwrap(live('lastBatch').lastBatch());
    // The engine's models: the blocks of parameters() [{ name, offset, rows, cols, role }] and the last
    // step's batch { size, sourceLength, targetLength, source, sourceLengths, input, output, counted, targetLengths }.
    trainer.parameterBlocks = () => unwrap(live('parameterBlocks').parameterBlocks());
    trainer.lastEngineBatch = () => unwrap(live('lastEngineBatch').lastEngineBatch());
  }
  Object.freeze(trainer);
  finalizer?.register(trainer, { handle, bytes: need.bytes, ledger }, trainer);
  return trainer;
}

// What the live trainers of a module hold: { count, bytes } (for the tests).
export const liveTrainers = (module) => ({ ...ledgerOf(module) });

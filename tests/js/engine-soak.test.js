// The engine under abuse (issue 12): 10,000 calls per build, good and bad
// mixed in a seeded random order, over every function of the engine. Each bad
// call must throw the error of its kind naming the argument; each good call
// must return exactly what it returned before the soak; at the end the wasm
// memory size, the shadow-stack pointer and the number of live Embind handles
// are where they started, and the worked example still computes.
//
// Bad kinds, for every argument of every function: detached, shared and
// wasm-memory views; wrong types (an Array, a Float64Array, a string, a
// fraction, the options object itself); non-finite values (NaN, +-inf in each
// float array, each number option; 1e39 for a float option); overflowing sizes
// (beyond size_t, negative, beyond the work limit, beyond memory); unknown
// option values; and for the learning module (its own engine, soaked the same
// way with attentionBackward and trainers added) bad sentences and a disposed
// trainer.
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import {
  detachedArray, expectWorkedExample, seededRandom, sharedArray, thrown, wasmMemoryArray, workedExample,
} from './engine-helpers.js';

const f32 = (...values) => new Float32Array(values);
const SIZE_MAX_PLUS_ONE = 2 ** 32;
const UNITS = /units of work in one call/;

// Every engine function: a good call (`args`, spread into `call`) and the
// arguments each bad kind replaces, for EVERY argument it has: `arrays` its
// typed-array arguments (name -> type); `sizes` its size arguments; `finite`
// each float array argument with an index where a NaN or an infinity goes;
// `numbers` its number options that must be finite; `huge` sizes over the
// work limit (rowStats has none: that needs a 700 MB array); `options`
// options with values it does not know; `trailing`: its options come after
// positional arguments (softmax(logits, rows, cols, options)); `extra`: more
// bad calls [kind, changes, error class, message pattern].
function functionsOf(engine, testing) {
  const { args: worked } = workedExample();
  const w2 = f32(1, 0, 0, 1);
  const attentionArrays = { q: 'Float32Array', k: 'Float32Array', v: 'Float32Array', mask: 'Uint8Array' };
  const attentionSizes = ['n', 'm', 'dk', 'dv'];
  const attentionFinite = [['q', 1], ['k', 4], ['v', 0]];
  const keep = new Uint8Array([1, 0, 1]);
  return {
    attention: { call: (a) => engine.attention(a), args: { ...worked, mask: keep },
      arrays: attentionArrays, sizes: attentionSizes, finite: attentionFinite, numbers: ['scale'],
      huge: { n: 1 << 20, m: 1 << 20 }, options: [{ mask: 'upper' }, { scale: 'sqrt' }, { mask: [1, 0, 1] }] },
    attentionOutput: { call: (a) => engine.attentionOutput(a), args: { ...worked, path: 'full', mask: keep },
      arrays: attentionArrays, sizes: attentionSizes, finite: attentionFinite, numbers: ['scale'],
      huge: { n: 20000, m: 20000, dk: 1, dv: 1 }, options: [{ path: 'scalar' }, { path: 'fast' }, { longRunning: 1 }] },
    attentionReference: { call: (a) => engine.attentionReference(a), args: { ...worked, mask: keep, scale: 2 },
      arrays: attentionArrays, sizes: attentionSizes, finite: attentionFinite, numbers: ['scale'],
      huge: { n: 1 << 16, m: 1 << 16 }, options: [{ scale: 'sqrt' }, { mask: { valid: 2 } }] },
    multiHead: { call: (a) => engine.multiHead(a), args: { x: f32(1, 0, 0, 1, 1, 1), heads: 2, wq: w2, wk: w2, wv: w2, wo: w2, mask: 'causal', context: f32(1, 1, 0, 1), m: 2, n: 3, dModel: 2 },
      arrays: { x: 'Float32Array', context: 'Float32Array', wq: 'Float32Array', wk: 'Float32Array', wv: 'Float32Array', wo: 'Float32Array' },
      sizes: ['heads', 'dModel', 'n', 'm'], finite: [['x', 0], ['context', 1], ['wq', 3], ['wk', 2], ['wv', 1], ['wo', 0]], numbers: [],
      huge: { n: 1 << 20, m: 1 << 20 }, options: [{ mask: { valid: 1 } }, { mask: 'none ' }] },
    saturation: { call: (a) => engine.saturation(a), args: { dk: 8, queries: 2, keys: 3, trials: 5, seed: 7 },
      arrays: {}, sizes: ['dk', 'queries', 'keys', 'trials'], finite: [], numbers: [], huge: { dk: 4096, trials: 20000 },
      options: [{ longRunning: 'yes' }, { seed: -1 }, { seed: 2n ** 64n }] },
    scores: { call: (a) => engine.scores(a),
      args: { kind: 'additive', s: f32(1, 0), h: f32(0, 1, 1, 1), n: 1, m: 2, ds: 2, dh: 2, da: 1, wa: f32(1, 1), ua: f32(1, -1), va: f32(1) },
      arrays: { s: 'Float32Array', h: 'Float32Array', wa: 'Float32Array', ua: 'Float32Array', va: 'Float32Array' },
      sizes: ['n', 'm', 'ds', 'dh', 'da'], finite: [['s', 0], ['h', 3], ['wa', 1], ['ua', 0], ['va', 0]], numbers: [],
      huge: { n: 1 << 16, m: 1 << 16 }, options: [{ kind: 'cosine' }, { kind: 'Dot' }] },
    context: { call: (a) => engine.context(a), args: { alignment: f32(0.25, 0.75), h: f32(1, 0, 0, 1), n: 1, m: 2, dh: 2 },
      arrays: { alignment: 'Float32Array', h: 'Float32Array' }, sizes: ['n', 'm', 'dh'], finite: [['alignment', 1], ['h', 2]],
      numbers: [], huge: { n: 1 << 20, m: 1 << 20 }, options: [{ longRunning: 'true' }] },
    softmax: { call: (a) => engine.softmax(a.logits, a.rows, a.cols, a.options), args: { logits: f32(1, 2, 3, -Infinity), rows: 2, cols: 2 },
      arrays: { logits: 'Float32Array' }, sizes: ['rows', 'cols'], finite: [['logits', 0]], numbers: [],
      huge: { rows: 1 << 20, cols: 1 << 20 }, options: [{ options: { longRunning: 'yes' } }, { options: 'fast' }] },
    rowStats: { call: (a) => engine.rowStats(a.probabilities, a.options), args: { probabilities: f32(0.5, 0.25, 0.25) },
      arrays: { probabilities: 'Float32Array' }, sizes: [], finite: [['probabilities', 2]], numbers: [], huge: null,
      options: [{ options: { longRunning: 0 } }] },
    softmaxJacobian: { call: (a) => engine.softmaxJacobian(a.probabilities, a.options), args: { probabilities: f32(0.5, 0.5) },
      arrays: { probabilities: 'Float32Array' }, sizes: [], finite: [['probabilities', 0]], numbers: [],
      huge: { probabilities: new Float32Array(16385) }, options: [{ options: null }] },
    positionalEncoding: { call: (a) => engine.positionalEncoding(a.n, a.dModel, a.options), args: { n: 3, dModel: 4 },
      arrays: {}, sizes: ['n', 'dModel'], finite: [], numbers: [], huge: { n: 1 << 20, dModel: 1 << 20 },
      options: [{ options: { longRunning: 'no' } }] },
    randomNormal: { call: (a) => engine.randomNormal(a), args: { seed: 3, rows: 2, cols: 3, stddev: 0.5 },
      arrays: {}, sizes: ['rows', 'cols'], finite: [], numbers: ['stddev'], huge: { rows: 1 << 20, cols: 1 << 20 },
      options: [{ stddev: '1' }, { seed: 1.5 }] },
    randomStream: { call: (a) => testing.randomStream(a), args: { seed: 5, count: 4 },
      arrays: {}, sizes: ['count'], finite: [], numbers: [], huge: { count: 2 ** 31 }, options: [{ seed: -1 }] },
  };
}

// The learning module's functions, as functionsOf's. A trainer's good call
// makes a fresh small trainer, steps, evaluates and disposes it (the same
// numbers every time); translate and probe read a trainer nobody steps.
function learningFunctionsOf(engine) {
  const { args: worked } = workedExample();
  const reading = engine.createTrainer({ task: 'translate', seed: 3 });
  const disposed = engine.createTrainer({ task: 'reverse', seed: 3 });
  disposed.dispose();
  const sentence = 'the young student reads an old book in the library';
  return {
    attentionBackward: { call: (a) => engine.attentionBackward(a), args: { ...worked, gradOutput: f32(1, -1), mask: 'causal' },
      arrays: { q: 'Float32Array', gradOutput: 'Float32Array', mask: 'Uint8Array' }, sizes: ['n', 'dv'], finite: [['gradOutput', 1]], numbers: [],
      huge: { n: 1 << 20, m: 1 << 20 }, options: [{ path: 'reference' }] },
    attentionBackwardFull: { call: (a) => engine.attentionBackward(a),
      args: { ...worked, gradOutput: f32(0.5, 2), path: 'full', mask: { validKeys: 2 }, scale: 0.5 },
      arrays: { k: 'Float32Array', v: 'Float32Array' }, sizes: ['m', 'dk'], finite: [['k', 3]], numbers: ['scale'], huge: { n: 1 << 16, m: 1 << 16 },
      options: [{ scale: 'sqrt' }] },
    trainer: {
      call: ({ count, ...options }) => {
        const trainer = engine.createTrainer(options);
        try {
          return [trainer.step(count), trainer.evaluate()];
        } finally {
          trainer.dispose();
        }
      },
      args: { task: 'reverse', seed: 8, heads: 2, dModel: 8, batchSize: 4, count: 2 },
      arrays: {}, sizes: ['count'], finite: [], numbers: [], huge: { count: 1 << 26 }, options: [{ task: 'sort' }],
      // The core's options (its table: attn/trainer_options.hpp) are not sizes of the engine's own checks.
      extra: [['bad option', { heads: 3 }, RangeError, /^heads: expected a divisor of dModel = 8, got 3$/],
        ['bad option', { learningRate: NaN }, Error, /^learningRate: expected a number above 0 and at most 1, got NaN$/],
        ['wrong type', { dModel: '8' }, TypeError, /^dModel: expected an integer, got '8'$/],
        ['out of range', { heads: -1 }, Error, /^heads: expected an integer from 1 to 1024, got -1$/],
        ['out of range', { dModel: 2 ** 32 }, Error, /^dModel: expected an integer from 1 to 1024, got 4294967296$/],
        ['unknown option', { dmodel: 8 }, TypeError, /^createTrainer: expected the options .*, got an unknown option 'dmodel'$/]] },
    translate: { call: (a) => (a.disposed ? disposed : reading).translate(a.sentence), args: { sentence },
      arrays: {}, sizes: [], finite: [], numbers: [], huge: null, options: [],
      extra: [['wrong type', { sentence: 6 }, TypeError, /^sentence: expected a string, got 6$/],
        ['overflow', { sentence: sentence.repeat(30) }, RangeError, /^sentence: expected at most 1000 characters, got 1500$/],
        ['unknown word', { sentence: 'the young cat reads' }, Error, /^sentence: unknown word "cat"; the vocabulary is: /],
        ['disposed', { disposed: true }, Error, /^trainer.translate: this trainer was disposed/]] },
    probe: { call: () => reading.probe(), args: {}, arrays: {}, sizes: [], finite: [], numbers: [], huge: null, options: [] },
  };
}

// Every bad call of one function: [kind, args, error class, message pattern].
function badCallsOf(fn, module) {
  const calls = [];
  const Types = { Float32Array, Uint8Array };
  for (const [name, type] of Object.entries(fn.arrays)) {
    const Type = Types[type];
    calls.push(['detached', { [name]: detachedArray(2, Type) }, TypeError, new RegExp(`^${name}: .*detached`)]);
    calls.push(['shared', { [name]: sharedArray([1, 0], Type) }, TypeError, new RegExp(`^${name}: .*SharedArrayBuffer`)]);
    calls.push(['wasm memory', { [name]: wasmMemoryArray(module, 2, Type) }, TypeError, new RegExp(`^${name}: .*WebAssembly memory`)]);
    if (name !== 'mask') {
      calls.push(['wrong type', { [name]: [1, 0] }, TypeError, new RegExp(`^${name}: expected a Float32Array, got an Array of length 2$`)]);
      calls.push(['wrong type', { [name]: new Float64Array(2) }, TypeError, new RegExp(`^${name}: expected a Float32Array, got a Float64Array`)]);
      calls.push(['wrong type', { [name]: 'q' }, TypeError, new RegExp(`^${name}: expected a Float32Array, got 'q'$`)]);
    }
  }
  for (const [name, index] of fn.finite) {
    for (const bad of name === 'logits' ? [NaN, Infinity] : [NaN, Infinity, -Infinity]) {   // -inf: a masked logit
      const array = Float32Array.from(fn.args[name]);
      array[index] = bad;
      calls.push(['non-finite', { [name]: array }, Error, new RegExp(`^${name}\\[${index}\\]: expected a finite number`)]);
    }
  }
  for (const name of fn.numbers) {
    for (const bad of [NaN, Infinity, -Infinity, 1e39]) {
      // (the core spells infinities as C++ prints them: inf, -inf)
      const given = { 1e39: '1e\\+39', Infinity: 'inf', '-Infinity': '-inf', NaN: 'NaN' }[String(bad)];
      calls.push(['non-finite', { [name]: bad }, Error, new RegExp(`^${name}: expected a(?: finite)? (?:positive )?number .*got ${given}$`)]);
    }
  }
  for (const name of fn.sizes) {
    calls.push(['wrong type', { [name]: String(fn.args[name] ?? 1) }, TypeError, new RegExp(`^${name}: expected a non-negative integer`)]);
    calls.push(['wrong type', { [name]: 1.5 }, TypeError, new RegExp(`^${name}: expected a non-negative integer, got 1.5$`)]);
    calls.push(['non-finite', { [name]: NaN }, TypeError, new RegExp(`^${name}: expected a non-negative integer, got NaN`)]);
    calls.push(['non-finite', { [name]: Infinity }, TypeError, new RegExp(`^${name}: expected a non-negative integer, got Infinity`)]);
    calls.push(['overflow', { [name]: SIZE_MAX_PLUS_ONE }, RangeError,
      new RegExp(`^${name}: expected an integer from 0 to 4294967295, got 4294967296$`)]);
    calls.push(['overflow', { [name]: -1 }, RangeError, new RegExp(`^${name}: expected an integer from 0 to 4294967295, got -1$`)]);
  }
  if (fn.huge) calls.push(['overflow', fn.huge, RangeError, UNITS]);
  for (const option of fn.options) {
    const [key] = Object.keys(option);
    // a trailing options object with a bad longRunning is named by that
    const name = key === 'options' && option.options !== null && typeof option.options === 'object' ? 'longRunning' : key;
    const message = name === 'seed' ? /^seed: / : new RegExp(`^${name}: expected`);
    calls.push(['unknown option', option, name === 'seed' && typeof option.seed === 'bigint' ? RangeError : TypeError, message]);
  }
  calls.push(...(fn.extra ?? []));
  return calls;
}

describe.each([['simd', false], ['baseline', false], ['simd', true], ['baseline', true]])(
  'the engine under abuse (%s build, learning module: %s)', (build, learning) => {
  it('10,000 mixed good and bad calls of every function leave memory, stack and handles where they started', async () => {
    const engine = await createAttention({ build, learning });
    const testing = await createTestingEngine({ build, learning });
    const functions = { ...functionsOf(engine, testing), ...(learning ? learningFunctionsOf(engine) : {}) };

    // Beyond memory (the trace's n x m matrices), within the long-running work limit.
    const ones = new Float32Array(20000).fill(1);
    const beyondMemory = { name: 'attention beyond memory',
      call: () => engine.attention({ q: ones, k: ones, v: ones, n: 20000, m: 20000, dk: 1, dv: 1, longRunning: true }),
      error: RangeError, message: /^n\*m: expected at most 268435456 elements, got 400000000$/ };

    // Good calls first, once: their results are what every later good call must
    // return, and the memory they need is grown before the soak starts.
    const expected = {};
    for (const [name, fn] of Object.entries(functions)) expected[name] = fn.call(fn.args);
    // The options object itself of a function that takes one: not an object.
    const notAnObject = ['attention', 'attentionOutput', 'attentionReference', 'multiHead', 'saturation', 'scores',
      'context', 'randomNormal'].flatMap((name) => [null, 5, 'causal'].map((value) => ({
      name: `${name} options ${value}`, call: () => engine[name](value), error: TypeError,
      message: new RegExp(`^${name}: expected an options object, got ${value === 'causal' ? "'causal'" : value}$`) })));
    const cases = [beyondMemory, ...notAnObject];
    for (const [name, fn] of Object.entries(functions)) {
      cases.push({ name, good: true, call: () => fn.call(fn.args) });
      for (const [kind, changes, error, message] of badCallsOf(fn, testing.module)) {
        cases.push({ name: `${name} ${kind} ${Object.keys(changes)}`, call: () => fn.call({ ...fn.args, ...changes }), error, message });
      }
    }
    for (const c of cases) {   // warm-up: every path once
      if (!c.good && !thrown(c.call, () => expect.fail(`${c.name}: did not throw`))) expect.fail(c.name);
    }

    const goodCases = cases.filter((c) => c.good);
    const badCases = cases.filter((c) => !c.good);
    const before = testing.boundaryState();
    // The bad cases in a seeded random order, repeated: every case many times, mixed.
    const random = seededRandom((build === 'simd' ? 12 : 34) + (learning ? 1 : 0));
    const shuffled = badCases.map((c) => [random(), c]).sort((a, b) => a[0] - b[0]).map(([, c]) => c);
    const counts = { good: 0, bad: 0 };
    const seen = new Set();
    for (let i = 0; i < 10_000; i++) {
      // Every other call good (cycling through the functions), the others bad.
      const c = i % 2 === 0 ? goodCases[(i / 2) % goodCases.length] : shuffled[((i - 1) / 2) % shuffled.length];
      if (c.good) {
        expect(c.call(), c.name).toEqual(expected[c.name]);
        counts.good++;
        continue;
      }
      let error = null;
      try {
        c.call();
      } catch (e) {
        error = e;
      }
      if (!(error instanceof c.error) || !c.message.test(error.message)) {
        expect.fail(`${c.name}: expected ${c.error.name} matching ${c.message}, got ${error}`);
      }
      seen.add(c);
      counts.bad++;
    }
    expect(counts).toEqual({ good: 5000, bad: 5000 });
    expect(seen.size, 'distinct bad cases met').toBe(badCases.length);
    expect(badCases.length, 'the README says at least 500').toBeGreaterThanOrEqual(500);
    expect(testing.boundaryState()).toEqual(before);
    console.log(`  ${build}: ${badCases.length} distinct bad calls of ${Object.keys(functions).length} functions, `
      + `${counts.bad} bad and ${counts.good} good calls; stack, handles and memory unchanged`);

    expectWorkedExample(engine);
  });
});

// The C++/JS boundary: what crosses it and what every error leaves behind.
//
// - A detached typed array (its buffer transferred by postMessage), one over a
//   SharedArrayBuffer and a view of the engine's own wasm memory are refused
//   with a TypeError naming the argument, before the bindings see them. (A
//   detached array used to throw through the wasm frames: each call left the
//   shadow-stack pointer 80 bytes lower and 5 Embind handles alive, and after
//   ~65,900 calls every call failed.)
// - 100,000 bad calls of each kind, and 5,000 of each error the bindings
//   return, leave the stack pointer, the handle count and the memory size as
//   they were, and the worked example still computes.
// - Options cross as strings: the raw module refuses a string it does not know
//   with a TypeError naming the option (it used to compute unmasked for
//   maskKind 7 and use 1/sqrt(d_k) for scaleMode 9).
import { describe, it, expect } from 'vitest';
import * as publicEntry from '../../web/src/engine/index.js';
import { createAttention } from '../../web/src/engine/index.js';
import { ALL_BACKWARD_PATHS, ALL_PATHS, createTestingEngine } from '../../web/src/engine/testing.js';
import {
  detachedArray, expectClose, expectWorkedExample, sharedArray, thrown, wasmMemoryArray, workedExample,
} from './engine-helpers.js';

const f32 = (...values) => new Float32Array(values);

// Every array argument of every engine function, as (name, call with that argument replaced).
function arrayArguments(engine) {
  const { args } = workedExample();
  const w = f32(1, 0, 0, 1);
  const multi = { x: f32(1, 0, 0, 1), heads: 1, wq: w, wk: w, wv: w, wo: w };
  const scores = { kind: 'additive', s: f32(1, 0), h: f32(0, 1), n: 1, m: 1, ds: 2, dh: 2, da: 1, wa: f32(1, 1),
    ua: f32(1, 1), va: f32(1) };
  return [
    ...['q', 'k', 'v'].map((name) => [name, (bad) => engine.attention({ ...args, [name]: bad })]),
    ['q', (bad) => engine.attentionOutput({ ...args, q: bad, path: 'full' })],
    ['out', (bad) => engine.attentionOutput({ ...args, out: bad })],
    ['v', (bad) => engine.attentionReference({ ...args, v: bad })],
    ['mask', (bad) => engine.attention({ ...args, mask: bad }), Uint8Array],
    ...['x', 'context', 'wq', 'wk', 'wv', 'wo'].map((name) => [name, (bad) => engine.multiHead({ ...multi, [name]: bad })]),
    ['mask', (bad) => engine.multiHead({ ...multi, mask: bad }), Uint8Array],
    ...['s', 'h', 'wa', 'ua', 'va'].map((name) => [name, (bad) => engine.scores({ ...scores, [name]: bad })]),
    ['alignment', (bad) => engine.context({ alignment: bad, h: f32(1), n: 1, m: 1, dh: 1 })],
    ['h', (bad) => engine.context({ alignment: f32(1), h: bad, n: 1, m: 1, dh: 1 })],
    ['logits', (bad) => engine.softmax(bad)],
    ['probabilities', (bad) => engine.rowStats(bad)],
    ['probabilities', (bad) => engine.softmaxJacobian(bad)],
  ].map(([name, call, Type = Float32Array]) => ({ name, call, Type }));
}

// The three kinds of array the engine refuses, each with the message it gets.
const BAD_VIEWS = {
  detached: {
    make: (module, Type) => detachedArray(2, Type),
    message: (name, type) => `${name}: expected a ${type} over an attached ArrayBuffer, got a detached ${type} ` +
      '(its buffer was transferred, e.g. by postMessage)',
  },
  shared: {
    make: (module, Type) => sharedArray([1, 0], Type),
    message: (name, type) => `${name}: expected a ${type} over an ArrayBuffer, got one over a SharedArrayBuffer ` +
      '(copy it first: another thread could change it during the call)',
  },
  'wasm-memory': {
    make: (module, Type) => wasmMemoryArray(module, 2, Type),
    message: (name, type) => `${name}: expected a ${type} outside the engine's WebAssembly memory, got a view of it ` +
      '(copy it first: the call may grow the memory and detach it)',
  },
};

// Runs `loop` without capturing stack traces (most of the cost of a thrown
// Error in V8; the errors are otherwise the same).
function withoutStackTraces(loop) {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return loop();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

// 100,000 calls, cycling through `calls` ({ call, Type }) with each kind of bad
// view: every one a TypeError, and the stack pointer, the handles and the memory as they were.
function expectBadViewsLeaveNoTrace(t, calls) {
  for (const [kind, bad] of Object.entries(BAD_VIEWS)) {
    const arrays = calls.map(({ Type }) => bad.make(t.module, Type));
    const before = t.boundaryState();
    const refused = withoutStackTraces(() => {
      let count = 0;
      for (let i = 0; i < 100_000; i++) {
        const index = i % calls.length;
        try {
          calls[index].call(arrays[index]);
        } catch (error) {
          if (error instanceof TypeError) count++;
        }
      }
      return count;
    });
    expect(refused, kind).toBe(100_000);
    expect(t.boundaryState(), kind).toEqual(before);
  }
}

// 5,000 calls of each [Error class, fn] (fn throws, or returns the raw module's Error):
// every one that error, and the stack pointer, the handles and the memory as they were.
function expectErrorsLeaveNoTrace(t, errors) {
  const unwrapped = (fn) => {
    const result = fn();
    if (result instanceof Error) throw result;  // the raw module returns its errors
    return result;
  };
  for (const [Type, fn] of errors) {
    const before = t.boundaryState();
    withoutStackTraces(() => {
      for (let i = 0; i < 5_000; i++) {
        const error = thrown(() => unwrapped(fn));
        if (!(error instanceof Type)) expect.fail(`${fn}: got ${error}`);
      }
    });
    expect(t.boundaryState(), String(fn)).toEqual(before);
  }
}

describe.each(['simd', 'baseline'])('the boundary (%s build)', (build) => {
  const testing = () => createTestingEngine({ build });

  it('a detached, a shared and a wasm-memory view are TypeErrors naming the argument, for every array argument', async () => {
    const t = await testing();
    for (const [kind, bad] of Object.entries(BAD_VIEWS)) {
      for (const { name, call, Type } of arrayArguments(t)) {
        const error = thrown(() => call(bad.make(t.module, Type)));
        expect(error, `${kind} ${name}`).toBeInstanceOf(TypeError);
        expect(error.message, `${kind} ${name}`).toBe(bad.message(name, Type.name));
      }
    }
  });

  it('100,000 bad calls of each kind leave the stack pointer, the handles and the memory as they were', async () => {
    const t = await testing();
    expectWorkedExample(t);
    expectBadViewsLeaveNoTrace(t, arrayArguments(t));
    expectWorkedExample(t);
  });

  it('5,000 of each error the bindings return leave the stack pointer, the handles and the memory as they were', async () => {
    const t = await testing();
    const { args } = workedExample();
    const raw = t.module;
    const call = { n: 1, m: 3, dk: 2, dv: 2, scale: 'inverseSqrtDk', scaleFactor: 1, mask: 'none', validKeys: 0 };
    const none = new Uint8Array(0);
    const errors = [
      [RangeError, () => t.attention({ ...args, k: f32(1, 0, 0) })],                    // core ShapeError
      [Error, () => t.attentionOutput({ ...args, q: f32(NaN, 0), path: 'tiled' })],       // core ValueError
      [Error, () => t.attention({ ...args, mask: new Uint8Array([1, 2, 1]) })],          // core ValueError (mask)
      [Error, () => t.attention({ ...args, scale: 1e39 })],                              // core ValueError (scale)
      [TypeError, () => raw.attentionTrace(args.q, args.k, args.v, { ...call, mask: 'seven' }, none, false, false)],  // bindings: option
      [TypeError, () => raw.attentionOutput(args.q, args.k, args.v, call, none, 'fast', undefined)],
      [RangeError, () => t.randomStream({ seed: 0, count: 2 ** 31, longRunning: true })],  // bindings: count
    ];
    expectErrorsLeaveNoTrace(t, errors);
    expectWorkedExample(t);
  });

  it('the raw module refuses an option string it does not know, naming the option (never a default)', async () => {
    const { module: raw } = await testing();
    const { args } = workedExample();
    const call = { n: 1, m: 3, dk: 2, dv: 2, scale: 'inverseSqrtDk', scaleFactor: 1, mask: 'none', validKeys: 0 };
    const none = new Uint8Array(0);
    const returned = (result) => [result.constructor.name, result.message];
    expect(returned(raw.attentionTrace(args.q, args.k, args.v, { ...call, mask: '7' }, none, false, false)))
      .toEqual(['TypeError', "mask: expected 'none', 'causal', 'keyPadding' or 'keep', got '7'"]);
    expect(returned(raw.attentionTrace(args.q, args.k, args.v, { ...call, scale: '9' }, none, false, false)))
      .toEqual(['TypeError', "scale: expected 'inverseSqrtDk', 'none' or 'given', got '9'"]);
    expect(returned(raw.attentionOutput(args.q, args.k, args.v, call, none, 'fast', undefined)))
      .toEqual(['TypeError', "path: expected 'tiled', 'full', 'scalar' or 'reference', got 'fast'"]);
    const scores = { kind: 'cosine', n: 1, m: 1, ds: 1, dh: 1, da: 0 };
    expect(returned(raw.scores(f32(1), f32(1), scores, f32(), f32(), f32())))
      .toEqual(['TypeError', "kind: expected 'dot', 'scaledDot', 'general' or 'additive', got 'cosine'"]);
    expect(returned(raw.multiHead(f32(1), f32(), f32(1), f32(1), f32(1), f32(1),
      { n: 1, m: 1, dModel: 1, heads: 1, mask: 'upper', validKeys: 0 }, none))[1]).toMatch(/^mask: expected/);
  });

  it("each of the raw module's option strings computes what it names", async () => {
    const { module: raw } = await testing();
    const { args, output } = workedExample();
    const e = Math.exp(Math.SQRT1_2);
    const call = { n: 1, m: 3, dk: 2, dv: 2, scale: 'inverseSqrtDk', scaleFactor: 1, mask: 'none', validKeys: 0 };
    const weights = (changes, keep = new Uint8Array(0)) =>
      raw.attentionTrace(args.q, args.k, args.v, { ...call, ...changes }, keep, false, false).weights;
    // scores (1, 0, 1); weights exp(s_j * scale) / sum.
    expectClose(weights({}), [e / (2 * e + 1), 1 / (2 * e + 1), e / (2 * e + 1)], 'inverseSqrtDk');
    expectClose(weights({ scale: 'none' }), [Math.E / (2 * Math.E + 1), 1 / (2 * Math.E + 1), Math.E / (2 * Math.E + 1)], 'none');
    const e3 = Math.exp(3);
    expectClose(weights({ scale: 'given', scaleFactor: 3 }), [e3 / (2 * e3 + 1), 1 / (2 * e3 + 1), e3 / (2 * e3 + 1)], 'given');
    // n = 1: causal lets query 0 see key 0 only.
    expect(Array.from(weights({ mask: 'causal' }))).toEqual([1, 0, 0]);
    expectClose(weights({ mask: 'keyPadding', validKeys: 2 }), [e / (e + 1), 1 / (e + 1), 0], 'keyPadding');
    expectClose(weights({ mask: 'keep' }, new Uint8Array([0, 1, 1])), [0, 1 / (e + 1), e / (e + 1)], 'keep');
    for (const path of ALL_PATHS) {
      expectClose(raw.attentionOutput(args.q, args.k, args.v, call, new Uint8Array(0), path, undefined), output, path);
    }
  });

  it('the scale crosses as a double: a value a float cannot hold is reported as given', async () => {
    const engine = await createAttention({ build });
    const { args } = workedExample();
    for (const [scale, shown] of [[1e39, '1e+39'], [-1e39, '-1e+39'], [1e-50, '1e-50']]) {
      const error = thrown(() => engine.attention({ ...args, scale }));
      expect(error.message).toBe(`scale: expected a finite positive number from 1.40129846e-45 to 3.40282347e+38, got ${shown}`);
    }
    // The core checks the scale, in one place, with the value as given.
    expect(() => engine.attention({ ...args, scale: -2 })).toThrow('scale: expected a finite positive number from 1.40129846e-45 to 3.40282347e+38, got -2');
    expect(() => engine.attention({ ...args, scale: Infinity })).toThrow('scale: expected a finite positive number from 1.40129846e-45 to 3.40282347e+38, got inf');
    // The largest float is accepted: scores (1, 0, 1) * 3.4e38 -> weights (1/2, 0, 1/2).
    expect(Array.from(engine.attention({ ...args, scale: 3.4e38 }).weights)).toEqual([0.5, 0, 0.5]);
  });

  it('a typed array is read by its real buffer, offset and length, whatever its own properties say', async () => {
    const engine = await createAttention({ build });
    const { args, output } = workedExample();
    class Lying extends Float32Array {
      get length() { throw new Error('length read'); }
      get buffer() { throw new Error('buffer read'); }
    }
    const q = new Lying(2);
    q[0] = 1;
    expectClose(engine.attention({ ...args, q }).output, output, 'subclass');
    const view = new Float32Array([9, 1, 0, 9]).subarray(1, 3);  // an offset view
    expectClose(engine.attention({ ...args, q: view }).output, output, 'subarray');
    expect(() => engine.attention({ ...args, q: new Proxy(args.q, {}) })).toThrow(/^q: expected a Float32Array, got/);
  });
});

// The learning module (createAttention({ learning: true })) is another Emscripten
// module, with its own stack and handle table: the same promises, for its own
// functions and the bindings' errors of the trainer.
describe.each(['simd', 'baseline'])('the boundary of the learning module (%s build)', (build) => {
  const testing = () => createTestingEngine({ build, learning: true });
  const backwardArgs = () => ({ ...workedExample().args, gradOutput: f32(1, 0) });

  // attentionBackward's array arguments, as (name, call with that argument replaced).
  const arrayArgumentsOf = (engine) => [
    ...['q', 'k', 'v', 'gradOutput'].map((name) => [name, (bad) => engine.attentionBackward({ ...backwardArgs(), [name]: bad })]),
    ['q', (bad) => engine.attentionBackward({ ...backwardArgs(), q: bad, path: 'full' })],
    ['mask', (bad) => engine.attentionBackward({ ...backwardArgs(), mask: bad }), Uint8Array],
  ].map(([name, call, Type = Float32Array]) => ({ name, call, Type }));

  it('a detached, a shared and a wasm-memory view are TypeErrors naming the argument; 100,000 of them leave no trace', async () => {
    const t = await testing();
    const calls = arrayArgumentsOf(t);
    for (const [kind, bad] of Object.entries(BAD_VIEWS)) {
      for (const { name, call, Type } of calls) {
        const error = thrown(() => call(bad.make(t.module, Type)));
        expect(error, `${kind} ${name}`).toBeInstanceOf(TypeError);
        expect(error.message, `${kind} ${name}`).toBe(bad.message(name, Type.name));
      }
    }
    expectBadViewsLeaveNoTrace(t, calls);
    expectWorkedExample(t);
  });

  it('5,000 of each error the bindings return (backward, trainer) leave the stack pointer, the handles and the memory as they were', async () => {
    const t = await testing();
    const raw = t.module;
    const args = backwardArgs();
    const call = { n: 1, m: 3, dk: 2, dv: 2, scale: 'inverseSqrtDk', scaleFactor: 1, mask: 'none', validKeys: 0 };
    const none = new Uint8Array(0);
    const trainer = t.createTrainer({ task: 'translate', seed: 1 });
    const started = new raw.Trainer();
    const settings = { task: 'reverse', seed: '1', heads: 2, dModel: 32, batchSize: 32, scale: true,
      learningRate: 0.01, weightDecay: 0.5 };
    if (started.start(settings) instanceof Error) throw new Error('start failed');
    const errors = [
      [RangeError, () => t.attentionBackward({ ...args, gradOutput: f32(1, 0, 0) })],          // core ShapeError
      [Error, () => t.attentionBackward({ ...args, gradOutput: f32(NaN, 0), path: 'full' })],  // core ValueError
      [TypeError, () => raw.attentionBackward(args.q, args.k, args.v, args.gradOutput, call, none, 'fast')],  // bindings: option
      [RangeError, () => t.createTrainer({ task: 'reverse', seed: 1, heads: 3 })],             // core ShapeError in start()
      [Error, () => t.createTrainer({ task: 'reverse', seed: 1, learningRate: 1e39 })],        // core ValueError: range
      [TypeError, () => raw.trainerFootprint({ task: 'sort', seed: '1' })],                     // core OptionError: choice
      [Error, () => trainer.translate('the cat reads')],                                        // core ValueError
      [RangeError, () => trainer.step(0)],                                                      // core ShapeError
      [Error, () => started.start(settings)],                                                   // bindings: started twice
    ];
    expectErrorsLeaveNoTrace(t, errors);
    trainer.dispose();
    started.delete();
    expectWorkedExample(t);
  });

  it('the raw module refuses an option string it does not know, and a trainer used before start()', async () => {
    const { module: raw } = await testing();
    const args = backwardArgs();
    const call = { n: 1, m: 3, dk: 2, dv: 2, scale: 'inverseSqrtDk', scaleFactor: 1, mask: 'none', validKeys: 0 };
    const returned = (result) => [result.constructor.name, result.message];
    expect(returned(raw.attentionBackward(args.q, args.k, args.v, args.gradOutput, call, new Uint8Array(0), 'fast')))
      .toEqual(['TypeError', "path: expected 'tiled', 'full' or 'reference', got 'fast'"]);
    expect(returned(raw.attentionBackward(args.q, args.k, args.v, args.gradOutput, { ...call, mask: 'upper' }, new Uint8Array(0), 'full')))
      .toEqual(['TypeError', "mask: expected 'none', 'causal', 'keyPadding' or 'keep', got 'upper'"]);
    expect(returned(raw.trainerFootprint({ task: 'sort', seed: '1' })))
      .toEqual(['TypeError', "task: expected 'reverse', 'translate' or 'induction', got 'sort'"]);
    const handle = new raw.Trainer();
    // Each method with the arguments it takes (the bindings read them as the engine made them).
    const calls = { step: () => handle.step(1), evaluate: () => handle.evaluate([], 1), translate: () => handle.translate(new Uint16Array(0)),
      generate: () => handle.generate(new Uint16Array(0), true), alignmentAgreement: () => handle.alignmentAgreement(8) };
    for (const method of ['step', 'evaluate', 'probe', 'translate', 'generate', 'headScores', 'alignmentAgreement', 'task',
      'parameters', 'lastBatch', 'parameterBlocks', 'lastEngineBatch']) {
      expect(returned((calls[method] ?? (() => handle[method]()))()), method).toEqual(['Error', 'trainer: not started']);
    }
    expect(returned(handle.start({ task: 'sort', seed: '1', heads: 2, dModel: 32, batchSize: 32, scale: true,
      learningRate: 0.01, weightDecay: 0.5 }))).toEqual(['TypeError', "task: expected 'reverse', 'translate' or 'induction', got 'sort'"]);
    // By name, the core checks the kind too (the engine checks it first): an unknown name, a wrong kind.
    expect(returned(handle.start({ task: 'reverse', seed: '1', dModel: '64' }))).toEqual(['TypeError', "dModel: expected an integer, got '64'"]);
    expect(returned(handle.start({ task: 'reverse', seed: '1', width: 64 }))[0]).toBe('TypeError');
    handle.delete();
    // Each table entry computes what it names: the defaults of each task, and the same gradients by every path.
    expect(raw.trainerFootprint({ task: 'translate', seed: '1' }).options).toEqual({ task: 'translate', seed: '1',
      model: 'attention', heads: 2, dModel: 32, batchSize: 32, scale: true, learningRate: Math.fround(0.01), weightDecay: 0.5 });
    const paths = ALL_BACKWARD_PATHS.map((path) => raw.attentionBackward(args.q, args.k, args.v, args.gradOutput, call,
      new Uint8Array(0), path));
    for (const gradients of paths.slice(1)) expectClose(gradients.gradQ, paths[0].gradQ, 'gradQ');
    expect(ALL_BACKWARD_PATHS).toEqual(['tiled', 'full', 'reference']);
  });
});

describe('the public surface', () => {
  it('exports createAttention, preferredBuild and the work and memory limits; the raw module and test paths are in testing.js', async () => {
    expect(Object.keys(publicEntry).sort()).toEqual(['LONG_RUNNING_WORK_LIMIT', 'TRAINER_MEMORY_LIMIT', 'WORK_LIMIT',
      'createAttention', 'preferredBuild']);
    const engine = await createAttention({ build: 'simd' });
    const keys = ['attention', 'attentionBackward', 'attentionOutput', 'attentionReference', 'build', 'context',
      'createTrainer', 'learning', 'multiHead', 'positionalEncoding', 'randomNormal', 'rowStats', 'saturation', 'scores',
      'simd', 'simdWidth', 'softmax', 'softmaxJacobian', 'tileSizes', 'trainerOptions'];
    expect(Object.keys(engine).sort()).toEqual(keys);
    // The learning engine has the same names (on the attention module, attentionBackward and createTrainer say it is missing).
    expect(Object.keys(await createAttention({ build: 'simd', learning: true })).sort()).toEqual(keys);
    const { args } = workedExample();
    for (const path of ['scalar', 'reference']) {
      expect(() => engine.attentionOutput({ ...args, path })).toThrow(
        new TypeError(`path: expected 'tiled' or 'full', got '${path}'`));
    }
    const t = await createTestingEngine({ build: 'simd' });
    expect(t.module).toBe(await (await import('../../web/src/engine/testing.js')).loadBuild('simd'));
    expect(typeof t.randomStream).toBe('function');
  });
});

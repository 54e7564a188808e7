// The engine object: the JavaScript API over one Emscripten module of the core
// (see index.d.ts for the contract). Each function checks its arguments
// (./arguments.js) and its work (./work-limits.js), calls the bindings with the
// one form they take, and throws the Error they return. Nothing that can throw
// reaches the bindings, so every error path leaves the module's stack pointer
// and Embind handle table as they were, and frees whatever it allocated.

import {
  arrayChecks, choice, count, flag, number, optionalCount, options, maskOption, scaleOption, seedHalves,
  trailingOptions, unwrap,
} from './arguments.js';
import { checkWork } from './work-limits.js';
import { learningFunctions, withoutLearning } from './learning.js';

// attentionOutput's paths and the work formula of each ('scalar' and
// 'reference' only through the test entry, ./testing.js); 'full' writes and
// reads n x m matrices, as the trace does.
const PATH_WORK = Object.freeze({ tiled: 'attentionFast', full: 'attentionTrace', scalar: 'attentionFast',
  reference: 'attentionReference' });
export const PUBLIC_PATHS = Object.freeze(['tiled', 'full']);
export const ALL_PATHS = Object.freeze(Object.keys(PATH_WORK));

const SCORE_WORK = Object.freeze({ dot: 'scoresDot', scaledDot: 'scoresDot', general: 'scoresGeneral',
  additive: 'scoresAdditive' });

// `longRunning` of a call's options (see ./work-limits.js).
const longRunningOf = (a) => flag('longRunning', a.longRunning);


// `paths`: the attentionOutput paths this engine accepts. `learning`: `module`
// is the learning module (attentionBackward and createTrainer work;
// `backwardPaths` and `testing` as in ./learning.js).
export function makeEngine(module, build, { paths = PUBLIC_PATHS, learning = false, backwardPaths, testing } = {}) {
  const arrays = arrayChecks(module);

  // The bindings' arguments of one attention call (q, k, v, call, keep), its work checked as `work`.
  function attentionCall(name, a, work) {
    options(name, a);
    const n = count('n', a.n), m = count('m', a.m), dk = count('dk', a.dk), dv = count('dv', a.dv);
    const q = arrays.float32('q', a.q), k = arrays.float32('k', a.k), v = arrays.float32('v', a.v);
    const { mask, validKeys, keep } = maskOption(a.mask, arrays);
    const { scale, scaleFactor } = scaleOption(a.scale);
    // Written out, not spread: in Node 20's V8 an object literal with two
    // spreads took ~6 us, more than the whole call at n = 6 (~7 us).
    const call = { n, m, dk, dv, scale, scaleFactor, mask, validKeys };
    checkWork(work, call, longRunningOf(a));
    return [q, k, v, call, keep];
  }

  // dModel, n and m of a multi-head call: given, or inferred from the lengths
  // (dModel = sqrt(wq.length), n = x.length / dModel, m = context.length / dModel or n).
  function multiHeadSizes({ dModel: givenDModel, n: givenN, m: givenM }, x, context, wq) {
    const dModel = givenDModel === undefined ? Math.floor(Math.sqrt(wq.length)) : count('dModel', givenDModel);
    if (dModel < 1) {
      throw new RangeError(givenDModel === undefined
        ? `wq: expected dModel*dModel floats with dModel >= 1 (dModel is inferred from wq), got ${wq.length}`
        : `dModel: expected at least 1, got ${dModel}`);
    }
    const rows = (name, array) => {
      const inferred = Math.floor(array.length / dModel);
      if (inferred < 1) {
        throw new RangeError(`${name}: expected at least one row of dModel = ${dModel} floats, got ${array.length}`);
      }
      return inferred;
    };
    const n = givenN === undefined ? rows('x', x) : count('n', givenN);
    const m = givenM === undefined ? (context.length > 0 ? rows('context', context) : n) : count('m', givenM);
    return { n, m, dModel };
  }

  const kernels = module.kernelFacts();
  return Object.freeze({
    build,
    simd: build === 'simd',
    simdWidth: kernels.lanes,
    tileSizes: Object.freeze({ queries: kernels.blockQueries, keys: kernels.blockKeys }),
    learning,

    // attentionBackward, createTrainer (./learning.js): the learning module's, or functions that say it is missing.
    ...(learning ? learningFunctions(module, { arrays, attentionCall, backwardPaths, testing }) : withoutLearning()),

    // The trace; `terms: true` adds the per-key terms weights_ij v_j (n*m*dv floats).
    attention(a) {
      return unwrap(module.attentionTrace(...attentionCall('attention', a, 'attentionTrace'), flag('terms', a.terms), false));
    },

    // Output only. path 'tiled' (default): the core's online-softmax path, never
    // holds n x m. 'full': the SIMD kernels through one n x m matrix. `out`
    // (n*dv floats; omitted or null: a fresh array): the output is written
    // into it and it is returned.
    attentionOutput(a) {
      options('attentionOutput', a);
      const path = choice('path', a.path ?? 'tiled', paths);
      const [q, k, v, call, keep] = attentionCall('attentionOutput', a, PATH_WORK[path]);
      const given = a.out;  // read once: a getter could answer differently the second time
      const out = given === undefined || given === null ? undefined
        : arrays.float32Result('out', given, 'n*dv', call.n, call.dv);
      const result = unwrap(module.attentionOutput(q, k, v, call, keep, path, out));
      return out === undefined ? result : given;
    },

    // The scalar reference trace (plain loops, double accumulation).
    attentionReference(a) {
      return unwrap(module.attentionTrace(...attentionCall('attentionReference', a, 'attentionReference'),
        flag('terms', a.terms), true));
    },

    multiHead(a) {
      options('multiHead', a);
      const x = arrays.float32('x', a.x), context = arrays.optionalFloat32('context', a.context);
      const wq = arrays.float32('wq', a.wq), wk = arrays.float32('wk', a.wk);
      const wv = arrays.float32('wv', a.wv), wo = arrays.float32('wo', a.wo);
      const heads = count('heads', a.heads);
      const { mask, validKeys, keep } = maskOption(a.mask, arrays);
      const { n, m, dModel } = multiHeadSizes(a, x, context, wq);
      checkWork('multiHead', { n, m, dModel, heads }, longRunningOf(a));
      return unwrap(module.multiHead(x, context, wq, wk, wv, wo, { n, m, dModel, heads, mask, validKeys }, keep));
    },

    saturation(a = {}) {
      options('saturation', a);
      const call = {
        dk: optionalCount('dk', a.dk, 64), queries: optionalCount('queries', a.queries, 8),
        keys: optionalCount('keys', a.keys, 8), trials: optionalCount('trials', a.trials, 200), ...seedHalves(a.seed),
      };
      checkWork('saturation', call, longRunningOf(a));
      return unwrap(module.saturation(call));
    },

    scores(a) {
      options('scores', a);
      const kind = choice('kind', a.kind, Object.keys(SCORE_WORK));
      const call = {
        kind, n: count('n', a.n), m: count('m', a.m), ds: count('ds', a.ds), dh: count('dh', a.dh),
        da: optionalCount('da', a.da, 0),
      };
      const s = arrays.float32('s', a.s), h = arrays.float32('h', a.h);
      const wa = arrays.optionalFloat32('wa', a.wa), ua = arrays.optionalFloat32('ua', a.ua);
      const va = arrays.optionalFloat32('va', a.va);
      checkWork(SCORE_WORK[kind], call, longRunningOf(a));
      return unwrap(module.scores(s, h, call, wa, ua, va));
    },

    context(a) {
      options('context', a);
      const sizes = { n: count('n', a.n), m: count('m', a.m), dh: count('dh', a.dh) };
      const alignment = arrays.float32('alignment', a.alignment), h = arrays.float32('h', a.h);
      checkWork('context', sizes, longRunningOf(a));
      return unwrap(module.context(alignment, h, sizes.n, sizes.m, sizes.dh));
    },

    // Row softmax of a rows x cols matrix (one row of all of `logits` when omitted).
    softmax(logits, rows, cols, callOptions) {
      const l = arrays.float32('logits', logits);
      const r = rows === undefined ? 1 : count('rows', rows);
      const c = cols === undefined ? (r > 0 ? Math.floor(l.length / r) : 0) : count('cols', cols);
      checkWork('softmax', { rows: r, cols: c }, longRunningOf(trailingOptions('options', callOptions)));
      return unwrap(module.softmax(l, r, c));
    },

    rowStats(probabilities, callOptions) {
      const p = arrays.float32('probabilities', probabilities);
      checkWork('rowStats', { length: p.length }, longRunningOf(trailingOptions('options', callOptions)));
      return unwrap(module.rowStats(p));
    },

    // J = diag(p) - p p^T, cols x cols row-major, as a Float64Array.
    softmaxJacobian(probabilities, callOptions) {
      const p = arrays.float32('probabilities', probabilities);
      checkWork('softmaxJacobian', { length: p.length }, longRunningOf(trailingOptions('options', callOptions)));
      return unwrap(module.softmaxJacobian(p));
    },

    positionalEncoding(n, dModel, callOptions) {
      const sizes = { n: count('n', n), dModel: count('dModel', dModel) };
      checkWork('positionalEncoding', sizes, longRunningOf(trailingOptions('options', callOptions)));
      return unwrap(module.positionalEncoding(sizes.n, sizes.dModel));
    },

    randomNormal(a) {
      options('randomNormal', a);
      const { seedHigh, seedLow } = seedHalves(a.seed);
      const sizes = { rows: count('rows', a.rows), cols: count('cols', a.cols) };
      const stddev = number('stddev', a.stddev ?? 1);
      checkWork('randomNormal', sizes, longRunningOf(a));
      return unwrap(module.randomNormal(seedHigh, seedLow, sizes.rows, sizes.cols, stddev));
    },
  });
}

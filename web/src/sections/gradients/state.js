// Section "gradients": why sqrt(d_k), seen through the gradient itself. Plain
// module, no DOM: the engine (with the learning module) is a parameter, so
// Vitest runs it against the real wasm in Node.
//
// 1. The sweep: at each d_k of DIMENSIONS, `trials` draws of Q, K (n x d_k),
//    V (m x d_v) and an upstream gradient dO (n x d_v, what a loss downstream
//    would send back), all standard normals from the seed; the engine's
//    backward pass (attentionBackward, the gradient of sum(dO * O)) with and
//    without the division by sqrt(d_k). Per query i, the size of the gradient
//    that reaches it, ||dL/dq_i||; per key j, ||dL/dk_j||; their median and
//    quartiles over every query (key) of every trial, and the share that
//    vanished (below VANISHED).
// 2. One row: the weights of one query of the first trial at a chosen d_k,
//    their softmax Jacobian (engine.softmaxJacobian), raw and scaled.
// The experiment (two trainings) is in ./experiment.js.
import { liveModel } from '../../lib/live-model.js';
import { quantile } from '../../lib/quantile.js';

export const DIMENSIONS = Object.freeze([4, 8, 16, 32, 64, 128, 256, 512, 1024]);
export const SHAPE = Object.freeze({ n: 8, m: 8, dv: 8, trials: 32 });
// A gradient smaller than this is counted as vanished: about a thousandth of
// what the median query receives with the division (0.6 to 0.8 at every d_k).
export const VANISHED = 1e-3;

export const DEFAULTS = Object.freeze({
  sweep: Object.freeze({ seed: 1 }),
  // Seed 1, d_k = 256, query 2: a row the raw scores saturate (largest weight 0.9999).
  row: Object.freeze({ dk: 256, query: 1 }),
  train: Object.freeze({ dk: 64, seed: 1, steps: 200 }),
});

// The seeds of one trial: Q and K from one stream, V and dO from the next.
// Every d_k uses the same seeds (as in section 2's sweep).
export const trialSeed = (seed, trial) => seed * 65536 + 2 * trial;

// Q, K, V and dO of one trial.
export function trialInputs(engine, { seed, trial, dk, n, m, dv }) {
  const qk = engine.randomNormal({ seed: trialSeed(seed, trial), rows: n + m, cols: dk });
  const vo = engine.randomNormal({ seed: trialSeed(seed, trial) + 1, rows: m + n, cols: dv });
  return { q: qk.subarray(0, n * dk), k: qk.subarray(n * dk), v: vo.subarray(0, m * dv), gradOutput: vo.subarray(m * dv), n, m, dk, dv };
}

// The gradients of one trial, raw (scale: false) and scaled (1/sqrt(d_k)).
export function trialGradients(engine, inputs) {
  return {
    raw: engine.attentionBackward({ ...inputs, scale: false, path: 'full' }),
    scaled: engine.attentionBackward({ ...inputs, path: 'full' }),
  };
}

// ||row r|| of a rows x cols matrix, for every r (in double).
export function rowNorms(matrix, rows, cols) {
  const out = new Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += matrix[r * cols + c] ** 2;
    out[r] = Math.sqrt(sum);
  }
  return out;
}

// Median, quartiles and the share below VANISHED of a list of sizes.
export function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    low: quantile(sorted, 0.25),
    high: quantile(sorted, 0.75),
    vanished: sorted.filter((x) => x < VANISHED).length / sorted.length,
    count: sorted.length,
  };
}

// The sweep, one trial per `next()` (so that the page can run it in slices
// between frames); its return value is the result.
export function* sweepSteps(engine, { seed, dims = DIMENSIONS, n = SHAPE.n, m = SHAPE.m, dv = SHAPE.dv, trials = SHAPE.trials }) {
  const rows = [];
  for (const dk of dims) {
    const sizes = { query: { raw: [], scaled: [] }, key: { raw: [], scaled: [] } };
    for (let trial = 0; trial < trials; trial++) {
      const g = trialGradients(engine, trialInputs(engine, { seed, trial, dk, n, m, dv }));
      for (const kind of ['raw', 'scaled']) {
        sizes.query[kind].push(...rowNorms(g[kind].gradQ, n, dk));
        sizes.key[kind].push(...rowNorms(g[kind].gradK, m, dk));
      }
      yield;
    }
    rows.push({
      dk,
      query: { raw: spread(sizes.query.raw), scaled: spread(sizes.query.scaled) },
      key: { raw: spread(sizes.key.raw), scaled: spread(sizes.key.scaled) },
    });
  }
  return { seed, dims: [...dims], n, m, dv, trials, rows };
}

// The whole sweep at once (Node, tests).
export function runSweep(engine, settings) {
  const steps = sweepSteps(engine, settings);
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
  }
}

// The sentences of the sweep's summary, as keys of the section's strings and
// their numbers (unformatted), each claim as far as the numbers support it:
// the queries in full, then the keys in one sentence.
export function sweepSummary(sweep) {
  const rows = sweep.rows;
  const first = rows[0];
  const last = rows[rows.length - 1];
  const parts = [];
  const q = (row) => row.query;
  const steady = q(last).scaled.median / q(first).scaled.median;
  parts.push({
    key: `sweep.summary.${steady > 0.5 && steady < 2 ? 'scaledSteady' : 'scaledChanges'}`,
    params: { d1: first.dk, dN: last.dk, s1: q(first).scaled.median, sN: q(last).scaled.median },
  });
  const verdict = (side) => {
    const ratio = side.scaled.median / side.raw.median;
    return { name: ratio >= 10 ? 'rawVanishes' : ratio > 1 ? 'rawSmaller' : 'rawNotSmaller', ratio };
  };
  const queries = verdict(q(last));
  parts.push({
    key: `sweep.summary.${queries.name}`,
    params: { dN: last.dk, r1: q(first).raw.median, rN: q(last).raw.median, ratio: queries.ratio, share: q(last).raw.vanished },
  });
  // The widths at which the raw median is the larger one, from the smallest on.
  let larger = 0;
  while (larger < rows.length && q(rows[larger]).raw.median > q(rows[larger]).scaled.median) larger += 1;
  if (larger > 0 && larger < rows.length) {
    parts.push({ key: 'sweep.summary.rawLargerFirst', params: { d1: first.dk, dCross: rows[larger - 1].dk, r1: q(first).raw.median, s1: q(first).scaled.median } });
  }
  // The few queries whose weights stay spread still get a large gradient.
  if (queries.name !== 'rawNotSmaller' && q(last).raw.high > q(last).scaled.median) {
    parts.push({ key: 'sweep.summary.rawConcentrated', params: { dN: last.dk, rHigh: q(last).raw.high, sN: q(last).scaled.median } });
  }
  const keys = verdict(last.key);
  parts.push({
    key: `sweep.summary.keys.${keys.ratio > 1 ? 'smaller' : 'notSmaller'}`,
    params: { dN: last.dk, rN: last.key.raw.median, sN: last.key.scaled.median, ratio: keys.ratio, share: last.key.raw.vanished },
  });
  return parts;
}

// One row of weights at `dk`: query `query` of the first trial, raw and
// scaled; its softmax Jacobian J = diag(p) - p p^T, tr J = sum p(1 - p), the
// largest |J_ij|, and the size of the gradient that reaches that query.
export function rowJacobian(engine, { seed, dk, query, n = SHAPE.n, m = SHAPE.m, dv = SHAPE.dv }) {
  const inputs = trialInputs(engine, { seed, trial: 0, dk, n, m, dv });
  const gradients = trialGradients(engine, inputs);
  const side = (kind, scale) => {
    const weights = engine.attention({ ...inputs, scale }).weights.slice(query * m, (query + 1) * m);
    const jacobian = engine.softmaxJacobian(weights);
    let trace = 0;
    let largest = 0;
    for (let i = 0; i < m; i++) {
      trace += jacobian[i * m + i];
      for (let j = 0; j < m; j++) largest = Math.max(largest, Math.abs(jacobian[i * m + j]));
    }
    return {
      weights: Array.from(weights),
      maxWeight: Math.max(...weights),
      jacobian: Array.from(jacobian),
      trace,
      largest,
      gradient: rowNorms(gradients[kind].gradQ, n, dk)[query],
    };
  };
  return { seed, dk, query, m, raw: side('raw', false), scaled: side('scaled', true) };
}

// The sentence under the row's Jacobians: a saturated raw row (its trace a
// tenth of the scaled one's or less) or not.
export function rowSummary(row) {
  const traceRatio = row.scaled.trace / row.raw.trace;
  const gradientRatio = row.scaled.gradient / row.raw.gradient;
  return {
    key: traceRatio >= 10 ? 'row.summary.saturated' : 'row.summary.spread',
    params: {
      dk: row.dk, query: row.query + 1, max: row.raw.maxWeight, smax: row.scaled.maxWeight, trace: row.raw.trace,
      strace: row.scaled.trace, traceRatio, gradient: row.raw.gradient, sgradient: row.scaled.gradient, gradientRatio,
    },
  };
}

// The live model: the settings; the row's Jacobian, computed at once (well
// under a millisecond); the sweep and the experiment's runs, handed in when
// they are done (the page runs them in slices or in workers).
export function createGradients(engine, initial = DEFAULTS) {
  const background = { sweep: null };
  return liveModel({
    initial,
    compute: (settings) => rowJacobian(engine, { seed: settings.sweep.seed, ...settings.row }),
    actions: {
      set(settings, name, changes) {
        Object.assign(settings[name], changes);
        if (name === 'sweep' && 'seed' in changes) background.sweep = null;
        return name !== 'train';
      },
      setSweep(settings, result) {
        background.sweep = result;
        return false;
      },
    },
    views: {
      settings: (_, settings) => settings,
      sweep: () => background.sweep,
    },
  });
}

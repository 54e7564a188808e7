// Section 2 state: the sqrt(d_k) experiments of articles 000, 002 and 003, run
// by the engine from a seed. Plain module, no DOM: the engine is a parameter,
// so Vitest runs it against the real wasm in Node.
//
// 1. tenKeys  — one query and ten keys with d_k = 512 (article 000): the ten
//    softmax weights of the raw and of the scaled scores.
// 2. trials   — d_k = 64, eight keys, 5000 trials of one query (article 002):
//    mean largest weight, share of rows above 0.99, mean sum p(1-p).
// 3. sweep    — d = 4 ... 1024, 8 x 8 logits per trial, 200 trials (article
//    003): logit std, largest weight, entropy, sum p(1-p), raw and scaled.
// Every statistic is computed by the engine (attention, rowStats, saturation);
// this module only arranges the calls and times them.

import { liveModel } from '../../lib/live-model.js';

export const DIMENSIONS = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
export const TRIAL_COUNTS = [100, 200, 500, 1000, 2000, 5000, 10000, 20000];
export const SWEEP_TRIAL_COUNTS = [10, 20, 50, 100, 200, 500, 1000];
export const SWEEP_DIMENSIONS = [4, 16, 64, 256, 1024];

export const DEFAULTS = Object.freeze({
  // Seed 1: a typical draw for d_k = 512, one key takes over 99 % of the raw weight.
  tenKeys: Object.freeze({ seed: 1, dk: 512, keys: 10 }),
  trials: Object.freeze({ seed: 0, dk: 64, keys: 8, trials: 5000 }),
  sweep: Object.freeze({ seed: 0, dims: SWEEP_DIMENSIONS, queries: 8, keys: 8, trials: 200 }),
});

const now = () => globalThis.performance?.now() ?? Date.now();

// Experiment 1. One draw of (1 + keys) x d_k standard normals from `seed`:
// row 0 is the query, rows 1..keys the keys. The same scores go through the
// softmax raw (scale: false) and divided by sqrt(d_k) (the default scale).
export function runTenKeys(engine, { seed, dk, keys }) {
  const t0 = now();
  const draw = engine.randomNormal({ seed, rows: 1 + keys, cols: dk });
  const q = draw.subarray(0, dk);
  const k = draw.subarray(dk);
  const v = new Float32Array(keys);  // d_v = 1: only the weights matter here
  const common = { q, k, v, n: 1, m: keys, dk, dv: 1 };
  const raw = engine.attention({ ...common, scale: false });
  const scaled = engine.attention(common);
  const ms = now() - t0;
  return {
    seed, dk, keys, ms,
    scores: Array.from(raw.scores),            // q . k_j
    scaledScores: Array.from(scaled.scaled),   // q . k_j / sqrt(d_k)
    scale: scaled.scale,                       // 1 / sqrt(d_k), as applied
    raw: { weights: Array.from(raw.weights), stats: engine.rowStats(raw.weights) },
    scaled: { weights: Array.from(scaled.weights), stats: engine.rowStats(scaled.weights) },
  };
}

// Experiment 2: `trials` independent draws of one query and `keys` keys.
export function runTrials(engine, { seed, dk, keys, trials }) {
  const t0 = now();
  // At its largest settings (d_k = 4096, 20000 trials) this is a few seconds of
  // work, over the engine's default limit: the page runs it in a worker.
  const result = engine.saturation({ dk, queries: 1, keys, trials, seed, longRunning: true });
  return { seed, dk, keys, trials, ms: now() - t0, ...result };
}

// Experiment 3: the saturation statistics at each dimension, 8 queries x 8 keys
// per trial, the same seed at every dimension (as in article 003), and the
// statistics of a uniform row of `keys` weights (entropy ln 8, sum p(1-p) = 7/8)
// as the reference the raw rows fall away from.
export function runSweep(engine, { seed, dims, queries, keys, trials }) {
  const t0 = now();
  const rows = dims.map((dk) => ({ dk, ...engine.saturation({ dk, queries, keys, trials, seed }) }));
  const ms = now() - t0;
  const uniform = engine.rowStats(new Float32Array(keys).fill(1 / keys));
  return { seed, dims, queries, keys, trials, ms, rows, uniform };
}

// The scaled logits are the raw ones times 1/sqrt(d), so their spread is the
// raw spread divided by sqrt(d): the column the variance argument predicts 1 for.
export const scaledLogitStd = (row) => row.logitStd / Math.sqrt(row.dk);

// How many times larger the scaled gradient signal is than the raw one at the
// largest dimension of a sweep.
export function gradientRatio(sweep) {
  const last = sweep.rows[sweep.rows.length - 1];
  return last.gradient.scaled / last.gradient.raw;
}

export const RUNNERS = { tenKeys: runTenKeys, trials: runTrials, sweep: runSweep };

// The live model of the section (lib/live-model.js): the settings of the three
// experiments, and their latest results. Experiment 1 takes well under a
// millisecond and is computed here, whenever its settings change; experiments 2
// and 3 run in background workers (./experiment-pool.js) and their results are
// handed in with setResult.
export function createScaling(engine, initial = DEFAULTS) {
  const background = { trials: null, sweep: null };
  return liveModel({
    initial,
    compute: (settings) => runTenKeys(engine, settings.tenKeys),
    actions: {
      set(settings, name, changes) {
        Object.assign(settings[name], changes);
        return name === 'tenKeys';
      },
      setResult(settings, name, result) {
        background[name] = result;
        return false;
      },
    },
    views: {
      settings: (_, settings) => settings,
      results: (tenKeys) => ({ tenKeys, ...background }),
    },
  });
}

// Section "decoding": a translator trained on the engine's 'translate' task
// (English with optional words -> Korean word order with particles as tokens),
// then generating greedily, one token per step: each step's attention row over
// the source, what the model keeps between steps (the transformer: one key and
// value row per token read; Bahdanau's GRU: its recurrent state), and the cost
// of generating with that cache against reading the whole prefix again. Plain
// module, no DOM: the numbers come from the run (./runs.js, one worker); this
// module holds the settings and picks every sentence the section says from them.
//
// Sizes (measured in Node, SIMD build, load 1-4 on 2 cores, seeds 1-4;
// generated accuracy on the first 64 held-out sentences every 25 steps, to 0.9):
// transformer, 1 layer, 2 heads, dModel 32, batch 32, learning rate 0.01:
// 150-175 steps, 1.6-2.1 s of CPU, 0.93-0.97 on all 512 held-out sentences;
// bahdanau, dModel 32, same batch and rate: 100 steps, 1.0-1.4 s, 0.96-0.99.
// The core's defaults (dModel 64, 2 layers, rate 0.003) reach 1.0 by step 500
// but cost five times as much a step.
export const MODELS = Object.freeze(['transformer', 'bahdanau']);
export const MODEL_OPTIONS = Object.freeze({
  transformer: Object.freeze({ layers: 1, heads: 2 }),
  bahdanau: Object.freeze({}),
});
export const D_MODEL = 32;
export const BATCH_SIZE = 32;
export const LEARNING_RATE = 0.01;
export const TARGET = 0.9;           // generated accuracy that ends the run
export const EVALUATE_EVERY = 25;    // steps between held-out points
export const EXAMPLES = 64;          // held-out sentences of each point (all 512 at the end)
export const MAX_STEPS = 1500;
// The timing of a generation: ROUNDS samples of each way, each the mean of CALLS generations.
export const ROUNDS = 9;
export const CALLS = 4;
// A ratio of the medians within 1 +- SAME of 1 is "about the same".
export const SAME = 0.15;

export const DEFAULTS = Object.freeze({ seed: 1, model: 'transformer' });

// createTrainer's options of the run.
export function runOptions({ seed, model }) {
  return {
    task: 'translate', model, seed, dModel: D_MODEL, batchSize: BATCH_SIZE, learningRate: LEARNING_RATE,
    ...MODEL_OPTIONS[model],
  };
}

// The model host's train request (src/training/model-host-service.js).
export const trainPlan = () => ({
  until: MAX_STEPS, every: EVALUATE_EVERY, examples: EXAMPLES,
  stopAt: { metric: 'generatedAccuracy', value: TARGET },
});

// The model host's timeGenerate request for a sentence ('' or undefined: the probe's).
export const timingPlan = (sentence) => ({ sentence: sentence || undefined, rounds: ROUNDS, calls: CALLS });

// A run before its first message.
export const emptyRun = () => ({
  points: [], step: 0, trainer: null, done: false, reason: null, evaluation: null,
  decoded: null,   // { sentence, generation, recomputed, timing } of the sentence shown
});

export function median(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// ---- one step of a generation -------------------------------------------------

// The maps of a generation step, by kind: 'cross' (over the source; the last
// layer's, the heads averaged) and 'decoder-self' (over the cache, the same).
export function stepMaps(step) {
  const last = (kind) => step.weights.filter((w) => w.kind === kind).at(-1) ?? null;
  const averaged = (map) => {
    if (!map) return null;
    const row = new Float64Array(map.cols);
    for (const head of map.heads) for (let j = 0; j < map.cols; j++) row[j] += head[j] / map.heads.length;
    return { layer: map.layer, heads: map.heads.length, row: Array.from(row) };
  };
  return { cross: averaged(last('cross')), self: averaged(last('decoder-self')) };
}

// What the model keeps after step k (from 1): the transformer, for each of its
// `layers` decoder layers, one key and one value row of dModel numbers per
// token read (the start token and the k - 1 generated before); the GRU, its
// state of dModel numbers, whatever the step.
export function cacheOf({ model, dModel, layers = 1 }, step) {
  if (model === 'transformer') {
    return { rows: step.cacheLength, floats: 2 * layers * step.cacheLength * dModel };
  }
  return { rows: 1, floats: dModel };
}

// ---- the sentences: each { key, params }, chosen from the numbers ----------

// The training: the target reached (at which step, how long), or not.
export function trainingSummary(run) {
  const last = run.points.at(-1);
  const params = {
    steps: run.step, seconds: run.seconds ?? null, target: TARGET, examples: EXAMPLES,
    accuracy: run.evaluation?.generatedAccuracy ?? last?.generatedAccuracy ?? null,
    sequences: run.evaluation?.sequenceAccuracy ?? null,
    reached: last?.generatedAccuracy ?? null,
  };
  return { key: `summary.training.${run.reason === 'target' ? 'reached' : 'short'}`, params };
}

// The cache of a generation: grows by one row per token (the transformer), or
// stays one state (the recurrent model); 'other' if the steps say otherwise.
// options: the trainer's (model, dModel, layers).
export function cacheSummary(generation, options) {
  const steps = generation.steps;
  const grows = steps.every((s, i) => s.cacheLength === i + 1);
  const first = cacheOf(options, steps[0]);
  const last = cacheOf(options, steps.at(-1));
  const params = {
    steps: steps.length, rows: steps.at(-1).cacheLength, firstFloats: first.floats, floats: last.floats,
    dModel: options.dModel, layers: options.layers ?? 1,
  };
  if (!grows) return { key: 'summary.cache.other', params };
  return { key: `summary.cache.${options.model === 'transformer' ? 'grows' : 'state'}`, params };
}

// The same tokens with the cache and without (the engine promises it; checked here).
export function sameTokens(a, b) {
  return a.tokens.length === b.tokens.length && a.tokens.every((token, i) => token === b.tokens[i]);
}

// The largest difference between two generations' attention weights, over
// every step, map, head and entry (null if their shapes differ).
export function largestWeightDifference(a, b) {
  if (a.steps.length !== b.steps.length) return null;
  let largest = 0;
  for (let i = 0; i < a.steps.length; i++) {
    const [x, y] = [a.steps[i].weights, b.steps[i].weights];
    if (x.length !== y.length) return null;
    for (let m = 0; m < x.length; m++) {
      if (x[m].cols !== y[m].cols || x[m].heads.length !== y[m].heads.length) return null;
      x[m].heads.forEach((head, k) => {
        for (let j = 0; j < x[m].cols; j++) largest = Math.max(largest, Math.abs(head[j] - y[m].heads[k][j]));
      });
    }
  }
  return largest;
}

// The cost: the medians of the timed generations with the cache and without,
// and their ratio (recompute / cache).
export function costOf(timing) {
  const cache = median(timing.cache);
  const recompute = median(timing.recompute);
  return { cache, recompute, ratio: cache > 0 ? recompute / cache : null, samples: Math.min(timing.cache.length, timing.recompute.length) };
}
export function costSummary(timing, generation, recomputed) {
  const cost = costOf(timing);
  const params = { ...cost, steps: generation.steps.length, calls: CALLS };
  if (!sameTokens(generation, recomputed)) return { key: 'summary.cost.differ', params };
  let key = 'same';
  if (cost.ratio === null) key = 'unmeasured';
  else if (cost.ratio >= 1 + SAME) key = 'faster';
  else if (cost.ratio <= 1 / (1 + SAME)) key = 'slower';
  return { key: `summary.cost.${key}`, params };
}

// Every sentence of a finished run and its decoded sentence, in order.
export function summarize(run) {
  const parts = [trainingSummary(run)];
  const d = run.decoded;
  if (d?.generation) parts.push(cacheSummary(d.generation, run.trainer.options));
  if (d?.timing) parts.push(costSummary(d.timing, d.generation, d.recomputed));
  return parts;
}

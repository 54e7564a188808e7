// Section "induction": heads that specialise. A two-layer attention-only
// decoder (model 'decoder', attentionOnly, one head a layer) trained on the
// engine's induction task (32 letters from a to x; a segment of 6 distinct
// letters, found nowhere else, appears twice; the accuracy counts the second
// occurrence after its first letter), against the same model with one layer.
// Plain module, no DOM: the numbers come from the runs (./runs.js, a worker
// each); this module holds the settings and picks every sentence the section
// says from them (Olsson et al. 2022, "In-context Learning and Induction Heads").
//
// Sizes (measured in Node, SIMD build, load 11 on 2 cores; scratch survey of
// seeds 1-8): dModel 16, batch 32, learning rate 0.01: accuracy on the repeat
// >= 0.98 on 128 held-out sequences after 575-1350 steps (the drop, 0.2 -> 0.8,
// within 50-100 steps), 2.2-5.3 s of CPU with the evaluations; the layer-1 head's
// previous-token score 0.54-0.63, the layer-2 head's prefix-match 0.93-0.96;
// either ablated: 0.04-0.07. One layer, 1500 steps: 0.105-0.131.
export const D_MODEL = 16;
export const BATCH_SIZE = 32;
export const LEARNING_RATE = 0.01;
export const RUNS = Object.freeze(['two', 'one']);
export const LAYERS = Object.freeze({ two: 2, one: 1 });
export const TARGET = 0.98;          // accuracy on the repeat that ends the two-layer run
export const EVALUATE_EVERY = 25;    // steps between held-out points
export const EXAMPLES = 128;         // held-out sequences of each point (all of them at the end)
export const MAX_STEPS = 2000;
// The levels the sentences read: where the drop is, and what counts as a specialised head.
export const DROP_FROM = 0.2;
export const DROP_TO = 0.8;
export const DROP_MIDDLE = 0.5;
export const PREVIOUS_TOKEN_HEAD = 0.3;
export const INDUCTION_HEAD = 0.5;

export const DEFAULTS = Object.freeze({ seed: 1 });

// createTrainer's options of a run.
export function runOptions({ seed }, run) {
  return {
    task: 'induction', model: 'decoder', attentionOnly: true, layers: LAYERS[run], seed,
    dModel: D_MODEL, batchSize: BATCH_SIZE, learningRate: LEARNING_RATE,
  };
}

// The model host's train request of a run (src/training/model-host-service.js):
// the two-layer model until its target, the one-layer model until told to stop
// (./runs.js stops it once it has trained as many steps).
export function trainPlan(run) {
  return {
    until: MAX_STEPS, every: EVALUATE_EVERY, examples: EXAMPLES, headScores: true, probe: true,
    stopAt: run === 'two' ? { metric: 'accuracy', value: TARGET } : null,
  };
}

// A run before its first message.
export const emptyRun = () => ({ points: [], step: 0, probe: null, done: false, final: null, ablations: {} });
export const emptyRuns = () => Object.fromEntries(RUNS.map((run) => [run, emptyRun()]));

// The key of a set of ablated heads: 'none', or '0:0+1:0' (layer:head, sorted).
export function ablationKey(heads) {
  if (!heads.length) return 'none';
  return heads.map(({ layer, head }) => `${layer}:${head}`).sort().join('+');
}
export const headsOfKey = (key) => (key === 'none' ? [] : key.split('+').map((part) => {
  const [layer, head] = part.split(':').map(Number);
  return { layer, head };
}));

// The first point at which `value(point)` reaches `level`, or null.
export function firstReaching(points, level, value = (p) => p.accuracy) {
  return points.find((p) => value(p) >= level) ?? null;
}

// Chance on the repeat: one letter in the vocabulary.
export const chanceOf = (trainer) => 1 / trainer.vocabulary.target.length;

// ---- the sentences: each { key, params }, chosen from the numbers ----------

// The drop: the plateau, then the step at which the accuracy on the repeat rose
// from DROP_FROM to DROP_TO (sharp: within half the steps before it).
export function dropSummary(points) {
  const first = points[0];
  const last = points[points.length - 1];
  const from = firstReaching(points, DROP_FROM);
  const to = firstReaching(points, DROP_TO);
  const params = {
    steps: last.step, startLoss: points.find((p) => p.loss !== null)?.loss ?? null, startAccuracy: first.accuracy,
    endLoss: last.loss, endAccuracy: last.accuracy, from: from?.step ?? null, to: to?.step ?? null, from0: DROP_FROM, to0: DROP_TO,
  };
  if (!to) return { key: from ? 'summary.drop.partial' : 'summary.drop.none', params };
  const plateau = from.step;
  params.plateau = plateau;
  params.width = to.step - from.step;
  return { key: to.step - from.step <= Math.max(EVALUATE_EVERY, plateau / 2) ? 'summary.drop.sharp' : 'summary.drop.gradual', params };
}

// The heads of the two-layer model at its last point, against step 0: which
// head does what, as far as the scores show it.
export function headsSummary(points) {
  const start = points[0].headScores;
  const end = points[points.length - 1].headScores;
  const at = (scores, layer) => scores.find((s) => s.layer === layer && s.head === 0);
  const [first, second] = [at(end, 0), at(end, 1)];
  const params = {
    previous: first.previousToken, previous0: at(start, 0).previousToken,
    prefix: second.prefixMatch, prefix0: at(start, 1).prefixMatch,
    firstPrefix: first.prefixMatch, secondPrevious: second.previousToken,
  };
  const isPrevious = first.previousToken >= PREVIOUS_TOKEN_HEAD && first.previousToken >= 2 * params.previous0;
  const isInduction = second.prefixMatch >= INDUCTION_HEAD;
  let key;
  if (isPrevious && isInduction) key = 'circuit';
  else if (isInduction) key = 'inductionOnly';
  else if (isPrevious) key = 'previousOnly';
  else key = 'neither';
  return { key: `summary.heads.${key}`, params };
}

// When the layer-2 head's prefix-match score rose, against the drop of the
// accuracy: both first at or above DROP_MIDDLE.
export function timingSummary(points) {
  const accuracy = firstReaching(points, DROP_MIDDLE);
  const prefix = firstReaching(points, DROP_MIDDLE, (p) => p.headScores.find((s) => s.layer === 1)?.prefixMatch ?? 0);
  if (!accuracy || !prefix) return null;
  const params = { accuracyStep: accuracy.step, prefixStep: prefix.step, middle: DROP_MIDDLE };
  const gap = prefix.step - accuracy.step;
  let key = 'together';
  if (gap < -EVALUATE_EVERY) key = 'prefixFirst';
  else if (gap > EVALUATE_EVERY) key = 'accuracyFirst';
  return { key: `summary.timing.${key}`, params };
}

// Ablation: the accuracy on all held-out sequences with each head switched off.
// full: the evaluation of the whole model; ablated: [{ layer, head, accuracy }].
export function ablationSummary(full, ablated, chance) {
  return ablated.map(({ layer, head, accuracy }) => {
    let key = 'little';
    if (accuracy <= 2 * chance) key = 'toChance';
    else if (full.accuracy - accuracy >= 0.3) key = 'falls';
    return { key: `summary.ablation.${key}`, params: { layer: layer + 1, head: head + 1, full: full.accuracy, ablated: accuracy, chance } };
  });
}

// One layer against two, on all held-out sequences, after the steps each trained.
export function oneLayerSummary({ one, two, oneSteps, twoSteps, chance }) {
  const params = { one, two, oneSteps, twoSteps, chance, times: one / chance };
  let key = 'partial';
  if (one >= 0.9) key = 'learns';
  else if (one < 0.5 && two >= 0.9) key = 'stays';
  return { key: `summary.one.${key}`, params };
}

// Every sentence of a finished pair of runs, in order. runs: { two, one } with
// points and final ({ evaluation, ablated: [{ layer, head, accuracy }] }).
export function summarize(runs, { chance }) {
  const two = runs.two;
  const parts = [dropSummary(two.points)];
  const timing = timingSummary(two.points);
  if (timing) parts.push(timing);
  parts.push(headsSummary(two.points));
  parts.push(...ablationSummary(two.final.evaluation, two.final.ablated, chance));
  parts.push(oneLayerSummary({
    one: runs.one.final.evaluation.accuracy, two: two.final.evaluation.accuracy,
    oneSteps: runs.one.step, twoSteps: two.step, chance,
  }));
  return parts;
}

// ---- the probe sequence ------------------------------------------------------

// The map's rows and columns: SEP, then the letters (row r reads token r and predicts letter r).
export const tokensOf = (probe, sep = '\u2192') => [sep, ...probe.target];

// The repeated segment of a sequence: the longest run that appears twice
// ({ first, second, length } in letter positions), or null.
export function repeatOf(letters) {
  let best = null;
  for (let a = 0; a < letters.length; a++) {
    for (let b = a + 1; b < letters.length; b++) {
      let n = 0;
      while (b + n < letters.length && letters[a + n] === letters[b + n] && a + n < b) n++;
      if (n >= 2 && (!best || n > best.length)) best = { first: a, second: b, length: n };
    }
  }
  return best;
}

// The cells a specialised head attends to on the probe, as [row, col] of the
// map (token r = SEP, letters): a previous-token head row r -> r - 1; an
// induction head, on the second occurrence, from the letter at second + j to
// the one after its first occurrence, first + j + 1 (tokens: +1 for the SEP).
export function expectedCells(letters, kind) {
  const rows = letters.length + 1;
  if (kind === 'previousToken') return Array.from({ length: rows - 1 }, (_, i) => [i + 1, i]);
  const repeat = repeatOf(letters);
  if (!repeat) return [];
  const cells = [];
  for (let j = 0; j < repeat.length - 1; j++) cells.push([repeat.second + j + 1, repeat.first + j + 2]);
  return cells;
}

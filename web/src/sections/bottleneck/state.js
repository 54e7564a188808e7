// Section "bottleneck": Bahdanau et al.'s Figure 2 at toy scale. A GRU
// encoder-decoder that must squeeze the whole source into its last state
// ('rnn') and Bahdanau's, which looks back at every source position
// ('bahdanau'), trained on the same task (reverse the digits) at several
// source lengths; their held-out accuracy against the length. Plain module,
// no DOM: the runs themselves go through ./runs.js (two workers), this one
// plans them, follows what they report and words the result.
//
// Sizes chosen by measuring in Node on the SIMD build (seed 1, dModel 32,
// batch 32, generated accuracy on all 512 held-out sequences): rnn after 1,000
// steps 0.95 (4 digits, reached at 350), 0.85 (6), 0.60 (8), 0.38 (12), 0.26
// (16); bahdanau at least 0.95 at every length within 100-250 steps. At dModel
// 16 the plain model already fails at 8 digits (0.37) and the attentive one
// needs twice the steps; at 24 and 32 digits a bahdanau step costs 12-17 ms and
// the sweep would not fit its 30 s.

import { settingsModel } from '../../lib/settings-model.js';
import { formatNumber, formatPercent } from '../../lib/format.js';
import { followRun } from '../../training/follow-run.js';

export const LENGTHS = Object.freeze([4, 6, 8, 12, 16]);
export const MODELS = Object.freeze(['rnn', 'bahdanau']);
export const STEP_BUDGETS = Object.freeze([500, 1000, 2000]);
export const D_MODEL = 32;
export const BATCH_SIZE = 32;
// A run stops once its held-out generated accuracy (on the first
// EXAMPLES_WHILE_TRAINING sequences, every EVALUATE_EVERY steps) reaches TARGET;
// at the end it is evaluated on all of them.
export const TARGET = 0.95;
export const EVALUATE_EVERY = 50;
export const EXAMPLES_WHILE_TRAINING = 64;
// The words of the result: a model "holds" at a length where its accuracy is at
// least HOLDS; the plain model "falls" when its accuracy at the longest length
// is at least FALLS below the one at the shortest.
export const HOLDS = 0.9;
export const FALLS = 0.2;

export const DEFAULTS = Object.freeze({ seed: 1, steps: 1000 });

export const runId = (model, length) => `${model}-${length}`;

// The section's model: the settings (the sweep itself is in the section's
// store, ./sweep-panel.js: nothing is computed on the page before play).
export const createBottleneck = (initial = DEFAULTS) => settingsModel(initial);

// About the milliseconds a run costs (measured in Node, SIMD, load 1-4), to
// share the runs evenly between the two workers: the plain model's step 1-3 ms
// and it usually trains to the budget; bahdanau's 4-8 ms, to the target in
// 100-300 steps.
export function expectedCost(model, length, steps) {
  if (model === 'rnn') return steps * (1 + 0.15 * length);
  return Math.min(steps, 60 + 15 * length) * (3 + 0.3 * length);
}

// The runs of a sweep, as the training pool takes them (src/training/training-pool.js),
// in the order their results should appear: by length, the plain model first.
export function runsOf({ seed, steps }) {
  return LENGTHS.flatMap((length) => MODELS.map((model) => ({
    id: runId(model, length),
    model,
    length,
    options: { task: 'reverse', model, seed, sourceLength: length, dModel: D_MODEL, batchSize: BATCH_SIZE },
    play: {
      until: steps,
      target: { metric: 'generatedAccuracy', atLeast: TARGET },
      evaluateEvery: EVALUATE_EVERY,
      measure: { examples: EXAMPLES_WHILE_TRAINING },
      probe: false,
    },
    cost: expectedCost(model, length, steps),
  })));
}

// A sweep before its first message: one entry per run.
//   status: 'waiting' | 'training' | 'evaluating' | 'done'
//   step, latest: the last step and the generated accuracy on the part measured there
//   reachedAt: the step whose evaluation first reached TARGET (null: not within the budget)
//   final: the evaluation on every held-out sequence at the end
export function emptySweep(settings) {
  const runs = {};
  for (const run of runsOf(settings)) {
    runs[run.id] = { model: run.model, length: run.length, status: 'waiting', step: 0, latest: null, reachedAt: null, final: null };
  }
  return { settings: { ...settings }, runs, error: null, ms: null };
}

// What a run reported (the pool's callbacks, and the final evaluation),
// applied to the sweep. event: { type: 'started' | 'progress' | 'done' | 'final', id, ... }.
export function applyEvent(sweep, event) {
  const run = sweep.runs[event.id];
  if (!run) return sweep;
  followRun(run, event, {
    target: TARGET,
    keep: (r, p) => Object.assign(r, { step: p.step, latest: p.generatedAccuracy }),
    finish: (r, e) => { r.final = e.evaluation; },
  });
  return sweep;
}

export const isDone = (sweep) => Object.values(sweep.runs).every((r) => r.status === 'done');
export const doneCount = (sweep) => Object.values(sweep.runs).filter((r) => r.status === 'done').length;

// The chart's points: per model, [length, final generated accuracy] of the finished runs.
export function seriesOf(sweep) {
  const series = Object.fromEntries(MODELS.map((m) => [m, []]));
  for (const run of Object.values(sweep.runs)) {
    if (run.final) series[run.model].push([run.length, run.final.generatedAccuracy]);
  }
  for (const points of Object.values(series)) points.sort((a, b) => a[0] - b[0]);
  return series;
}

// The sentences that say what the finished sweep measured, as keys of the
// section's strings with their numbers; each claim only as far as the runs
// show it, whichever way they came out.
export function summarize(sweep) {
  const accuracy = (model, length) => sweep.runs[runId(model, length)].final.generatedAccuracy;
  const first = LENGTHS[0];
  const last = LENGTHS[LENGTHS.length - 1];
  const plain = LENGTHS.map((length) => accuracy('rnn', length));
  const attentive = LENGTHS.map((length) => accuracy('bahdanau', length));
  const parts = [];

  // The plain model: does it fall from the shortest to the longest, and how far does it hold?
  const falls = plain[0] - plain[plain.length - 1] >= FALLS;
  const fromTo = { first, last, from: plain[0], to: plain[plain.length - 1] };
  if (plain.every((a) => a >= HOLDS)) parts.push({ key: 'summary.plain.holds', params: { ...fromTo, lowest: Math.min(...plain) } });
  else if (falls) parts.push({ key: 'summary.plain.falls', params: fromTo });
  else parts.push({ key: 'summary.plain.flat', params: fromTo });
  const heldUpTo = LENGTHS.findIndex((length, i) => plain[i] < HOLDS);
  if (heldUpTo > 0) parts.push({ key: 'summary.plain.upTo', params: { holds: HOLDS, length: LENGTHS[heldUpTo - 1], next: LENGTHS[heldUpTo], accuracy: plain[heldUpTo] } });
  else if (heldUpTo === 0) parts.push({ key: 'summary.plain.never', params: { holds: HOLDS, first, accuracy: plain[0] } });

  // The attentive model: does it hold at every length?
  const short = LENGTHS.filter((_, i) => attentive[i] < HOLDS);
  if (short.length === 0) {
    parts.push({ key: 'summary.attentive.holds', params: { lowest: Math.min(...attentive) } });
  } else {
    const worst = Math.min(...attentive);
    parts.push({ key: 'summary.attentive.falls', params: { holds: HOLDS, lengths: short.join(', '), count: short.length, worst, at: LENGTHS[attentive.indexOf(worst)] } });
  }

  // Against the paper's figure.
  const figure = falls && short.length === 0;
  parts.push({ key: figure ? 'summary.verdict.figure' : 'summary.verdict.not', params: {} });

  // Within the budget: how many runs reached the target, and how fast.
  const reached = (model) => LENGTHS.map((length) => sweep.runs[runId(model, length)].reachedAt);
  const plainReached = reached('rnn').filter((s) => s !== null).length;
  const attentiveSteps = reached('bahdanau');
  const attentiveReached = attentiveSteps.filter((s) => s !== null);
  const budget = { target: TARGET, steps: sweep.settings.steps, count: LENGTHS.length, plainReached, attentiveReached: attentiveReached.length };
  if (attentiveReached.length === LENGTHS.length) parts.push({ key: 'summary.budget.all', params: { ...budget, slowest: Math.max(...attentiveReached) } });
  else parts.push({ key: 'summary.budget.some', params: budget });
  return parts;
}

// The parameters of summarize's sentences that are shares, shown as percentages.
const SHARES = new Set(['from', 'to', 'lowest', 'worst', 'accuracy', 'holds', 'target']);

// The finished sweep's sentences in the reader's language (t: the section's translator).
export function describeSweep(t, sweep) {
  return summarize(sweep).map(({ key, params }) =>
    t(key, Object.fromEntries(Object.entries(params).map(([name, v]) => [name, SHARES.has(name) ? formatPercent(v, name === 'holds' || name === 'target' ? 0 : 1) : v]))));
}

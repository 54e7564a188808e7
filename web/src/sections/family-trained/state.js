// Section "family-trained": the family of the walkthrough's section "family",
// trained. Bahdanau (additive score on the previous state s_(t-1)) and Luong
// (dot, general or concat on the current state h_t; a global or a local-p
// window; input feeding on or off) trained side by side on one task, from the
// same seed: their learning curves, the steps each takes to the target, and
// what each learned to look at in the same probe sentence. Plain module, no
// DOM: the runs go through ./runs.js (two workers); this one plans them,
// follows what they report and words the result.
//
// Sizes chosen by measuring in Node on the SIMD build (seed 1, dModel 32,
// batch 16, 95% generated accuracy on 64 held-out sentences, evaluated every
// 25 steps): translate: bahdanau 275 steps (2.7 s with its evaluations),
// luong global dot 400, general 450, concat 375 (2.4-3.2 s); local general 725,
// local dot not within 1,000 (0.63). Reverse 12: bahdanau 225 (1.8 s), luong
// global dot 725 (4.1 s), general 500 (2.2 s), and Luong's largest weights sit
// one right of the anti-diagonal in 11 of the probe's 12 rows (on the digit
// just written; at 8 digits on it, at 16 the runs miss 95% in 1,000 steps).
// Batch 32 takes fewer steps at twice the cost of a step; dModel 16 two to
// three times the steps.
import { settingsModel } from '../../lib/settings-model.js';
import { formatNumber, formatPercent } from '../../lib/format.js';
import { followRun } from '../../training/follow-run.js';

export const TASKS = Object.freeze(['translate', 'reverse']);
export const REVERSE_LENGTH = 12;
// The models a reader picks: Bahdanau's, and Luong's by score.
export const SCORES = Object.freeze(['bahdanau', 'dot', 'general', 'concat']);
export const WINDOWS = Object.freeze(['global', 'local', 'both']);
export const FEEDINGS = Object.freeze(['on', 'off', 'both']);
// At most this many variants train at once: four global ones reach the
// target in about 6 s of two workers; more, or local windows that miss it
// (1,000 steps at ~5 ms), would not finish within the 10 s a demo has here.
export const MAX_VARIANTS = 4;
export const D_MODEL = 32;
export const BATCH_SIZE = 16;
export const MAX_STEPS = 1000;
export const TARGET = 0.95;
export const EVALUATE_EVERY = 25;
export const EXAMPLES_WHILE_TRAINING = 64;
export const AGREEMENT_EXAMPLES = 128;
// Luong's local-p window: the core's D (σ = D/2; cpp/src/models/model.hpp).
export const WINDOW_HALF_WIDTH = 2;
// A model "translates well" from this accuracy; its attention is "elsewhere"
// when it puts its largest weight on the reference word for less than ELSEWHERE of them.
export const WELL = 0.9;
export const ELSEWHERE = 0.5;

export const DEFAULTS = Object.freeze({
  task: 'translate', seed: 1, scores: Object.freeze(['bahdanau', 'dot', 'general', 'concat']), window: 'global', feeding: 'on',
});

// The variants the settings ask for: Bahdanau's once (window and feeding are
// Luong's), then each Luong score with each window and feeding chosen.
//   { id, model, score?, window?, feeding? }
export function variantsOf({ scores, window, feeding }) {
  const windows = window === 'both' ? ['global', 'local'] : [window];
  const feedings = feeding === 'both' ? [true, false] : [feeding === 'on'];
  const out = [];
  for (const score of SCORES.filter((s) => scores.includes(s))) {
    if (score === 'bahdanau') {
      out.push({ id: 'bahdanau', model: 'bahdanau' });
      continue;
    }
    for (const w of windows) {
      for (const f of feedings) out.push({ id: `luong-${score}-${w}-${f ? 'feed' : 'nofeed'}`, model: 'luong', score, window: w, feeding: f });
    }
  }
  return out;
}

// Why the settings cannot train, or null: no model chosen, or too many variants.
export function settingsProblem(settings) {
  const count = variantsOf(settings).length;
  if (count === 0) return { key: 'controls.none', params: {} };
  if (count > MAX_VARIANTS) return { key: 'controls.tooMany', params: { count, max: MAX_VARIANTS } };
  return null;
}

// createTrainer's options of a variant.
export function trainerOptions({ task, seed }, variant) {
  const options = { task, seed, model: variant.model, dModel: D_MODEL, batchSize: BATCH_SIZE };
  if (task === 'reverse') options.sourceLength = REVERSE_LENGTH;
  if (variant.model === 'luong') Object.assign(options, { score: variant.score, window: variant.window, inputFeeding: variant.feeding });
  return options;
}

// About the milliseconds a run costs, to share the runs evenly between the workers.
function expectedCost({ task }, variant) {
  const stepMs = variant.model === 'bahdanau' ? 3.8 : 2.5;
  const steps = variant.window === 'local' ? 800 : 400;
  return (task === 'reverse' ? 1.3 : 1) * stepMs * steps;
}

// The runs of the settings, as the training pool takes them (src/training/training-pool.js).
export function runsOf(settings) {
  return variantsOf(settings).map((variant) => ({
    id: variant.id,
    options: trainerOptions(settings, variant),
    play: {
      until: MAX_STEPS,
      target: { metric: 'generatedAccuracy', atLeast: TARGET },
      evaluateEvery: EVALUATE_EVERY,
      measure: { examples: EXAMPLES_WHILE_TRAINING },
      probe: true,
    },
    cost: expectedCost(settings, variant),
  }));
}

// The section's model: the settings (the runs are in the section's store:
// nothing is computed on the page before play).
export const createFamilyTrained = (initial = DEFAULTS) => settingsModel(initial);

// Runs before their first message, one entry per variant.
//   status: 'waiting' | 'training' | 'evaluating' | 'done'
//   points: [{ step, loss, generatedAccuracy }] the curves; reachedAt: the first step at the target
//   probe: the latest reading of the probe sentence; final, agreement: measured in full at the end
export function emptyRuns(settings) {
  const variants = variantsOf(settings);
  return {
    settings: structuredClone(settings),
    order: variants.map((v) => v.id),
    runs: Object.fromEntries(variants.map((v) => [v.id, {
      variant: v, status: 'waiting', step: 0, points: [], reachedAt: null, probe: null, final: null, agreement: null,
    }])),
    ms: null,
    error: null,
  };
}

// What a run reported (the measured runs' events), applied.
export function applyEvent(state, event) {
  const run = state.runs[event.id];
  if (!run) return state;
  followRun(run, event, {
    target: TARGET,
    keep: (r, p) => r.points.push({ step: p.step, loss: p.loss, generatedAccuracy: p.generatedAccuracy }),
    finish: (r, e) => Object.assign(r, { final: e.evaluation, agreement: e.agreement }),
  });
  // The probe's reading sent with each batch as it trains, and the final one.
  if (event.probe) run.probe = event.probe;
  return state;
}

export const isDone = (state) => state.order.every((id) => state.runs[id].status === 'done');
export const doneCount = (state) => state.order.filter((id) => state.runs[id].status === 'done').length;

// The probe's rows against the reference alignment: how many rows with a
// reference word (content words; particles have none) put their largest
// weight on it, one position right of it, one left; local-p: how many
// predicted positions p_t lie within D of it.
export function probeAlignment(reading, positions = null) {
  let aligned = 0;
  let on = 0;
  let right = 0;
  let left = 0;
  let inWindow = 0;
  reading.reference.forEach((ref, t) => {
    if (ref < 0) return;
    aligned += 1;
    const strongest = reading.strongestSources[t];
    if (strongest === ref) on += 1;
    else if (strongest === ref + 1) right += 1;
    else if (strongest === ref - 1) left += 1;
    if (positions && Math.abs(positions[t] - ref) <= WINDOW_HALF_WIDTH) inWindow += 1;
  });
  return { aligned, on, right, left, inWindow: positions ? inWindow : null };
}

// Luong's local-p predicted positions p_t of a reading (null for a global window).
export const positionsOf = (reading) => reading?.layers?.find((l) => l.positions)?.positions ?? null;

// The name of a variant in the reader's language: "Luong general · local-p · without input feeding".
export function variantName(t, variant) {
  if (variant.model === 'bahdanau') return t('variants.bahdanau');
  return t('variants.luong', {
    score: t(`variants.scores.${variant.score}`),
    window: t(`variants.windows.${variant.window}`),
    feeding: t(variant.feeding ? 'variants.feeding.on' : 'variants.feeding.off'),
  });
}

// The sentences that say what the finished runs measured, as keys of the
// section's strings with their parameters; names of variants as variant
// objects (the caller names them), shares as numbers.
export function summarize(state) {
  const runs = state.order.map((id) => state.runs[id]);
  const { task } = state.settings;
  const parts = [];
  const reached = runs.filter((r) => r.reachedAt !== null);
  const byReach = [...reached].sort((a, b) => a.reachedAt - b.reachedAt);
  if (reached.length === runs.length && runs.length > 1) {
    parts.push({ key: 'summary.reach.all', params: { count: runs.length, target: TARGET, fastest: byReach[0].variant, fastestSteps: byReach[0].reachedAt, slowest: byReach.at(-1).variant, slowestSteps: byReach.at(-1).reachedAt } });
  } else if (reached.length === runs.length) {
    parts.push({ key: 'summary.reach.one', params: { target: TARGET, steps: runs[0].reachedAt, variant: runs[0].variant } });
  } else {
    const missed = runs.filter((r) => r.reachedAt === null);
    parts.push({ key: reached.length ? 'summary.reach.some' : 'summary.reach.none', params: {
      reached: reached.length, count: runs.length, target: TARGET, steps: MAX_STEPS,
      missed: missed.map((r) => r.variant), lowest: Math.min(...missed.map((r) => r.final.generatedAccuracy)),
    } });
  }

  // Where they look: the agreement of the largest weight with the reference, over held-out sentences.
  // (One variant: its share, not a range from it to itself.)
  const agreements = runs.map((r) => r.agreement.agreement);
  const low = Math.min(...agreements);
  const high = Math.max(...agreements);
  if (runs.length === 1) parts.push({ key: `summary.alignment.one.${task}`, params: { share: low, examples: AGREEMENT_EXAMPLES } });
  else parts.push({ key: `summary.alignment.${task}`, params: { low, high, lowVariant: runs[agreements.indexOf(low)].variant, highVariant: runs[agreements.indexOf(high)].variant, examples: AGREEMENT_EXAMPLES } });
  const elsewhere = runs.filter((r) => r.final.generatedAccuracy >= WELL && r.agreement.agreement < ELSEWHERE);
  if (elsewhere.length) parts.push({ key: 'summary.elsewhere', params: { variants: elsewhere.map((r) => r.variant), well: WELL } });

  // The probe's maps over every variant: rows whose largest weight is on the
  // reference (for reversal: the anti-diagonal), one right of it, one left.
  const totals = { on: 0, right: 0, left: 0, aligned: 0 };
  for (const r of runs) {
    const a = probeAlignment(r.probe);
    for (const k of Object.keys(totals)) totals[k] += a[k];
  }
  parts.push({ key: runs.length === 1 ? `summary.probe.one.${task}` : `summary.probe.${task}`, params: { ...totals, count: runs.length } });

  // The probe: a variant whose largest weights sit mostly one position right of the reference.
  const shifted = runs.filter((r) => {
    const a = probeAlignment(r.probe);
    return a.aligned > 0 && a.right > a.aligned / 2;
  });
  if (shifted.length) parts.push({ key: `summary.shifted.${task}`, params: { variants: shifted.map((r) => r.variant) } });

  // Local-p: where the predicted positions fell.
  const local = runs.filter((r) => positionsOf(r.probe));
  if (local.length) {
    let inside = 0;
    let total = 0;
    for (const r of local) {
      const a = probeAlignment(r.probe, positionsOf(r.probe));
      inside += a.inWindow;
      total += a.aligned;
    }
    parts.push({ key: `summary.local.${task}`, params: { inside, total, half: WINDOW_HALF_WIDTH, variants: local.map((r) => r.variant) } });
  }

  // Pairs that differ in one switch only: their steps to the target side by side.
  for (const [key, differs] of [['feeding', (a, b) => a.feeding !== b.feeding && a.window === b.window], ['window', (a, b) => a.window !== b.window && a.feeding === b.feeding]]) {
    const pairs = [];
    for (const a of runs) {
      for (const b of runs) {
        const [va, vb] = [a.variant, b.variant];
        if (va.model !== 'luong' || vb.model !== 'luong' || va.score !== vb.score || !differs(va, vb)) continue;
        const first = key === 'feeding' ? va.feeding : va.window === 'global';
        if (first) pairs.push({ score: va.score, a: a.reachedAt, b: b.reachedAt });
      }
    }
    if (pairs.length) parts.push({ key: `summary.pairs.${key}`, params: { pairs, target: TARGET } });
  }
  return parts;
}

// The finished runs' sentences in the reader's language (t: the section's translator).
export function describeRuns(t, state) {
  const names = (variants) => variants.map((v) => variantName(t, v)).join(t('summary.and'));
  const steps = (s) => (s === null ? t('summary.notReached', { steps: MAX_STEPS }) : String(s));
  return summarize(state).map(({ key, params }) => {
    const text = {};
    for (const [name, v] of Object.entries(params)) {
      if (name === 'pairs') {
        text.list = v.map((p) => t('summary.pair', { score: t(`variants.scores.${p.score}`), a: steps(p.a), b: steps(p.b) })).join(t('summary.separator'));
      } else if (Array.isArray(v)) text[name] = names(v);
      else if (v && typeof v === 'object') text[name] = variantName(t, v);
      else if (['target', 'well', 'low', 'high', 'share', 'lowest'].includes(name) && typeof v === 'number') text[name] = formatPercent(v, name === 'target' || name === 'well' ? 0 : 1);
      else text[name] = v;
    }
    return t(key, text);
  });
}

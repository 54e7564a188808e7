// Section "learning": a small model trained live (engine.createTrainer), its
// attention weights on a probe sentence redrawn as it learns. Plain module,
// no DOM: the engine (with the learning module) is a parameter, so Vitest runs
// it against the real wasm in Node.
//
// The model is the core's (cpp/include/attn/trainer.hpp): token embedding and
// positional encoding, learned target positions as queries, one cross-attention
// layer of `heads` heads, a residual, a linear read-out; AdamW on batches of 32.
// Training runs in a worker (src/training/); this module holds the settings,
// the untrained model's reading (step 0, computed here, on the page) and what
// the run has sent back (applyMessage), and words the progress from it.
import { liveModel } from '../../lib/live-model.js';
import { describeTrainer } from '../../training/describe-trainer.js';

export const TASKS = Object.freeze(['reverse', 'translate']);
export const HEAD_CHOICES = Object.freeze([1, 2, 4, 8]);
export const LEARNING_RATES = Object.freeze([0.001, 0.003, 0.01, 0.03, 0.1]);
export const D_MODEL = 32;
export const MAX_STEPS = 3000;
// The accuracy the issue asks of each task (held-out token accuracy).
export const TARGET_ACCURACY = Object.freeze({ reverse: 0.98, translate: 0.95 });

export const DEFAULTS = Object.freeze({ task: 'translate', seed: 1, heads: 2, scale: true, learningRate: 0.01 });

// createTrainer's options for the settings.
export function trainerOptions({ task, seed, heads, scale, learningRate }) {
  return { task, seed, heads, dModel: D_MODEL, scale, learningRate };
}

// The untrained model (step 0): what a run starts from, computed on the page
// when a setting changes. Its held-out evaluation (a few milliseconds) is left
// to the run, whose first point is step 0's.
export function untrained(engine, settings) {
  const trainer = engine.createTrainer(trainerOptions(settings));
  try {
    return { trainer: describeTrainer(trainer), step: 0, points: [], probe: trainer.probe() };
  } finally {
    trainer.dispose();
  }
}

// A sentence read by a model at step 0 (no run holds a trained one).
export function translateUntrained(engine, settings, sentence) {
  const trainer = engine.createTrainer(trainerOptions(settings));
  try {
    return trainer.translate(sentence);
  } finally {
    trainer.dispose();
  }
}

// For each target position, whether its largest weight sits on the source
// position it comes from (alignment[t]).
export function alignmentOf(reading, alignment) {
  const rows = alignment.map((expected, t) => reading.strongestSources[t] === expected);
  return { rows, aligned: rows.filter(Boolean).length, total: rows.length };
}

// How many target words the model got right on the probe.
export function correctOf(reading) {
  let correct = 0;
  reading.target.forEach((word, t) => { if (reading.predicted[t] === word) correct += 1; });
  return { correct, total: reading.target.length };
}

// A run as the page sees it: its trainer, the points of the curves, the latest
// probe, the step and whether it plays. `message`: one of a training run's
// (src/training/training-run.js). Returns the run.
export function applyMessage(run, message) {
  switch (message.type) {
    case 'started':
      run.trainer = message.trainer;
      run.points = [...message.points];
      run.probe = message.probe;
      run.step = message.step;
      break;
    case 'progress':
      run.points.push(...message.points);
      if (message.probe) run.probe = message.probe;
      run.step = message.step;
      run.playing = message.playing;
      break;
    case 'paused':
      run.playing = false;
      run.step = message.step;
      run.stopReason = message.reason;
      break;
    case 'error':
      run.playing = false;
      run.error = message.message;
      break;
    default:
      break;
  }
  return run;
}

// The sentences under the heatmap, as keys of the section's strings and their
// numbers: the step, loss and accuracy, how many target positions look
// hardest at their source, and — only when every one does — that the
// alignment has formed.
export function progressSummary(run, task) {
  const point = run.points[run.points.length - 1];
  const { aligned, total } = alignmentOf(run.probe, run.trainer.alignment);
  const { correct } = correctOf(run.probe);
  const parts = [{
    key: run.step === 0 ? 'progress.untrained' : 'progress.trained',
    params: { step: run.step, loss: point?.loss ?? null, accuracy: point?.accuracy ?? null, aligned, total, correct },
  }];
  if (aligned === total) parts.push({ key: `progress.formed.${task}`, params: {} });
  if (run.step > 0 && aligned === total && point?.accuracy >= TARGET_ACCURACY[task]) {
    parts.push({ key: 'progress.learned', params: { target: TARGET_ACCURACY[task], step: run.step } });
  }
  return parts;
}

// The reader's sentence refused by the engine, in the reader's words: the
// unknown words it named, or the pattern it expected; anything else as the
// engine said it. -> { key, params }
export function sentenceError(message) {
  const unknown = /unknown (?:word|character)s? (.+?); the vocabulary/.exec(message);
  if (unknown) return { key: 'translate.errors.unknown', params: { words: unknown[1] } };
  const pattern = /expected (\d+) \w+ in the pattern/.exec(message);
  if (pattern) return { key: 'translate.errors.pattern', params: { count: Number(pattern[1]) } };
  return { key: 'translate.errors.other', params: { message } };
}

// The untrained models of the last KEPT settings, by their createTrainer
// options: a reader who flips a setting and flips it back (the scaling, h, the
// task) gets the same model again without recomputing it (~3 ms of the ~12 an
// input took). A kept model is only read (the run starts from a copy of it).
export const KEPT = 16;
export function keptUntrained(engine) {
  const kept = new Map();
  return (settings) => {
    const key = JSON.stringify(trainerOptions(settings));
    let model = kept.get(key);
    if (model) kept.delete(key);          // re-inserted below: the most recent last
    else model = untrained(engine, settings);
    kept.set(key, model);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value);   // the least recently used
    return model;
  };
}

// The live model: the settings and the untrained model's reading (recomputed
// when a setting changes: a few milliseconds on the page, or kept).
export function createLearning(engine, initial = DEFAULTS) {
  return liveModel({
    initial,
    compute: keptUntrained(engine),
    actions: {
      set(settings, changes) { Object.assign(settings, changes); },
    },
    views: { settings: (_, settings) => settings },
  });
}

// ---- an alignment that follows the sentence (./content-reader.js) -----------
// This section's model reads target position t with a learned query P_t: its
// weights are the same for every sentence of a length, so a typed sentence
// whose words move (the engine's content-based 'translate' task, whose
// adjectives, adverbs, objects, places and times are optional) cannot move
// them. Bahdanau's model asks with its decoder state instead, which holds the
// words written so far: trained on that task in a worker (the full learning
// module loads there, at the reader's click, never with the page) to
// CONTENT_TARGET generated accuracy on CONTENT_EXAMPLES held-out sentences
// (measured in Node, SIMD, load 1-4, seeds 1-4: 100 steps, 1.0-1.4 s of CPU).
export const CONTENT_TARGET = 0.9;
export const CONTENT_EXAMPLES = 64;
export const CONTENT_EVERY = 25;
export const CONTENT_MAX_STEPS = 1500;
export const contentOptions = ({ seed }) => ({ task: 'translate', model: 'bahdanau', seed, dModel: D_MODEL, learningRate: 0.01 });
export const contentPlay = () => ({
  until: CONTENT_MAX_STEPS, evaluateEvery: CONTENT_EVERY, measure: { examples: CONTENT_EXAMPLES }, probe: false,
  target: { metric: 'generatedAccuracy', atLeast: CONTENT_TARGET },
});

// How many of a reading's aligned target words (content words: particles have
// no source word, reference -1) look hardest at the source word they come
// from, and where each looks (its source position, from 1). -> { key, params }
export function contentAlignment(reading) {
  const aligned = reading.reference.map((s, t) => ({ s, t })).filter(({ s }) => s >= 0);
  const hits = aligned.filter(({ s, t }) => reading.strongestSources[t] === s).length;
  const params = { hits, total: aligned.length };
  let key = 'few';
  if (aligned.length > 0 && hits === aligned.length) key = 'all';
  else if (2 * hits >= aligned.length && aligned.length > 0) key = 'most';
  return { key: `content.alignment.${key}`, params };
}

// Section "learning": the untrained model read on the page, a run followed
// through the training run's messages (the service, with the real engine),
// the alignment check, the words of the progress, the reader's sentence.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { trainingRun } from '../../web/src/training/training-run.js';
import { openWorker } from '../../web/src/worker/bridge.js';
import {
  DEFAULTS, HEAD_CHOICES, KEPT, LEARNING_RATES, TARGET_ACCURACY, alignmentOf, applyMessage, correctOf, createLearning,
  keptUntrained, progressSummary, sentenceError, trainerOptions, translateUntrained, untrained,
  CONTENT_EXAMPLES, CONTENT_TARGET, contentAlignment, contentOptions, contentPlay,
} from '../../web/src/sections/learning/state.js';
import { interpolate, lookup } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/learning.js';
import ko from '../../web/src/i18n/ko/learning.js';

let engine;
beforeAll(async () => { engine = await createAttention({ learning: true }); });

// A run of `until` paced steps as the page trains it (src/training/training-run.js:
// the training service over the worker bridge, here on the page, where no
// worker starts), every message applied as the page does.
async function trainedRun(settings, until) {
  const messages = [];
  const open = (service, options) => openWorker(service, { ...options, createWorker: () => { throw new Error('no worker in Node'); } });
  const run = untrained(engine, settings);
  const ended = new Promise((resolve) => {
    const training = trainingRun({
      engine, open,
      onMessage: (m) => {
        messages.push(m);
        applyMessage(run, m);
        if (m.type === 'paused' || m.type === 'error') { training.stop(); resolve(); }
      },
    });
    training.start(trainerOptions(settings));
    training.play({ paced: true, until });
  });
  await ended;
  return { run, messages };
}

describe('the untrained model', () => {
  test('step 0, no point yet (the run evaluates it), the probe\'s weights: each row sums to 1', () => {
    const r = untrained(engine, DEFAULTS);
    expect(r.step).toBe(0);
    expect(r.points).toEqual([]);
    expect(r.trainer.options).toMatchObject({ task: 'translate', heads: 2, dModel: 32, scale: true });
    expect(r.trainer.alignment).toEqual([0, 1, 5, 3, 4, 2]);
    expect(r.probe.source).toEqual(['the young', 'student', 'reads', 'an old', 'book', 'in the library']);
    for (let t = 0; t < 6; t++) {
      const row = Array.from(r.probe.weights.subarray(t * 6, t * 6 + 6));
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    }
    expect(r.probe.headWeights).toHaveLength(2);
  });
  test('the settings become createTrainer options (d_model 32); every choice is one the core accepts', () => {
    expect(trainerOptions({ task: 'reverse', seed: 4, heads: 8, scale: false, learningRate: 0.03 }))
      .toEqual({ task: 'reverse', seed: 4, heads: 8, dModel: 32, scale: false, learningRate: 0.03 });
    for (const heads of HEAD_CHOICES) for (const learningRate of LEARNING_RATES) {
      expect(() => untrained(engine, { ...DEFAULTS, heads, learningRate })).not.toThrow();
    }
  });
  test('the model recomputes it when a setting changes', () => {
    const model = createLearning(engine, DEFAULTS);
    expect(model.result.probe.source).toHaveLength(6);
    model.set({ task: 'reverse' });
    expect(model.result.probe.source).toEqual(['3', '1', '4', '5', '9', '2', '6', '8']);
    expect(model.snapshot.task).toBe('reverse');
  });
  test('a setting flipped back gives the model kept for it, equal to one computed afresh; the least recently used goes after KEPT', () => {
    const model = createLearning(engine, DEFAULTS);
    const scaled = model.result;
    model.set({ scale: false });
    const unscaled = model.result;
    expect(unscaled).not.toBe(scaled);
    expect(unscaled.trainer.options.scale).toBe(false);
    expect(Array.from(unscaled.probe.weights)).not.toEqual(Array.from(scaled.probe.weights));
    model.set({ scale: true });
    expect(model.result).toBe(scaled);
    expect(model.result).toEqual(untrained(engine, DEFAULTS));
    expect(model.set({ scale: false }).result).toBe(unscaled);

    const of = keptUntrained(engine);
    const first = of(DEFAULTS);
    for (let seed = 2; seed <= KEPT; seed++) of({ ...DEFAULTS, seed });   // KEPT settings in all
    expect(of(DEFAULTS)).toBe(first);                                     // used again: now the most recent
    of({ ...DEFAULTS, seed: KEPT + 1 });                                  // seed 2, the least recent, goes
    expect(of(DEFAULTS)).toBe(first);
    const second = of({ ...DEFAULTS, seed: 2 });
    expect(second).toEqual(untrained(engine, { ...DEFAULTS, seed: 2 }));
    expect(of({ ...DEFAULTS, seed: 2 })).toBe(second);
  });
});

describe('a run, as the page follows it', () => {
  test('reverse, seed 1: the points and the probe follow the messages; the alignment forms and the summary says so only then', async () => {
    const { run, messages } = await trainedRun({ ...DEFAULTS, task: 'reverse' }, 200);
    expect(run.step).toBe(200);
    expect(run.playing).toBe(false);
    expect(run.stopReason).toBe('until');
    expect(run.points[0].step).toBe(0);
    expect(run.points.at(-1).step).toBe(200);
    expect(run.points.length).toBe(messages.filter((m) => m.type === 'progress').length + 1);
    const { aligned, total } = alignmentOf(run.probe, run.trainer.alignment);
    expect(total).toBe(8);
    expect(aligned).toBe(8);   // the anti-diagonal (the core's test: seed 1 learns both tasks)
    expect(run.points.at(-1).accuracy).toBeGreaterThanOrEqual(TARGET_ACCURACY.reverse);
    expect(correctOf(run.probe)).toEqual({ correct: 8, total: 8 });
    expect(progressSummary(run, 'reverse').map((p) => p.key)).toEqual(['progress.trained', 'progress.formed.reverse', 'progress.learned']);

    // Before training: no claim that it formed, no claim that it learned.
    const start = untrained(engine, { ...DEFAULTS, task: 'reverse' });
    const parts = progressSummary(start, 'reverse');
    expect(parts[0].key).toBe('progress.untrained');
    expect(parts[0].params.accuracy).toBe(null);
    expect(parts.map((p) => p.key)).not.toContain('progress.learned');
    const formed = alignmentOf(start.probe, start.trainer.alignment).aligned === 8;
    expect(parts.map((p) => p.key).includes('progress.formed.reverse')).toBe(formed);
  });
  test('alignmentOf compares the engine\'s strongest sources with the task\'s alignment, row by row', () => {
    const reading = { strongestSources: [2, 1, 0], target: ['a', 'b', 'c'], predicted: ['a', 'x', 'c'] };
    expect(alignmentOf(reading, [2, 1, 1])).toEqual({ rows: [true, true, false], aligned: 2, total: 3 });
    expect(correctOf(reading)).toEqual({ correct: 2, total: 3 });
  });
  test('an error message stops the run as shown', () => {
    const run = { points: [], playing: true };
    applyMessage(run, { type: 'error', message: 'boom' });
    expect(run).toMatchObject({ playing: false, error: 'boom' });
  });
});

describe('the reader\'s sentence', () => {
  test('an untrained model reads it on the page', () => {
    const r = translateUntrained(engine, DEFAULTS, 'A happy farmer eats a red apple in the kitchen.');
    expect(r.source).toEqual(['a happy', 'farmer', 'eats', 'a red', 'apple', 'in the kitchen']);
    expect(r.predicted).toHaveLength(6);
    expect(r.target).toEqual(r.predicted);
    const digits = translateUntrained(engine, { ...DEFAULTS, task: 'reverse' }, '1 2 3 4 5 6 7 8');
    expect(digits.source).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });
  test('what the engine refuses is told in the reader\'s words (its own messages, parsed)', () => {
    const refused = (settings, sentence) => {
      try { translateUntrained(engine, settings, sentence); } catch (err) { return sentenceError(err.message); }
      throw new Error('not refused');
    };
    expect(refused(DEFAULTS, 'the young cat reads a dog')).toEqual({ key: 'translate.errors.unknown', params: { words: '"cat", "dog"' } });
    expect(refused(DEFAULTS, 'the young student reads')).toEqual({ key: 'translate.errors.pattern', params: { count: 6 } });
    expect(refused({ ...DEFAULTS, task: 'reverse' }, '12x4')).toEqual({ key: 'translate.errors.unknown', params: { words: '"x"' } });
    expect(refused({ ...DEFAULTS, task: 'reverse' }, '123')).toEqual({ key: 'translate.errors.pattern', params: { count: 8 } });
    expect(sentenceError('something else')).toEqual({ key: 'translate.errors.other', params: { message: 'something else' } });
  });
});

describe('the words, in both languages', () => {
  const fills = (text) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
  test.each(['progress.untrained', 'progress.trained', 'progress.formed.reverse', 'progress.formed.translate', 'progress.learned',
    'translate.errors.unknown', 'translate.errors.pattern', 'translate.errors.other'])('%s', (key) => {
    expect(typeof lookup(en, key)).toBe('string');
    expect(typeof lookup(ko, key)).toBe('string');
    expect(fills(lookup(ko, key))).toEqual(fills(lookup(en, key)));
  });
  test('one name per word group of each task, as the core lists them', () => {
    expect(en.vocabulary.translate.groups).toHaveLength(untrained(engine, DEFAULTS).trainer.vocabulary.groups.length);
    expect(en.vocabulary.reverse.groups).toHaveLength(untrained(engine, { ...DEFAULTS, task: 'reverse' }).trainer.vocabulary.groups.length);
    expect(ko.vocabulary.translate.groups).toHaveLength(en.vocabulary.translate.groups.length);
  });
});

describe('an alignment that follows the sentence (Bahdanau on the content-based task)', () => {
  // A reading of 4 target words: 2 content words (reference 0 and 2), 2 particles (-1).
  const reading = (strongest) => ({ reference: [0, -1, 2, -1], strongestSources: strongest });
  const say = (lang, { key, params }) => interpolate(lookup(lang === 'en' ? en : ko, key), params);
  test('the sentence is chosen from the counts: all, most or few of the content words on their source word', () => {
    expect(contentAlignment(reading([0, 0, 2, 2]))).toEqual({ key: 'content.alignment.all', params: { hits: 2, total: 2 } });
    expect(contentAlignment(reading([0, 0, 1, 2])).key).toBe('content.alignment.most');
    expect(contentAlignment(reading([1, 0, 1, 2])).key).toBe('content.alignment.few');
    expect(contentAlignment({ reference: [-1], strongestSources: [0] }).key).toBe('content.alignment.few');
    expect(say('en', contentAlignment(reading([0, 0, 1, 2])))).toMatch(/^1 of the 2 Korean content words/);
    expect(say('ko', contentAlignment(reading([0, 0, 1, 2])))).toMatch(/^한국어 내용어 2개 중 1개가/);
  });
  test('a trained model\'s weights move with the words: the object\'s row looks at the object wherever it stands', () => {
    const trainer = engine.createTrainer(contentOptions({ seed: 1 }));
    for (let i = 0; i < 6; i++) trainer.step(25);
    expect(trainer.evaluate({ examples: CONTENT_EXAMPLES }).generatedAccuracy).toBeGreaterThanOrEqual(CONTENT_TARGET);
    const short = trainer.translate('the student reads a book');
    const long = trainer.translate('yesterday the young student quietly read an old book in the library');
    const rowOf = (r, word) => r.predicted.indexOf(word);
    expect(short.strongestSources[rowOf(short, '책')]).toBe(short.source.indexOf('book'));
    expect(long.strongestSources[rowOf(long, '책')]).toBe(long.source.indexOf('book'));
    expect(long.source.indexOf('book')).not.toBe(short.source.indexOf('book'));
    expect(contentAlignment(long).key).not.toBe('content.alignment.few');
    trainer.dispose();
  }, 60000);
  test('the run plays to the target on held-out sentences, without probes', () => {
    expect(contentPlay()).toMatchObject({ target: { metric: 'generatedAccuracy', atLeast: CONTENT_TARGET }, probe: false, measure: { examples: CONTENT_EXAMPLES } });
    expect(contentOptions({ seed: 4 })).toMatchObject({ task: 'translate', model: 'bahdanau', seed: 4 });
  });
});

// Section "mask-reason": the plan of its two runs, what a self-attention map
// reads (computed on maps built by hand), the sentences chosen from the
// numbers of runs that come out each way (in both languages), the URL codec,
// and the two runs trained for real in Node through the measured runs (the
// training pool on the page, as where no worker starts).
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { trainSideBySide } from './train-side-by-side.js';
import { applyEvent, emptyRecord } from '../../web/src/training/side-by-side.js';
import {
  DEFAULTS, EXAMPLES, MAX_STEPS, RUNS, SOURCE_LENGTH, TARGET_LOSS, describe as describeRuns, outcomeOf, readingOf, runsOf, selfMapOf, summarize,
} from '../../web/src/sections/mask-reason/state.js';
import params from '../../web/src/sections/mask-reason/params.js';
import { rightOf } from '../../web/src/sections/mask-reason/results.js';
import { decodeSection, encodeSection } from '../../web/src/lib/params.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/mask-reason.js';
import ko from '../../web/src/i18n/ko/mask-reason.js';

const T = { en: translator(en), ko: translator(ko) };
const L = SOURCE_LENGTH;
const N = 2 * L + 1;   // source, separator, target

// A map (N x N) whose rows put `next` on the token to predict (answer rows) or
// the next token (other rows), `source` on the source digit to copy, the rest
// on the row's own position.
function map({ next = 0, source = 0 }) {
  const w = new Float32Array(N * N);
  for (let i = 0; i < N; i++) {
    const answer = i >= L && i < 2 * L;
    let rest = 1;
    if (i + 1 < N && next) { w[i * N + i + 1] = next; rest -= next; }
    if (answer && source) { w[i * N + (2 * L - 1 - i)] += source; rest -= source; }
    w[i * N + i] += rest;
  }
  return w;
}
const probeOf = (weights) => ({
  source: ['3', '1', '4', '5', '9', '2', '6', '8'], target: ['8', '6', '2', '9', '5', '4', '1', '3'],
  layers: [{ kind: 'decoder-self', layer: 0, rows: N, cols: N, heads: [weights, weights] }],
});
// Two finished runs with the final evaluations and maps given.
function finished({ unmasked, masked, unmaskedMap = map({ next: 0.6, source: 0.2 }) }) {
  const record = emptyRecord(RUNS);
  for (const [id, evaluation, weights, step] of [['unmasked', unmasked, unmaskedMap, 250], ['masked', masked, map({ source: 0.5 }), 200]]) {
    applyEvent(record, { type: 'started', id, points: [{ step: 0, loss: null, accuracy: 0.1, generatedAccuracy: 0.1 }] });
    applyEvent(record, { type: 'progress', id, step, points: [{ step, loss: 0.02, accuracy: evaluation.accuracy, generatedAccuracy: evaluation.generatedAccuracy }] });
    applyEvent(record, { type: 'done', id, step, reason: 'target' });
    applyEvent(record, { type: 'final', id, evaluation: { loss: 0.05, sequenceAccuracy: 0, ...evaluation }, probe: probeOf(weights), generation: { tokens: [] } });
  }
  applyEvent(record, { type: 'finished', ms: 3000 });
  return record;
}
const keys = (record) => summarize(record).map((p) => p.key);

describe('the plan', () => {
  test('the same decoder from one seed, without the mask and with it, each to the teacher-forced loss target', () => {
    const runs = runsOf({ seed: 7 });
    expect(runs.map((r) => r.id)).toEqual(['unmasked', 'masked']);
    expect(runs.map((r) => r.options.causal)).toEqual([false, true]);
    for (const run of runs) {
      expect(run.options).toMatchObject({ task: 'reverse', model: 'decoder', seed: 7, sourceLength: L });
      expect(run.play).toMatchObject({ until: MAX_STEPS, target: { metric: 'heldOutLoss', atMost: TARGET_LOSS }, measure: { examples: EXAMPLES } });
    }
    const { causal, ...rest } = runs[0].options;
    expect(runs[1].options).toEqual({ ...rest, causal: true });
  });
});

describe('what a map reads', () => {
  test('the weight above the diagonal, on the token to predict and on the source digit to copy', () => {
    const reading = readingOf(selfMapOf(probeOf(map({ next: 0.6, source: 0.2 }))));
    // Every row but the last puts 0.6 on the next token: (N - 1) * 0.6 / N above the diagonal.
    expect(reading.future).toBeCloseTo(((N - 1) * 0.6) / N, 6);
    expect(reading.next).toBeCloseTo(0.6, 6);
    expect(reading.source).toBeCloseTo(0.2, 6);
    const causal = readingOf(selfMapOf(probeOf(map({ source: 0.5 }))));
    expect(causal).toEqual({ future: 0, next: 0, source: 0.5 });
  });

  test('the probe written: its digits right, position by position', () => {
    expect(rightOf(['8', '6', '2', '6', '6', '6', '6', '3'], ['8', '6', '2', '9', '5', '4', '1', '3'])).toBe(4);
    expect(rightOf(['8', '6'], ['8', '6', '2'])).toBe(2);   // stopped early: the rest wrong
  });

  test('the outcome of an evaluation', () => {
    expect(outcomeOf({ accuracy: 0.99, generatedAccuracy: 0.44 })).toBe('fails');
    expect(outcomeOf({ accuracy: 0.99, generatedAccuracy: 0.97 })).toBe('generates');
    expect(outcomeOf({ accuracy: 0.6, generatedAccuracy: 0.2 })).toBe('short');
  });
});

describe('the sentences, chosen from the numbers', () => {
  const asArticle = finished({ unmasked: { accuracy: 0.994, generatedAccuracy: 0.438 }, masked: { accuracy: 0.997, generatedAccuracy: 0.996 } });
  const lucky = finished({ unmasked: { accuracy: 0.998, generatedAccuracy: 0.972 }, masked: { accuracy: 0.994, generatedAccuracy: 0.989 }, unmaskedMap: map({ next: 0.05, source: 0.5 }) });
  const luckyAhead = finished({ unmasked: { accuracy: 0.998, generatedAccuracy: 0.972 }, masked: { accuracy: 0.994, generatedAccuracy: 0.989 }, unmaskedMap: map({ next: 0.3, source: 0.5 }) });
  const short = finished({ unmasked: { accuracy: 0.7, generatedAccuracy: 0.3 }, masked: { accuracy: 0.6, generatedAccuracy: 0.55 } });

  test('the cheat: high teacher-forced, low written freely, weight on the answer; the masked model both', () => {
    expect(keys(asArticle)).toEqual(['summary.unmasked.fails', 'summary.map.ahead', 'summary.masked.generates', 'summary.lesson.cheat']);
    const [u, m, , lesson] = summarize(asArticle);
    expect(u.params).toMatchObject({ accuracy: 0.994, generated: 0.438, steps: 250, loss: 0.02 });
    expect(m.params.masked).toBe(0);
    expect(lesson.params.gap).toBeCloseTo(0.556, 6);
  });

  test('a seed that learns to read the source anyway says so; runs that do not learn say so', () => {
    expect(keys(lucky)).toEqual(['summary.unmasked.generates', 'summary.map.behind', 'summary.masked.generates', 'summary.lesson.luck']);
    expect(keys(luckyAhead)).toEqual(['summary.unmasked.generates', 'summary.map.aheadAnyway', 'summary.masked.generates', 'summary.lesson.luck']);
    expect(keys(short)).toEqual(['summary.unmasked.short', 'summary.map.plain', 'summary.masked.short', 'summary.lesson.mixed']);
  });

  test.each(['en', 'ko'])('%s: every sentence filled in with the numbers', (lang) => {
    for (const record of [asArticle, lucky, luckyAhead, short]) {
      const sentences = describeRuns(T[lang], record);
      expect(sentences).toHaveLength(4);
      for (const s of sentences) expect(s).not.toMatch(/[{}\u27e6]/);
    }
    const [u, mapSentence] = describeRuns(T[lang], asArticle);
    expect(u).toContain('99.4%');
    expect(u).toContain('43.8%');
    // (N - 1) * 0.6 / N above the diagonal; 60.0% on the token to predict.
    expect(mapSentence).toContain(`${(100 * ((N - 1) * 0.6) / N).toFixed(1)}%`);
    expect(mapSentence).toContain('60.0%');
  });
});

describe('the URL codec', () => {
  test('the seed reads back; a bad one is rejected by name', () => {
    const pairs = encodeSection(params, { seed: 42 });
    expect(pairs).toEqual([['seed', '42']]);
    expect(decodeSection(params, (name) => pairs.find(([k]) => k === name)?.[1] ?? null).state).toEqual({ seed: 42 });
    expect(encodeSection(params, DEFAULTS)).toEqual([]);
    const bad = decodeSection(params, (name) => (name === 'seed' ? 'x' : null));
    expect(bad.rejected).toEqual(['seed']);
    expect(bad.state).toEqual(DEFAULTS);
  });
});

describe('both runs trained for real (seed 1: the unmasked model cheats)', () => {
  let engine;
  beforeAll(async () => { engine = await createAttention({ learning: true }); });

  test('the unmasked model reaches the target teacher-forced and fails written freely; the masked one does both', async () => {
    const record = await trainSideBySide(engine, runsOf({ seed: 1 }));
    for (const run of RUNS) expect(record.runs[run].reason).toBe('target');
    expect(keys(record)).toEqual(['summary.unmasked.fails', 'summary.map.ahead', 'summary.masked.generates', 'summary.lesson.cheat']);
    // The masked model's map has nothing above the diagonal: the mask, computed.
    expect(readingOf(selfMapOf(record.runs.masked.final.probe)).future).toBe(0);
  }, 60000);
});

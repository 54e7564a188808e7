// Section "positions-trained": the plan of its two runs, the score of guessing
// the commonest digit (against counting every sequence), the weight on the
// anti-diagonal of a cross-attention map built by hand, the sentences chosen
// from the numbers of runs that come out each way (in both languages), the
// URL codec, and both runs trained for real in Node through the measured runs.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { trainSideBySide } from './train-side-by-side.js';
import { applyEvent, emptyRecord } from '../../web/src/training/side-by-side.js';
import {
  DEFAULTS, EXAMPLES, MAX_STEPS, RUNS, SOURCE_LENGTH, TARGET, commonestGuess, crossMapOf, describe as describeRuns,
  onReversal, rememberingGuess, runsOf, summarize,
} from '../../web/src/sections/positions-trained/state.js';
import params from '../../web/src/sections/positions-trained/params.js';
import { decodeSection, encodeSection } from '../../web/src/lib/params.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/positions-trained.js';
import ko from '../../web/src/i18n/ko/positions-trained.js';

const T = { en: translator(en), ko: translator(ko) };
const L = SOURCE_LENGTH;

// The commonest symbol's share of a sequence, averaged over every sequence of n symbols from k.
function bruteForce(n, k) {
  let total = 0;
  for (let code = 0; code < k ** n; code++) {
    const counts = new Array(k).fill(0);
    for (let i = 0, c = code; i < n; i++, c = Math.floor(c / k)) counts[c % k] += 1;
    total += Math.max(...counts) / n;
  }
  return total / k ** n;
}

// A cross map (L + 1 rows: the digits and the end; L columns) with `on` on the anti-diagonal, the rest even.
function crossMap(on) {
  const w = new Float32Array((L + 1) * L);
  for (let t = 0; t <= L; t++) for (let j = 0; j < L; j++) w[t * L + j] = t < L && j === L - 1 - t ? on : (1 - (t < L ? on : 0)) / (t < L ? L - 1 : L);
  return w;
}
const probeOf = (weights) => ({
  source: ['3', '1', '4', '5', '9', '2', '6', '8'], target: ['8', '6', '2', '9', '5', '4', '1', '3'],
  layers: [{ kind: 'encoder-self', layer: 0, rows: L, cols: L, heads: [new Float32Array(L * L)] },
    { kind: 'cross', layer: 0, rows: L + 1, cols: L, heads: [weights, weights] }],
});
function finished({ none, positioned, noneOn = 0.14, positionedOn = 0.97, positions = 'sinusoidal' }) {
  const record = emptyRecord(RUNS);
  for (const [id, evaluation, on, step] of [['none', none, noneOn, 500], ['positioned', positioned, positionedOn, 175]]) {
    applyEvent(record, { type: 'started', id, trainer: { options: { positions: id === 'none' ? 'none' : positions } }, points: [{ step: 0, loss: null }] });
    applyEvent(record, { type: 'progress', id, step, points: [{ step, loss: 0.5, generatedAccuracy: evaluation.generatedAccuracy }] });
    applyEvent(record, { type: 'done', id, step, reason: 'until' });
    applyEvent(record, { type: 'final', id, evaluation: { loss: 1, sequenceAccuracy: 0.9, accuracy: 0.5, ...evaluation }, probe: probeOf(crossMap(on)) });
  }
  applyEvent(record, { type: 'finished', ms: 4000 });
  return record;
}
const keys = (record) => summarize(record).map((p) => p.key);

describe('the plan', () => {
  test('the same transformer from one seed, without positions and with the chosen ones, each to the target written freely', () => {
    const runs = runsOf({ seed: 7, positions: 'learned' });
    expect(runs.map((r) => r.id)).toEqual(['none', 'positioned']);
    expect(runs.map((r) => r.options.positions)).toEqual(['none', 'learned']);
    for (const run of runs) {
      expect(run.options).toMatchObject({ task: 'reverse', model: 'transformer', seed: 7, sourceLength: L });
      expect(run.play).toMatchObject({ until: MAX_STEPS, target: { metric: 'generatedAccuracy', atLeast: TARGET }, measure: { examples: EXAMPLES } });
    }
  });
});

describe('what a model that knows only which digits occur can score', () => {
  test('the commonest-digit guess equals counting every sequence', () => {
    expect(commonestGuess(1)).toBe(1);
    expect(commonestGuess(2)).toBeCloseTo(0.55, 12);   // two digits agree one time in ten
    for (const [n, k] of [[3, 3], [4, 3], [5, 4], [4, 10]]) expect(commonestGuess(n, k)).toBeCloseTo(bruteForce(n, k), 12);
    expect(commonestGuess(8)).toBeGreaterThan(0.1);
    expect(() => commonestGuess(0)).toThrow(/n: expected a positive whole number/);
  });

  test('teacher-forced: the commonest of the digits not yet written, the end always right', () => {
    let sum = 1;
    for (let n = 1; n <= L; n++) sum += commonestGuess(n);
    expect(rememberingGuess(L)).toBeCloseTo(sum / (L + 1), 12);
  });

  test('the weight on the anti-diagonal of a cross map', () => {
    expect(onReversal(crossMapOf(probeOf(crossMap(0.9))))).toBeCloseTo(0.9, 6);
    expect(onReversal(crossMapOf(probeOf(crossMap(1 / L))))).toBeCloseTo(1 / L, 6);
  });
});

describe('the sentences, chosen from the numbers', () => {
  const guess = commonestGuess(L);
  const asArticle = finished({ none: { generatedAccuracy: 0.22 }, positioned: { generatedAccuracy: 0.999 } });
  const between = finished({ none: { generatedAccuracy: guess + 0.2 }, positioned: { generatedAccuracy: 0.97 }, noneOn: 0.6, positions: 'learned' });
  const bothFail = finished({ none: { generatedAccuracy: 0.97 }, positioned: { generatedAccuracy: 0.5 }, positionedOn: 0.2 });

  test('without positions near the commonest-digit guess, with them near 1, the anti-diagonal only with them', () => {
    expect(keys(asArticle)).toEqual(['summary.none.guesses', 'summary.none.forced', 'summary.positioned.learns', 'summary.maps.aligned', 'summary.verdict.order']);
    expect(summarize(asArticle)[0].params).toMatchObject({ generated: 0.22, chance: 0.1, guess, steps: 500 });
  });

  test('runs that come out otherwise say so', () => {
    expect(keys(between)).toEqual(['summary.none.between', 'summary.none.forced', 'summary.positioned.learns', 'summary.maps.other', 'summary.verdict.order']);
    // Aligned with positions, but without them well above an even spread: described, not called even.
    expect(keys(finished({ none: { generatedAccuracy: 0.22 }, positioned: { generatedAccuracy: 0.999 }, noneOn: 0.3 }))[3]).toBe('summary.maps.other');
    expect(keys(bothFail)).toEqual(['summary.none.learns', 'summary.positioned.short', 'summary.maps.other', 'summary.verdict.not']);
  });

  test.each(['en', 'ko'])('%s: every sentence filled in with the numbers and the positions named', (lang) => {
    for (const record of [asArticle, between, bothFail]) {
      for (const s of describeRuns(T[lang], record)) expect(s).not.toMatch(/[{}\u27e6]/);
    }
    const sentences = describeRuns(T[lang], asArticle);
    expect(sentences[0]).toContain('22.0%');
    expect(sentences[0]).toContain(`${(100 * guess).toFixed(1)}%`);
    expect(sentences[2]).toContain(T[lang]('positions.sinusoidal'));
    expect(describeRuns(T[lang], between)[2]).toContain(T[lang]('positions.learned'));
  });
});

describe('the URL codec', () => {
  test('seed and positions read back; a kind not offered is rejected by name', () => {
    const state = { seed: 42, positions: 'learned' };
    const pairs = encodeSection(params, state);
    expect(pairs).toEqual([['seed', '42'], ['positions', 'learned']]);
    expect(decodeSection(params, (name) => pairs.find(([k]) => k === name)?.[1] ?? null).state).toEqual(state);
    expect(encodeSection(params, DEFAULTS)).toEqual([]);
    const bad = decodeSection(params, (name) => (name === 'positions' ? 'none' : null));
    expect(bad.rejected).toEqual(['positions']);
    expect(bad.state).toEqual(DEFAULTS);
  });
});

describe('both runs trained for real (seed 1)', () => {
  let engine;
  beforeAll(async () => { engine = await createAttention({ learning: true }); });

  test('without positions the budget runs out near the guess; with them the target is reached', async () => {
    const record = await trainSideBySide(engine, runsOf(DEFAULTS));
    expect(record.runs.none).toMatchObject({ reason: 'until', step: MAX_STEPS });
    expect(record.runs.positioned.reason).toBe('target');
    expect(keys(record)).toEqual(['summary.none.guesses', 'summary.none.forced', 'summary.positioned.learns', 'summary.maps.aligned', 'summary.verdict.order']);
  }, 90000);
});

// Section "bottleneck": the sweep's plan (each run's options), a sweep
// followed through what its runs report, the sentences chosen from the
// numbers of sweeps that come out each way (in both languages), the URL
// codec, and two short runs trained for real through the measured runs (the
// training pool on the page, where no worker starts in Node).
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { openWorker } from '../../web/src/worker/bridge.js';
import { trainingPool } from '../../web/src/training/training-pool.js';
import { measuredRuns } from '../../web/src/training/measured-runs.js';
import {
  DEFAULTS, EVALUATE_EVERY, EXAMPLES_WHILE_TRAINING, LENGTHS, MODELS, TARGET, applyEvent, describeSweep, emptySweep,
  isDone, runId, runsOf, seriesOf, summarize,
} from '../../web/src/sections/bottleneck/state.js';
import params from '../../web/src/sections/bottleneck/params.js';
import { decodeSection, encodeSection } from '../../web/src/lib/params.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/bottleneck.js';
import ko from '../../web/src/i18n/ko/bottleneck.js';

const T = { en: translator(en), ko: translator(ko) };

// A finished sweep whose final accuracies are `plain[i]` and `attentive[i]` at
// LENGTHS[i], each run reaching the target at the step given (null: never).
function finishedSweep({ plain, attentive, plainReached = LENGTHS.map(() => null), attentiveReached = LENGTHS.map(() => 200), steps = 1000 }) {
  const sweep = emptySweep({ ...DEFAULTS, steps });
  LENGTHS.forEach((length, i) => {
    for (const [model, accuracy, reached] of [['rnn', plain[i], plainReached[i]], ['bahdanau', attentive[i], attentiveReached[i]]]) {
      const id = runId(model, length);
      const points = [{ step: 0, generatedAccuracy: 0.1 }];
      if (reached !== null) points.push({ step: reached, generatedAccuracy: Math.max(TARGET, accuracy) });
      else points.push({ step: steps, generatedAccuracy: Math.min(accuracy, TARGET - 0.01) });
      applyEvent(sweep, { type: 'started', id, points: [points[0]] });
      applyEvent(sweep, { type: 'progress', id, step: points[1].step, points: [points[1]] });
      applyEvent(sweep, { type: 'done', id, step: points[1].step, reason: reached === null ? 'until' : 'target' });
      applyEvent(sweep, { type: 'final', id, evaluation: { generatedAccuracy: accuracy, accuracy, loss: 1, sequenceAccuracy: 0 } });
    }
  });
  return sweep;
}
const keys = (sweep) => summarize(sweep).map((p) => p.key);

describe('the plan', () => {
  test('both models at every length, the same seed and budget, each to the target on a part of the held-out set', () => {
    const runs = runsOf({ seed: 7, steps: 500 });
    expect(runs).toHaveLength(LENGTHS.length * MODELS.length);
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    for (const run of runs) {
      expect(run.options).toMatchObject({ task: 'reverse', model: run.model, seed: 7, sourceLength: run.length });
      expect(run.play).toMatchObject({
        until: 500, evaluateEvery: EVALUATE_EVERY, measure: { examples: EXAMPLES_WHILE_TRAINING },
        target: { metric: 'generatedAccuracy', atLeast: TARGET },
      });
      expect(run.cost).toBeGreaterThan(0);
    }
    // The options are the engine's: a trainer accepts each.
    expect(runs.map((r) => r.length)).toEqual(LENGTHS.flatMap((l) => MODELS.map(() => l)));
  });
});

describe('a sweep followed through its runs\' reports', () => {
  test('a run waits, trains, is evaluated, and is done with its final evaluation; the first point at the target is kept', () => {
    const sweep = emptySweep(DEFAULTS);
    const id = runId('bahdanau', 8);
    expect(sweep.runs[id]).toMatchObject({ status: 'waiting', step: 0, reachedAt: null, final: null });
    applyEvent(sweep, { type: 'started', id, step: 0, points: [{ step: 0, generatedAccuracy: 0.96 }] });
    expect(sweep.runs[id]).toMatchObject({ status: 'training', latest: 0.96, reachedAt: null });   // step 0 is not training
    applyEvent(sweep, { type: 'progress', id, step: 100, points: [{ step: 50, generatedAccuracy: 0.5 }, { step: 100, generatedAccuracy: 0.97 }] });
    applyEvent(sweep, { type: 'progress', id, step: 150, points: [{ step: 150, generatedAccuracy: 0.99 }] });
    expect(sweep.runs[id]).toMatchObject({ status: 'training', step: 150, latest: 0.99, reachedAt: 100 });
    applyEvent(sweep, { type: 'done', id, step: 150, reason: 'target' });
    expect(sweep.runs[id].status).toBe('evaluating');
    applyEvent(sweep, { type: 'final', id, evaluation: { generatedAccuracy: 0.981 } });
    expect(sweep.runs[id]).toMatchObject({ status: 'done', final: { generatedAccuracy: 0.981 } });
    expect(isDone(sweep)).toBe(false);
    expect(seriesOf(sweep)).toEqual({ rnn: [], bahdanau: [[8, 0.981]] });
    // A report of an unknown run changes nothing.
    expect(applyEvent(sweep, { type: 'final', id: 'nope', evaluation: {} })).toBe(sweep);
  });
});

describe('the sentences follow the numbers, whichever way the sweep came out', () => {
  test('the figure\'s shape: the plain model falls, the attentive one holds', () => {
    const sweep = finishedSweep({ plain: [0.948, 0.849, 0.602, 0.377, 0.276], attentive: [1, 0.97, 0.994, 0.947, 0.976], plainReached: [350, null, null, null, null], attentiveReached: [100, 100, 150, 150, 250] });
    expect(isDone(sweep)).toBe(true);
    expect(keys(sweep)).toEqual(['summary.plain.falls', 'summary.plain.upTo', 'summary.attentive.holds', 'summary.verdict.figure', 'summary.budget.all']);
    const [text] = [describeSweep(T.en, sweep).join(' ')];
    expect(text).toContain('94.8% at 4 digits, 27.6% at 16');
    expect(text).toContain('90% or more up to 4 digits; at 6 it got 84.9%');
    expect(text).toContain('94.7% or more');
    expect(text).toContain('by step 250 at the latest; the plain model at 1 of 5 lengths');
    const korean = describeSweep(T.ko, sweep).join(' ');
    expect(korean).toContain('4자리에서 94.8%, 16자리에서 27.6%');
    expect(korean).toContain('그림 2와 같은 모양');
    expect(korean).toContain('250단계');
    expect(seriesOf(sweep).rnn).toEqual(LENGTHS.map((l, i) => [l, [0.948, 0.849, 0.602, 0.377, 0.276][i]]));
  });

  test('the plain model holds at every length: the text says so, and that the figure\'s shape did not appear', () => {
    const sweep = finishedSweep({ plain: [0.99, 0.98, 0.97, 0.95, 0.93], attentive: [1, 1, 1, 0.99, 0.99], plainReached: [100, 200, 300, 500, 900] });
    expect(keys(sweep)).toEqual(['summary.plain.holds', 'summary.attentive.holds', 'summary.verdict.not', 'summary.budget.all']);
    expect(describeSweep(T.en, sweep).join(' ')).toContain('held up at every length this time: 93.0% or more');
    expect(describeSweep(T.ko, sweep).join(' ')).toContain('평범한 모델도 모든 길이에서 버텼습니다');
  });

  test('the attentive model falls too: which lengths, and the lowest', () => {
    const sweep = finishedSweep({ plain: [0.95, 0.8, 0.5, 0.3, 0.2], attentive: [1, 0.99, 0.95, 0.7, 0.42], attentiveReached: [100, 100, 200, null, null] });
    expect(keys(sweep)).toEqual(['summary.plain.falls', 'summary.plain.upTo', 'summary.attentive.falls', 'summary.verdict.not', 'summary.budget.some']);
    const text = describeSweep(T.en, sweep).join(' ');
    expect(text).toContain('below 90% too, at 12, 16 digits (lowest 42.0%, at 16 digits)');
    expect(text).toContain('at 3 of 5 lengths, the plain model at 0');
    expect(describeSweep(T.ko, sweep).join(' ')).toContain('12, 16자리에서 90% 아래로');
  });

  test('a plain model below the mark from the shortest length that does not fall far: "flat" and "never"', () => {
    const sweep = finishedSweep({ plain: [0.3, 0.25, 0.22, 0.2, 0.18], attentive: [1, 1, 1, 1, 1] });
    expect(keys(sweep)).toEqual(['summary.plain.flat', 'summary.plain.never', 'summary.attentive.holds', 'summary.verdict.not', 'summary.budget.all']);
    expect(describeSweep(T.en, sweep).join(' ')).toContain('below 90% even at 4 digits (30.0%)');
  });
});

describe('the URL codec', () => {
  test('seed and steps read back; a budget not offered is rejected by name', () => {
    const state = { seed: 42, steps: 2000 };
    const pairs = encodeSection(params, state);
    expect(pairs).toEqual([['seed', '42'], ['steps', '2000']]);
    expect(decodeSection(params, (name) => pairs.find(([k]) => k === name)?.[1] ?? null).state).toEqual(state);
    expect(encodeSection(params, DEFAULTS)).toEqual([]);
    const bad = decodeSection(params, (name) => (name === 'steps' ? '700' : null));
    expect(bad.rejected).toEqual(['steps']);
    expect(bad.state).toEqual(DEFAULTS);
  });
});

describe('runs trained for real (the training pool on the page, as where no worker starts)', () => {
  let engine;
  beforeAll(async () => { engine = await createAttention({ learning: true }); });

  test('each run reports its start, its points on the part, its end, then its evaluation on every held-out sequence', async () => {
    const open = (service, options) => openWorker(service, { ...options, createWorker: () => { throw new Error('no worker in Node'); } });
    const plan = runsOf({ seed: 3, steps: 20 }).filter((r) => r.length === 4).map((r) => ({ ...r, play: { ...r.play, evaluateEvery: 10 } }));
    const sweep = emptySweep({ seed: 3, steps: 20 });
    const events = [];
    const finished = new Promise((resolve, reject) => {
      const runs = measuredRuns({
        engine,
        pool: (options) => trainingPool({ ...options, open }),
        finish: async (request) => ({ evaluation: await request('evaluate') }),
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'error') reject(new Error(event.message));
          else if (event.type === 'finished') resolve(event);
          else applyEvent(sweep, event);
        },
      });
      runs.start(plan);
    });
    const { ms } = await finished;
    expect(ms).toBeGreaterThan(0);
    for (const run of plan) {
      const mine = events.filter((e) => e.id === run.id).map((e) => e.type);
      expect(mine[0]).toBe('started');
      expect(mine.slice(-2)).toEqual(['done', 'final']);
      const state = sweep.runs[run.id];
      expect(state.status).toBe('done');
      expect(state.step).toBe(20);
      // The final figure is the evaluation of every held-out sequence, which a trainer of the same options gives.
      const trainer = engine.createTrainer({ ...run.options, longRunning: true });
      trainer.step(20);
      expect(state.final.generatedAccuracy).toBeCloseTo(trainer.evaluate().generatedAccuracy, 6);
      trainer.dispose();
    }
    expect(events.at(-1).type).toBe('finished');
  });
});

// Section "induction": the settings of its runs, the probe's repeated segment
// and the cells a specialised head should look at, the sentences chosen from
// the numbers (each way a run can come out, in both languages), the runs'
// orchestration (./runs.js with a stand-in worker), and one real run of both
// models in Node on the page's bridge (no worker: the service in slices).
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import {
  DROP_FROM, DROP_TO, EVALUATE_EVERY, INDUCTION_HEAD, PREVIOUS_TOKEN_HEAD, TARGET,
  ablationKey, ablationSummary, dropSummary, emptyRuns, expectedCells, headsOfKey, headsSummary,
  oneLayerSummary, repeatOf, runOptions, summarize, timingSummary, tokensOf, trainPlan,
} from '../../web/src/sections/induction/state.js';
import { inductionRuns, subsets } from '../../web/src/sections/induction/runs.js';
import { showParams } from '../../web/src/sections/induction/summary-view.js';
import { interpolate, lookup } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/induction.js';
import ko from '../../web/src/i18n/ko/induction.js';

let engine;
beforeAll(async () => { engine = await createAttention({ learning: true }); });

// A point of a run: accuracy, and the heads' scores (layer 0, layer 1).
const point = (step, accuracy, [prev0, prefix0, prev1, prefix1] = [0.08, 0.08, 0.08, 0.08]) => ({
  step, accuracy, loss: 3 - 3 * accuracy, generatedAccuracy: accuracy, heldOutLoss: 3 - 3 * accuracy,
  headScores: [
    { layer: 0, head: 0, previousToken: prev0, prefixMatch: prefix0 },
    { layer: 1, head: 0, previousToken: prev1, prefixMatch: prefix1 },
  ],
});

describe('the runs and the probe', () => {
  test('options: the attention-only decoder, one head a layer by default, two layers against one', () => {
    expect(runOptions({ seed: 7 }, 'two')).toEqual({
      task: 'induction', model: 'decoder', attentionOnly: true, layers: 2, seed: 7, dModel: 16, batchSize: 32, learningRate: 0.01,
    });
    expect(runOptions({ seed: 7 }, 'one').layers).toBe(1);
    expect(trainPlan('two').stopAt).toEqual({ metric: 'accuracy', value: TARGET });
    expect(trainPlan('one').stopAt).toBe(null);
    expect(trainPlan('one')).toMatchObject({ headScores: true, probe: true, every: EVALUATE_EVERY });
    // The engine takes them and fills in one head a layer.
    const trainer = engine.createTrainer(runOptions({ seed: 1 }, 'two'));
    expect(trainer.options.heads).toBe(1);
    trainer.dispose();
  });
  test('ablation keys and the subsets of heads', () => {
    const a = { layer: 0, head: 0 };
    const b = { layer: 1, head: 0 };
    expect(ablationKey([])).toBe('none');
    expect(ablationKey([b, a])).toBe(ablationKey([a, b]));
    expect(headsOfKey(ablationKey([b, a]))).toEqual([a, b]);
    expect(subsets([a, b])).toEqual([[], [a], [b], [a, b]]);
  });
  test('the repeated segment and the cells each head should look at', () => {
    const letters = [...'xyabcdqrabcdz'];
    expect(repeatOf(letters)).toEqual({ first: 2, second: 8, length: 4 });
    expect(tokensOf({ target: letters }, '|')).toEqual(['|', ...letters]);
    // Row r reads token r (SEP, then the letters); an induction head on the second "a" (letter 8, row 9)
    // looks at the letter after the first "a", "b" (letter 3, token 4).
    expect(expectedCells(letters, 'prefixMatch')).toEqual([[9, 4], [10, 5], [11, 6]]);
    const cells = expectedCells(letters, 'previousToken');
    expect(cells).toHaveLength(letters.length);
    expect(cells[0]).toEqual([1, 0]);
    expect(repeatOf([...'abcdef'])).toBe(null);
    // The engine's probe: one segment of 6 found, and the induction head's cells on letters equal to the next one.
    const trainer = engine.createTrainer(runOptions({ seed: 1 }, 'two'));
    const probe = trainer.probe();
    trainer.dispose();
    const repeat = repeatOf(probe.target);
    expect(repeat.length).toBeGreaterThanOrEqual(6);
    const tokens = tokensOf(probe);
    for (const [r, c] of expectedCells(probe.target, 'prefixMatch')) {
      expect(tokens[c - 1]).toBe(tokens[r]);    // the earlier occurrence of the letter read
      expect(tokens[c]).toBe(probe.target[r]);  // the letter after it is the one to predict
    }
  });
});

describe('the sentences, chosen from the numbers', () => {
  const sharp = [point(0, 0.02), point(200, 0.05), point(400, 0.1), point(425, 0.5), point(450, DROP_TO + 0.1), point(500, 0.99)];
  test('the drop: sharp, gradual, partial or none', () => {
    expect(dropSummary(sharp)).toMatchObject({ key: 'summary.drop.sharp', params: { plateau: 425, from: 425, to: 450, width: 25, steps: 500 } });
    const gradual = [point(0, 0.02), point(100, DROP_FROM), point(900, 0.5), point(1000, 0.9)];
    expect(dropSummary(gradual).key).toBe('summary.drop.gradual');
    expect(dropSummary([point(0, 0.02), point(100, 0.3), point(2000, 0.6)]).key).toBe('summary.drop.partial');
    expect(dropSummary([point(0, 0.02), point(2000, 0.1)]).key).toBe('summary.drop.none');
  });
  test('the heads: the circuit, or only part of it, or neither', () => {
    const start = point(0, 0.02);
    const key = (scores) => headsSummary([start, point(500, 0.99, scores)]).key.split('.').at(-1);
    expect(key([0.6, 0.09, 0.07, 0.95])).toBe('circuit');
    expect(headsSummary([start, point(500, 0.99, [0.6, 0.09, 0.07, 0.95])]).params).toMatchObject({ previous: 0.6, previous0: 0.08, prefix: 0.95, prefix0: 0.08 });
    expect(key([PREVIOUS_TOKEN_HEAD - 0.01, 0.09, 0.07, 0.95])).toBe('inductionOnly');
    expect(key([0.6, 0.09, 0.07, INDUCTION_HEAD - 0.01])).toBe('previousOnly');
    expect(key([0.1, 0.09, 0.07, 0.1])).toBe('neither');
  });
  test('the timing of the prefix-match score against the accuracy', () => {
    const run = (prefixAt) => [0, 100, 200, 300, 400].map((s) => point(s, s >= 300 ? 0.9 : 0.1, [0.5, 0.1, 0.1, s >= prefixAt ? 0.8 : 0.1]));
    expect(timingSummary(run(300)).key).toBe('summary.timing.together');
    expect(timingSummary(run(100)).key).toBe('summary.timing.prefixFirst');
    expect(timingSummary(run(400)).key).toBe('summary.timing.accuracyFirst');
    expect(timingSummary(run(500))).toBe(null);
  });
  test('ablation: to chance, a fall, or little change', () => {
    const chance = 1 / 24;
    const keys = ablationSummary({ accuracy: 0.99 }, [
      { layer: 0, head: 0, accuracy: 0.05 }, { layer: 1, head: 0, accuracy: 0.5 }, { layer: 1, head: 1, accuracy: 0.95 },
    ], chance).map((p) => p.key.split('.').at(-1));
    expect(keys).toEqual(['toChance', 'falls', 'little']);
    expect(ablationSummary({ accuracy: 0.99 }, [{ layer: 1, head: 0, accuracy: 0.05 }], chance)[0].params).toMatchObject({ layer: 2, head: 1 });
  });
  test('one layer against two', () => {
    const base = { two: 0.99, oneSteps: 700, twoSteps: 575, chance: 1 / 24 };
    expect(oneLayerSummary({ ...base, one: 0.12 })).toMatchObject({ key: 'summary.one.stays', params: { times: 0.12 * 24 } });
    expect(oneLayerSummary({ ...base, one: 0.95 }).key).toBe('summary.one.learns');
    expect(oneLayerSummary({ ...base, one: 0.6 }).key).toBe('summary.one.partial');
  });

  // Every key the code can choose, in both languages, with every placeholder filled.
  const chosen = [
    ...['sharp', 'gradual', 'partial', 'none'].map((k) => `summary.drop.${k}`),
    ...['together', 'prefixFirst', 'accuracyFirst'].map((k) => `summary.timing.${k}`),
    ...['circuit', 'inductionOnly', 'previousOnly', 'neither'].map((k) => `summary.heads.${k}`),
    ...['toChance', 'falls', 'little'].map((k) => `summary.ablation.${k}`),
    ...['stays', 'learns', 'partial'].map((k) => `summary.one.${k}`),
  ];
  const paramsOf = (key) => {
    const [, kind] = key.split('.');
    if (kind === 'drop') return dropSummary(sharp).params;
    if (kind === 'timing') return { accuracyStep: 1, prefixStep: 2, middle: 0.5 };
    if (kind === 'heads') return headsSummary([point(0, 0), point(1, 1)]).params;
    if (kind === 'ablation') return ablationSummary({ accuracy: 1 }, [{ layer: 0, head: 0, accuracy: 0.5 }], 0.04)[0].params;
    return oneLayerSummary({ one: 0.1, two: 1, oneSteps: 9, twoSteps: 8, chance: 0.04 }).params;
  };
  test.each(chosen)('%s is written in both languages from the numbers given', (key) => {
    for (const strings of [en, ko]) {
      const text = lookup(strings, key);
      expect(typeof text, key).toBe('string');
      expect(interpolate(text, showParams(paramsOf(key))), key).not.toMatch(/\{\w+(\|[^}]*)?\}/);
    }
  });
});

describe('a finished pair of runs, read whole', () => {
  test('summarize gives the drop, the timing, the heads, each ablation and the one-layer comparison', () => {
    const two = [point(0, 0.02), point(400, 0.1), point(425, 0.85, [0.5, 0.09, 0.07, 0.9]), point(450, 0.99, [0.6, 0.09, 0.07, 0.95])];
    const runs = {
      two: { points: two, step: 450, final: { evaluation: { accuracy: 0.987 }, ablated: [{ layer: 0, head: 0, accuracy: 0.06 }, { layer: 1, head: 0, accuracy: 0.04 }] } },
      one: { points: [point(0, 0.02), point(450, 0.12)], step: 475, final: { evaluation: { accuracy: 0.118 } } },
    };
    expect(summarize(runs, { chance: 1 / 24 }).map((p) => p.key)).toEqual([
      'summary.drop.sharp', 'summary.timing.together', 'summary.heads.circuit',
      'summary.ablation.toChance', 'summary.ablation.toChance', 'summary.one.stays',
    ]);
  });
});

// A stand-in for the bridge's worker: records requests; each is answered by `answer(name, payload, progress)`.
function fakeWorkers(answer) {
  const opened = [];
  const open = () => {
    const w = {
      requests: [], closed: false, cancelled: [],
      request(name, payload, { onProgress } = {}) {
        w.requests.push(name);
        let cancel;
        const reply = new Promise((resolve) => { cancel = resolve; });
        const job = Promise.resolve().then(() => answer(w, name, payload, onProgress, reply));
        return Object.assign(job, { cancel: () => { w.cancelled.push(name); cancel(); } });
      },
      close() { w.closed = true; },
    };
    opened.push(w);
    return w;
  };
  return { open, opened };
}

describe('the runs driver', () => {
  test('the one-layer model follows the two-layer one (never more than a point ahead) and ends at its step; then every set of heads is evaluated', async () => {
    const tick = () => new Promise((r) => setTimeout(r, 1));
    let twoStep = 0;
    let lead = 0;   // how far the one-layer model got ahead
    const { open, opened } = fakeWorkers(async (w, name, payload, onProgress) => {
      const layers = opened.indexOf(w) === 0 ? 2 : 1;
      const heads = Array.from({ length: layers }, (_, layer) => ({ layer, head: 0, previousToken: 0.1, prefixMatch: 0.1 }));
      w.step ??= 0;
      if (name === 'start') return { trainer: { vocabulary: { target: [...'abcdefghijklmnopqrstuvwx'] } } };
      if (name === 'train') {
        for (; w.step < payload.until && (layers === 1 || w.step < 100);) {
          await tick();
          w.step += 25;
          if (layers === 2) twoStep = w.step;
          else lead = Math.max(lead, w.step - twoStep);
          onProgress({ step: w.step, point: { step: w.step, accuracy: layers === 2 ? w.step / 100 : 0.1, headScores: heads }, probe: { layers } });
        }
        return { step: w.step, reason: layers === 2 ? 'target' : 'until' };
      }
      if (name === 'evaluate') return { accuracy: payload.ablate ? 0.05 * payload.ablate.length : 0.99 };
      if (name === 'probe') return { layers };
      throw new Error(name);
    });
    const runs = emptyRuns();
    await new Promise((resolve, reject) => {
      inductionRuns({ engine: null, open, onUpdate: () => {}, onDone: resolve, onFailed: reject }).start({ seed: 1 }, runs);
    });
    expect(runs.two.step).toBe(100);
    expect(runs.one.step).toBe(100);
    expect(lead).toBeLessThanOrEqual(EVALUATE_EVERY);
    expect(opened[1].requests.filter((r) => r === 'train').length).toBeGreaterThan(1);   // in legs
    expect(Object.keys(runs.two.ablations).sort()).toEqual(['0:0', '0:0+1:0', '1:0', 'none']);
    expect(runs.two.final.ablated).toEqual([{ layer: 0, head: 0, accuracy: 0.05 }, { layer: 1, head: 0, accuracy: 0.05 }]);
    expect(runs.one.final.ablated).toEqual([]);
    expect(opened.every((w) => w.closed)).toBe(true);
  });
});

describe('both models trained for real (Node, the service on the page)', () => {
  test('to the target: the drop, an induction head in layer 2, ablation to near chance, one layer far below', async () => {
    const runs = emptyRuns();
    await new Promise((resolve, reject) => {
      inductionRuns({ engine, onUpdate: () => {}, onDone: resolve, onFailed: reject }).start({ seed: 1 }, runs);
    });
    const parts = summarize(runs, { chance: 1 / 24 });
    expect(runs.two.final.evaluation.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(parts.map((p) => p.key)).toEqual(expect.arrayContaining(['summary.heads.circuit', 'summary.ablation.toChance', 'summary.one.stays']));
    expect(runs.two.probe.layers).toHaveLength(2);
    expect(runs.one.probe.layers).toHaveLength(1);
  }, 120000);
});

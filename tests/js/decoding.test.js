// Section "decoding": the settings of its run, the reading of a generation
// (the maps of a step, the cache, the weights of the two ways), the sentences
// chosen from the numbers (each way a run can come out, in both languages),
// the run's orchestration (./runs.js with a stand-in worker), and one real run
// in Node on the page's bridge (no worker: the service in slices).
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import {
  CALLS, EXAMPLES, MODELS, ROUNDS, TARGET, cacheOf, cacheSummary, costOf, costSummary, emptyRun,
  largestWeightDifference, median, runOptions, sameTokens, stepMaps, summarize, timingPlan, trainPlan, trainingSummary,
} from '../../web/src/sections/decoding/state.js';
import { decodingRuns } from '../../web/src/sections/decoding/runs.js';
import params from '../../web/src/sections/decoding/params.js';
import { isolated } from '../../web/src/components/typed-sentence.js';
import { showParams } from '../../web/src/sections/decoding/summary-view.js';
import { interpolate, keysOf, lookup } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/decoding.js';
import ko from '../../web/src/i18n/ko/decoding.js';

let engine;
beforeAll(async () => { engine = await createAttention({ learning: true }); });

const LANGS = { en, ko };
// A generation of `n` steps whose cache grows one row a step (or `lengths`), each step one map per kind.
const generationOf = (n, { tokens = Array.from({ length: n - 1 }, (_, i) => `w${i}`), lengths, weight = 0.5 } = {}) => ({
  source: ['the', 'boy', 'runs'],
  tokens,
  steps: Array.from({ length: n }, (_, i) => ({
    token: i < n - 1 ? tokens[i] : '', end: i === n - 1, cacheLength: lengths ? lengths[i] : i + 1,
    weights: [
      { kind: 'decoder-self', layer: 0, rows: 1, cols: i + 1, heads: [Float32Array.from({ length: i + 1 }, () => 1 / (i + 1))] },
      { kind: 'cross', layer: 0, rows: 1, cols: 3, heads: [Float32Array.of(weight, 1 - weight, 0), Float32Array.of(1 - weight, weight, 0)] },
    ],
  })),
});
const sayAll = (parts) => Object.fromEntries(Object.entries(LANGS).map(([lang, strings]) =>
  [lang, parts.map(({ key, params: p }) => interpolate(lookup(strings, key), showParams(p)))]));

describe('the run and its settings', () => {
  test('options of both models; the engine takes them', () => {
    expect(runOptions({ seed: 3, model: 'transformer' })).toEqual({
      task: 'translate', model: 'transformer', seed: 3, dModel: 32, batchSize: 32, learningRate: 0.01, layers: 1, heads: 2,
    });
    expect(runOptions({ seed: 3, model: 'bahdanau' })).toEqual({
      task: 'translate', model: 'bahdanau', seed: 3, dModel: 32, batchSize: 32, learningRate: 0.01,
    });
    for (const model of MODELS) {
      const trainer = engine.createTrainer(runOptions({ seed: 1, model }));
      expect(trainer.options.model).toBe(model);
      trainer.dispose();
    }
    expect(trainPlan().stopAt).toEqual({ metric: 'generatedAccuracy', value: TARGET });
    expect(trainPlan().examples).toBe(EXAMPLES);
    expect(timingPlan('')).toEqual({ sentence: undefined, rounds: ROUNDS, calls: CALLS });
  });
  test('the URL codec: seed and model, a model it does not know refused', () => {
    expect(params.defaults()).toEqual({ seed: 1, model: 'transformer' });
    expect(params.fields.model.parse('bahdanau')).toBe('bahdanau');
    expect(() => params.fields.model.parse('rnn')).toThrow(/expected one of/);
    expect(() => params.fields.seed.parse('-1')).toThrow();
    expect(params.toState({ model: 'bahdanau' }, params.defaults())).toEqual({ seed: 1, model: 'bahdanau' });
  });
});

describe('reading a generation', () => {
  test('a step\'s maps: the last layer of each kind, its heads averaged', () => {
    const maps = stepMaps(generationOf(3, { weight: 0.8 }).steps[2]);
    expect(maps.cross.row.map((x) => +x.toFixed(6))).toEqual([0.5, 0.5, 0]);
    expect(maps.self.row).toHaveLength(3);
    expect(stepMaps({ weights: [] })).toEqual({ cross: null, self: null });
  });
  test('the cache: 2 x layers x rows x dModel numbers for the transformer, one state for the GRU', () => {
    expect(cacheOf({ model: 'transformer', dModel: 32, layers: 1 }, { cacheLength: 5 })).toEqual({ rows: 5, floats: 320 });
    expect(cacheOf({ model: 'transformer', dModel: 16, layers: 2 }, { cacheLength: 3 })).toEqual({ rows: 3, floats: 192 });
    expect(cacheOf({ model: 'bahdanau', dModel: 32 }, { cacheLength: 9 })).toEqual({ rows: 1, floats: 32 });
  });
  test('the two ways: the same tokens, and the largest difference of their weights', () => {
    const a = generationOf(4);
    expect(sameTokens(a, generationOf(4))).toBe(true);
    expect(sameTokens(a, generationOf(4, { tokens: ['x', 'w1', 'w2'] }))).toBe(false);
    expect(largestWeightDifference(a, generationOf(4))).toBe(0);
    expect(largestWeightDifference(a, generationOf(4, { weight: 0.75 }))).toBeCloseTo(0.25, 6);
    expect(largestWeightDifference(a, generationOf(3))).toBe(null);
  });
  test('medians and the cost ratio', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(null);
    expect(costOf({ cache: [1, 2, 3], recompute: [6, 4, 5] })).toEqual({ cache: 2, recompute: 5, ratio: 2.5, samples: 3 });
  });
});

describe('the sentences, chosen from the numbers, in both languages', () => {
  const g = generationOf(5);
  test('the cost: faster, about the same, slower, not measurable, different tokens', () => {
    const key = (cache, recompute, b = g) => costSummary({ cache, recompute }, g, b).key;
    expect(key([1, 1, 1], [3, 3, 3])).toBe('summary.cost.faster');
    expect(key([1, 1, 1], [1.1, 1.1, 1.1])).toBe('summary.cost.same');
    expect(key([1, 1, 1], [0.9, 0.9, 0.9])).toBe('summary.cost.same');
    expect(key([2, 2, 2], [1, 1, 1])).toBe('summary.cost.slower');
    expect(key([0, 0, 0], [1, 1, 1])).toBe('summary.cost.unmeasured');
    expect(key([1], [3], generationOf(5, { tokens: ['a', 'b', 'c', 'd'] }))).toBe('summary.cost.differ');
    const said = sayAll([costSummary({ cache: [0.5, 0.4, 0.6], recompute: [1.6, 1.5, 1.4] }, g, g)]);
    expect(said.en[0]).toContain('3.00 times as long');
    expect(said.ko[0]).toContain('3.00배');
    for (const lang of Object.keys(LANGS)) expect(said[lang][0]).toContain('1.500');
  });
  test('the cache: grows (transformer), one state (GRU), or neither', () => {
    const transformer = { model: 'transformer', dModel: 32, layers: 1 };
    expect(cacheSummary(g, transformer)).toEqual({
      key: 'summary.cache.grows', params: { steps: 5, rows: 5, firstFloats: 64, floats: 320, dModel: 32, layers: 1 },
    });
    expect(cacheSummary(g, { model: 'bahdanau', dModel: 32 }).key).toBe('summary.cache.state');
    expect(cacheSummary(generationOf(3, { lengths: [0, 0, 0] }), transformer).key).toBe('summary.cache.other');
    const said = sayAll([cacheSummary(g, transformer)]);
    expect(said.en[0]).toMatch(/1 row at the first step to 5 at step 5, 64 numbers to 320/);
    expect(said.ko[0]).toMatch(/1행에서 5단계의 5행까지, 수로는 64개에서 320개/);
  });
  test('the training: reached, or short of the target', () => {
    const run = { ...emptyRun(), step: 175, seconds: 2.34, reason: 'target', points: [{ step: 175, generatedAccuracy: 0.95 }], evaluation: { generatedAccuracy: 0.97, sequenceAccuracy: 0.8 } };
    expect(trainingSummary(run).key).toBe('summary.training.reached');
    expect(trainingSummary({ ...run, reason: 'until' }).key).toBe('summary.training.short');
    const said = sayAll([trainingSummary(run)]);
    expect(said.en[0]).toContain('95.0% generated accuracy on 64 held-out sentences after 175 steps (2.3 s');
    expect(said.ko[0]).toContain('175단계 만에 평가용 문장 64개에서 생성 정확도 95.0%');
  });
  test('summarize: training, cache, cost; every sentence in both languages, every number filled in', () => {
    const run = {
      ...emptyRun(), step: 100, seconds: 1, reason: 'target', done: true,
      points: [{ step: 100, generatedAccuracy: 0.92 }], evaluation: { generatedAccuracy: 0.96, sequenceAccuracy: 0.7 },
      trainer: { options: { model: 'transformer', dModel: 32, layers: 1 } },
      decoded: { sentence: '', generation: g, recomputed: g, timing: { cache: [1, 1], recompute: [2, 2] } },
    };
    const parts = summarize(run);
    expect(parts.map((p) => p.key)).toEqual(['summary.training.reached', 'summary.cache.grows', 'summary.cost.faster']);
    for (const sentences of Object.values(sayAll(parts))) {
      for (const s of sentences) expect(s).not.toMatch(/[{}]|undefined|NaN/);
    }
  });
  test('both languages have the same keys', () => {
    expect(keysOf(ko)).toEqual(keysOf(en));
  });
  test('the engine\'s message is echoed as text, the reader\'s words isolated', () => {
    expect(isolated('sentence: unknown word "<b>dog</b>"; the vocabulary'))
      .toBe('<bdi dir="ltr">sentence: unknown word <bdi>&quot;&lt;b&gt;dog&lt;/b&gt;&quot;</bdi>; the vocabulary</bdi>');
  });
});

// A stand-in for the bridge's worker: each request answered by `answer(name, payload, onProgress)`.
function fakeWorker(answer) {
  const w = {
    requests: [], closed: false,
    request(name, payload, { onProgress } = {}) {
      w.requests.push([name, payload]);
      return Promise.resolve().then(() => answer(name, payload, onProgress));
    },
    close() { w.closed = true; },
  };
  return w;
}

describe('the runs driver', () => {
  test('start, train to the target, evaluate, decode the probe with and without the cache, time it; then a typed sentence, or its refusal', async () => {
    const g = generationOf(4);
    const w = fakeWorker((name, payload, onProgress) => {
      if (name === 'start') return { trainer: { options: { model: 'transformer', dModel: 32, layers: 1 } } };
      if (name === 'train') {
        onProgress({ step: 25, point: { step: 25, generatedAccuracy: 0.5 } });
        onProgress({ step: 50, point: { step: 50, generatedAccuracy: 0.95 } });
        return { step: 50, reason: 'target' };
      }
      if (name === 'evaluate') return { generatedAccuracy: 0.97 };
      if (name === 'generate') {
        if (payload.sentence === 'the dog runs') throw new Error('sentence: unknown word "dog"');
        return g;
      }
      if (name === 'timeGenerate') return { cache: [1], recompute: [2], generation: g };
      throw new Error(name);
    });
    const run = emptyRun();
    const refused = [];
    let driver;
    await new Promise((resolve, reject) => {
      driver = decodingRuns({ engine: null, open: () => w, onUpdate: () => {}, onDone: resolve, onFailed: reject, onRefused: (m) => refused.push(m) });
      expect(driver.decode('the boy runs')).toBe(false);   // not trained yet
      driver.start({ seed: 1, model: 'transformer' }, run);
    });
    expect(w.requests.map(([name]) => name)).toEqual(['start', 'train', 'evaluate', 'generate', 'generate', 'timeGenerate']);
    expect(w.requests.filter(([name]) => name === 'generate').map(([, p]) => p.cache)).toEqual([true, false]);
    expect(run).toMatchObject({ step: 50, reason: 'target', done: true, evaluation: { generatedAccuracy: 0.97 } });
    expect(run.points).toHaveLength(2);
    expect(run.decoded.timing.recompute).toEqual([2]);
    expect(driver.decode('the dog runs')).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect(refused).toEqual(['sentence: unknown word "dog"']);
    expect(run.decoded.sentence).toBe('');   // the last sentence decoded stays
    driver.stop();
    expect(w.closed).toBe(true);
    expect(driver.decode('the boy runs')).toBe(false);
  });
});

describe('trained for real (Node, the service on the page)', () => {
  test('the transformer reaches its target; its cache grows one row a step; both ways agree; a typed sentence decodes, an unknown word is refused', async () => {
    const run = emptyRun();
    const refused = [];
    let driver;
    await new Promise((resolve, reject) => {
      driver = decodingRuns({ engine, onUpdate: () => {}, onDone: resolve, onFailed: reject, onRefused: (m) => refused.push(m) });
      driver.start({ seed: 1, model: 'transformer' }, run);
    });
    expect(run.reason).toBe('target');
    expect(run.evaluation.generatedAccuracy).toBeGreaterThanOrEqual(0.85);
    const { generation, recomputed, timing } = run.decoded;
    expect(generation.steps.map((s) => s.cacheLength)).toEqual(generation.steps.map((_, i) => i + 1));
    expect(sameTokens(generation, recomputed)).toBe(true);
    expect(largestWeightDifference(generation, recomputed)).toBeLessThan(1e-4);
    expect(timing.cache).toHaveLength(ROUNDS);
    expect(costOf(timing).ratio).toBeGreaterThan(0);
    expect(summarize(run).map((p) => p.key).slice(0, 2)).toEqual(['summary.training.reached', 'summary.cache.grows']);

    const typed = 'a happy girl quickly ate the sweet cake in the garden';
    driver.decode(typed);
    await new Promise((resolve) => { const wait = () => (run.decoded.sentence === typed && run.decoded.timing ? resolve() : setTimeout(wait, 20)); wait(); });
    expect(run.decoded.generation.source.join(' ')).toBe(typed);
    driver.decode('the dog runs');
    await new Promise((resolve) => { const wait = () => (refused.length ? resolve() : setTimeout(wait, 20)); wait(); });
    expect(refused[0]).toMatch(/unknown word "dog"/);
    driver.stop();
  }, 120000);
});

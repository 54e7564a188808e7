// Section "family-trained": the variants the settings make (each run's
// options), runs followed through what they report, the sentences chosen from
// the numbers of runs that come out each way (in both languages), the URL
// codec, and two short runs trained for real through the section's runs (the
// training pool on the page, where no worker starts in Node).
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { openWorker } from '../../web/src/worker/bridge.js';
import { trainingPool } from '../../web/src/training/training-pool.js';
import {
  DEFAULTS, MAX_STEPS, MAX_VARIANTS, REVERSE_LENGTH, TARGET, applyEvent, describeRuns, emptyRuns, isDone, probeAlignment,
  runsOf, settingsProblem, summarize, variantsOf,
} from '../../web/src/sections/family-trained/state.js';
import { familyRuns } from '../../web/src/sections/family-trained/runs.js';
import params from '../../web/src/sections/family-trained/params.js';
import { decodeSection, encodeSection } from '../../web/src/lib/params.js';
import { translator } from '../../web/src/i18n/lookup.js';
import en from '../../web/src/i18n/en/family-trained.js';
import ko from '../../web/src/i18n/ko/family-trained.js';
import { formatPercent } from '../../web/src/lib/format.js';

const T = { en: translator(en), ko: translator(ko) };

// A probe reading of `rows` aligned rows whose strongest source is the
// reference (on), one right of it (right) or one left (left), in that order;
// local-p positions at `positions` when given. Reference of row t: t + 1.
function reading({ on = 0, right = 0, left = 0, positions = null }) {
  const kinds = [...Array(on).fill(0), ...Array(right).fill(1), ...Array(left).fill(-1)];
  const reference = kinds.map((_, t) => t + 1);
  const r = { reference, strongestSources: kinds.map((k, t) => t + 1 + k), layers: [{ kind: 'cross', rows: kinds.length, cols: kinds.length + 2 }] };
  if (positions) r.layers[0].positions = positions;
  return r;
}

// Finished runs of `settings`: for each variant id, when it reached the target
// (null: never), its final accuracy, its agreement and its probe reading.
function finished(settings, outcomes) {
  const state = emptyRuns(settings);
  for (const id of state.order) {
    const { reached = 200, accuracy = 0.97, agreement = 0.95, probe = reading({ on: 6 }) } = outcomes[id] ?? {};
    const last = reached ?? MAX_STEPS;
    applyEvent(state, { type: 'started', id, points: [{ step: 0, loss: null, generatedAccuracy: 0.05 }] });
    applyEvent(state, { type: 'progress', id, step: last, points: [{ step: last, loss: 0.1, generatedAccuracy: reached === null ? Math.min(accuracy, TARGET - 0.01) : Math.max(accuracy, TARGET) }] });
    applyEvent(state, { type: 'done', id, step: last, reason: reached === null ? 'until' : 'target' });
    applyEvent(state, { type: 'final', id, evaluation: { generatedAccuracy: accuracy }, agreement: { agreement }, probe });
  }
  return state;
}
const keys = (state) => summarize(state).map((p) => p.key);
const text = (lang, state) => describeRuns(T[lang], state).join(' ');

describe('the variants the settings make', () => {
  test('by default Bahdanau\'s and Luong\'s three scores, global, with input feeding: four runs of the same seed', () => {
    const runs = runsOf(DEFAULTS);
    expect(runs.map((r) => r.id)).toEqual(['bahdanau', 'luong-dot-global-feed', 'luong-general-global-feed', 'luong-concat-global-feed']);
    expect(runs[0].options).toMatchObject({ task: 'translate', seed: 1, model: 'bahdanau' });
    expect(runs[0].options).not.toHaveProperty('score');
    expect(runs[2].options).toMatchObject({ model: 'luong', score: 'general', window: 'global', inputFeeding: true });
    for (const run of runs) {
      expect(run.play).toMatchObject({ until: MAX_STEPS, target: { metric: 'generatedAccuracy', atLeast: TARGET }, probe: true });
      expect(run.cost).toBeGreaterThan(0);
    }
  });

  test('both windows and both feedings of one score make four; reversal sets the length; too many or none are refused', () => {
    const settings = { ...DEFAULTS, task: 'reverse', scores: ['general'], window: 'both', feeding: 'both' };
    expect(variantsOf(settings).map((v) => v.id)).toEqual(['luong-general-global-feed', 'luong-general-global-nofeed', 'luong-general-local-feed', 'luong-general-local-nofeed']);
    expect(runsOf(settings)[3].options).toMatchObject({ task: 'reverse', sourceLength: REVERSE_LENGTH, window: 'local', inputFeeding: false });
    expect(settingsProblem(settings)).toBeNull();
    const five = { ...settings, scores: ['bahdanau', 'general'] };
    expect(variantsOf(five)).toHaveLength(5);
    expect(settingsProblem(five)).toEqual({ key: 'controls.tooMany', params: { count: 5, max: MAX_VARIANTS } });
    expect(settingsProblem({ ...settings, scores: [] })).toEqual({ key: 'controls.none', params: {} });
  });
});

describe('runs followed through their reports', () => {
  test('a run waits, trains, is measured, and keeps its first step at the target (not step 0)', () => {
    const state = emptyRuns(DEFAULTS);
    const id = 'bahdanau';
    expect(state.runs[id]).toMatchObject({ status: 'waiting', reachedAt: null });
    applyEvent(state, { type: 'started', id, points: [{ step: 0, generatedAccuracy: 0.99 }] });
    expect(state.runs[id]).toMatchObject({ status: 'training', reachedAt: null });
    applyEvent(state, { type: 'progress', id, step: 50, points: [{ step: 25, generatedAccuracy: 0.4 }, { step: 50, generatedAccuracy: 0.96 }] });
    applyEvent(state, { type: 'progress', id, step: 75, points: [{ step: 75, generatedAccuracy: 0.98 }] });
    expect(state.runs[id]).toMatchObject({ step: 75, reachedAt: 50 });
    applyEvent(state, { type: 'done', id, step: 75, reason: 'target' });
    expect(state.runs[id].status).toBe('evaluating');
    applyEvent(state, { type: 'final', id, evaluation: { generatedAccuracy: 0.97 }, agreement: { agreement: 0.9 }, probe: reading({ on: 3 }) });
    expect(state.runs[id]).toMatchObject({ status: 'done', final: { generatedAccuracy: 0.97 }, agreement: { agreement: 0.9 } });
    expect(isDone(state)).toBe(false);
    expect(applyEvent(state, { type: 'final', id: 'nope' })).toBe(state);
  });

  test('the probe\'s rows are counted on the reference, one right, one left; local-p positions within D of it', () => {
    expect(probeAlignment(reading({ on: 2, right: 3, left: 1 }))).toEqual({ aligned: 6, on: 2, right: 3, left: 1, inWindow: null });
    // References 1, 2, 3; positions 1.5 (in), 5 (out: 3 from 2), 1 (out: 2 from 3 is in: |1-3| = 2 <= D).
    expect(probeAlignment(reading({ on: 3 }), [1.5, 5, 1]).inWindow).toBe(2);
  });
});

describe('the sentences follow the numbers, whichever way the runs came out', () => {
  test('translate, every variant reaches the target: the fastest and the slowest, where they look, the probe', () => {
    const state = finished(DEFAULTS, {
      bahdanau: { reached: 275, agreement: 0.945, probe: reading({ on: 8 }) },
      'luong-dot-global-feed': { reached: 400, agreement: 0.939, probe: reading({ on: 7, right: 1 }) },
      'luong-general-global-feed': { reached: 450, agreement: 0.956, probe: reading({ on: 8 }) },
      'luong-concat-global-feed': { reached: 375, agreement: 0.951, probe: reading({ on: 6, left: 2 }) },
    });
    expect(isDone(state)).toBe(true);
    expect(keys(state)).toEqual(['summary.reach.all', 'summary.alignment.translate', 'summary.probe.translate']);
    const english = text('en', state);
    expect(english).toContain('All 4 variants reached 95% on the held-out part: Bahdanau first, at step 275; Luong general · global · feeding last, at step 450.');
    expect(english).toContain('for 93.9% (Luong dot · global · feeding) to 95.6% (Luong general · global · feeding)');
    expect(english).toContain('sits on its source word in 29 of 32 rows, one word right of it in 1, one word left in 2');
    const korean = text('ko', state);
    expect(korean).toContain('변형 4개가 모두 평가용 앞부분에서 95%에 이르렀습니다. 가장 먼저 이른 것은 Bahdanau(275단계), 가장 늦게 이른 것은 Luong general · global · 피딩 켬(450단계)');
    expect(korean).toContain('93.9%(Luong dot · global · 피딩 켬)에서 95.6%(Luong general · global · 피딩 켬)까지');
    expect(korean).toContain('32행 중 29행, 한 단어 오른쪽은 1행, 한 단어 왼쪽은 2행');
  });

  test('reversal where Luong attends one right of the anti-diagonal: the text says so, with the counts of the maps', () => {
    const settings = { ...DEFAULTS, task: 'reverse', scores: ['bahdanau', 'dot'] };
    const state = finished(settings, {
      bahdanau: { reached: 150, agreement: 0.93, probe: reading({ on: 8 }) },
      'luong-dot-global-feed': { reached: 650, agreement: 0.12, accuracy: 0.95, probe: reading({ on: 1, right: 7 }) },
    });
    expect(keys(state)).toEqual(['summary.reach.all', 'summary.alignment.reverse', 'summary.elsewhere', 'summary.probe.reverse', 'summary.shifted.reverse']);
    const english = text('en', state);
    expect(english).toContain('on the digit being copied (the anti-diagonal) in 9 of 16 rows, one position right of it (the digit written just before) in 7');
    expect(english).toContain('most of the largest weights of Luong dot · global · feeding sit one position right of the reference');
    expect(english).toContain('Right without looking where the reference does: Luong dot · global · feeding wrote at least 90% of the output right');
    const korean = text('ko', state);
    expect(korean).toContain('옮겨 쓸 숫자(반대쪽 대각선)에 놓인 행은 16행 중 9행, 그 한 칸 오른쪽(바로 전에 쓴 숫자)은 7행');
    expect(korean).toContain('Luong dot · global · 피딩 켬의 가장 큰 가중치는 대부분 기준보다 한 칸 오른쪽');
    expect(korean).toContain('Luong dot · global · 피딩 켬은 출력의 90% 이상');
  });

  test('reversal on the anti-diagonal: no sentence of a shift, and none of looking elsewhere', () => {
    const state = finished({ ...DEFAULTS, task: 'reverse', scores: ['general'] }, { 'luong-general-global-feed': { reached: 350, probe: reading({ on: 8 }) } });
    expect(keys(state)).toEqual(['summary.reach.one', 'summary.alignment.one.reverse', 'summary.probe.one.reverse']);
    expect(text('en', state)).toContain('Luong general · global · feeding reached 95% on the held-out part at step 350.');
    // One variant: its own share, not a range from it to itself; its map, not "all 1 variants".
    const share = formatPercent(state.runs['luong-general-global-feed'].agreement.agreement, 1);
    expect(text('en', state)).toContain(`the digit it copies for ${share} of them.`);
    expect(text('ko', state)).toContain(`소스 숫자에 놓인 비율은 ${share}입니다.`);
    expect(text('en', state)).toContain('In the probe’s map, the largest weight sits on the digit being copied');
    expect(text('en', state)).not.toMatch(/ to \d|all 1 variants/);
    expect(text('ko', state)).not.toContain('변형 1개를 통틀어');
    expect(text('ko', state)).toContain('Luong general · global · 피딩 켬은 350단계에');
    expect(text('en', state)).toContain('in 8 of 8 rows, one position right of it (the digit written just before) in 0');
  });

  test('windows and feedings side by side, some missing the target: who missed, the pairs, the local window', () => {
    const settings = { ...DEFAULTS, scores: ['dot'], window: 'both', feeding: 'both' };
    const state = finished(settings, {
      'luong-dot-global-feed': { reached: 400 },
      'luong-dot-global-nofeed': { reached: 500 },
      'luong-dot-local-feed': { reached: null, accuracy: 0.66, agreement: 0.23, probe: reading({ on: 1, right: 3, positions: [1, 2, 9, 9] }) },
      'luong-dot-local-nofeed': { reached: 725, probe: reading({ on: 4, positions: [1, 2, 3, 4] }) },
    });
    expect(keys(state)).toEqual(['summary.reach.some', 'summary.alignment.translate', 'summary.probe.translate', 'summary.shifted.translate', 'summary.local.translate', 'summary.pairs.feeding', 'summary.pairs.window']);
    const english = text('en', state);
    expect(english).toContain('3 of 4 variants reached 95% on the held-out part within 1000 steps; Luong dot · local-p · feeding did not (the lowest held-out accuracy among them: 66.0%)');
    expect(english).toContain('most of the largest weights of Luong dot · local-p · feeding sit one word right of the reference’s word');
    expect(english).toContain('centred within 2 positions of the reference’s word for 6 of 8 words');
    expect(english).toContain('with input feeding against without: dot 400 against 500; dot not within 1000 against 725.');
    expect(english).toContain('global against local-p: dot 400 against not within 1000; dot 500 against 725.');
    const korean = text('ko', state);
    expect(korean).toContain('변형 4개 중 3개가 1000단계 안에');
    expect(korean).toContain('Luong dot · local-p · 피딩 켬은 이르지 못했습니다(그중 가장 낮은 평가 정확도: 66.0%)');
    expect(korean).toContain('입력 피딩을 켰을 때 대 껐을 때: dot: 400 대 500; dot: 1000단계 안에 못 이룸 대 725.');
    expect(korean).toContain('단어 8개 중 6개에서');
  });

  test('none reaches the target', () => {
    const state = finished({ ...DEFAULTS, scores: ['concat'] }, { 'luong-concat-global-feed': { reached: null, accuracy: 0.5 } });
    expect(keys(state)[0]).toBe('summary.reach.none');
    expect(text('en', state)).toContain('None of the 1 variants reached 95% on the held-out part within 1000 steps (the lowest held-out accuracy: 50.0%)');
    expect(text('ko', state)).toContain('어느 것도 1000단계 안에');
  });
});

describe('the URL codec', () => {
  test('the settings read back; the defaults make an empty link; a link making too many variants is rejected by name', () => {
    const state = { task: 'reverse', seed: 9, scores: ['bahdanau', 'concat'], window: 'local', feeding: 'both' };
    const pairs = encodeSection(params, state);
    expect(pairs).toEqual([['task', 'reverse'], ['seed', '9'], ['models', 'bahdanau,concat'], ['window', 'local'], ['feeding', 'both']]);
    expect(decodeSection(params, (name) => pairs.find(([k]) => k === name)?.[1] ?? null).state).toEqual(state);
    expect(encodeSection(params, params.defaults())).toEqual([]);
    const many = decodeSection(params, (name) => ({ window: 'both', feeding: 'both' })[name] ?? null);
    expect(many.rejected.sort()).toEqual(['feeding', 'models', 'window']);
    expect(many.state).toEqual(params.defaults());
    expect(decodeSection(params, (name) => (name === 'models' ? 'general,general' : null)).rejected).toEqual(['models']);
    expect(decodeSection(params, (name) => (name === 'models' ? 'bahdanau,transformer' : null)).rejected).toEqual(['models']);
  });
});

describe('runs trained for real (the training pool on the page, as where no worker starts)', () => {
  let engine;
  beforeAll(async () => { engine = await createAttention({ learning: true }); });

  test('each variant reports its start, its points, its end, then its evaluation, agreement and probe', async () => {
    const open = (service, options) => openWorker(service, { ...options, createWorker: () => { throw new Error('no worker in Node'); } });
    const settings = { ...DEFAULTS, seed: 3, scores: ['bahdanau', 'general'] };
    const state = emptyRuns(settings);
    const events = [];
    const plan = runsOf(settings);
    await new Promise((resolve, reject) => {
      const runs = familyRuns({
        engine,
        pool: (options) => {
          const pool = trainingPool({ ...options, open });
          // Twenty steps each, a point every ten: short, and still the section's own finish.
          return { ...pool, train: (list, handlers) => pool.train(list.map((r) => ({ ...r, play: { ...r.play, until: 20, evaluateEvery: 10 } })), handlers), request: pool.request, dispose: pool.dispose, close: pool.close };
        },
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'error') reject(new Error(event.message));
          else if (event.type === 'finished') resolve(event);
          else applyEvent(state, event);
        },
      });
      runs.start(settings);
    });
    expect(isDone(state)).toBe(true);
    for (const run of plan) {
      const mine = state.runs[run.id];
      expect(mine.points.map((p) => p.step)).toEqual([0, 10, 20]);
      // The final figures are those of a trainer of the same options after the same steps.
      const trainer = engine.createTrainer({ ...run.options, longRunning: true });
      trainer.step(20);
      expect(mine.final.generatedAccuracy).toBeCloseTo(trainer.evaluate().generatedAccuracy, 6);
      expect(mine.agreement.agreement).toBeCloseTo(trainer.alignmentAgreement(128).agreement, 6);
      expect(mine.probe.strongestSources).toEqual(trainer.probe().strongestSources);
      trainer.dispose();
    }
    // The sentences can be said of a real run, in both languages, with nothing left unfilled.
    for (const lang of ['en', 'ko']) {
      const said = text(lang, state);
      expect(said).not.toMatch(/[{}\u27e6]/);
      expect(said.length).toBeGreaterThan(100);
    }
    expect(events.at(-1).type).toBe('finished');
  });
});

// Section 2 (#scaling): the three sqrt(d_k) experiments, run by the real engine.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import {
  DEFAULTS, createScaling, gradientRatio, runSweep, runTenKeys, runTrials, scaledLogitStd,
} from '../../web/src/sections/scaling/state.js';
import { formatMs, formatShare, sweepSeries, sweepTableRows } from '../../web/src/sections/scaling/format.js';
import { createExperimentPool, mergeSweep, splitSweep } from '../../web/src/sections/scaling/experiment-pool.js';
import { createService } from '../../web/src/sections/scaling/experiment-service.js';
import { openWorker } from '../../web/src/worker/bridge.js';
import { serve } from '../../web/src/worker/serve.js';
import { sweepIntro, trialsIntro } from '../../web/src/sections/scaling/intros.js';
import { translator } from '../../web/src/i18n/lookup.js';
import enScaling from '../../web/src/i18n/en/scaling.js';
import koScaling from '../../web/src/i18n/ko/scaling.js';

let engine;
beforeAll(async () => { engine = await createAttention(); });

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

describe('experiment 1: one query, ten keys', () => {
  test('d_k = 512: the raw weights are almost one-hot, the scaled ones are shared', () => {
    const r = runTenKeys(engine, DEFAULTS.tenKeys);
    expect(r.raw.weights).toHaveLength(10);
    expect(sum(r.raw.weights)).toBeCloseTo(1, 5);
    expect(sum(r.scaled.weights)).toBeCloseTo(1, 5);
    expect(r.raw.stats.maxWeight).toBeGreaterThan(0.99);
    expect(r.scaled.stats.maxWeight).toBeLessThan(r.raw.stats.maxWeight);
    expect(r.scaled.stats.entropy).toBeGreaterThan(r.raw.stats.entropy + 0.5);
    expect(r.scale).toBeCloseTo(1 / Math.sqrt(512), 6);
    // the scaled scores are the raw ones times 1/sqrt(d_k)
    r.scores.forEach((s, j) => expect(r.scaledScores[j]).toBeCloseTo(s * r.scale, 4));
  });

  test('reproducible from a seed, different for another seed', () => {
    const a = runTenKeys(engine, { seed: 7, dk: 512, keys: 10 });
    const b = runTenKeys(engine, { seed: 7, dk: 512, keys: 10 });
    const c = runTenKeys(engine, { seed: 8, dk: 512, keys: 10 });
    expect(b.scores).toEqual(a.scores);
    expect(b.scaled.weights).toEqual(a.scaled.weights);
    expect(c.scores).not.toEqual(a.scores);
  });
});

describe('experiment 2: many trials', () => {
  test('d_k = 64, 8 keys, 5000 trials: raw saturates, scaled does not', () => {
    const r = runTrials(engine, DEFAULTS.trials);
    expect(r.trials).toBe(5000);
    expect(r.maxWeight.raw).toBeGreaterThan(0.8);
    expect(r.maxWeight.scaled).toBeLessThan(0.45);
    expect(r.saturatedShare.raw).toBeGreaterThan(0.3);
    expect(r.saturatedShare.scaled).toBe(0);
    expect(r.gradient.scaled / r.gradient.raw).toBeGreaterThan(3);
  });

  test('reproducible from a seed, different for another seed', () => {
    const settings = { seed: 3, dk: 64, keys: 8, trials: 500 };
    const a = runTrials(engine, settings);
    const b = runTrials(engine, settings);
    const c = runTrials(engine, { ...settings, seed: 4 });
    for (const stat of ['maxWeight', 'entropy', 'gradient', 'saturatedShare']) expect(b[stat]).toEqual(a[stat]);
    expect(c.maxWeight.raw).not.toBe(a.maxWeight.raw);
  });
});

describe('experiment 3: the sweep over d', () => {
  let sweep;
  beforeAll(() => { sweep = runSweep(engine, DEFAULTS.sweep); });

  test('the logit std follows sqrt(d); divided by sqrt(d) it is about 1', () => {
    for (const row of sweep.rows) {
      expect(row.logitStd / Math.sqrt(row.dk)).toBeGreaterThan(0.9);
      expect(row.logitStd / Math.sqrt(row.dk)).toBeLessThan(1.1);
    }
  });

  test('the logit std and the scaled column, recomputed here from the same draws', () => {
    // saturation() draws, per trial, Q (queries x d) then K (keys x d) from one
    // Rng(seed): the stream randomNormal gives for trials * (queries + keys) rows.
    const { seed, queries, keys, trials } = sweep;
    const std = (sum, squares, count) => Math.sqrt(squares / count - (sum / count) ** 2);
    for (const row of sweep.rows) {
      const d = row.dk;
      const draws = engine.randomNormal({ seed, rows: trials * (queries + keys), cols: d });
      let [sum, squares, scaledSum, scaledSquares] = [0, 0, 0, 0];
      for (let t = 0; t < trials; t++) {
        const q = draws.subarray(t * (queries + keys) * d);
        const k = q.subarray(queries * d);
        for (let i = 0; i < queries; i++) {
          for (let j = 0; j < keys; j++) {
            let logit = 0;
            for (let c = 0; c < d; c++) logit += q[i * d + c] * k[j * d + c];
            const scaled = logit / Math.sqrt(d);
            sum += logit;
            squares += logit * logit;
            scaledSum += scaled;
            scaledSquares += scaled * scaled;
          }
        }
      }
      const count = trials * queries * keys;
      expect(row.logitStd / std(sum, squares, count), `d = ${d}`).toBeCloseTo(1, 9);
      expect(scaledLogitStd(row) / std(scaledSum, scaledSquares, count), `d = ${d}`).toBeCloseTo(1, 9);
    }
  });

  test('the scaled entropy is nearly constant across d; the raw one falls', () => {
    const scaled = sweep.rows.map((r) => r.entropy.scaled);
    expect(Math.max(...scaled) - Math.min(...scaled)).toBeLessThan(0.1);
    const raw = sweep.rows.map((r) => r.entropy.raw);
    for (let i = 1; i < raw.length; i++) expect(raw[i]).toBeLessThan(raw[i - 1]);
    expect(raw[raw.length - 1]).toBeLessThan(0.2);
    // every entropy is below the uniform row's ln 8, computed by the engine
    expect(sweep.uniform.entropy).toBeCloseTo(Math.log(8), 6);
    expect(sweep.uniform.jacobianTrace).toBeCloseTo(7 / 8, 6);
    for (const r of sweep.rows) expect(r.entropy.scaled).toBeLessThan(sweep.uniform.entropy);
  });

  test('the gradient signal collapses without the division', () => {
    expect(gradientRatio(sweep)).toBeGreaterThan(10);
    const scaled = sweep.rows.map((r) => r.gradient.scaled);
    expect(Math.max(...scaled) - Math.min(...scaled)).toBeLessThan(0.05);
  });

  test('reproducible from a seed, different for another seed', () => {
    const small = { ...DEFAULTS.sweep, trials: 20 };
    const a = runSweep(engine, { ...small, seed: 11 });
    const b = runSweep(engine, { ...small, seed: 11 });
    const c = runSweep(engine, { ...small, seed: 12 });
    expect(b.rows).toEqual(a.rows);
    expect(c.rows[0].maxWeight.raw).not.toBe(a.rows[0].maxWeight.raw);
  });

  test('split over workers and merged, the sweep is identical to one run', () => {
    const settings = { ...DEFAULTS.sweep, trials: 20, seed: 5 };
    const parts = splitSweep(settings, 2);
    expect(parts).toHaveLength(2);
    expect(parts.flatMap((p) => p.dims).sort((x, y) => x - y)).toEqual(settings.dims);
    expect(parts[0].dims).toContain(1024);  // the largest dimension gets a worker of its own
    expect(parts[0].dims).toHaveLength(1);
    const merged = mergeSweep(settings, parts.map((p) => runSweep(engine, p)));
    expect(merged.rows).toEqual(runSweep(engine, settings).rows);
    expect(merged.dims).toEqual(settings.dims);
  });
});

describe('the pool of experiment workers (the worker bridge)', () => {
  const strip = ({ ms, wallMs, ...rest }) => rest;
  const settings = { ...DEFAULTS.sweep, trials: 20, seed: 5 };

  test('two workers: the sweep is split between them, and the merged result is one run\'s, from the build without SIMD', async () => {
    const asked = [];
    // Each "worker": the experiments service on the far end of a MessageChannel, with the engine it loads itself.
    const channelWorker = () => {
      const { port1, port2 } = new MessageChannel();
      const server = serve(port2, createService(), {});
      port2.postMessage({ ready: true });
      port1.start();
      return {
        addEventListener: (type, fn) => { if (type === 'message') port1.addEventListener('message', fn); },
        postMessage: (m) => { asked.push(m.payload?.dims); port1.postMessage(m); },
        terminate: () => { server.close(); port1.close(); port2.close(); },
      };
    };
    const pool = createExperimentPool({ size: 2, open: (service, o) => openWorker(service, { ...o, createWorker: channelWorker }) });
    const result = await pool.run('sweep', settings);
    expect(pool.inBackground).toBe(true);
    expect(asked).toEqual(splitSweep(settings, 2).map((p) => p.dims));
    expect(result.build).toBe('baseline');
    expect(result.wallMs).toBeGreaterThan(0);
    expect(strip(result)).toEqual(strip({ ...runSweep(engine, settings), build: 'baseline' }));
    pool.destroy();
  });

  test('no worker can start: each experiment runs whole on the page, with the page\'s engine, and gives the same numbers', async () => {
    const onPage = (service, o) => openWorker(service, { ...o, createWorker: () => { throw new Error('no worker'); } });
    const pool = createExperimentPool({ size: 2, engine, open: onPage });
    const result = await pool.run('sweep', settings);
    expect(pool.inBackground).toBe(false);
    expect(strip(result)).toEqual(strip({ ...runSweep(engine, settings), build: engine.build }));
    const trials = await pool.run('trials', { seed: 3, dk: 16, keys: 8, trials: 100 });
    expect(strip(trials)).toEqual(strip({ ...runTrials(engine, { seed: 3, dk: 16, keys: 8, trials: 100 }), build: engine.build }));
    pool.destroy();
  });
});

describe('the SIMD and the baseline build give the same statistics (the workers use the baseline)', () => {
  test('trials and the sweep: bit-identical in both builds; ten keys: the same draws', async () => {
    const [simd, baseline] = await Promise.all([createAttention({ build: 'simd' }), createAttention({ build: 'baseline' })]);
    const trials = { seed: 9, dk: 64, keys: 8, trials: 300 };
    const strip = ({ ms, ...rest }) => rest;
    expect(strip(runTrials(baseline, trials))).toEqual(strip(runTrials(simd, trials)));
    const sweep = { ...DEFAULTS.sweep, trials: 10, seed: 4 };
    expect(runSweep(baseline, sweep).rows).toEqual(runSweep(simd, sweep).rows);
    // Experiment 1 runs on the page's engine: the same draws in both builds, and
    // float32 dot products that differ only in the order of the additions.
    expect(Array.from(baseline.randomNormal({ seed: 2, rows: 11, cols: 512 })))
      .toEqual(Array.from(simd.randomNormal({ seed: 2, rows: 11, cols: 512 })));
    const a = runTenKeys(baseline, { seed: 2, dk: 512, keys: 10 }).scores;
    const b = runTenKeys(simd, { seed: 2, dk: 512, keys: 10 }).scores;
    a.forEach((x, j) => expect(Math.abs(x - b[j])).toBeLessThan(1e-3));
  });
});

describe('the model and the formatting', () => {
  test('createScaling keeps settings and results per experiment', () => {
    const model = createScaling(engine, { ...DEFAULTS, sweep: { ...DEFAULTS.sweep, trials: 10 } });
    const first = model.results.tenKeys;
    expect(first.scores).toEqual(runTenKeys(engine, DEFAULTS.tenKeys).scores);
    model.set('trials', { seed: 7 });   // runs in a worker: experiment 1 is not recomputed
    expect(model.settings.trials.seed).toBe(7);
    expect(model.results.tenKeys).toBe(first);
    model.set('tenKeys', { seed: 99 });
    expect(model.settings.tenKeys.seed).toBe(99);
    expect(model.results.tenKeys.scores).toEqual(runTenKeys(engine, { ...DEFAULTS.tenKeys, seed: 99 }).scores);
    expect(model.results.tenKeys.scores).not.toEqual(first.scores);
  });

  test('the sweep table rows', () => {
    const rows = sweepTableRows(runSweep(engine, { ...DEFAULTS.sweep, trials: 10 }));
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r[0])).toEqual(['4', '16', '64', '256', '1024']);
    for (const r of rows) {
      expect(r).toHaveLength(9);
      expect(r[1]).toMatch(/^\d+\.\d{2}$/);     // logit std, 2 decimals
      expect(r[2]).toMatch(/^\d\.\d{3}$/);      // scaled std, 3 decimals
      expect(r[7]).toMatch(/^0\.\d{4}$/);       // sum p(1-p), 4 decimals
    }
    const series = sweepSeries(runSweep(engine, { ...DEFAULTS.sweep, trials: 10 }));
    expect(series.entropy.raw.map((p) => p[0])).toEqual([4, 16, 64, 256, 1024]);
  });

  test('shares and milliseconds', () => {
    expect(formatShare(0.379)).toBe('37.9%');
    expect(formatShare(0)).toBe('0.0%');
    expect(formatMs(0.4234)).toBe('0.42');
    expect(formatMs(7.34)).toBe('7.3');
    expect(formatMs(118.4)).toBe('118');
  });
});

describe('the intros name the settings the controls hold', () => {
  const strings = { en: enScaling, ko: koScaling };
  test.each(['en', 'ko'])('%s: experiment 2 with d_k = 256 and 1,000 trials, experiment 3 with 50 trials', (lang) => {
    const t = translator(strings[lang], {});
    const model = createScaling(engine);
    model.set('trials', { dk: 256, trials: 1000 });
    model.set('sweep', { trials: 50 });
    const trials = t('trials.intro', trialsIntro(model.settings.trials, lang));
    expect(trials).toContain('$d_k$ = 256');
    expect(trials).toMatch(lang === 'en' ? /each of 1,000 trials/ : /1,000번 되풀이/);
    expect(t('sweep.intro', sweepIntro(model.settings.sweep, lang))).toMatch(lang === 'en' ? /; 50 trials are averaged/ : /50회 시행을 평균합니다/);
    // The defaults read as the articles' settings.
    expect(t('trials.intro', trialsIntro(DEFAULTS.trials, lang))).toMatch(lang === 'en' ? /\$d_k\$ = 64, eight keys, a fresh query and fresh keys in each of 5,000 trials/ : /\$d_k\$ = 64, 키 여덟 개로, 시행마다 쿼리와 키를 새로 뽑아 5,000번/);
    expect(t('sweep.intro', sweepIntro(DEFAULTS.sweep, lang))).toMatch(lang === 'en' ? /200 trials are averaged/ : /200회 시행을 평균합니다/);
  });
});

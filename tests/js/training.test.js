// Training on the page (web/src/training/): the pace of a run, the service
// that drives a trainer by requests (what runs in the worker), with the real
// engine in Node, and a run over the worker bridge on the page, where no
// worker starts.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { FRAME_MS, RAMP, batchLimit, evaluatesAt, pacedSteps } from '../../web/src/training/pace.js';
import { createService, reaches } from '../../web/src/training/training-service.js';
import { dealRuns, trainingPool } from '../../web/src/training/training-pool.js';
import { trainingRun } from '../../web/src/training/training-run.js';
import { openWorker } from '../../web/src/worker/bridge.js';

let engine;
beforeAll(async () => { engine = await createAttention({ learning: true }); });

// The service, called as the bridge calls it (src/worker/serve.js): each
// request with its own context. Its slices wait until `drain()` runs them (no
// timers), and its clock is a counter: each now() call moves it by `tick` ms.
const settle = () => new Promise((resolve) => setImmediate(resolve));
function serviceForTest({ tick = 0.001, sliceMs = 20 } = {}) {
  const due = [];
  const delays = [];
  const progress = [];
  let clock = 0;
  const service = createService({ engine, now: () => (clock += tick) });
  return {
    progress,
    delays,
    // -> { reply (a promise), cancel() }
    call(name, payload) {
      const controller = new AbortController();
      const reply = service[name](payload, {
        progress: (p) => progress.push(p), signal: controller.signal, sliceMs,
        nextSlice: (ms) => new Promise((resolve) => { due.push(resolve); delays.push(ms); }),
      });
      return { reply, cancel: () => controller.abort() };
    },
    ask: (name, payload) => service[name](payload, {}),
    // Runs waiting slices until none is left or `limit` have run; -> how many ran.
    async drain(limit = Infinity) {
      await settle();
      let ran = 0;
      while (due.length && ran < limit) {
        due.shift()();
        ran += 1;
        await settle();
      }
      return ran;
    },
  };
}

describe('pace', () => {
  test('paced: one step per message at first, then about 1/RAMP of the steps taken', () => {
    expect(pacedSteps(0)).toBe(1);
    expect(pacedSteps(RAMP)).toBe(1);
    expect(pacedSteps(RAMP + 1)).toBe(2);
    expect(pacedSteps(100 * RAMP)).toBe(100);
    // From step 0, the schedule the comment in pace.js states: step 12 after 12 messages, 100 after about 40.
    let step = 0;
    let messages = 0;
    const reached = {};
    while (step < 1000) {
      step += pacedSteps(step);
      messages += 1;
      for (const mark of [12, 100, 1000]) if (step >= mark && !(mark in reached)) reached[mark] = messages;
    }
    expect(reached[12]).toBe(12);
    expect(reached[100] * FRAME_MS).toBeLessThan(1500);
    expect(reached[1000] * FRAME_MS).toBeLessThan(2500);
  });
  test('a batch stops at `until`; unpaced, only time limits it', () => {
    expect(batchLimit(0, { paced: false })).toBe(Infinity);
    expect(batchLimit(95, { paced: false, until: 100 })).toBe(5);
    expect(batchLimit(100, { paced: false, until: 100 })).toBe(0);
    expect(batchLimit(500, { paced: true, until: 510 })).toBe(10);
    expect(batchLimit(500, { paced: true, until: 1000 })).toBe(Math.ceil(500 / RAMP));
  });
  test('points at every multiple of evaluateEvery and at until', () => {
    expect([1, 9, 10, 11, 20].filter((s) => evaluatesAt(s, { evaluateEvery: 10, until: 25 }))).toEqual([10, 20]);
    expect(evaluatesAt(25, { evaluateEvery: 10, until: 25 })).toBe(true);
    expect(evaluatesAt(7, { until: 25 })).toBe(false);
  });
});

describe('the training service (what runs in the worker) with the real engine', () => {
  test('start: the untrained model, its options with the defaults filled in, a point at step 0 and the probe', async () => {
    const t = serviceForTest();
    const started = await t.ask('start', { id: 'a', options: { task: 'reverse', seed: 1 } });
    expect(started.id).toBe('a');
    expect(started.step).toBe(0);
    expect(started.trainer.options).toMatchObject({ task: 'reverse', seed: 1, heads: 2, dModel: 32, scale: true });
    expect(started.trainer.alignment).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    expect(started.points).toHaveLength(1);
    expect(started.points[0]).toMatchObject({ step: 0, loss: null });
    expect(started.points[0].accuracy).toBeGreaterThanOrEqual(0);
    expect(started.points[0].accuracy).toBeLessThan(0.5);   // chance is 1/10
    expect(started.probe.source).toHaveLength(8);
    expect(started.probe.weights).toHaveLength(64);
  });

  test('play, paced: one step per batch at first; the points are the trainer\'s own numbers (same seed, same losses)', async () => {
    const t = serviceForTest();
    await t.ask('start', { id: 'a', options: { task: 'reverse', seed: 3 } });
    const play = t.call('play', { id: 'a', paced: true, until: 20 });
    await t.drain();
    const progress = t.progress;
    // steps per batch: max(1, ceil(step / 12)), the last batch cut at `until`
    expect(progress.map((m) => m.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 17, 19, 20]);
    expect(progress.every((m) => m.points.length === 1 && m.probe)).toBe(true);
    expect(progress.at(-1).playing).toBe(false);
    expect(await play.reply).toEqual({ id: 'a', step: 20, reason: 'until', point: progress.at(-1).points[0] });
    // The first batch at once; each paced batch after waits out the rest of its frame.
    expect(t.delays[0]).toBe(0);
    expect(t.delays.slice(1).every((ms) => ms > FRAME_MS - 1 && ms <= FRAME_MS)).toBe(true);
    // The same trainer stepped by hand gives the same losses, bit for bit.
    const trainer = engine.createTrainer({ task: 'reverse', seed: 3 });
    const losses = Array.from({ length: 20 }, () => trainer.step(1).loss);
    expect(progress.map((m) => m.points[0].loss)).toEqual(progress.map((m) => losses[m.step - 1]));
    expect(progress.at(-1).points[0].accuracy).toBe(trainer.evaluate().accuracy);
    expect(progress.at(-1).probe.weights).toEqual(trainer.probe().weights);
    trainer.dispose();
  });

  test('play, unpaced with evaluateEvery: points exactly at its multiples and at until; batches end by time', async () => {
    const t = serviceForTest({ tick: 1, sliceMs: 5 });   // every now() call is 1 ms: a few steps per batch
    await t.ask('start', { id: 'a', options: { task: 'translate', seed: 1 } });
    const play = t.call('play', { id: 'a', until: 25, evaluateEvery: 10, probe: false });
    await t.drain();
    const progress = t.progress;
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.flatMap((m) => m.points.map((p) => p.step))).toEqual([10, 20, 25]);
    expect(progress.every((m) => m.probe === undefined)).toBe(true);
    expect(progress.at(-1).step).toBe(25);
    expect(await play.reply).toEqual({ id: 'a', step: 25, reason: 'until', point: progress.at(-1).points.at(-1) });
  });

  test('a cancelled play stops between batches (a pause); step takes one; translate reads a sentence or names what is wrong', async () => {
    const t = serviceForTest();
    await t.ask('start', { id: 'a', options: { task: 'translate', seed: 2 } });
    const play = t.call('play', { id: 'a', paced: true });
    await t.drain(5);   // five batches
    play.cancel();
    expect(await t.drain()).toBe(1);   // the batch already waiting sees the cancel and trains nothing
    expect(t.progress.map((m) => m.step)).toEqual([1, 2, 3, 4, 5]);
    expect(await play.reply).toMatchObject({ id: 'a', step: 5, reason: 'asked', point: { step: 5 } });
    expect(await t.ask('step', { id: 'a' })).toMatchObject({ id: 'a', step: 6, playing: false });
    const reading = await t.ask('translate', { id: 'a', sentence: 'the young student reads an old book in the library' });
    expect(reading.source).toEqual(['the young', 'student', 'reads', 'an old', 'book', 'in the library']);
    expect(reading.weights).toHaveLength(36);
    await expect(t.ask('translate', { id: 'a', sentence: 'the cat reads' })).rejects.toThrow(/^sentence: unknown word "cat"/);
  });

  test('another request stops a run: its play replies \'stopped\' at its next slice', async () => {
    const t = serviceForTest();
    await t.ask('start', { id: 'a', options: { task: 'reverse', seed: 1 } });
    const play = t.call('play', { id: 'a', paced: true });
    await t.drain(3);
    expect(await t.ask('step', { id: 'a' })).toMatchObject({ id: 'a', step: 4, playing: false });
    expect(await t.drain()).toBe(1);   // the batch already waiting sees another request ran, and trains nothing
    expect(await play.reply).toMatchObject({ id: 'a', step: 4, reason: 'stopped' });
  });

  test('bad requests and bad options reject with the engine\'s message; the service keeps working', async () => {
    const t = serviceForTest();
    await expect(t.ask('play', { id: 'a' })).rejects.toThrow(/^play: no trainer "a"/);
    await expect(t.ask('play', {})).rejects.toThrow(/^play: id: expected a string naming a trainer, got undefined/);
    await expect(t.ask('start', { id: 'a', options: { task: 'reverse', seed: 1, heads: 3 } })).rejects.toThrow(/heads/);
    await expect(t.ask('step', { id: 'a' })).rejects.toThrow(/no trainer "a"/);   // a failed start leaves none
    expect((await t.ask('start', { id: 'a', options: { task: 'reverse', seed: 1 } })).step).toBe(0);
    await expect(t.ask('play', { id: 'a', target: { metric: 'accuracy' } })).rejects.toThrow(/^target: expected \{ metric, atLeast \}/);
    await t.ask('dispose', { id: 'a' });
    await t.ask('dispose', { id: 'a' });   // again: nothing
    await expect(t.ask('step', { id: 'a' })).rejects.toThrow(/no trainer "a"/);
  });
});

describe('several trainers in one service: by id, until a target, with what each point measures', () => {
  test('trainers of different ids are separate: a run of one goes on while the other steps and is read', async () => {
    const t = serviceForTest();
    await t.ask('start', { id: 'r', options: { task: 'reverse', seed: 1 } });
    await t.ask('start', { id: 't', options: { task: 'translate', seed: 1 } });
    const play = t.call('play', { id: 'r', paced: true, until: 6, probe: false });
    await t.drain(2);
    expect(await t.ask('step', { id: 't', count: 3 })).toMatchObject({ id: 't', step: 3 });
    expect((await t.ask('probe', { id: 't' })).source).toHaveLength(6);
    await t.drain();
    expect(await play.reply).toMatchObject({ id: 'r', step: 6, reason: 'until' });   // not 'stopped'
    expect(t.progress.every((p) => p.id === 'r')).toBe(true);
    // The same losses as a trainer alone: neither disturbed the other.
    const alone = engine.createTrainer({ task: 'translate', seed: 1 });
    alone.step(3);
    expect(await t.ask('evaluate', { id: 't' })).toEqual(alone.evaluate());
    alone.dispose();
    // start again under an id: a new trainer from step 0; the other keeps its steps
    expect((await t.ask('start', { id: 'r', options: { task: 'reverse', seed: 2 } })).step).toBe(0);
    expect(await t.ask('step', { id: 't' })).toMatchObject({ step: 4 });
  });

  test('play until a target: it stops at the first point that reaches it (reason \'target\'), points every evaluateEvery', async () => {
    const t = serviceForTest({ tick: 1, sliceMs: 5 });
    await t.ask('start', { id: 'a', options: { task: 'reverse', seed: 1 } });
    // A target reached at step 40: the figure of the trainer alone at steps 10, 20, ...
    const alone = engine.createTrainer({ task: 'reverse', seed: 1 });
    const figures = [];
    for (let step = 10; step <= 60; step += 10) {
      alone.step(10);
      figures.push(alone.evaluate({ examples: 32 }).accuracy);
    }
    alone.dispose();
    const atLeast = figures[3];
    const first = 10 * (figures.findIndex((f) => f >= atLeast) + 1);
    const play = t.call('play', { id: 'a', until: 500, evaluateEvery: 10, measure: { examples: 32 }, target: { metric: 'accuracy', atLeast }, probe: false });
    await t.drain();
    const reply = await play.reply;
    expect(reply).toMatchObject({ id: 'a', step: first, reason: 'target', point: { step: first, accuracy: figures[first / 10 - 1] } });
    expect(t.progress.flatMap((p) => p.points.map((q) => q.step))).toEqual(Array.from({ length: first / 10 }, (_, i) => 10 * (i + 1)));
    expect(t.progress.at(-1).playing).toBe(false);
    expect(reaches({ loss: 0.1 }, { metric: 'loss', atMost: 0.2 })).toBe(true);
    expect(reaches({ loss: 0.3 }, { metric: 'loss', atMost: 0.2 })).toBe(false);
    expect(reaches({}, { metric: 'loss', atMost: 0.2 })).toBe(false);
  });

  test('measure: a part of the held-out set, the alignment agreement, the head scores, as the trainer gives them', async () => {
    const t = serviceForTest();
    const options = { task: 'translate', seed: 1, model: 'bahdanau', dModel: 16 };
    const started = await t.ask('start', { id: 'b', options, measure: { examples: 16, agreement: 16 } });
    const alone = engine.createTrainer(options);
    const evaluation = alone.evaluate({ examples: 16 });
    expect(started.points[0]).toEqual({
      step: 0, loss: null, accuracy: evaluation.accuracy, heldOutLoss: evaluation.loss,
      generatedAccuracy: evaluation.generatedAccuracy, sequenceAccuracy: evaluation.sequenceAccuracy,
      agreement: alone.alignmentAgreement(16).agreement,
    });
    expect(await t.ask('alignmentAgreement', { id: 'b', examples: 8 })).toEqual(alone.alignmentAgreement(8));
    const generated = await t.ask('generate', { id: 'b', sentence: 'the student reads a book', cache: false });
    expect(generated.tokens).toEqual(alone.generate('the student reads a book', { cache: false }).tokens);
    expect(generated.ms).toBeGreaterThan(0);
    expect(await t.ask('translate', { id: 'b', sentence: 'the student reads a book' })).toEqual(alone.translate('the student reads a book'));
    alone.dispose();

    const induction = { task: 'induction', seed: 1, model: 'decoder', layers: 2, attentionOnly: true, dModel: 16 };
    const s = await t.ask('start', { id: 'd', options: induction, measure: { examples: 8, headScores: true } });
    const decoder = engine.createTrainer(induction);
    expect(s.points[0].headScores).toEqual(decoder.headScores());
    expect(await t.ask('headScores', { id: 'd' })).toEqual(decoder.headScores());
    const ablate = [{ layer: 1, head: 0 }];
    expect(await t.ask('evaluate', { id: 'd', examples: 8, ablate })).toEqual(decoder.evaluate({ examples: 8, ablate }));
    await expect(t.ask('evaluate', { id: 'd', ablate: [{ layer: 5, head: 0 }] })).rejects.toThrow(/ablate\[0\]\.layer/);
    await expect(t.ask('headScores', { id: 'b' })).rejects.toThrow();
    decoder.dispose();
  });
});

describe('a training pool: runs spread over workers', () => {
  test('dealRuns: by cost, largest first to the lightest worker, each worker\'s runs in the order given', () => {
    const runs = [{ id: 'a', cost: 1 }, { id: 'b', cost: 5 }, { id: 'c', cost: 4 }, { id: 'd', cost: 2 }, { id: 'e' }];
    expect(dealRuns(runs, 2).map((g) => g.map((r) => r.id))).toEqual([['a', 'b', 'e'], ['c', 'd']]);   // costs 7 and 6
    expect(dealRuns(runs.slice(0, 1), 2)).toHaveLength(1);
    expect(dealRuns([], 2)).toEqual([[]]);
  });

  const onThePage = (service, options) => openWorker(service, {
    ...options, createWorker: () => { throw new Error('Web Workers cannot start in a page opened from disk'); },
  });

  test('four runs over two (in-page) workers: each run\'s points, its reason; requests go to the worker holding the id', async () => {
    const pool = trainingPool({ engine, size: 2, open: onThePage });
    const seen = { started: [], progress: {}, done: {} };
    const runs = [1, 2, 3, 4].map((seed) => ({
      id: `s${seed}`, options: { task: 'reverse', seed, model: 'rnn', sourceLength: 4, dModel: 8 },
      play: { until: 12, evaluateEvery: 4, measure: { examples: 8 }, probe: false },
    }));
    const results = await pool.train(runs, {
      onStarted: (s) => seen.started.push(s.id),
      onProgress: (p) => { (seen.progress[p.id] ??= []).push(...p.points.map((q) => q.step)); },
      onDone: (d) => { seen.done[d.id] = d.reason; },
    });
    expect(seen.started.sort()).toEqual(['s1', 's2', 's3', 's4']);
    for (const { id } of runs) {
      expect(results[id].points.map((p) => p.step)).toEqual([0, 4, 8, 12]);
      expect(seen.progress[id]).toEqual([4, 8, 12]);
      expect(results[id]).toMatchObject({ step: 12, reason: 'until' });
      expect(seen.done[id]).toBe('until');
    }
    // The numbers of a trainer alone.
    const alone = engine.createTrainer({ task: 'reverse', seed: 3, model: 'rnn', sourceLength: 4, dModel: 8 });
    alone.step(12);
    expect(results.s3.points.at(-1).accuracy).toBe(alone.evaluate({ examples: 8 }).accuracy);
    expect(await pool.request('evaluate', { id: 's3' })).toEqual(alone.evaluate());
    alone.dispose();
    expect(() => pool.request('evaluate', { id: 'nope' })).toThrow(/no trainer "nope"/);
    await pool.dispose('s3');
    expect(() => pool.request('probe', { id: 's3' })).toThrow(/no trainer "s3"/);
    pool.close();
  });

  test('a cancelled job stops its runs between batches (\'asked\'); a failing run rejects the job', async () => {
    const pool = trainingPool({ engine, size: 2, open: onThePage });
    const playing = new Set();
    let bothPlay;
    const both = new Promise((resolve) => { bothPlay = resolve; });
    const job = pool.train([1, 2].map((seed) => ({ id: `s${seed}`, options: { task: 'reverse', seed }, play: { probe: false } })), {
      interleave: true,
      onProgress: ({ id }) => { playing.add(id); if (playing.size === 2) bothPlay(); },
    });
    await both;
    job.cancel();
    const results = await job;
    expect(Object.values(results).map((r) => r.reason)).toEqual(['asked', 'asked']);
    await expect(pool.train([{ id: 'bad', options: { task: 'reverse', seed: 1, heads: 3 }, play: {} }])).rejects.toThrow(/heads/);
    pool.close();
  });
});

describe('a training run over the bridge', () => {
  const waitFor = async (condition) => {
    for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(condition()).toBe(true);
  };
  const onThePage = (service, options) => openWorker(service, {
    ...options, createWorker: () => { throw new Error('Web Workers cannot start in a page opened from disk'); },
  });

  test('no worker can start (a page opened from disk): the run trains on the page, in slices, and pauses', async () => {
    const messages = [];
    const run = trainingRun({ engine, onMessage: (m) => messages.push(m), open: onThePage });
    run.start({ task: 'reverse', seed: 1 });
    run.play({ until: 30 });
    expect(run.inBackground).toBe(false);
    await waitFor(() => messages.some((m) => m.type === 'paused'));
    expect(messages[0].type).toBe('started');
    expect(messages.filter((m) => m.type === 'progress').at(-1).step).toBe(30);
    expect(messages.at(-1)).toMatchObject({ type: 'paused', step: 30, reason: 'until', point: { step: 30 } });
    // paused by the reader: the run stops between batches and says where
    run.play({ paced: true });
    await waitFor(() => messages.filter((m) => m.type === 'progress').at(-1).step > 32);
    run.pause();
    await waitFor(() => messages.at(-1).type === 'paused');
    const paused = messages.at(-1);
    expect(paused.reason).toBe('asked');
    expect(paused.step).toBe(messages.filter((m) => m.type === 'progress').at(-1).step);
    // a sentence the trained model reads, and one it refuses, answered by id
    run.translate(4, 'the cat reads');
    await waitFor(() => messages.at(-1).type === 'translation');
    expect(messages.at(-1)).toMatchObject({ type: 'translation', id: 4 });
    expect(messages.at(-1).error).toMatch(/^sentence:/);
    run.stop();
    expect(run.running).toBe(false);
  });

  test('a failed request is one error message; a stopped run says nothing more', async () => {
    const messages = [];
    const run = trainingRun({ engine, onMessage: (m) => messages.push(m), open: onThePage });
    run.start({ task: 'reverse', seed: 1, heads: 3 });
    await waitFor(() => messages.length > 0);
    expect(messages).toEqual([{ type: 'error', message: expect.stringMatching(/^heads/) }]);
    run.start({ task: 'reverse', seed: 1 });
    run.play({ paced: true });
    run.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(messages).toHaveLength(1);
  });
});

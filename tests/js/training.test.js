// Training on the page (web/src/training/): the pace of a run, the service
// that drives a trainer by requests (what runs in the worker), with the real
// engine in Node, and a run over the worker bridge on the page, where no
// worker starts.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { FRAME_MS, RAMP, batchLimit, evaluatesAt, pacedSteps } from '../../web/src/training/pace.js';
import { createService } from '../../web/src/training/training-service.js';
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
    const started = await t.ask('start', { task: 'reverse', seed: 1 });
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
    await t.ask('start', { task: 'reverse', seed: 3 });
    const play = t.call('play', { paced: true, until: 20 });
    await t.drain();
    const progress = t.progress;
    // steps per batch: max(1, ceil(step / 12)), the last batch cut at `until`
    expect(progress.map((m) => m.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 17, 19, 20]);
    expect(progress.every((m) => m.points.length === 1 && m.probe)).toBe(true);
    expect(progress.at(-1).playing).toBe(false);
    expect(await play.reply).toEqual({ step: 20, reason: 'until' });
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
    await t.ask('start', { task: 'translate', seed: 1 });
    const play = t.call('play', { until: 25, evaluateEvery: 10, probe: false });
    await t.drain();
    const progress = t.progress;
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.flatMap((m) => m.points.map((p) => p.step))).toEqual([10, 20, 25]);
    expect(progress.every((m) => m.probe === undefined)).toBe(true);
    expect(progress.at(-1).step).toBe(25);
    expect(await play.reply).toEqual({ step: 25, reason: 'until' });
  });

  test('a cancelled play stops between batches (a pause); step takes one; translate reads a sentence or names what is wrong', async () => {
    const t = serviceForTest();
    await t.ask('start', { task: 'translate', seed: 2 });
    const play = t.call('play', { paced: true });
    await t.drain(5);   // five batches
    play.cancel();
    expect(await t.drain()).toBe(1);   // the batch already waiting sees the cancel and trains nothing
    expect(t.progress.map((m) => m.step)).toEqual([1, 2, 3, 4, 5]);
    expect(await play.reply).toEqual({ step: 5, reason: 'asked' });
    expect(await t.ask('step')).toMatchObject({ step: 6, playing: false });
    const reading = await t.ask('translate', 'the young student reads an old book in the library');
    expect(reading.source).toEqual(['the young', 'student', 'reads', 'an old', 'book', 'in the library']);
    expect(reading.weights).toHaveLength(36);
    await expect(t.ask('translate', 'the cat reads')).rejects.toThrow(/^sentence: unknown word "cat"/);
  });

  test('another request stops a run: its play replies \'stopped\' at its next slice', async () => {
    const t = serviceForTest();
    await t.ask('start', { task: 'reverse', seed: 1 });
    const play = t.call('play', { paced: true });
    await t.drain(3);
    expect(await t.ask('step')).toMatchObject({ step: 4, playing: false });
    expect(await t.drain()).toBe(1);   // the batch already waiting sees another request ran, and trains nothing
    expect(await play.reply).toEqual({ step: 4, reason: 'stopped' });
  });

  test('bad requests and bad options reject with the engine\'s message; the service keeps working', async () => {
    const t = serviceForTest();
    await expect(t.ask('play', {})).rejects.toThrow(/no trainer/);
    await expect(t.ask('start', { task: 'reverse', seed: 1, heads: 3 })).rejects.toThrow(/heads/);
    expect((await t.ask('start', { task: 'reverse', seed: 1 })).step).toBe(0);
    await t.ask('dispose');
    await expect(t.ask('step')).rejects.toThrow(/no trainer/);
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
    expect(messages.at(-1)).toEqual({ type: 'paused', step: 30, reason: 'until' });
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

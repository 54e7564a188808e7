// The training protocol of the page (web/src/training/): the pace of a run,
// the host that drives a trainer by messages (the worker's code), with the real
// engine in Node, and the client's fallback to the page when no worker starts.
import { beforeAll, describe, expect, test } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { FRAME_MS, RAMP, batchLimit, evaluatesAt, pacedSteps } from '../../web/src/training/pace.js';
import { createTrainingHost } from '../../web/src/training/training-host.js';
import { createTrainingClient } from '../../web/src/training/training-client.js';

let engine;
beforeAll(async () => { engine = await createAttention({ learning: true }); });

// A host whose scheduled batches run when `drain()` is called (no timers), and
// whose clock is a counter: each now() call moves it by `tick` ms.
function hostForTest({ tick = 0.001, batchMs = 20 } = {}) {
  const messages = [];
  const due = [];
  const delays = [];
  let clock = 0;
  const host = createTrainingHost({
    engine,
    post: (m) => messages.push(m),
    schedule: (fn, ms) => { due.push(fn); delays.push(ms); },
    now: () => (clock += tick),
    batchMs,
  });
  return {
    host,
    messages,
    delays,
    async send(message) { await host.handle(message); },
    // Runs scheduled batches until none is left or `limit` have run.
    drain(limit = Infinity) {
      let ran = 0;
      while (due.length && ran < limit) {
        due.shift()();
        ran += 1;
      }
      return ran;
    },
    of: (type) => messages.filter((m) => m.type === type),
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

describe('the training host (the worker\'s code) with the real engine', () => {
  test('start: the untrained model, its options with the defaults filled in, a point at step 0 and the probe', async () => {
    const t = hostForTest();
    await t.send({ type: 'start', options: { task: 'reverse', seed: 1 } });
    const [started] = t.of('started');
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

  test('play, paced: one step per message at first; the points are the trainer\'s own numbers (same seed, same losses)', async () => {
    const t = hostForTest();
    await t.send({ type: 'start', options: { task: 'reverse', seed: 3 } });
    await t.send({ type: 'play', paced: true, until: 20 });
    t.drain();
    const progress = t.of('progress');
    // steps per message: max(1, ceil(step / 12)), the last batch cut at `until`
    expect(progress.map((m) => m.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 17, 19, 20]);
    expect(progress.every((m) => m.points.length === 1 && m.probe)).toBe(true);
    expect(progress.at(-1).playing).toBe(false);
    expect(t.of('paused')).toEqual([{ type: 'paused', step: 20, reason: 'until' }]);
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
    const t = hostForTest({ tick: 1, batchMs: 5 });   // every now() call is 1 ms: a few steps per batch
    await t.send({ type: 'start', options: { task: 'translate', seed: 1 } });
    await t.send({ type: 'play', until: 25, evaluateEvery: 10, probe: false });
    t.drain();
    const progress = t.of('progress');
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.flatMap((m) => m.points.map((p) => p.step))).toEqual([10, 20, 25]);
    expect(progress.every((m) => m.probe === undefined)).toBe(true);
    expect(progress.at(-1).step).toBe(25);
  });

  test('pause stops a run between batches; step takes one; translate reads a sentence or names what is wrong', async () => {
    const t = hostForTest();
    await t.send({ type: 'start', options: { task: 'translate', seed: 2 } });
    await t.send({ type: 'play', paced: true });
    t.drain(5);
    await t.send({ type: 'pause' });
    expect(t.drain()).toBe(1);   // the batch already scheduled sees the pause and does nothing
    expect(t.of('progress').map((m) => m.step)).toEqual([1, 2, 3, 4, 5]);
    expect(t.of('paused')).toEqual([{ type: 'paused', step: 5, reason: 'asked' }]);
    await t.send({ type: 'step' });
    expect(t.of('progress').at(-1)).toMatchObject({ step: 6, playing: false });
    await t.send({ type: 'translate', id: 7, sentence: 'the young student reads an old book in the library' });
    const ok = t.of('translation').at(-1);
    expect(ok.id).toBe(7);
    expect(ok.reading.source).toEqual(['the young', 'student', 'reads', 'an old', 'book', 'in the library']);
    expect(ok.reading.weights).toHaveLength(36);
    await t.send({ type: 'translate', id: 8, sentence: 'the cat reads' });
    const bad = t.of('translation').at(-1);
    expect(bad.id).toBe(8);
    expect(bad.error).toMatch(/^sentence: unknown word "cat"/);
  });

  test('bad messages and bad options come back as error messages; the host keeps working', async () => {
    const t = hostForTest();
    await t.send({ type: 'play' });
    expect(t.of('error').at(-1).message).toMatch(/no trainer/);
    await t.send({ type: 'fly' });
    expect(t.of('error').at(-1).message).toMatch(/unknown message type "fly"/);
    await t.send({ type: 'start', options: { task: 'reverse', seed: 1, heads: 3 } });
    expect(t.of('error').at(-1).message).toMatch(/heads/);
    await t.send({ type: 'start', options: { task: 'reverse', seed: 1 } });
    expect(t.of('started')).toHaveLength(1);
    await t.send({ type: 'dispose' });
    await t.send({ type: 'step' });
    expect(t.of('error').at(-1).message).toMatch(/no trainer/);
  });
});

describe('the client', () => {
  const waitFor = async (condition) => {
    for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(condition()).toBe(true);
  };

  test('no worker can start (a page opened from disk): the run trains on the page, in slices', async () => {
    const messages = [];
    const client = createTrainingClient({
      engine, createWorker: () => { throw new Error('Web Workers cannot start in a page opened from disk'); },
      onMessage: (m) => messages.push(m),
    });
    client.send({ type: 'start', options: { task: 'reverse', seed: 1 } });
    client.send({ type: 'play', until: 30 });
    expect(client.inBackground).toBe(false);
    await waitFor(() => messages.some((m) => m.type === 'paused'));
    expect(messages[0].type).toBe('started');
    expect(messages.filter((m) => m.type === 'progress').at(-1).step).toBe(30);
    client.stop();
    expect(client.running).toBe(false);
  });

  test('a worker that fails to load: what was sent is replayed on the page; stop terminates the worker', async () => {
    const listeners = {};
    const fake = {
      posted: [],
      terminated: 0,
      addEventListener: (type, fn) => { listeners[type] = fn; },
      postMessage(m) { this.posted.push(m); },
      terminate() { this.terminated += 1; },
    };
    const messages = [];
    const client = createTrainingClient({ engine, createWorker: () => fake, onMessage: (m) => messages.push(m) });
    client.send({ type: 'start', options: { task: 'reverse', seed: 1 } });
    client.send({ type: 'step' });
    expect(client.inBackground).toBe(true);
    expect(fake.posted.map((m) => m.type)).toEqual(['start', 'step']);
    listeners.error({ preventDefault() {} });
    expect(fake.terminated).toBe(1);
    await waitFor(() => messages.some((m) => m.type === 'progress'));
    expect(messages.map((m) => m.type)).toEqual(['started', 'progress']);
    expect(messages[1].step).toBe(1);

    // A worker that loads: its messages go through; stop() terminates it.
    const ok = { ...fake, posted: [], terminated: 0 };
    const received = [];
    const c2 = createTrainingClient({ engine, createWorker: () => ok, onMessage: (m) => received.push(m) });
    c2.send({ type: 'start', options: { task: 'reverse', seed: 1 } });
    listeners.message({ data: { type: 'started', step: 0 } });
    expect(received).toEqual([{ type: 'started', step: 0 }]);
    c2.stop();
    expect(ok.terminated).toBe(1);
    expect(c2.running).toBe(false);
  });
});

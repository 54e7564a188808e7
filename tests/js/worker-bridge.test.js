// The worker bridge (web/src/worker/): a request gets progress and one reply
// or an error, can be cancelled, and the worker can be closed; where no worker
// starts, or one fails before it is ready, the service runs on the page over a
// MessageChannel, in slices. Here the "worker" is a MessageChannel with the
// serving end (serve.js) in this thread: the same messages, structured-cloned.
import { afterEach, describe, expect, test } from 'vitest';
import { openWorker } from '../../web/src/worker/bridge.js';
import { serve } from '../../web/src/worker/serve.js';

// A service for the tests: createService({ engine }) -> handlers.
function testService({ engine } = {}) {
  return {
    echo: (payload) => ({ payload, engine: engine ?? null }),
    // Counts to `to`, a progress message per count, a slice between counts;
    // stops early when cancelled and says where.
    async count({ to }, { progress, signal, nextSlice, sliceMs }) {
      for (let i = 1; i <= to; i++) {
        if (signal.aborted) return { stoppedAt: i - 1, sliceMs };
        progress({ i });
        await nextSlice(0);
      }
      return { stoppedAt: to, sliceMs };
    },
    fail: () => { throw new RangeError('x: expected at most 3, got 4'); },
    // Resolves once cancelled (or closed), with whether its signal aborted.
    wait: (_, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('aborted'))),
  };
}
let loads = 0;
const service = { name: 'test', load: async () => { loads += 1; return { createService: testService }; } };

const opened = [];
afterEach(() => { opened.splice(0).forEach((w) => w.close()); });

// A stand-in for a Worker: the service served on the far end of a MessageChannel.
// `ready: false`: it never says it is ready (a worker whose script did not load).
function channelWorker({ ready = true } = {}) {
  const { port1, port2 } = new MessageChannel();
  const server = serve(port2, testService({}), { sliceMs: 20 });
  const errorListeners = [];
  const worker = {
    terminated: 0,
    addEventListener(type, fn) {
      if (type === 'message') port1.addEventListener('message', fn);
      if (type === 'error') errorListeners.push(fn);
    },
    postMessage: (message) => port1.postMessage(message),
    terminate() {
      this.terminated += 1;
      server.close();
      port1.close();
      port2.close();
    },
    // The 'error' event of a worker that failed.
    fail: (message) => errorListeners.forEach((fn) => fn({ message, preventDefault() {} })),
  };
  port1.start();
  if (ready) port2.postMessage({ ready: true });
  return worker;
}

function open(createWorker, options = {}) {
  const w = openWorker(service, { createWorker, ...options });
  opened.push(w);
  return w;
}
const cannotStart = () => { throw new Error('Web Workers cannot start in a page opened from disk'); };
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('in a worker', () => {
  test('request and reply: the payload crosses as a copy', async () => {
    const fake = channelWorker();
    const worker = open(() => fake);
    const payload = { values: new Float32Array([1, 2, 3]), name: 'q' };
    const reply = await worker.request('echo', payload);
    expect(worker.inBackground).toBe(true);
    expect(reply.payload).toEqual(payload);
    expect(reply.payload.values).not.toBe(payload.values);   // structured-cloned, as to a real worker
    expect(reply.engine).toBe(null);                          // in the worker, the service has no page engine
  });

  test('progress: every message before the reply, in order', async () => {
    const worker = open(() => channelWorker());
    const seen = [];
    const reply = await worker.request('count', { to: 5 }, { onProgress: (p) => seen.push(p.i) });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(reply).toEqual({ stoppedAt: 5, sliceMs: 20 });
  });

  test('cancel: the service stops where it is and replies; the progress before is kept', async () => {
    const worker = open(() => channelWorker());
    const seen = [];
    const job = worker.request('count', { to: 1e6 }, { onProgress: (p) => { seen.push(p.i); if (p.i === 3) job.cancel(); } });
    const { stoppedAt } = await job;
    expect(stoppedAt).toBeGreaterThanOrEqual(3);
    expect(stoppedAt).toBeLessThan(100);   // stopped within a few slices, not at a million
    expect(seen).toEqual(Array.from({ length: stoppedAt }, (_, i) => i + 1));
    job.cancel();   // after the reply: nothing happens
    // The worker keeps answering.
    expect((await worker.request('echo', 7)).payload).toBe(7);
  });

  test('error: the job rejects with the service\'s message and error name; the next request works', async () => {
    const worker = open(() => channelWorker());
    await expect(worker.request('fail')).rejects.toMatchObject({ name: 'RangeError', message: 'x: expected at most 3, got 4' });
    await expect(worker.request('fly')).rejects.toThrow('request: unknown name "fly"');
    await expect(worker.request('constructor')).rejects.toThrow('request: unknown name "constructor"');
    expect((await worker.request('echo', 'still here')).payload).toBe('still here');
  });

  test('close: terminates the worker, pending jobs reject with an AbortError, the next request starts afresh', async () => {
    const fakes = [];
    const worker = open(() => { fakes.push(channelWorker()); return fakes.at(-1); });
    const job = worker.request('wait');
    worker.close();
    await expect(job).rejects.toMatchObject({ name: 'AbortError' });
    expect(fakes[0].terminated).toBe(1);
    expect(worker.running).toBe(false);
    expect((await worker.request('echo', 1)).payload).toBe(1);
    expect(fakes).toHaveLength(2);
  });

  test('a worker that fails after it said it was ready: its pending jobs reject; nothing runs on the page', async () => {
    const fake = channelWorker();
    const worker = open(() => fake, { engine: 'page engine' });
    await worker.request('echo', 0);   // it is ready
    const job = worker.request('wait');
    fake.fail('out of memory');
    await expect(job).rejects.toThrow('test: out of memory');
    expect(fake.terminated).toBe(1);
    expect(worker.inBackground).toBe(false);
  });

  test('the worker is asked for by the service\'s name', async () => {
    const names = [];
    const worker = open((name) => { names.push(name); return channelWorker(); });
    await worker.request('echo', 0);
    expect(names).toEqual(['test']);
  });
});

describe('on the page (no worker)', () => {
  test('no worker can start: the same service runs on the page, with the page\'s engine, in slices of inPageSliceMs', async () => {
    const before = loads;
    const worker = open(cannotStart, { engine: { build: 'page' }, inPageSliceMs: 8 });
    expect(loads).toBe(before);   // nothing loaded before the first request
    const seen = [];
    const reply = worker.request('count', { to: 3 }, { onProgress: (p) => seen.push(p.i) });
    expect(worker.inBackground).toBe(false);
    expect(worker.running).toBe(true);
    expect(await reply).toEqual({ stoppedAt: 3, sliceMs: 8 });
    expect(seen).toEqual([1, 2, 3]);
    expect((await worker.request('echo', 'x')).engine).toEqual({ build: 'page' });
    expect(loads).toBe(before + 1);   // the service's code, loaded once
    await expect(worker.request('fail')).rejects.toMatchObject({ name: 'RangeError' });
  });

  test('on the page, progress and the reply are copies too, and a cancel stops the service between slices', async () => {
    const worker = open(cannotStart);
    const payload = { values: [1, 2] };
    expect((await worker.request('echo', payload)).payload).not.toBe(payload);
    const job = worker.request('count', { to: 1e6 }, { onProgress: (p) => { if (p.i === 2) job.cancel(); } });
    expect((await job).stoppedAt).toBeLessThan(100);
  });

  test('close on the page: the running service sees its signal abort, pending jobs reject', async () => {
    const worker = open(cannotStart);
    await worker.request('echo', 0);
    const job = worker.request('wait');
    await tick();
    worker.close();
    await expect(job).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.running).toBe(false);
  });

  test('a worker that fails before it is ready (its script did not load): what was asked of it is asked again on the page', async () => {
    const fake = channelWorker({ ready: false });
    const worker = open(() => fake, { engine: 'page engine' });
    const seen = [];
    const counting = worker.request('count', { to: 2 }, { onProgress: (p) => seen.push(p.i) });
    const echo = worker.request('echo', 'again');
    expect(worker.inBackground).toBe(true);
    fake.fail('');
    expect(fake.terminated).toBe(1);
    expect(worker.inBackground).toBe(false);
    expect(await echo).toEqual({ payload: 'again', engine: 'page engine' });
    expect((await counting).stoppedAt).toBe(2);
    // The dead worker's own answers (had any come) would not count twice: each progress once.
    expect(seen).toEqual([1, 2]);
  });
});

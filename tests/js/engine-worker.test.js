// The trainer runs in a worker thread (the page trains in a module worker):
// the engine loads there from its public entry without any page globals, and
// the numbers that come back over postMessage are bit for bit those of the
// same trainer on the main thread. Also: the engine's modules never name
// `document` or `window`, so that they load in a browser worker too.
import { describe, it, expect } from 'vitest';
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { createAttention } from '../../web/src/engine/index.js';

const WORKER = new URL('./workers/trainer-worker.mjs', import.meta.url);

// Starts the worker and resolves each message in turn.
function startWorker(workerData) {
  const worker = new Worker(WORKER, { workerData });
  const queue = [];
  const waiting = [];
  worker.on('message', (message) => (waiting.length ? waiting.shift().resolve(message) : queue.push(message)));
  worker.on('error', (error) => waiting.splice(0).forEach((w) => w.reject(error)));
  const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve, reject) => waiting.push({ resolve, reject })));
  return { worker, next, ask: (message) => { worker.postMessage(message); return next(); } };
}

describe.each(['simd', 'baseline'])('the trainer in a worker thread (%s build)', (build) => {
  it('trains there, and its losses, evaluation and weights equal the main thread\'s bit for bit', async () => {
    const options = { task: 'translate', seed: 11 };
    const { worker, next, ask } = startWorker({ build, options });
    try {
      const ready = await next();
      expect(ready.ready).toBe(true);
      const e = await createAttention({ build, learning: true });
      const here = e.createTrainer(options);
      expect(ready.vocabulary).toEqual(here.vocabulary);
      expect(ready.options).toEqual(here.options);
      for (const steps of [1, 5, 20]) {
        const there = await ask({ steps });
        expect(there.globals).toEqual({ document: 'undefined', window: 'undefined' });
        expect(there.simd).toBe(build === 'simd');
        expect(there.losses).toEqual(Array.from({ length: steps }, () => here.step().loss));
        expect(there.evaluation).toEqual(here.evaluate());
        const probe = here.probe();
        expect(there.probe.weights).toBeInstanceOf(Float32Array);
        expect(there.probe).toEqual(probe);
      }
      expect(await ask({ dispose: true })).toEqual({ disposed: true });
      here.dispose();
    } finally {
      await worker.terminate();
    }
  });
});

it("the engine's modules name no page global (document, window): they load in a worker", () => {
  const folder = new URL('../../web/src/engine/', import.meta.url);
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(new URL(file, folder), 'utf8');
    const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    expect(withoutComments, file).not.toMatch(/\b(document|window)\b/);
    for (const [, imported] of code.matchAll(/\bfrom '\.\/([\w-]+\.js)'/g)) visit(imported);
  };
  visit('index.js');
  expect([...seen].sort()).toEqual(['arguments.js', 'engine.js', 'index.js', 'learning.js', 'load-build.js', 'trainer.js',
    'work-limits.js']);
});

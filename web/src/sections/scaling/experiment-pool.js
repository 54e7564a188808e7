// Section 2's experiments in background workers, so that the page stays
// responsive while the engine draws millions of random numbers. The sweep's
// dimensions are independent runs (each from the same seed), so they are
// shared out between the workers and run in parallel; the merged result is
// identical to one sequential runSweep (tested in Node with splitSweep and
// mergeSweep).
//
// If a worker cannot start (e.g. a page opened from disk, where browsers refuse
// module workers), the experiments run on the main thread with the page's
// engine instead: slower to the eye, same numbers.
import { RUNNERS } from './state.js';

const now = () => globalThis.performance?.now() ?? Date.now();

// Splits the sweep's dimensions into `parts` groups of about equal cost (the
// work of one dimension is proportional to d), largest first.
export function splitSweep(settings, parts) {
  const groups = Array.from({ length: Math.max(1, Math.min(parts, settings.dims.length)) }, () => ({ dims: [], cost: 0 }));
  for (const d of [...settings.dims].sort((a, b) => b - a)) {
    const lightest = groups.reduce((a, b) => (b.cost < a.cost ? b : a));
    lightest.dims.push(d);
    lightest.cost += d;
  }
  return groups.filter((g) => g.dims.length > 0).map((g) => ({ ...settings, dims: g.dims.sort((a, b) => a - b) }));
}

// The sweep results of the groups back into one, rows in the order of `dims`.
export function mergeSweep(settings, parts) {
  const rows = parts.flatMap((p) => p.rows);
  return {
    ...parts[0],
    dims: settings.dims,
    rows: settings.dims.map((d) => rows.find((r) => r.dk === d)),
    ms: Math.max(...parts.map((p) => p.ms)),
  };
}

export function createExperimentPool({ size = 2, engine, createWorker }) {
  let workers = null;     // [{ worker, busy }]
  let broken = !createWorker || typeof Worker === 'undefined';
  let nextId = 1;
  const pending = new Map();  // id -> { resolve, reject }

  function start() {
    if (workers || broken) return;
    try {
      workers = Array.from({ length: size }, () => {
        const worker = createWorker();
        worker.addEventListener('message', ({ data }) => {
          const job = pending.get(data.id);
          if (!job) return;
          pending.delete(data.id);
          if (data.error) job.reject(new Error(data.error));
          else job.resolve(data.result);
        });
        worker.addEventListener('error', (event) => {
          event.preventDefault?.();
          fail(new Error(event.message || 'worker failed to start'));
        });
        return worker;
      });
    } catch (err) {
      fail(err);
    }
  }

  // A worker that cannot load: every job still waiting reruns on the main thread.
  function fail() {
    broken = true;
    workers?.forEach((w) => w.terminate());
    workers = null;
    for (const [id, job] of pending) {
      pending.delete(id);
      try { job.resolve({ ...RUNNERS[job.name](engine, job.settings), build: engine.build }); } catch (err) { job.reject(err); }
    }
  }

  function post(index, name, settings) {
    start();
    if (broken) return Promise.resolve().then(() => ({ ...RUNNERS[name](engine, settings), build: engine.build }));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, name, settings });
      workers[index % workers.length].postMessage({ id, name, settings });
    });
  }

  return {
    get inBackground() { return !broken; },
    // Resolves to the experiment's result; `wallMs` is the time the reader waited.
    async run(name, settings) {
      const t0 = now();
      let result;
      if (name === 'sweep' && !broken) {
        const parts = splitSweep(settings, size);
        result = mergeSweep(settings, await Promise.all(parts.map((part, i) => post(i, name, part))));
      } else {
        result = await post(0, name, settings);
      }
      return { ...result, wallMs: now() - t0 };
    },
    warm() { start(); },
    destroy() {
      workers?.forEach((w) => w.terminate());
      workers = null;
    },
  };
}

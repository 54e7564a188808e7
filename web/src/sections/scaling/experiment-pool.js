// Section 2's experiments in background workers, so that the page stays
// responsive while the engine draws millions of random numbers. The sweep's
// dimensions are independent runs (each from the same seed), so they are
// shared out between the workers and run in parallel; the merged result is
// identical to one sequential runSweep (tested in Node with splitSweep and
// mergeSweep).
//
// If a worker cannot start (e.g. a page opened from disk, where browsers refuse
// module workers), the experiments run on the page with the page's engine
// instead (the bridge's fallback): slower to the eye, same numbers.
import { openWorker } from '../../worker/bridge.js';
import experiments from '../../worker/services/experiments.js';

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

// `size` workers of the experiments service (src/worker/bridge.js); where none
// can start, one on the page, with the page's engine.
export function createExperimentPool({ size = 2, engine, open = openWorker }) {
  const workers = Array.from({ length: size }, () => open(experiments, { engine }));

  return {
    get inBackground() { return workers[0].inBackground; },
    // Resolves to the experiment's result; `wallMs` is the time the reader waited.
    async run(name, settings) {
      const t0 = now();
      let result;
      workers[0].warm();
      if (name === 'sweep' && workers[0].inBackground) {
        const parts = splitSweep(settings, size);
        result = mergeSweep(settings, await Promise.all(parts.map((part, i) => workers[i].request(name, part))));
      } else {
        result = await workers[0].request(name, settings);
      }
      return { ...result, wallMs: now() - t0 };
    },
    destroy() { workers.forEach((w) => w.close()); },
  };
}

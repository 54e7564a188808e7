// Several training runs of a section (the second page's demos: a model at
// several lengths, a family side by side, with and without a mask, ...) spread
// over `size` workers of the training service (./training-service.js, the
// worker bridge src/worker/bridge.js; where no worker can start, each runs on
// the page in slices), each run a trainer of its own id. Plain JS, no DOM:
// tested in Node (tests/js/training.test.js).
//
//   const pool = trainingPool({ engine, size: 2 });
//   const job = pool.train([
//     { id: 'rnn-8', options: { task: 'reverse', seed: 1, model: 'rnn', sourceLength: 8 },
//       play: { until: 2000, target: { metric: 'generatedAccuracy', atLeast: 0.95 }, evaluateEvery: 100,
//               measure: { examples: 64 }, probe: false },
//       measure: { examples: 64 },   // start's point (default: play.measure)
//       cost: 8 },                   // the run's share of the work, to balance the workers (default 1)
//     ...
//   ], {
//     onStarted({ id, trainer, step, points, probe }),   // start's reply
//     onProgress({ id, step, points, probe?, playing }), // each batch of its play
//     onDone({ id, step, reason, point }),               // its play ended: 'until', 'target' ('asked' if cancelled)
//     interleave: false,   // true: a worker's runs train at once, a slice each in turn (curves side by side);
//                          // false (default): one after another (the first results sooner)
//   });
//   await job;        // -> { [id]: { trainer, points: [every point], step, reason } } once every run ended
//   job.cancel();     // every run stops between batches ('asked'); the trainers stay, for requests
//   await pool.request('evaluate', { id: 'rnn-8', examples: 512 });   // any request, to the worker holding id
//   pool.dispose(id); pool.close();   // close terminates the workers: every model is gone
//
// Runs are dealt to the workers by cost, largest first, each to the worker with
// the least so far; a worker trains its runs in the order given. A run that
// fails rejects the job with its error (the others are cancelled).
import { openWorker } from '../worker/bridge.js';
import training from '../worker/services/training.js';

// The runs into `size` groups of about equal cost (largest first, each to the
// lightest group), each group in the order the runs were given.
export function dealRuns(runs, size) {
  const groups = Array.from({ length: Math.max(1, Math.min(size, runs.length)) }, () => ({ runs: [], cost: 0 }));
  const order = runs.map((run, index) => ({ run, index, cost: run.cost ?? 1 })).sort((a, b) => b.cost - a.cost || a.index - b.index);
  for (const item of order) {
    const lightest = groups.reduce((a, b) => (b.cost < a.cost ? b : a));
    lightest.runs.push(item);
    lightest.cost += item.cost;
  }
  return groups.map((g) => g.runs.sort((a, b) => a.index - b.index).map((item) => item.run));
}

export function trainingPool({ engine, size = 2, open = openWorker } = {}) {
  const workers = Array.from({ length: size }, () => open(training, { engine }));
  const home = new Map();   // trainer id -> its worker

  function workerOf(id) {
    const worker = home.get(id);
    if (!worker) throw new Error(`training pool: no trainer "${id}"; train it first`);
    return worker;
  }

  function train(runs, { onStarted, onProgress, onDone, interleave = false } = {}) {
    const ids = runs.map((r) => r.id);
    if (new Set(ids).size !== ids.length) throw new Error(`training pool: run ids must differ, got ${ids.join(', ')}`);
    const results = {};
    const plays = [];
    let cancelled = false;

    async function runOne(worker, run) {
      home.set(run.id, worker);
      const measure = run.measure ?? run.play?.measure;
      const started = await worker.request('start', { id: run.id, options: run.options, ...(measure ? { measure } : {}) });
      const result = (results[run.id] = { trainer: started.trainer, points: [...started.points], step: 0, reason: null });
      onStarted?.(started);
      if (cancelled) return;
      const play = worker.request('play', { ...run.play, id: run.id }, {
        onProgress: (p) => {
          result.points.push(...p.points);
          result.step = p.step;
          onProgress?.(p);
        },
      });
      plays.push(play);
      const done = await play;
      Object.assign(result, { step: done.step, reason: done.reason });
      onDone?.(done);
    }

    const groups = dealRuns(runs, workers.length);
    const all = Promise.all(groups.map(async (group, w) => {
      if (interleave) {
        await Promise.all(group.map((run) => runOne(workers[w], run)));
        return;
      }
      for (const run of group) {
        if (cancelled) return;
        await runOne(workers[w], run);
      }
    })).then(() => results, (err) => {
      cancel();
      throw err;
    });
    function cancel() {
      cancelled = true;
      for (const play of plays) play.cancel();
    }
    return Object.assign(all, { cancel });
  }

  return {
    train,
    // Any request of the training service to the worker that holds payload.id.
    request(name, payload, options) {
      return workerOf(payload?.id).request(name, payload, options);
    },
    async dispose(id) {
      const worker = home.get(id);
      home.delete(id);
      if (worker) await worker.request('dispose', { id });
    },
    close() {
      for (const worker of workers) worker.close();
      home.clear();
    },
    get inBackground() { return workers[0].inBackground; },
  };
}

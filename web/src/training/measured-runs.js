// Runs of a section trained side by side and measured when each ends (the
// second page's bottleneck sweep and trained family): the training pool
// (./training-pool.js, two workers) trains each run until its target or its
// budget, evaluating on a part of the held-out set as it goes; when a run ends
// `finish(request, id)` measures it in full (all of the held-out set, the
// alignment, the probe: requests to the worker that holds it), then the
// trainer is disposed. Each report comes to `onEvent`:
//
//   { type: 'started' | 'progress' | 'done', id, ... }   the pool's (start's reply, a batch, play's end)
//   { type: 'final', id, ...what finish returned }        the run measured in full
//   { type: 'finished', ms }                              every run final; ms since start()
//   { type: 'error', message }                            a request failed (the runs are stopped)
//
//   const runs = measuredRuns({ engine, finish, onEvent });
//   runs.start(list);   // the pool's runs ({ id, options, play, cost }); a previous start is stopped
//   runs.stop();        // terminates the workers: every model is gone
import { trainingPool } from './training-pool.js';

export function measuredRuns({ engine, finish, onEvent, size = 2, pool: makePool = trainingPool, now = () => performance.now() }) {
  let current = null;   // { pool, job }

  function stop() {
    if (!current) return;
    current.job?.cancel();
    current.pool.close();
    current = null;
  }

  function start(list) {
    stop();
    const started = now();
    const pool = makePool({ engine, size: Math.min(size, list.length) });
    const mine = { pool, job: null };
    current = mine;
    const live = () => current === mine;
    const emit = (event) => { if (live()) onEvent(event); };
    const failed = (err) => {
      if (!live() || err?.name === 'AbortError') return;
      stop();
      onEvent({ type: 'error', message: String(err?.message ?? err) });
    };
    const measured = [];
    mine.job = pool.train(list, {
      onStarted: (reply) => emit({ type: 'started', ...reply }),
      onProgress: (reply) => emit({ type: 'progress', ...reply }),
      onDone: (reply) => {
        emit({ type: 'done', ...reply });
        if (reply.reason === 'asked') return;
        const request = (name, payload = {}) => pool.request(name, { ...payload, id: reply.id });
        measured.push(finish(request, reply.id)
          .then((result) => {
            emit({ type: 'final', id: reply.id, ...result });
            return live() ? pool.dispose(reply.id) : undefined;
          })
          .catch(failed));
      },
    });
    mine.job
      .then(() => Promise.all(measured))
      .then(() => {
        if (!live()) return;
        const ms = now() - started;
        stop();
        onEvent({ type: 'finished', ms });
      })
      .catch(failed);
  }

  return {
    start,
    stop,
    get running() { return current !== null; },
  };
}

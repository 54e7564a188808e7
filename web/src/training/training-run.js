// A training run as a section drives it (sections "gradients" and "learning"):
// one trainer of the training service (./training-service.js, under the id
// RUN_ID) in a worker of its own, over
// the worker bridge (src/worker/bridge.js; on the page, in slices, where no
// worker can start). Each reply and progress comes to `onMessage` as one of
// the run's messages, which the section applies to what it shows:
//
//   { type: 'started', trainer, step, points, probe }       start's reply
//   { type: 'progress', step, points, probe?, playing }     a batch of play, or step's reply
//   { type: 'paused', step, reason, point }                play ended: reason 'until', 'target' or
//                                                          'asked' (a pause); point: its last point
//   (play's and start's options as the service's: ./training-service.js)
//   { type: 'translation', id, reading } or { type: 'translation', id, error }
//   { type: 'error', message }                             a request failed
//
//   const run = trainingRun({ engine, onMessage });
//   run.start(options); run.play({ paced: true, until: 3000 }); run.pause(); run.step();
//   run.translate(id, sentence); run.stop();   // stop terminates the worker: the model is gone
import { openWorker } from '../worker/bridge.js';
import training from '../worker/services/training.js';

export const RUN_ID = 'run';

export function trainingRun({ engine, onMessage, open = openWorker }) {
  let worker = null;
  let playing = null;   // the play request while it runs

  const ask = (name, payload, options) => (worker ??= open(training, { engine })).request(name, { id: RUN_ID, ...payload }, options);
  // A request that failed: said once; a closed worker's requests are not failures.
  const failed = (err) => { if (err.name !== 'AbortError') onMessage({ type: 'error', message: err.message }); };

  return {
    start(options) {
      ask('start', { options }).then(({ id, ...started }) => onMessage({ type: 'started', ...started }), failed);
    },
    play(options) {
      const job = ask('play', options, { onProgress: ({ id, ...p }) => onMessage({ type: 'progress', ...p }) });
      playing = job;
      job.then(({ step, reason, point }) => {
        if (playing === job) playing = null;
        // 'stopped': another request ended it, and says where it is itself.
        if (reason !== 'stopped') onMessage({ type: 'paused', step, reason, point });
      }, failed);
    },
    pause() { playing?.cancel(); },
    step() {
      ask('step').then(({ id, ...p }) => onMessage({ type: 'progress', ...p }), failed);
    },
    translate(id, sentence) {
      ask('translate', { sentence }).then((reading) => onMessage({ type: 'translation', id, reading }),
        (err) => { if (err.name !== 'AbortError') onMessage({ type: 'translation', id, error: err.message }); });
    },
    stop() {
      worker?.close();
      worker = null;
      playing = null;
    },
    get running() { return worker !== null; },
    get inBackground() { return worker?.inBackground ?? false; },
  };
}

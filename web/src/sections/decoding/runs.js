// Section "decoding", the training and the decoding: one translator in a
// worker of its own (the model host, src/training/model-host-service.js, over
// src/worker/bridge.js), trained to its target (./state.js trainPlan), scored
// on every held-out sentence, then made to generate the probe sentence (and
// later each sentence the reader types) with its cache and without, the two
// ways timed in the worker. The worker stays open after training, for the
// reader's sentences, until the next start, stop or the section's end.
// Everything the section shows of the run goes into `run` (./state.js
// emptyRun) as it comes. All of the section's requests to the worker are here:
// the one file to change for another training service.
//
//   const driver = decodingRuns({ engine, onUpdate, onDone, onFailed, onRefused });
//   driver.start(settings, run);      // the previous run stops first
//   driver.decode(sentence);          // false before the run is trained
//   driver.stop();                    // terminates the worker
import { openWorker } from '../../worker/bridge.js';
import modelHost from '../../worker/services/model-host.js';
import { runOptions, timingPlan, trainPlan } from './state.js';

export function decodingRuns({ engine, onUpdate, onDone, onFailed, onRefused, open = openWorker, now = () => performance.now() }) {
  let worker = null;
  let current = null;
  let generation = 0;   // a start or stop overtakes every pending reply of the run before it
  let decodes = 0;      // a newer sentence overtakes the replies for an older one

  function stop() {
    generation += 1;
    worker?.close();
    worker = null;
  }

  // The sentence ('' for the probe's) generated with the cache and without,
  // then timed both ways. A sentence the engine refuses goes to onRefused with
  // the engine's message; the run keeps its last decoded sentence.
  async function decodeWith(w, sentence, mine) {
    const id = ++decodes;
    const stale = () => mine !== generation || id !== decodes;
    let generated;
    try {
      generated = await Promise.all([
        w.request('generate', { sentence: sentence || undefined, cache: true }),
        w.request('generate', { sentence: sentence || undefined, cache: false }),
      ]);
    } catch (err) {
      if (stale() || err?.name === 'AbortError') return;
      onRefused(String(err?.message ?? err), sentence);
      return;
    }
    if (stale()) return;
    const [cached, recomputed] = generated;
    current.decoded = { sentence, generation: cached, recomputed, timing: null };
    onUpdate();
    const timing = await w.request('timeGenerate', timingPlan(sentence));
    if (stale()) return;
    current.decoded.timing = timing;
    onUpdate();
  }

  function start(settings, run) {
    stop();
    const mine = generation;
    current = run;
    const w = open(modelHost, { engine });
    worker = w;
    const startedAt = now();
    const failed = (err) => {
      if (mine !== generation || err?.name === 'AbortError') return;
      stop();
      onFailed(String(err?.message ?? err));
    };
    w.request('start', runOptions(settings)).then(({ trainer }) => {
      if (mine !== generation) return null;
      run.trainer = trainer;
      onUpdate();
      return w.request('train', trainPlan(), {
        onProgress: ({ step, point }) => {
          if (mine !== generation) return;
          run.points.push(point);
          run.step = step;
          onUpdate();
        },
      });
    }).then(async (reply) => {
      if (!reply || mine !== generation) return;
      run.step = reply.step;
      run.reason = reply.reason;
      run.seconds = (now() - startedAt) / 1000;
      run.evaluation = await w.request('evaluate', {});
      if (mine !== generation) return;
      run.done = true;
      onUpdate();
      await decodeWith(w, '', mine);
      if (mine === generation) onDone();
    }).catch(failed);
  }

  return {
    start,
    stop,
    decode(sentence) {
      if (!worker || !current?.done) return false;
      decodeWith(worker, sentence, generation).catch((err) => {
        if (err?.name !== 'AbortError') onFailed(String(err?.message ?? err));
      });
      return true;
    },
    get running() { return worker !== null; },
  };
}

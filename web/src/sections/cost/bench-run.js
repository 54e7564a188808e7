// Section 10, one run of the benchmark as the panel drives it: the benchmark
// service (./bench-service.js) in a worker of its own, over the worker bridge
// (src/worker/bridge.js; on the page, between frames, where no worker can
// start). Cancel terminates the worker: a call of plain JavaScript at n = 4096
// takes seconds, and the run stops at once instead of after it.
//
//   const run = benchmarkRun({ engine, onProgress, onResult, onDone, onFailed });
//   run.start({ sizes, d, seed });  run.inBackground;  run.cancel();
import { openWorker } from '../../worker/bridge.js';
import benchmark from '../../worker/services/benchmark.js';

export function benchmarkRun({ engine, onBuilds, onProgress, onResult, onDone, onFailed, open = openWorker }) {
  let worker = null;
  return {
    start(settings) {
      worker?.close();
      const mine = open(benchmark, { engine });
      worker = mine;
      const job = mine.request('run', settings, {
        onProgress: (p) => {
          if ('builds' in p) onBuilds?.(p.builds);
          else if ('result' in p) onResult(p.result);
          else onProgress(p);
        },
      });
      job.then(() => { if (worker === mine) onDone(); }, (err) => { if (worker === mine && err.name !== 'AbortError') onFailed(err.message); })
        .finally(() => { if (worker === mine) { mine.close(); worker = null; } });
    },
    get inBackground() { return worker?.inBackground ?? false; },
    get running() { return worker !== null; },
    cancel() {
      worker?.close();
      worker = null;
    },
  };
}

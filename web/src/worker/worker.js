// The page's one worker script (started by ./bridge.js): it serves the service
// named by the worker's name, with the engine that service loads for itself.
// It says it is ready before anything else, so that the page can tell a worker
// that could not start (it falls back to the page) from one that failed later.
//
// The services, each { name, load } in ./services/: load() imports its module,
// which exports createService({ engine }) -> its handlers (./serve.js);
// `engine` is the page's engine when the service runs on the page (no worker
// could start), undefined here (the service loads the engine it needs). One
// module each, so that a page bundles only the services it opens. A new kind
// of background work adds a module there and its line here.
import { afterTask, serve } from './serve.js';
import benchmark from './services/benchmark.js';
import experiments from './services/experiments.js';
import modelHost from './services/model-host.js';
import training from './services/training.js';

const service = [benchmark, experiments, modelHost, training].find((s) => s.name === self.name);
serve(self, service ? service.load().then((m) => m.createService({})) : Promise.reject(new Error(`worker: unknown service ${JSON.stringify(self.name)}`)),
  { sliceMs: 20, schedule: afterTask() });
self.postMessage({ ready: true });

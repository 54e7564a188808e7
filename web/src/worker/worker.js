// The page's one worker script (started by ./bridge.js): it serves the service
// named by the worker's name (./services.js), with the engine that service
// loads for itself. It says it is ready before anything else, so that the
// page can tell a worker that could not start (it falls back to the page)
// from one that failed later.
import { afterTask, serve } from './serve.js';
import { SERVICES } from './services.js';

const load = SERVICES[self.name];
serve(self, load ? load().then((m) => m.createService({})) : Promise.reject(new Error(`worker: unknown service ${JSON.stringify(self.name)}`)),
  { sliceMs: 20, schedule: afterTask() });
self.postMessage({ ready: true });

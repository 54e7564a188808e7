// The page's one way to a Web Worker: a service (./services/) in a worker of
// its own, asked by requests. A request gets progress messages while it runs
// and one reply, or an error; it can be cancelled (the service stops where it
// can and replies); the whole worker can be closed (terminated).
//
//   const worker = openWorker(training, { engine });   // training: ./services/training.js
//   const job = worker.request('play', { until: 200 }, { onProgress: (p) => ... });
//   job.cancel();               // asks the service to stop; `await job` gives its reply
//   await job;                  // the reply, or throws what the service threw
//   worker.close();             // terminates: pending jobs reject with an AbortError
//   worker.inBackground         // whether a worker runs it (false: on the page)
//
// Where no worker can start (a page opened from disk, where module workers are
// refused; the single-file build turns `new Worker(...)` into a throw), or one
// fails before it says it is ready, the same service runs on the page with the
// page's `engine`, over a MessageChannel (the same messages, the same copies),
// in slices of `inPageSliceMs` between which the page paints and handles
// input; what was asked of the worker is asked again there. Its code (and
// ./serve.js) is loaded then: a page whose worker starts does not download it.

export const IN_PAGE_SLICE_MS = 8;

// Every worker of the page starts here, named after its service (./worker.js reads the name).
const startWorker = (name) => new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name });

const abortError = () => Object.assign(new Error('the worker was closed'), { name: 'AbortError' });
const remoteError = ({ error, name }) => Object.assign(new Error(error), { name });

// service: { name, load } (./services/). createWorker(name): for tests.
export function openWorker(service, { engine, createWorker = startWorker, inPageSliceMs = IN_PAGE_SLICE_MS } = {}) {
  const { name, load } = service;
  let worker = null;       // the Worker, while one runs the service
  let ready = false;       // it said so
  let port = null;         // where requests go: the worker, or the page's end of the in-page channel
  let inPage = null;       // { server, channel } of the service on the page
  let nextId = 1;
  const pending = new Map();   // id -> { request, payload, onProgress, resolve, reject, cancelled }

  function receive({ data }) {
    if (data?.ready) { ready = true; return; }
    const job = pending.get(data?.id);
    if (!job) return;
    if ('progress' in data) {
      job.onProgress?.(data.progress);
      return;
    }
    pending.delete(data.id);
    if ('error' in data) job.reject(remoteError(data));
    else job.resolve(data.reply);
  }

  function send(id, job) {
    port.postMessage({ id, request: job.request, payload: job.payload });
    if (job.cancelled) port.postMessage({ id, cancel: true });
  }

  function runInPage() {
    const channel = new MessageChannel();
    const handlers = load().then((m) => m.createService({ engine }));
    const mine = { channel, server: null };
    // Requests wait on the channel until the server listens (a port queues them until started).
    import('./serve.js').then(({ serve }) => {
      if (inPage === mine) mine.server = serve(channel.port2, handlers, { sliceMs: inPageSliceMs });
    });
    inPage = mine;
    port = channel.port1;
    port.addEventListener('message', receive);
    port.start();
    for (const [id, job] of pending) send(id, job);
  }

  function begin() {
    if (port) return;
    let w;
    try {
      w = createWorker(name);
    } catch {
      runInPage();
      return;
    }
    worker = w;
    port = w;
    w.addEventListener('message', (event) => { if (w === worker) receive(event); });
    w.addEventListener('error', (event) => {
      event.preventDefault?.();
      if (w !== worker) return;
      w.terminate();
      worker = null;
      port = null;
      if (!ready) {
        runInPage();
        return;
      }
      const message = event.message || 'the worker stopped';
      for (const job of pending.values()) job.reject(new Error(`${name}: ${message}`));
      pending.clear();
    });
  }

  // Terminates the worker (or leaves the service on the page): every pending
  // job rejects with an AbortError. The next request starts afresh.
  function close() {
    worker?.terminate();
    worker = null;
    ready = false;
    if (inPage) {
      inPage.server?.close();
      inPage.channel.port1.close();
      inPage.channel.port2.close();
      inPage = null;
    }
    port = null;
    for (const job of pending.values()) job.reject(abortError());
    pending.clear();
  }

  return {
    request(request, payload, { onProgress } = {}) {
      begin();
      const id = nextId++;
      let job;
      const reply = new Promise((resolve, reject) => { job = { request, payload, onProgress, resolve, reject, cancelled: false }; });
      pending.set(id, job);
      send(id, job);
      return Object.assign(reply, {
        cancel() {
          if (job.cancelled || !pending.has(id)) return;
          job.cancelled = true;
          port.postMessage({ id, cancel: true });
        },
      });
    },
    // Starts the worker now (its engine loads before the first request).
    warm() { begin(); },
    close,
    get inBackground() { return worker !== null; },
    get running() { return port !== null; },
  };
}

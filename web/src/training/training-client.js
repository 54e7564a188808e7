// The page's side of a training run: the protocol of ./training-host.js, sent
// to a Web Worker (./training-worker.js) so that the page stays responsive.
// Where no worker can start (a page opened from disk, where module workers are
// refused; the single-file build makes `createWorker` throw), the same host
// runs on the page with the page's engine, in slices of `inPageBatchMs`
// between which the page paints and handles input (its code is loaded then:
// a page whose worker starts does not download it).
//
//   const client = createTrainingClient({ createWorker, engine, onMessage });
//   client.send({ type: 'start', options });  client.send({ type: 'play', paced: true });
//   client.stop();          // terminates the worker: the run and its model are gone
//   client.inBackground     // whether a worker runs it

export const IN_PAGE_BATCH_MS = 8;

// A new training worker. (The single-file build turns this expression into a
// throw: web/vite-plugins/single-file.js.)
export const createTrainingWorker = () => new Worker(new URL('./training-worker.js', import.meta.url), { type: 'module' });

export function createTrainingClient({ createWorker = createTrainingWorker, engine, onMessage, inPageBatchMs = IN_PAGE_BATCH_MS }) {
  let worker = null;
  let host = null;
  // Until the worker has answered, what was sent is kept: if the worker cannot
  // load, it is replayed on the page.
  let unanswered = [];

  // The host on the page, behind a stand-in that keeps the messages in order
  // while its code loads.
  function runInPage() {
    let stopped = false;
    const ready = import('./training-host.js').then(({ createTrainingHost }) => (stopped ? null : createTrainingHost({
      engine,
      post: (message) => { if (host === mine) onMessage(message); },
      batchMs: inPageBatchMs,
    })));
    const mine = {
      handle: (message) => ready.then((h) => h?.handle(message)),
      dispose() {
        stopped = true;
        ready.then((h) => h?.handle({ type: 'dispose' }));
      },
    };
    host = mine;
    for (const message of unanswered) host.handle(message);
    unanswered = [];
  }

  function begin() {
    if (worker || host) return;
    let w;
    try {
      w = createWorker();
    } catch {
      runInPage();
      return;
    }
    worker = w;
    w.addEventListener('message', ({ data }) => {
      if (w !== worker) return;
      unanswered = [];
      onMessage(data);
    });
    w.addEventListener('error', (event) => {
      event.preventDefault?.();
      if (w !== worker) return;
      w.terminate();
      worker = null;
      runInPage();
    });
  }

  return {
    send(message) {
      begin();
      if (worker) {
        unanswered.push(message);
        worker.postMessage(message);
      } else {
        host.handle(message);
      }
    },
    stop() {
      worker?.terminate();
      worker = null;
      host?.dispose();
      host = null;
      unanswered = [];
    },
    get running() { return worker !== null || host !== null; },
    get inBackground() { return worker !== null; },
  };
}

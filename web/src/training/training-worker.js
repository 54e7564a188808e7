// A training run off the main thread (sections "learning" and "gradients"):
// the protocol of ./training-host.js on this worker's own engine, with the
// learning module (the same build as the page's: the .wasm is fetched once).
// The page stops a run by terminating this worker.
import { createAttention } from '../engine/index.js';
import { createTrainingHost } from './training-host.js';

// The next batch at once, without the 4 ms that nested timers are clamped to.
const channel = new MessageChannel();
const ready = [];
channel.port1.onmessage = () => ready.shift()?.();
function schedule(fn, ms) {
  if (ms > 0) {
    setTimeout(fn, ms);
  } else {
    ready.push(fn);
    channel.port2.postMessage(null);
  }
}

const host = createTrainingHost({
  engine: createAttention({ learning: true }),
  post: (message) => self.postMessage(message),
  schedule,
});

self.addEventListener('message', ({ data }) => host.handle(data));

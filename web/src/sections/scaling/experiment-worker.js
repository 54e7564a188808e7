// Runs section 2's experiments off the main thread: the same functions as
// ./state.js, on this worker's own instance of the engine.
//   in:  { id, name: 'tenKeys' | 'trials' | 'sweep', settings }
//   out: { id, result } or { id, error }
import { createAttention } from '../../engine/index.js';
import { RUNNERS } from './state.js';

const engine = createAttention();

self.addEventListener('message', async ({ data }) => {
  const { id, name, settings } = data;
  try {
    const result = RUNNERS[name](await engine, settings);
    self.postMessage({ id, result });
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
});

// A worker thread that uses the engine as the page's module worker will: it
// imports the public entry, creates a learning engine and a trainer, and
// answers { steps } messages with the losses and readings of those steps.
// (tests/js/engine-worker.test.js starts it with worker_threads.)
import { parentPort, workerData } from 'node:worker_threads';
import { createAttention } from '../../../web/src/engine/index.js';

const engine = await createAttention({ build: workerData.build, learning: true });
const trainer = engine.createTrainer(workerData.options);
parentPort.on('message', ({ steps, dispose }) => {
  if (dispose) {
    trainer.dispose();
    parentPort.postMessage({ disposed: trainer.disposed });
    return;
  }
  const losses = Array.from({ length: steps }, () => trainer.step().loss);
  // Plain objects and typed arrays: what postMessage can carry to the page.
  parentPort.postMessage({ losses, evaluation: trainer.evaluate(), probe: trainer.probe(), simd: engine.simd,
    globals: { document: typeof document, window: typeof window } });
});
parentPort.postMessage({ ready: true, vocabulary: trainer.vocabulary, options: trainer.options });

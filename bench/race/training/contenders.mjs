// The contenders of the training race, each a worker thread running
// ./worker.mjs: the project's trainer (SIMD and baseline builds) and the same
// model written with tfjs-core on its wasm backend (./tfjs-model.mjs).
// A contender: { name, role, build?, prepare(problem) -> Promise<call> } where
// call() asks its worker for STEPS_PER_CALL steps; call.check() runs the check
// steps first, call.label() says what it measures, call.dispose() ends the worker.
import { Worker } from 'node:worker_threads';
import { STEPS_PER_CALL } from './workload.mjs';

const WORKER = new URL('./worker.mjs', import.meta.url);

// A worker thread that answers one message at a time.
async function startWorker(workerData) {
  const worker = new Worker(WORKER, { workerData });
  let pending = null;
  worker.on('message', (message) => {
    const { resolve, reject } = pending ?? {};
    pending = null;
    if (message.error) reject?.(new Error(message.error));
    else resolve?.(message);
  });
  worker.on('error', (error) => pending?.reject(error));
  const ask = (message) => new Promise((resolve, reject) => {
    pending = { resolve, reject };
    if (message) worker.postMessage(message);
  });
  await ask(null);  // { ready }
  return { ask, end: () => worker.terminate() };
}

const contender = (name, role, build) => ({
  name, role, build,
  async prepare(problem) {
    const { ask, end } = await startWorker({ contender: name, problem });
    const call = () => ask({ steps: STEPS_PER_CALL });
    call.check = async () => (await ask({ check: true })).losses;
    call.label = async () => (await ask({ label: true })).label;
    call.dispose = end;
    return call;
  },
});

export const trainingContenders = ({ peers = true } = {}) => [
  contender('project-simd', 'project', 'simd'),
  contender('project-baseline', 'project', 'baseline'),
  ...(peers ? [contender('tfjs', 'peer')] : []),
];

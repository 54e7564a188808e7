// The contenders of the training race, each a worker thread running
// ./worker.mjs: the project's trainer (SIMD and baseline builds) and the same
// model written with tfjs-core on its wasm backend (./tfjs-model.mjs, or
// ./tfjs-transformer.mjs for the transformer); and, for the transformer, the
// project natively: bench/native/trainer_steps in a child process.
// A contender: { name, role, build?, prepare(problem) -> Promise<call> } where
// call() asks for call.steps steps (problem.stepsPerCall unless the race sets it); call.check() runs the check
// steps first, call.label() says what it measures, call.dispose() ends the worker;
// call.cpu = { ms, steps }: the CPU time of the contender's thread over the steps of
// the calls since call.cpu was last reset (NaN where the system does not say).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { CHECK_STEPS } from './workload.mjs';

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
    const call = async () => {
      const { loss, cpuMs } = await ask({ steps: call.steps });
      call.cpu.ms += cpuMs;
      call.cpu.steps += call.steps;
      return loss;
    };
    call.steps = problem.stepsPerCall;
    call.cpu = { ms: 0, steps: 0 };
    call.check = async () => (await ask({ check: true })).losses;
    call.label = async () => (await ask({ label: true })).label;
    call.dispose = end;
    return call;
  },
});

// The native program (bench/native/trainer_steps.cpp) as a child process that
// answers one line per command line.
function startNative(program, problem) {
  const args = Object.entries({ task: problem.task, seed: problem.seed, ...problem.trainerOptions })
    .map(([name, value]) => `${name}=${value}`);
  const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  let ended = null;
  lines.on('line', (line) => waiting.shift()?.(line));
  child.on('exit', (code) => {
    ended = new Error(`${program} ended (exit code ${code})`);
    for (const resolve of waiting.splice(0)) resolve(null);
  });
  const ask = (command) => new Promise((resolve, reject) => {
    if (ended) return reject(ended);
    waiting.push((line) => {
      if (line === null) reject(ended);
      else if (line.startsWith('error: ')) reject(new Error(line.slice(7)));
      else resolve(line);
    });
    child.stdin.write(`${command}\n`);
  });
  return { ask, end: () => child.stdin.end() };
}

// program: the path of build/bench/native/trainer_steps (the portable library:
// 'project-native') or of build/bench/native-march/trainer_steps (the library
// built with -march=native for this machine: 'project-native-march').
const nativeContender = (program, name = 'project-native') => ({
  name, role: 'project', build: 'native',
  async prepare(problem) {
    const { ask, end } = startNative(program, problem);
    const steps = async (count) => {
      const [loss, cpuSeconds] = (await ask(`steps ${count}`)).split(' ').map(Number);
      return { loss, cpuSeconds };
    };
    const call = async () => {
      const { loss, cpuSeconds } = await steps(call.steps);
      call.cpu.ms += cpuSeconds * 1000;
      call.cpu.steps += call.steps;
      return loss;
    };
    call.steps = problem.stepsPerCall;
    call.cpu = { ms: 0, steps: 0 };
    call.check = async () => {
      const losses = [];
      for (let i = 0; i < CHECK_STEPS; i++) losses.push((await steps(1)).loss);
      return losses;
    };
    call.label = async () => `${name === 'project-native-march' ? 'the library built with -march=native (ATTN_NATIVE_ARCH): ' : ''}${await ask('label')}`;
    call.dispose = end;
    return call;
  },
});

export const trainingContenders = ({ peers = true } = {}) => [
  contender('project-simd', 'project', 'simd'),
  contender('project-baseline', 'project', 'baseline'),
  ...(peers ? [contender('tfjs', 'peer')] : []),
];

// The transformer race: the wasm builds and tfjs as above, tfjs in its plain form
// (./tfjs-transformer.mjs), and the native programs when given.
export const transformerContenders = ({ peers = true, native, nativeMarch } = {}) => [
  ...trainingContenders({ peers }),
  ...(peers ? [contender('tfjs-plain', 'peer')] : []),
  ...(native ? [nativeContender(native)] : []),
  ...(nativeMarch ? [nativeContender(nativeMarch, 'project-native-march')] : []),
];

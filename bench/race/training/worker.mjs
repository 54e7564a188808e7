// One contender of the training race in its own worker thread (Node
// worker_threads; the page trains in a Web Worker). workerData: { contender,
// problem } with contender 'project-simd', 'project-baseline', 'tfjs' or (the
// transformer) 'tfjs-plain' (./tfjs-transformer.mjs's forms 'tuned' and 'plain').
// Messages: { check: true } -> { losses } (CHECK_STEPS steps from the initial
// parameters, on the problem's batches); { steps } -> { loss, cpuMs } (that many
// more steps, and the CPU time this thread spent on them); { label: true } -> { label }.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { CHECK_STEPS } from './workload.mjs';

const { contender, problem } = workerData;

// CPU ms of this thread so far (Linux: the first field of /proc/thread-self/schedstat, ns on a
// CPU; read by this thread, since a synchronous read runs on the calling thread); NaN elsewhere.
// Node 20 has no per-thread CPU clock, and process.cpuUsage() counts every thread of the process.
function threadCpuMs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

// -> { steps(count) -> last loss, label }
async function start() {
  if (contender === 'tfjs' || contender === 'tfjs-plain') {
    const { loadTfjsForTraining } = await import('../../peers/tfjs-training.mjs');
    const tf = await loadTfjsForTraining();
    const transformer = problem.kind === 'transformer';
    const form = contender === 'tfjs' ? 'tuned' : 'plain';
    if (!transformer && form !== 'tuned') throw new Error(`${contender}: the transformer race's contender`);
    const trainer = transformer
      ? (await import('./tfjs-transformer.mjs')).makeTfjsTransformer(tf, problem, form)
      : (await import('./tfjs-model.mjs')).makeTfjsTrainer(tf, problem);
    let batch = 0;
    const env = tf.env();
    if (env.getBool('WASM_HAS_MULTITHREAD_SUPPORT')) throw new Error('tfjs: expected one thread');
    return {
      steps(count) {
        let loss;
        for (let i = 0; i < count; i++) loss = trainer.step(batch++);
        return loss;
      },
      label: `tfjs ${tf.version_core} wasm backend (${env.getBool('WASM_HAS_SIMD_SUPPORT') ? 'tfjs-backend-wasm-simd.wasm' : 'tfjs-backend-wasm.wasm'}, ` +
        '1 thread: tfjs-backend-wasm turns its threads off in Node, tensorflow/tfjs#3830) in a worker thread: tf.variableGrads of the loss' +
        (!transformer ? '' : form === 'tuned'
          ? ' (products through tf.customGrad: dA = dY transpose(B), dB = transpose(A) dY; GELU as x sigmoid(2u))'
          : ' (tfjs\'s own gradient of every op; GELU with tf.tanh)') +
        `, ${transformer ? `${trainer.parameterCount} trainable parameters, clipping by global norm, ` : ''}AdamW (decay, then tf.train.adam applyGradients), ` +
        'inside tf.tidy, loss by dataSync()',
    };
  }
  const build = contender === 'project-simd' ? 'simd' : 'baseline';
  const { createAttention } = await import('../../../web/src/engine/index.js');
  const engine = await createAttention({ build, learning: true });
  const trainer = engine.createTrainer({ task: problem.task, seed: problem.seed, ...problem.trainerOptions, longRunning: true });
  return {
    steps: (count) => trainer.step(count).loss,
    label: `project ${build} build (simdWidth ${engine.simdWidth}) in a worker thread: createTrainer().step(count), ` +
      'the fused C++ step (attn::Trainer)',
  };
}

const trainer = await start();
parentPort.on('message', (message) => {
  try {
    if (message.check) {
      parentPort.postMessage({ losses: Array.from({ length: CHECK_STEPS }, () => trainer.steps(1)) });
    } else if (message.label) {
      parentPort.postMessage({ label: trainer.label });
    } else {
      const start = threadCpuMs();
      const loss = trainer.steps(message.steps);
      parentPort.postMessage({ loss, cpuMs: threadCpuMs() - start });
    }
  } catch (error) {
    parentPort.postMessage({ error: String(error?.stack ?? error) });
  }
});
parentPort.postMessage({ ready: true });

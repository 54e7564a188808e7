// The learning functions of the engine: attentionBackward and createTrainer,
// over a learning module of a build (createAttention({ learning: true }) or
// { learning: 'basic' }; cpp/bindings/backward_bindings.cpp,
// trainer_bindings.cpp), and trainerOptions. The engine over the attention
// module has the same names, which throw, naming the option.
import { choice, options, unwrap } from './arguments.js';
import { makeTrainer, trainerOptionTable } from './trainer.js';

// attentionBackward's paths and the work formula of each ('reference' only
// through the test entry, ./testing.js).
const BACKWARD_WORK = Object.freeze({
  tiled: 'attentionBackwardTiled',          // the tiled forward (row log-sum-exp), then the tiled backward
  full: 'attentionBackwardFull',            // the SIMD kernels through n x m matrices
  reference: 'attentionBackwardReference',  // attn::reference::attention_backward, plain loops in double
});
export const PUBLIC_BACKWARD_PATHS = Object.freeze(['tiled', 'full']);
export const ALL_BACKWARD_PATHS = Object.freeze(Object.keys(BACKWARD_WORK));

// arrays: the engine's array checks (./arguments.js arrayChecks); attentionCall:
// the engine's checks of one attention call (q, k, v, sizes, scale, mask, work);
// backwardPaths: the paths accepted; testing: trainers get parameters(), lastBatch(), parameterBlocks(), lastEngineBatch().
export function learningFunctions(module, { arrays, attentionCall, backwardPaths = PUBLIC_BACKWARD_PATHS, testing = false }) {
  return {
    // dQ, dK, dV of L = sum(gradOutput * O), O = attention(Q, K, V) (attn/backward.hpp).
    attentionBackward(a) {
      options('attentionBackward', a);
      const path = choice('path', a.path ?? 'tiled', backwardPaths);
      const gradOutput = arrays.float32('gradOutput', a.gradOutput);
      const [q, k, v, call, keep] = attentionCall('attentionBackward', a, BACKWARD_WORK[path]);
      return unwrap(module.attentionBackward(q, k, v, gradOutput, call, keep, path));
    },

    createTrainer(a) {
      return makeTrainer(module, a, { testing });
    },

    // The trainer's options and their rules, from the core (attn/trainer_options.hpp).
    trainerOptions() {
      return trainerOptionTable(module);
    },
  };
}

// The same names on an engine without the learning module.
export function withoutLearning() {
  const missing = (name) => () => {
    throw new Error(`${name}: this engine runs the attention module only, without the learning code; ` +
      "create it with createAttention({ learning: true }) (every model), or { learning: 'basic' } (the backward " +
      "pass and model 'attention' only, a smaller download)");
  };
  return {
    attentionBackward: missing('attentionBackward'),
    createTrainer: missing('createTrainer'),
    trainerOptions: missing('trainerOptions'),
  };
}

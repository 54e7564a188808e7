// The project's seq2seq model (cpp/include/attn/seq2seq_model.hpp) and its
// AdamW step (attn/adam.hpp, attn/trainer.hpp) written with tfjs-core, in the
// form tfjs documents for custom training: the loss as a function of
// tf.variable()s, tf.variableGrads(loss) for the gradients, then
// optimizer.applyGradients(grads) of tf.train.adam (optimizer.minimize is
// exactly these two calls; here the decoupled weight decay of AdamW,
// theta *= 1 - lr * lambda, goes between them, as the core does it), all inside
// tf.tidy so that every intermediate is freed, the loss read with dataSync().
// One step, for B examples of S source and T target tokens:
//   C = onehot(sources) E + PE                                B*S x d  (embedding as a product:
//                                                                       tfjs-backend-wasm has no gradient of gather)
//   Q = P W_Q,  K = C W_K,  V = C W_V, split into h heads of dk = d / h columns
//   O_head = softmax(scale Q_head K_head^T) V_head            per example and head (matMul of a transpose,
//                                                                       the fast form on this backend)
//   Y = P + Concat(heads) W_O;  Z = Y W_out^T + b_out         B*T x V_t  (W_out^T kept as the variable)
//   L = mean cross-entropy(softmax(Z), targets)               tf.losses.softmaxCrossEntropy
// The weights start from the project's own initial parameters (the same flat
// layout), so the losses can be checked against the project's, step by step.
//
// tf: tfjs-core with the wasm backend set (bench/peers/node.mjs, one thread).
// problem: bench/race/training/workload.mjs. Returns { step(batchIndex) -> loss, dispose }.
export function makeTfjsTrainer(tf, problem) {
  const { S, T, Vs, Vt, dModel: d, heads: h, batchSize: B, scale, learningRate, weightDecay, initial, positions } = problem;
  const dk = d / h;
  const slice = (name) => initial.subarray(problem.layout[name], problem.layout[name] + problem.sizes[name]);
  const variable = (name, shape) => tf.variable(tf.tensor(slice(name), shape), true, name);
  const E = variable('embedding', [Vs, d]);
  const P = variable('positions', [T, d]);
  const Wq = variable('wq', [d, d]), Wk = variable('wk', [d, d]), Wv = variable('wv', [d, d]), Wo = variable('wo', [d, d]);
  const WoutT = tf.variable(tf.transpose(tf.tensor(slice('wout'), [Vt, d])), true, 'woutT');  // d x V_t
  const bout = variable('bout', [Vt]);
  const variables = [E, P, Wq, Wk, Wv, Wo, WoutT, bout];
  const sourcePositions = tf.keep(tf.tile(tf.tensor(positions, [S, d]), [B, 1]));  // PE for every example: B*S x d
  const optimizer = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
  const decay = 1 - learningRate * weightDecay;
  const batches = problem.batches.map(({ sources, targets }) => ({
    sources: tf.keep(tf.cast(tf.oneHot(tf.tensor1d(sources, 'int32'), Vs), 'float32')),  // B*S x V_s
    targets: tf.keep(tf.cast(tf.oneHot(tf.tensor1d(targets, 'int32'), Vt), 'float32')),  // B*T x V_t
  }));

  // [rows, d] -> [B*h, rows / B, dk]: example b, head i at b*h + i.
  const splitHeads = (x, rows) => tf.reshape(tf.transpose(tf.reshape(x, [B, rows, h, dk]), [0, 2, 1, 3]), [B * h, rows, dk]);

  const loss = ({ sources, targets }) => () => {
    const C = tf.add(tf.matMul(sources, E), sourcePositions);
    const Q = tf.tile(tf.reshape(tf.transpose(tf.reshape(tf.matMul(P, Wq), [T, h, dk]), [1, 0, 2]), [1, h, T, dk]), [B, 1, 1, 1]);
    const K = splitHeads(tf.matMul(C, Wk), S);
    const V = splitHeads(tf.matMul(C, Wv), S);
    const weights = tf.softmax(tf.mul(tf.matMul(tf.reshape(Q, [B * h, T, dk]), tf.transpose(K, [0, 2, 1])), scale));
    const heads = tf.matMul(weights, V);  // B*h x T x dk
    const concat = tf.reshape(tf.transpose(tf.reshape(heads, [B, h, T, dk]), [0, 2, 1, 3]), [B * T, d]);
    const Y = tf.add(tf.matMul(concat, Wo), tf.tile(P, [B, 1]));
    const Z = tf.add(tf.matMul(Y, WoutT), bout);
    return tf.losses.softmaxCrossEntropy(targets, Z);
  };

  return {
    step(batchIndex) {
      let value;
      tf.tidy(() => {
        const { value: l, grads } = tf.variableGrads(loss(batches[batchIndex % batches.length]), variables);
        for (const v of variables) v.assign(tf.mul(v, decay));
        optimizer.applyGradients(grads);
        value = l.dataSync()[0];
      });
      return value;
    },
    dispose() {
      tf.dispose([...variables, sourcePositions, ...batches.flatMap((b) => [b.sources, b.targets])]);
      optimizer.dispose();
    },
  };
}

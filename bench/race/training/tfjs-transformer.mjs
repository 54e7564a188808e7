// The engine's transformer (cpp/src/models/transformer_model.hpp,
// transformer_stack.hpp, layers/multi_head_attention.hpp) and its training step
// (cpp/src/training/engine_trainer.hpp) written with tfjs-core, in the form tfjs
// documents for custom training: the loss as a function of tf.variable()s,
// tf.variableGrads(loss) for the gradients, optimizer.applyGradients(grads) of
// tf.train.adam (optimizer.minimize is these two calls; the clipping and
// AdamW's decoupled decay go between them, as the core does them), all inside
// tf.tidy, the loss read with dataSync() inside it.
//
// The model, for B examples of S source and T target positions (rows are
// (example, position), example-major), d = dModel, H heads of d_k = d / H:
//   X_s = E_s[source] + PE[0..S)                  E by a one-hot product: tfjs-backend-wasm has no
//                                                 UnsortedSegmentSum, the gradient of tf.gather
//   per encoder layer (pre-LayerNorm):  X += MHA(LN1(X), LN1(X), key padding);  X += MLP(LN3(X))
//   M = LN_f(X)
//   X_t = E_t[input] + PE[0..T)
//   per decoder layer:  X += MHA(LN1(X), LN1(X), causal + key padding);  X += MHA(LN2(X), M, source padding)
//                       X += MLP(LN3(X))
//   Z = LN_f(X) W_out + b_out                      B*T x V_t
//   L = Σ counted · CE(softmax(Z), output) / Σ counted
// with LN(x) = γ (x - mean) / sqrt(var + 1e-5) + β (population variance),
// MHA = concat_h(softmax(s Q_h K_h^T + mask) V_h) W_O (Q = X W_Q, ... no biases),
// s = 1/sqrt(d_k), MLP(x) = GELU(x W_1 + b_1) W_2 + b_2, GELU's tanh form
// x/2 (1 + tanh(sqrt(2/π)(x + 0.044715 x^3))), the embeddings unscaled (E ~ N(0, 1),
// not multiplied by sqrt(d)), sinusoidal positions.
// The step: the gradients clipped as one vector to length at most 1, then AdamW:
// θ *= 1 - lr λ for the matrices only (role 'matrix'), then Adam (β 0.9, 0.999, ε 1e-8).
//
// Every weight starts from the engine's own initial parameters, block by block
// (the testing engine's parameterBlocks(): names, shapes, offsets, roles), and
// every block must be used exactly once: a block this model does not know is an
// error, so the model cannot silently differ from the engine's.
//
// The tfjs forms (README.md, "The transformer step"; both race, the faster counts):
// - form 'tuned' (the race's tfjs): every product through tf.customGrad with
//   the gradients dA = dY transpose(B), dB = transpose(A) dY. tfjs's own
//   gradient of matMul multiplies with the transposeA / transposeB flags, which
//   this backend runs 10-17x slower than a transpose followed by a plain
//   product (544x64 operands, CPU ms a call here, 2026-12-05: A^T dY 4.3 against
//   0.25, dY W^T 2.7 against 0.26); the same products, the same autodiff of
//   every other op. GELU as x σ(2u), the same function (1/2 (1 + tanh u) =
//   σ(2u), as the core computes it): the backend's Tanh takes 0.84 ms on 544x64,
//   its Sigmoid 0.02. The step takes ~2.7-3x less CPU than the plain form's
//   (the race prints both).
// - form 'plain': tfjs's own gradients throughout (tf.matMul, tf.fused.matMul
//   for the products with a bias, GELU with tf.tanh), as a tfjs user first writes it.
// Both: K transposed before the product (matMul's transposeB flag is slower),
// the masks built once per batch (data, as the batches are) and none where
// nothing is masked, the scale applied to Q (B*n x d) rather than to the scores.
//
// tf: tfjs-core with the wasm backend set (bench/peers/tfjs-training.mjs).
// problem: ./transformer-workload.mjs; form: 'tuned' or 'plain'.
// Returns { parameterCount, step(batchIndex) -> loss, dispose }.
const LAYER_NORM_EPSILON = 1e-5;
const MASKED = -1e9;  // exp(-1e9 - max) is 0 in float: the core's -inf
const SQRT_TWO_OVER_PI = Math.sqrt(2 / Math.PI);
const GELU_CUBIC = 0.044715;

// The model's variables by block name, each taken once by `take`.
function modelVariables(tf, problem) {
  const variables = new Map();
  for (const block of problem.blocks) {
    const values = problem.initial.subarray(block.offset, block.offset + block.rows * block.cols);
    const shape = block.rows === 1 ? [block.cols] : [block.rows, block.cols];
    variables.set(block.name, { block, variable: tf.variable(tf.tensor(values, shape), true) });
  }
  const taken = new Set();
  const take = (name) => {
    const entry = variables.get(name);
    if (!entry) throw new Error(`tfjs transformer: the engine's model has no block '${name}'`);
    if (taken.has(name)) throw new Error(`tfjs transformer: block '${name}' used twice`);
    taken.add(name);
    return entry.variable;
  };
  const untaken = () => [...variables.keys()].filter((name) => !taken.has(name));
  return { variables, take, untaken };
}

// The structure of the engine's transformer, from its block names (transformer_stack.cpp).
function modelStructure(take, layers) {
  const norm = (prefix) => ({ gain: take(`${prefix}.gain`), bias: take(`${prefix}.bias`) });
  const attention = (prefix) => ({ q: take(`${prefix}.w_q`), k: take(`${prefix}.w_k`), v: take(`${prefix}.w_v`),
    o: take(`${prefix}.w_o`) });
  const stack = (name, cross) => ({
    embedding: take(`${name}.embedding`),
    layers: Array.from({ length: layers }, (_, l) => {
      const prefix = `${name}.${l}`;
      return {
        norm1: norm(`${prefix}.norm1`), self: attention(`${prefix}.attention`),
        ...(cross ? { norm2: norm(`${prefix}.norm2`), cross: attention(`${prefix}.cross`) } : {}),
        norm3: norm(`${prefix}.norm3`),
        mlp: { w1: take(`${prefix}.mlp.w1`), b1: take(`${prefix}.mlp.b1`), w2: take(`${prefix}.mlp.w2`), b2: take(`${prefix}.mlp.b2`) },
      };
    }),
    norm: norm(`${name}.norm`),
  });
  return { encoder: stack('encoder', false), decoder: stack('decoder', true),
    output: { w: take('output.w'), b: take('output.b') } };
}

// Additive masks of one batch: [B*H, n, m], 0 where key j is seen by query i of
// example b, MASKED where j >= lengths[b] or (causal) j > i; null when nothing is masked.
function maskOf(tf, { B, H, n, m, lengths, causal }) {
  const values = new Float32Array(B * H * n * m);
  let any = false;
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < n; i++) {
      const visible = Math.min(lengths ? lengths[b] : m, causal ? i + 1 : m);
      for (let j = visible; j < m; j++) {
        for (let h = 0; h < H; h++) values[((b * H + h) * n + i) * m + j] = MASKED;
        any = true;
      }
    }
  }
  return any ? tf.keep(tf.tensor3d(values, [B * H, n, m])) : null;
}

// The products and GELU of a form.
function forms(tf, form) {
  if (form === 'plain') {
    return {
      product: (a, b) => tf.matMul(a, b),
      affine: (a, b, bias) => tf.fused.matMul({ a, b, bias }),
      // x/2 (1 + tanh(sqrt(2/π)(x + 0.044715 x^3)))
      gelu: (x) => tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(tf.mul(tf.add(x, tf.mul(tf.mul(tf.square(x), x), GELU_CUBIC)),
        SQRT_TWO_OVER_PI)), 1)),
    };
  }
  if (form !== 'tuned') throw new Error(`tfjs transformer: form 'tuned' or 'plain', got '${form}'`);
  const transposed = (x) => (x.rank === 3 ? tf.transpose(x, [0, 2, 1]) : tf.transpose(x));
  return {
    // A B; dA = dY B^T, dB = A^T dY
    product: tf.customGrad((a, b, save) => {
      save([a, b]);
      return { value: tf.matMul(a, b), gradFunc: (dy, [sa, sb]) => [tf.matMul(dy, transposed(sb)), tf.matMul(transposed(sa), dy)] };
    }),
    // A B + bias; d bias = Σ_rows dY
    affine: tf.customGrad((a, b, bias, save) => {
      save([a, b]);
      return { value: tf.add(tf.matMul(a, b), bias),
        gradFunc: (dy, [sa, sb]) => [tf.matMul(dy, transposed(sb)), tf.matMul(transposed(sa), dy), tf.sum(dy, 0)] };
    }),
    // x σ(2u), 2u = 2 sqrt(2/π)(x + 0.044715 x^3)
    gelu: (x) => tf.mul(x, tf.sigmoid(tf.mul(tf.add(x, tf.mul(tf.mul(tf.square(x), x), GELU_CUBIC)), 2 * SQRT_TWO_OVER_PI))),
  };
}

export function makeTfjsTransformer(tf, problem, form = 'tuned') {
  const { layers, dModel: d, heads: H, learningRate, weightDecay, scale: scaled, positions } = problem.options;
  if (positions !== 'sinusoidal') throw new Error(`tfjs transformer: the race trains sinusoidal positions, got '${positions}'`);
  const dk = d / H;
  const { product, affine, gelu } = forms(tf, form);
  const scale = scaled ? Math.fround(1 / Math.sqrt(dk)) : 1;
  const { variables, take, untaken } = modelVariables(tf, problem);
  const model = modelStructure(take, layers);
  if (untaken().length) throw new Error(`tfjs transformer: blocks of the engine's model it does not use: ${untaken().join(', ')}`);
  const all = [...variables.values()];
  const trainable = all.map((e) => e.variable);
  // The same model has the same number of parameters (every block taken once: the same shapes).
  const parameterCount = trainable.reduce((n, v) => n + v.size, 0);
  if (parameterCount !== problem.parameterCount) {
    throw new Error(`tfjs transformer: ${parameterCount} parameters, the engine's model ${problem.parameterCount}`);
  }
  const decayed = all.filter((e) => e.block.role === 'matrix').map((e) => e.variable);
  const Vs = model.encoder.embedding.shape[0], Vt = model.decoder.embedding.shape[0];
  const optimizer = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
  const decay = Math.fround(1 - Math.fround(learningRate) * Math.fround(weightDecay));

  // PE rows 0..n-1 for every example: B*n x d.
  const positionsOf = (B, n) => {
    const rows = new Float32Array(B * n * d);
    for (let b = 0; b < B; b++) rows.set(problem.sinusoids.subarray(0, n * d), b * n * d);
    return tf.keep(tf.tensor2d(rows, [B * n, d]));
  };
  const oneHot = (ids, depth) => tf.keep(tf.tidy(() => tf.cast(tf.oneHot(tf.tensor1d(ids, 'int32'), depth), 'float32')));
  const batches = problem.batches.map((batch) => {
    const { size: B, sourceLength: S, targetLength: T } = batch;
    return {
      B, S, T,
      source: oneHot(batch.source, Vs), input: oneHot(batch.input, Vt), output: oneHot(batch.output, Vt),
      counted: tf.keep(tf.tensor1d(Float32Array.from(batch.counted))),
      sourcePositions: positionsOf(B, S), targetPositions: positionsOf(B, T),
      encoderMask: maskOf(tf, { B, H, n: S, m: S, lengths: batch.sourceLengths }),
      decoderMask: maskOf(tf, { B, H, n: T, m: T, lengths: batch.targetLengths, causal: true }),
      crossMask: maskOf(tf, { B, H, n: T, m: S, lengths: batch.sourceLengths }),
    };
  });

  const layerNorm = (x, { gain, bias }) => {
    const mean = tf.mean(x, -1, true);
    const centred = tf.sub(x, mean);
    const variance = tf.mean(tf.square(centred), -1, true);
    return tf.add(tf.mul(tf.mul(centred, tf.rsqrt(tf.add(variance, LAYER_NORM_EPSILON))), gain), bias);
  };
  // [B*n, d] -> [B*H, n, dk] (example b, head h at b*H + h), or its transpose [B*H, dk, n].
  const splitHeads = (x, B, n) => tf.reshape(tf.transpose(tf.reshape(x, [B, n, H, dk]), [0, 2, 1, 3]), [B * H, n, dk]);
  const splitHeadsTransposed = (x, B, n) => tf.reshape(tf.transpose(tf.reshape(x, [B, n, H, dk]), [0, 2, 3, 1]), [B * H, dk, n]);
  const attention = (xq, xkv, w, B, n, m, mask) => {
    const q = splitHeads(tf.mul(product(xq, w.q), scale), B, n);
    const kT = splitHeadsTransposed(product(xkv, w.k), B, m);
    const v = splitHeads(product(xkv, w.v), B, m);
    const scores = mask ? tf.add(product(q, kT), mask) : product(q, kT);
    const heads = product(tf.softmax(scores), v);  // [B*H, n, dk]
    const concat = tf.reshape(tf.transpose(tf.reshape(heads, [B, H, n, dk]), [0, 2, 1, 3]), [B * n, d]);
    return product(concat, w.o);
  };
  const mlp = (x, w) => affine(gelu(affine(x, w.w1, w.b1)), w.w2, w.b2);

  const loss = (batch) => () => {
    const { B, S, T } = batch;
    let x = tf.add(product(batch.source, model.encoder.embedding), batch.sourcePositions);
    for (const layer of model.encoder.layers) {
      const h = layerNorm(x, layer.norm1);
      x = tf.add(x, attention(h, h, layer.self, B, S, S, batch.encoderMask));
      x = tf.add(x, mlp(layerNorm(x, layer.norm3), layer.mlp));
    }
    const memory = layerNorm(x, model.encoder.norm);
    x = tf.add(product(batch.input, model.decoder.embedding), batch.targetPositions);
    for (const layer of model.decoder.layers) {
      const h = layerNorm(x, layer.norm1);
      x = tf.add(x, attention(h, h, layer.self, B, T, T, batch.decoderMask));
      x = tf.add(x, attention(layerNorm(x, layer.norm2), memory, layer.cross, B, T, S, batch.crossMask));
      x = tf.add(x, mlp(layerNorm(x, layer.norm3), layer.mlp));
    }
    const logits = affine(layerNorm(x, model.decoder.norm), model.output.w, model.output.b);
    // Σ counted · CE / Σ counted (the default reduction, SUM_BY_NONZERO_WEIGHTS; counted is 0 or 1)
    return tf.losses.softmaxCrossEntropy(batch.output, logits, batch.counted);
  };

  return {
    parameterCount,
    step(batchIndex) {
      let value;
      tf.tidy(() => {
        const { value: l, grads } = tf.variableGrads(loss(batches[batchIndex % batches.length]), trainable);
        // g *= 1 / max(N, 1), N = sqrt(Σ g²) over every gradient (clipping by global norm 1)
        const norm = tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g)))));
        const factor = tf.div(1, tf.maximum(norm, 1));
        const clipped = Object.fromEntries(Object.entries(grads).map(([name, g]) => [name, tf.mul(g, factor)]));
        for (const v of decayed) v.assign(tf.mul(v, decay));
        optimizer.applyGradients(clipped);
        value = l.dataSync()[0];
      });
      return value;
    },
    dispose() {
      tf.dispose([...trainable, ...batches.flatMap((b) => Object.values(b).filter((t) => t instanceof tf.Tensor))]);
      optimizer.dispose();
    },
  };
}

// TensorFlow.js (tfjs-core + tfjs-backend-wasm) in its fastest attention form
// (see TOOLCHAIN.md, "Measuring against peers"):
//   O = matMul(softmax(matMul(mul(Q, 1/sqrt(d)), transpose(K))), V)
// - matMul(q, transpose(k)): in tfjs-backend-wasm 4.22 a matMul without transpose
//   flags (batch 1) runs XNNPACK's fully-connected operator; with transposeB it
//   falls back to a plain blocked loop (src/cc/batch_mat_mul_impl.cc), 3-8x slower;
// - the scale on Q (n x d multiplies) rather than on the scores (n x m);
// - dataSync() inside tf.tidy, assigned to an outer variable (returning the typed
//   array from tidy makes tidy walk every element); every intermediate is freed
//   by tidy.
// tf: the tfjs namespace with the 'wasm' backend already set (Node:
// bench/peers/node.mjs; browser: bench/race/browser/main.mjs), one thread.
export function tfjsContender(tf) {
  const env = tf.env();
  const simd = env.getBool('WASM_HAS_SIMD_SUPPORT');
  const threads = env.getBool('WASM_HAS_MULTITHREAD_SUPPORT');
  if (tf.getBackend() !== 'wasm') throw new Error(`tfjs: expected the wasm backend, got ${tf.getBackend()}`);
  if (threads) throw new Error('tfjs: expected one thread (WASM_HAS_MULTITHREAD_SUPPORT false)');
  const binary = simd ? 'tfjs-backend-wasm-simd.wasm' : 'tfjs-backend-wasm.wasm';
  return {
    name: 'tfjs',
    role: 'peer',
    library: 'tfjs',
    label: `tfjs ${tf.version_core} wasm backend (${binary}, 1 thread): matMul(mul(q, 1/sqrt(d)), transpose(k)), ` +
      'softmax, matMul(., v) (both matMuls on XNNPACK fully-connected); dataSync inside tidy',
    prepare(p) {
      const scale = 1 / Math.sqrt(p.d);
      return () => {
        let out;
        tf.tidy(() => {
          const q = tf.tensor2d(p.q, [p.n, p.d]);
          const k = tf.tensor2d(p.k, [p.m, p.d]);
          const v = tf.tensor2d(p.v, [p.m, p.d]);
          const weights = tf.softmax(tf.matMul(tf.mul(q, scale), tf.transpose(k)));
          out = tf.matMul(weights, v).dataSync();
        });
        return out;
      };
    },
  };
}

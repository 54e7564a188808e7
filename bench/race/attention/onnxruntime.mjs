// onnxruntime-web (wasm execution provider, one thread) on the attention graph
// of bench/peers/onnx-attention-model.mjs, in each of its forms:
//   matmul     Transpose, MatMul, Mul, Softmax, MatMul (static shapes; level 'all' lets
//              ORT's optimizer rewrite it, e.g. into FusedMatMul(transB, alpha))
//   attention  the ONNX opset-23 Attention operator (fails with an integer
//              overflow at n = 4096 in 1.30: reported, not timed)
// graphOptimizationLevel 'all' (ORT's default, said explicitly), the CPU memory
// arena and memory pattern on (defaults). One session per form and n.
//   ort: the onnxruntime-web namespace with env.wasm.numThreads = 1 and
//        env.wasm.wasmPaths set (bench/peers/node.mjs, bench/race/browser/main.mjs);
//   modelBytes(form, n, m, d) -> Promise<Uint8Array> (Node: built in process;
//        the browser fetches it from the bench server).
const FORMS = {
  matmul: { label: 'Transpose/MatMul/Mul/Softmax/MatMul graph', shape: (rows, d) => [rows, d] },
  attention: { label: 'ONNX Attention operator (opset 23)', shape: (rows, d) => [1, 1, rows, d] },
};

export function ortContenders(ort, { modelBytes, forms = Object.keys(FORMS) }) {
  if (ort.env.wasm.numThreads !== 1) throw new Error(`onnxruntime-web: expected numThreads 1, got ${ort.env.wasm.numThreads}`);
  return forms.map((form) => ({
    name: `ort-${form}`,
    role: 'peer',
    library: 'onnxruntime-web',
    label: `onnxruntime-web ${ort.env.versions?.web ?? ''} wasm EP (ort-wasm-simd-threaded.wasm, numThreads 1, ` +
      `graphOptimizationLevel 'all'): ${FORMS[form].label}`,
    async prepare(p) {
      const session = await ort.InferenceSession.create(await modelBytes(form, p.n, p.m, p.d), {
        executionProviders: ['wasm'],
        graphOptimizationLevel: 'all',
      });
      const qShape = FORMS[form].shape(p.n, p.d), kvShape = FORMS[form].shape(p.m, p.d);
      const call = async () => {
        const result = await session.run({
          q: new ort.Tensor('float32', p.q, qShape),
          k: new ort.Tensor('float32', p.k, kvShape),
          v: new ort.Tensor('float32', p.v, kvShape),
        });
        return result.o.data;
      };
      call.dispose = () => session.release();
      return call;
    },
  }));
}

// The attention graph for onnxruntime-web, built in JavaScript with onnx-proto
// (Node only: onnx-proto is CommonJS; the browser race fetches these bytes
// from the bench server, scripts/bench-browser.mjs).
//
//   form 'matmul':    Q n x d, K m x d, V m x d (2-D, static shapes)
//                     Kt = Transpose(K); S = MatMul(Q, Kt); S' = Mul(S, 1/sqrt(d));
//                     P = Softmax(S', axis = -1); O = MatMul(P, V)
//                     (graphOptimizationLevel 'all' leaves ORT free to rewrite it, e.g.
//                     Transpose + MatMul + Mul into one FusedMatMul)
//   form 'attention': the ONNX opset-23 Attention operator on 4-D [1, 1, n, d]
//                     (batch 1, one head), scale 1/sqrt(d) (its default)
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { onnx } = require('onnx-proto');

const FLOAT = onnx.TensorProto.DataType.FLOAT;

const tensorInfo = (name, dims) => onnx.ValueInfoProto.create({
  name,
  type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((dimValue) => ({ dimValue })) } } },
});

function matmulGraph(n, m, d) {
  const scale = onnx.TensorProto.create({ name: 'scale', dataType: FLOAT, dims: [], floatData: [1 / Math.sqrt(d)] });
  return onnx.GraphProto.create({
    name: 'attention_matmul',
    input: [tensorInfo('q', [n, d]), tensorInfo('k', [m, d]), tensorInfo('v', [m, d])],
    output: [tensorInfo('o', [n, d])],
    initializer: [scale],
    node: [
      onnx.NodeProto.create({ opType: 'Transpose', input: ['k'], output: ['kt'],
        attribute: [{ name: 'perm', type: onnx.AttributeProto.AttributeType.INTS, ints: [1, 0] }] }),
      onnx.NodeProto.create({ opType: 'MatMul', input: ['q', 'kt'], output: ['s'] }),
      onnx.NodeProto.create({ opType: 'Mul', input: ['s', 'scale'], output: ['scaled'] }),
      onnx.NodeProto.create({ opType: 'Softmax', input: ['scaled'], output: ['p'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }] }),
      onnx.NodeProto.create({ opType: 'MatMul', input: ['p', 'v'], output: ['o'] }),
    ],
  });
}

function attentionOpGraph(n, m, d) {
  return onnx.GraphProto.create({
    name: 'attention_op',
    input: [tensorInfo('q', [1, 1, n, d]), tensorInfo('k', [1, 1, m, d]), tensorInfo('v', [1, 1, m, d])],
    output: [tensorInfo('o', [1, 1, n, d])],
    node: [onnx.NodeProto.create({ opType: 'Attention', input: ['q', 'k', 'v'], output: ['o'] })],
  });
}

export const ONNX_FORMS = {
  matmul: { graph: matmulGraph, opset: 17, irVersion: 8, inputShape: (rows, d) => [rows, d] },
  attention: { graph: attentionOpGraph, opset: 23, irVersion: 10, inputShape: (rows, d) => [1, 1, rows, d] },
};

// The serialized ModelProto (Uint8Array) of one form for Q n x d, K and V m x d.
export function attentionModelBytes(form, n, m, d) {
  const spec = ONNX_FORMS[form];
  if (!spec) throw new RangeError(`form: expected ${Object.keys(ONNX_FORMS).join(' or ')}, got ${form}`);
  const model = onnx.ModelProto.create({
    irVersion: spec.irVersion,
    producerName: 'attention-computed bench',
    opsetImport: [{ domain: '', version: spec.opset }],
    graph: spec.graph(n, m, d),
  });
  return onnx.ModelProto.encode(model).finish();
}

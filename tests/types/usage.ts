// A typed user of the engine's public API (web/src/engine/index.d.ts) and of its
// test entry (testing.d.ts, and through loadBuild the raw module's
// cpp/bindings/attention.d.ts). Never run: `tsc -p
// tests/types` type-checks it, so a declaration that is wrong, missing or `any`
// fails the JavaScript layer of npm test. Each @ts-expect-error is a misuse the
// declarations must reject (an unused one is itself an error).
import { createTestingEngine, loadBuild } from '../../web/src/engine/testing.js';
import {
  createAttention, preferredBuild,
  type AttentionEngine, type AttentionTrace, type BuildName, type MaskOption, type MultiHeadResult,
  type RowStats, type SaturationResult,
} from '../../web/src/engine/index.js';

export async function workedExample(): Promise<number[]> {
  const engine: AttentionEngine = await createAttention();
  const q = new Float32Array([1, 0]);
  const k = new Float32Array([1, 0, 0, 1, 1, 1]);
  const v = new Float32Array([2, 0, 0, 2, 1, 1]);
  const trace: AttentionTrace = engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2 });
  const scaledBy: number = trace.scale;
  const rows: Float32Array[] = [trace.scores, trace.scaled, trace.masked, trace.weights, trace.output];
  // @ts-expect-error the arrays are Float32Array, not Float64Array
  const wide: Float64Array = trace.weights;
  // @ts-expect-error q must be a Float32Array, not a plain array
  engine.attention({ q: [1, 0], k, v, n: 1, m: 3, dk: 2, dv: 2 });
  // @ts-expect-error dv is required
  engine.attention({ q, k, v, n: 1, m: 3, dk: 2 });
  // @ts-expect-error no such mask
  engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2, mask: 'diagonal' });
  // @ts-expect-error the engine is read-only
  engine.simd = false;
  void wide;
  return [scaledBy, ...rows.map((r) => r.length)];
}

export async function everyCall(build: BuildName): Promise<void> {
  const engine = await createAttention({ build, wasmBinary: { simd: new Uint8Array(0) } });
  const chosen: BuildName = await preferredBuild();
  const flags: [BuildName, boolean, number] = [engine.build, engine.simd, engine.simdWidth];
  const x = new Float32Array(4 * 8);
  const w = new Float32Array(8 * 8);
  const masks: MaskOption[] = [null, 'none', 'causal', { validKeys: 2 }, new Uint8Array(16)];
  for (const mask of masks) {
    const out: Float32Array = engine.attentionOutput({ q: x, k: x, v: x, n: 4, m: 4, dk: 8, dv: 8, mask, path: 'tiled' });
    const reference: AttentionTrace = engine.attentionReference({ q: x, k: x, v: x, n: 4, m: 4, dk: 8, dv: 8, mask, scale: 0.5 });
    void out;
    void reference;
  }
  // @ts-expect-error no such path
  engine.attentionOutput({ q: x, k: x, v: x, n: 4, m: 4, dk: 8, dv: 8, path: 'fast' });
  const heads: MultiHeadResult = engine.multiHead({ x, heads: 2, wq: w, wk: w, wv: w, wo: w, mask: 'causal' });
  const perHead: Float32Array[] = heads.headWeights;
  const cross = engine.multiHead({ x, context: x, heads: 4, wq: w, wk: w, wv: w, wo: w, n: 4, m: 4, dModel: 8 });
  const sat: SaturationResult = engine.saturation({ dk: 64, queries: 8, keys: 8, trials: 10, seed: 2n ** 40n });
  const saturated: number = sat.saturatedShare.raw + sat.maxWeight.scaled + sat.entropy.raw + sat.gradient.scaled + sat.logitStd;
  const scores: Float32Array = engine.scores({ kind: 'additive', s: x, h: x, n: 4, m: 4, ds: 8, dh: 8, da: 3, wa: w, ua: w, va: x });
  // @ts-expect-error no such score
  engine.scores({ kind: 'cosine', s: x, h: x, n: 4, m: 4, ds: 8, dh: 8 });
  const context: Float32Array = engine.context({ alignment: w, h: x, n: 4, m: 4, dh: 8 });
  const p: Float32Array = engine.softmax(x, 4, 8);
  const stats: RowStats = engine.rowStats(p.subarray(0, 8));
  const jacobian: Float64Array = engine.softmaxJacobian(p.subarray(0, 8));
  const encoding: Float32Array = engine.positionalEncoding(6, 8);
  const normals: Float32Array = engine.randomNormal({ seed: 1, rows: 2, cols: 3, stddev: 2 });
  const testing = await createTestingEngine({ build });
  const stream: { normals: Float64Array; u64: BigUint64Array } = testing.randomStream({ seed: 1n, count: 4 });
  const reference: Float32Array = testing.attentionOutput({ q: x, k: x, v: x, n: 4, m: 4, dk: 8, dv: 8, path: 'reference' });
  // @ts-expect-error the public engine has no randomStream (a test-only export)
  engine.randomStream({ seed: 1n, count: 4 });
  // @ts-expect-error seeds are numbers or bigints
  engine.randomNormal({ seed: '1', rows: 2, cols: 3 });
  void [chosen, flags, perHead, cross.output, saturated, scores, context, stats.jacobianTrace, jacobian, encoding, normals, stream, reference];
}

export async function rawModule(): Promise<number> {
  const module = await loadBuild('baseline');
  const width: number = module.simdWidth();
  const result = module.softmax(new Float32Array([1, 2]), 1, 2);
  // The raw module returns its errors: narrow before use.
  if (result instanceof Error) throw result;
  const weights: Float32Array = result;
  // @ts-expect-error no such build
  await loadBuild('avx');
  return width + weights.length;
}

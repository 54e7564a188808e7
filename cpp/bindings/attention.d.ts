// The raw Embind module built from attention_bindings.cpp (attention-simd.mjs /
// attention-baseline.mjs). Hand-written: Embind 3.1.6 cannot emit it.
//
// Most callers want the engine (web/src/engine/index.js), which checks argument
// types, fills in every option and throws the Errors this module RETURNS:
// every function returns either its result or an Error object (RangeError for
// a shape or size error, Error for a value error) carrying the core's message.
// Arrays are copied in; every returned array is a fresh copy.

/** scaleMode: 0 = 1/sqrt(dk), 1 = none, 2 = `scale`. maskKind: 0 none, 1 causal, 2 key padding, 3 keep-matrix. */
export interface AttentionCall {
  n: number;
  m: number;
  dk: number;
  dv: number;
  scaleMode: 0 | 1 | 2;
  scale: number;
  maskKind: 0 | 1 | 2 | 3;
  validKeys: number;
}

export interface MultiHeadCall {
  n: number;
  m: number;
  dModel: number;
  heads: number;
  maskKind: 0 | 1 | 2 | 3;
  validKeys: number;
}

export interface SaturationCall {
  dk: number;
  queries: number;
  keys: number;
  trials: number;
  seedHigh: number;  // seed = seedHigh * 2^32 + seedLow
  seedLow: number;
}

export interface ScoresCall {
  n: number;
  m: number;
  ds: number;
  dh: number;
  da: number;
}

export interface Trace {
  scores: Float32Array;
  scaled: Float32Array;
  masked: Float32Array;
  weights: Float32Array;
  output: Float32Array;
  scale: number;
}

type Result<T> = T | Error;
type RawScaled = { raw: number; scaled: number };

export interface AttentionModule {
  /** `keep` is the Uint8Array(n*m) keep-matrix when maskKind == 3 (else ignored). */
  attention(q: Float32Array, k: Float32Array, v: Float32Array, call: AttentionCall, keep: Uint8Array): Result<Trace>;
  attentionReference(q: Float32Array, k: Float32Array, v: Float32Array, call: AttentionCall,
    keep: Uint8Array): Result<Trace>;
  attentionOutput(q: Float32Array, k: Float32Array, v: Float32Array, call: AttentionCall, keep: Uint8Array,
    path: 'tiled' | 'full' | 'scalar' | 'reference'): Result<Float32Array>;
  /** `context` of length 0 = self-attention. */
  multiHead(x: Float32Array, context: Float32Array, wq: Float32Array, wk: Float32Array, wv: Float32Array,
    wo: Float32Array, call: MultiHeadCall, keep: Uint8Array): Result<{
      output: Float32Array; headWeights: Float32Array[]; q: Float32Array; k: Float32Array; v: Float32Array;
      concat: Float32Array;
    }>;
  saturation(call: SaturationCall): Result<{
    logitStd: number; maxWeight: RawScaled; entropy: RawScaled; gradient: RawScaled; saturatedShare: RawScaled;
  }>;
  /** wa/ua/va may be empty when the kind does not use them. */
  scores(kind: string, s: Float32Array, h: Float32Array, call: ScoresCall, wa: Float32Array, ua: Float32Array,
    va: Float32Array): Result<Float32Array>;
  context(alignment: Float32Array, h: Float32Array, n: number, m: number, dh: number): Result<Float32Array>;
  softmax(logits: Float32Array, rows: number, cols: number): Result<Float32Array>;
  rowStats(probabilities: Float32Array): Result<{ maxWeight: number; entropy: number; jacobianTrace: number }>;
  softmaxJacobian(probabilities: Float32Array): Result<Float64Array>;
  positionalEncoding(n: number, dModel: number): Result<Float32Array>;
  randomNormal(seedHigh: number, seedLow: number, rows: number, cols: number, stddev: number): Result<Float32Array>;
  randomStream(seedHigh: number, seedLow: number, count: number): Result<{
    normals: Float64Array; u64High: Uint32Array; u64Low: Uint32Array;
  }>;
  /** 4 in the SIMD128 build, 1 in the baseline. */
  simdWidth(): number;
}

export interface ModuleOptions {
  /** The .wasm bytes (Node: the module is built for the web and cannot fetch file:// URLs). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

declare function createAttentionModule(options?: ModuleOptions): Promise<AttentionModule>;
export default createAttentionModule;

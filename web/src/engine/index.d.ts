// The attention engine's public API (hand-written; see index.js).
//
// Shape legend (as in the C++ core, cpp/include/attn/shapes.hpp): n queries,
// m keys/values, dk, dv, heads, dModel. Every matrix is a flat row-major
// Float32Array whose rows are tokens; element (r, c) of an R x C matrix is at
// r * C + c. Every returned array is a fresh copy (never a view of wasm memory).
//
// Errors: a wrong argument TYPE throws TypeError naming the argument. The core's
// errors are thrown as RangeError (a length or size does not match, or too
// large for memory) or Error (a value is not allowed: NaN, infinity, a
// non-positive scale, ...), with the core's message, e.g.
//   "k: expected m*d_k = 3*2 = 6 floats, got 5". The engine stays usable.

export type BuildName = 'simd' | 'baseline';

export type WasmBytes = ArrayBuffer | ArrayBufferView;

export interface CreateAttentionOptions {
  /** 'auto' (default): SIMD where the WebAssembly engine supports SIMD128, else baseline. */
  build?: 'auto' | BuildName;
  /**
   * The .wasm bytes to instantiate instead of fetching the file (e.g. a page opened
   * from disk that carries them inline): one buffer for the build that is chosen, or
   * one per build. Used the first time a build loads; later calls share that engine.
   */
  wasmBinary?: WasmBytes | { simd?: WasmBytes; baseline?: WasmBytes };
}

/**
 * Scale of QK^T: omitted or true = 1/sqrt(dk); false = no scaling; a number = that
 * factor (finite and positive).
 */
export type ScaleOption = number | boolean;

/**
 * Which keys each query may attend to. Omitted/null/'none': all. 'causal': key j <= query i.
 * { validKeys }: keys j >= validKeys are padding. Uint8Array(n*m): keep-matrix, 1 = may attend.
 * Masked weights are exactly 0; a fully masked row gets zero weights and a zero output row.
 */
export type MaskOption = null | 'none' | 'causal' | { validKeys: number } | Uint8Array;

export interface AttentionArgs {
  q: Float32Array;  // n x dk
  k: Float32Array;  // m x dk
  v: Float32Array;  // m x dv
  n: number;
  m: number;
  dk: number;
  dv: number;
  scale?: ScaleOption;
  mask?: MaskOption;
}

export interface AttentionTrace {
  scores: Float32Array;   // n x m   QK^T
  scaled: Float32Array;   // n x m   scale * QK^T
  masked: Float32Array;   // n x m   scaled with -Infinity where masked
  weights: Float32Array;  // n x m   row softmax (0 where masked)
  output: Float32Array;   // n x dv  weights V
  scale: number;          // the factor that was applied
}

export interface AttentionOutputArgs extends AttentionArgs {
  /**
   * 'tiled' (default): online softmax, never holds the n x m matrix.
   * 'full': the SIMD kernels through one n x m matrix.
   * Benchmarks only: 'scalar' (the full path with the scalar kernels),
   * 'reference' (the double-accumulating reference).
   */
  path?: 'tiled' | 'full' | 'scalar' | 'reference';
}

export interface MultiHeadArgs {
  x: Float32Array;         // n x dModel (queries)
  context?: Float32Array;  // m x dModel (keys, values); omitted = self-attention
  heads: number;           // dModel % heads == 0; each head dk = dv = dModel / heads
  wq: Float32Array;        // dModel x dModel, Q = X W_Q
  wk: Float32Array;
  wv: Float32Array;
  wo: Float32Array;
  mask?: MaskOption;
  n?: number;              // default x.length / dModel
  m?: number;              // default context.length / dModel, or n
  dModel?: number;         // default sqrt(wq.length)
}

export interface MultiHeadResult {
  output: Float32Array;         // n x dModel   concat W_O
  headWeights: Float32Array[];  // heads arrays of n x m
  q: Float32Array;              // n x dModel   X W_Q
  k: Float32Array;              // m x dModel   C W_K
  v: Float32Array;              // m x dModel   C W_V
  concat: Float32Array;         // n x dModel   Concat(head_1 .. head_h)
}

export type Seed = number | bigint;  // 0 <= seed < 2^64

export interface SaturationArgs {
  dk?: number;       // default 64
  queries?: number;  // default 8
  keys?: number;     // default 8
  trials?: number;   // default 200
  seed?: Seed;       // default 0
}

export interface RawScaled {
  raw: number;     // logits QK^T
  scaled: number;  // logits QK^T / sqrt(dk)
}

export interface SaturationResult {
  logitStd: number;  // standard deviation of the raw logits (about sqrt(dk))
  maxWeight: RawScaled;
  entropy: RawScaled;         // nats
  gradient: RawScaled;        // mean trace of the softmax Jacobian, sum p(1-p)
  saturatedShare: RawScaled;  // share of rows whose largest weight exceeds 0.99
}

export interface ScoresArgs {
  kind: 'dot' | 'scaledDot' | 'general' | 'additive';
  s: Float32Array;  // n x ds decoder states
  h: Float32Array;  // m x dh encoder states
  n: number;
  m: number;
  ds: number;
  dh: number;
  wa?: Float32Array;  // general: ds x dh; additive: ds x da
  ua?: Float32Array;  // additive: dh x da
  va?: Float32Array;  // additive: da
  da?: number;
}

export interface ContextArgs {
  alignment: Float32Array;  // n x m
  h: Float32Array;          // m x dh
  n: number;
  m: number;
  dh: number;
}

export interface RowStats {
  maxWeight: number;
  entropy: number;        // nats, 0 ln 0 = 0
  jacobianTrace: number;  // sum p(1-p)
}

export interface RandomNormalArgs {
  seed: Seed;
  rows: number;
  cols: number;
  stddev?: number;  // default 1
}

export interface AttentionEngine {
  readonly build: BuildName;
  /** Whether the SIMD128 build is running. */
  readonly simd: boolean;
  /** Floats per vector in this build's kernels: 4 (SIMD128) or 1. */
  readonly simdWidth: number;
  attention(args: AttentionArgs): AttentionTrace;
  /** n x dv. */
  attentionOutput(args: AttentionOutputArgs): Float32Array;
  /** The trace by the scalar reference (plain loops, double accumulation). */
  attentionReference(args: AttentionArgs): AttentionTrace;
  multiHead(args: MultiHeadArgs): MultiHeadResult;
  saturation(args?: SaturationArgs): SaturationResult;
  /** n x m. */
  scores(args: ScoresArgs): Float32Array;
  /** n x dh, c_i = sum_j a_ij h_j. */
  context(args: ContextArgs): Float32Array;
  /** Row softmax of rows x cols logits (-Infinity allowed: weight 0). Default: one row. */
  softmax(logits: Float32Array, rows?: number, cols?: number): Float32Array;
  rowStats(probabilities: Float32Array): RowStats;
  /** J = diag(p) - p p^T, cols x cols, row-major. */
  softmaxJacobian(probabilities: Float32Array): Float64Array;
  /** n x dModel sinusoidal encoding, row = position. */
  positionalEncoding(n: number, dModel: number): Float32Array;
  /** rows x cols normals from attn::Rng(seed), the same stream as the native build. */
  randomNormal(args: RandomNormalArgs): Float32Array;
  /** The raw generator streams: `count` normal() doubles, and `count` next_u64() from a second Rng(seed). */
  randomStream(args: { seed: Seed; count: number }): { normals: Float64Array; u64: BigUint64Array };
}

/** Loads the chosen build once per page and resolves to the engine (one object per build). */
export function createAttention(options?: CreateAttentionOptions): Promise<AttentionEngine>;

/** The build 'auto' picks in this environment. */
export function preferredBuild(): Promise<BuildName>;

/** The raw Emscripten module of one build (loaded once); see cpp/bindings/attention.d.ts. */
export function loadBuild(build: BuildName, options?: { wasmBinary?: WasmBytes }): Promise<import('../../../cpp/bindings/attention.js').AttentionModule>;

// The attention engine's public API (hand-written; see index.js).
//
// Shape legend (as in the C++ core, cpp/include/attn/shapes.hpp): n queries,
// m keys/values, dk, dv, heads, dModel. Every matrix is a flat row-major
// Float32Array whose rows are tokens; element (r, c) of an R x C matrix is at
// r * C + c. Every returned array is a fresh copy (never a view of wasm memory).
//
// Errors (each names the argument, what was expected and what was given; the
// engine stays usable after any of them, and an error leaves the module's
// stack and handle table as they were and frees what it allocated):
// - TypeError: a wrong argument type ("q: expected a Float32Array, got an Array
//   of length 2"); a typed array that is detached (transferred by postMessage),
//   backed by a SharedArrayBuffer, or a view of the engine's own WebAssembly
//   memory; an unknown option value ("path: expected 'tiled' or 'full', got
//   'fast'").
// - RangeError: a size that is not an integer from 0 to 2^32 - 1; a length or
//   size that does not match ("k: expected m*d_k = 3*2 = 6 floats, got 5") or
//   does not fit in memory; a scale a float cannot hold ("got 1e+39"); a call
//   over its work limit (below).
// - Error: a value the core does not allow: NaN or infinity in an input
//   ("q[1]: expected a finite number, got NaN"), a scale that is not positive,
//   a keep-matrix entry other than 0 or 1, validKeys > m.
//
// Learning (createAttention({ learning: true })): attentionBackward,
// createTrainer and trainerOptions. A trainer used after dispose() throws an
// Error naming the call.
//
// Work limits: every function is synchronous and blocks the thread that calls
// it, so each call may do at most WORK_LIMIT (2^32) units of work, 1.5-1.9 s
// for the baseline build at its median pace (one unit is about one float
// multiply-add of the baseline build; the formula of each function is on it
// below, measured against time by scripts/fit-work.mjs). A call with
// `longRunning: true` (meant for a Web Worker, a benchmark or Node) may do up
// to LONG_RUNNING_WORK_LIMIT (2^37), about a minute. Beyond:
// RangeError naming the formula and the values, e.g. "n*m*(dk+dv+32):
// expected at most 4294967296 units of work in one call, got
// 20000*20000*(1+1+32) = 13600000000; ...".

import type {
  AlignmentReading, AttentionGradients, AttentionTrace, Evaluation, MultiHeadResult, RawScaled, RowStats,
  SaturationResult, TaskName, TrainingStep,
} from '../../../cpp/bindings/attention.js';

export type {
  AlignmentReading, AttentionGradients, AttentionTrace, Evaluation, MultiHeadResult, RawScaled, RowStats,
  SaturationResult, TaskName, TrainingStep,
};

/** Units of work one call may do by default (2^32). */
export const WORK_LIMIT: number;
/** Units of work one call with `longRunning: true` may do (2^37). */
export const LONG_RUNNING_WORK_LIMIT: number;
/**
 * Bytes of WebAssembly memory the live trainers of one engine may hold (256 MiB): a trainer
 * not disposed costs at most that, since WebAssembly memory never shrinks.
 */
export const TRAINER_MEMORY_LIMIT: number;

/** Every synchronous function accepts it (in its options object, or as a last argument). */
export interface CallOptions {
  /** Allow up to LONG_RUNNING_WORK_LIMIT units of work instead of WORK_LIMIT (from a Web Worker). */
  longRunning?: boolean;
}

export type BuildName = 'simd' | 'baseline';

export type WasmBytes = ArrayBuffer | ArrayBufferView;

export interface CreateAttentionOptions {
  /** 'auto' (default): SIMD where the WebAssembly engine supports SIMD128, else baseline. */
  build?: 'auto' | BuildName;
  /**
   * true: load the build's learning module (the same core plus the backward pass and
   * the trainer, about 34 KB more gzipped), so that attentionBackward and createTrainer
   * work. false (default): the attention module; those two functions throw.
   */
  learning?: boolean;
  /**
   * The .wasm bytes to instantiate instead of fetching the file (e.g. a page opened
   * from disk that carries them inline): one buffer for the module that is chosen, or
   * one per module. Used the first time a module loads; later calls share that engine.
   */
  wasmBinary?: WasmBytes | { simd?: WasmBytes; baseline?: WasmBytes; learningSimd?: WasmBytes; learningBaseline?: WasmBytes };
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

export interface AttentionArgs extends CallOptions {
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

export interface AttentionTraceArgs extends AttentionArgs {
  /**
   * true: the trace also holds `terms`, weights_ij v_j for every query i and key j
   * (n*m*dv floats; RangeError beyond 2^28). Omitted or false: no `terms`.
   */
  terms?: boolean;
}

export interface AttentionOutputArgs extends AttentionArgs {
  /**
   * 'tiled' (default): online softmax, never holds the n x m matrix.
   * 'full': the SIMD kernels through one n x m matrix.
   */
  path?: 'tiled' | 'full';
  /**
   * n x dv floats the output is written into (and returned), instead of a fresh
   * array per call: a caller calling in a loop allocates nothing in JavaScript.
   * RangeError unless it holds exactly n*dv floats; TypeError as for q. Null: a fresh array.
   */
  out?: Float32Array | null;
}

export interface MultiHeadArgs extends CallOptions {
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

export type Seed = number | bigint;  // 0 <= seed < 2^64

export interface SaturationArgs extends CallOptions {
  dk?: number;       // default 64
  queries?: number;  // default 8
  keys?: number;     // default 8
  trials?: number;   // default 200
  seed?: Seed;       // default 0
}

export interface ScoresArgs extends CallOptions {
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

export interface ContextArgs extends CallOptions {
  alignment: Float32Array;  // n x m
  h: Float32Array;          // m x dh
  n: number;
  m: number;
  dh: number;
}

export interface RandomNormalArgs extends CallOptions {
  seed: Seed;
  rows: number;
  cols: number;
  stddev?: number;  // default 1
}

export interface AttentionBackwardArgs extends AttentionArgs {
  /** n x dv: the upstream gradient dL/dO; the result is the gradient of sum(gradOutput * output). */
  gradOutput: Float32Array;
  /**
   * 'tiled' (default): the tiled forward pass (keeping each row's log-sum-exp), then the
   * backward by blocks (FlashAttention-2); never holds an n x m matrix.
   * 'full': the SIMD kernels through n x m matrices (n*m at most 2^28).
   */
  path?: 'tiled' | 'full';
}

/**
 * The options of createTrainer; the omitted ones take the core's defaults (engine.trainerOptions()
 * lists every option with its kind, range, default and the models it applies to: the core's
 * table, attn/trainer_options.hpp, whose checks these are). Errors name the option as written
 * here and show the value as given: TypeError for an unknown option, a value of the wrong type,
 * a choice not in its list or an option that does not apply to the chosen model or task;
 * Error for a value out of its range ("learningRate: expected a number above 0 and at most 1,
 * got -0.01"); RangeError (naming createTrainer) for a trainer that needs more memory than the
 * live trainers of one engine may hold (TRAINER_MEMORY_LIMIT: dispose() the ones no longer used),
 * or whose step() or evaluate() would be more work than any call may do. `longRunning: true`
 * here applies to every step() and evaluate() of this trainer.
 */
export interface TrainerArgs extends CallOptions {
  /** 'reverse': 8 digits -> reversed; 'translate': a toy English -> Korean grammar (SVO -> SOV). */
  task: TaskName;
  /** Initial weights and every batch come from it: same seed, same options -> same losses bit for bit. */
  seed: Seed;
  /** 'attention' (the default and, so far, the only one): one cross-attention layer. */
  model?: 'attention';
  /** Attention heads, 1 to 1024 and a divisor of dModel (default 2). */
  heads?: number;
  /** Model width, 1 to 1024 (default 32); each head has dk = dModel / heads. */
  dModel?: number;
  /** true (default): scores times 1/sqrt(dk); false: not scaled. */
  scale?: boolean;
  /** AdamW's step size, above 0 and at most 1 (default 0.01). */
  learningRate?: number;
  /** Examples per step, 1 to 4096 (default 32). */
  batchSize?: number;
  /** AdamW's decoupled weight decay, >= 0 with learningRate * weightDecay < 1 (default 0.5). */
  weightDecay?: number;
}

/** Every option a trainer runs with, the defaults filled in (learningRate and weightDecay as floats). */
export interface TrainerOptions {
  readonly task: TaskName;
  readonly seed: Seed;
  readonly model: 'attention';
  readonly heads: number;
  readonly dModel: number;
  readonly scale: boolean;
  readonly learningRate: number;
  readonly batchSize: number;
  readonly weightDecay: number;
}

/** One option of createTrainer, as the core's table describes it. */
export interface TrainerOptionRule {
  readonly name: string;
  readonly kind: 'choice' | 'count' | 'number' | 'flag' | 'seed';
  readonly meaning: string;
  /** kind 'choice': the values it takes. */
  readonly choices: readonly string[];
  /** kinds 'count' and 'number': the range, inclusive (the minimum excluded when minimumExcluded). */
  readonly minimum: number;
  readonly maximum: number;
  readonly minimumExcluded: boolean;
  /** No default: createTrainer needs it (task, seed). */
  readonly required: boolean;
  /** The models and tasks it applies to; empty: all. Given elsewhere, it is a TypeError. */
  readonly models: readonly string[];
  readonly tasks: readonly string[];
  readonly defaults: readonly { readonly task: TaskName; readonly model: string; readonly value: boolean | number | string }[];
}

export interface WordGroup {
  readonly name: string;               // e.g. 'SUBJECT', 'in the PLACE', 'DIGIT'
  readonly words: readonly string[];   // the tokens a reader may type, e.g. 'student', 'in the library'
}

export interface Vocabulary {
  readonly source: readonly string[];  // source token id -> text ('the young', 'student', ...; '0' .. '9')
  readonly target: readonly string[];  // target token id -> text ('젊은', '학생이', ...)
  readonly groups: readonly WordGroup[];  // the source tokens by class, in the order of `pattern`
  readonly pattern: string;            // what every source sentence looks like
}

/**
 * A small sequence-to-sequence model (token embedding + positional encoding, learned
 * target positions as queries, one cross-attention layer of `heads` heads with a
 * residual, a linear read-out, softmax cross-entropy) trained by the core with AdamW
 * (cpp/include/attn/trainer.hpp). Synchronous: run it in a Web Worker.
 * Work (S, T: source and target length, V: target vocabulary, parameters: parameterCount):
 * step(count) count*(24000+batchSize*(3*(2*S+T)*dModel*dModel+3*T*(2*S+V)*dModel+T*(160*S*heads+64*V))+20*parameters);
 * evaluate() heldOut*((2*S+T)*dModel*dModel+T*(2*S+V)*dModel+T*(96*S*heads+32*V));
 * createTrainer parameters*32; probe() and translate() are always small.
 * After dispose() every method but dispose() throws an Error naming it.
 */
export interface Trainer {
  readonly task: TaskName;
  readonly options: TrainerOptions;
  /** Floats the model learns. */
  readonly parameterCount: number;
  /** S: source tokens per sentence (reverse 8, translate 6). */
  readonly sourceLength: number;
  /** T: target tokens per sentence. */
  readonly targetLength: number;
  /** Held-out examples that evaluate() reads (never trained on). */
  readonly heldOut: number;
  readonly vocabulary: Vocabulary;
  /** alignment[t]: the source position target position t translates (reverse: 7 - t; translate: 0, 1, 5, 3, 4, 2). */
  readonly alignment: readonly number[];
  readonly disposed: boolean;
  /** Steps taken so far (after a step(count) refused midway: the ones before it, which stand). */
  readonly stepsTaken: number;
  /**
   * `count` (default 1, at least 1) steps of AdamW on fresh batches. Parameters grown beyond
   * what the float passes hold (training diverged) are an Error saying so, never NaN; the
   * steps before it stand, and the message says how many ("...; step 2 of the 5 asked was
   * refused: 1 taken, 41 in all").
   */
  step(count?: number, options?: CallOptions): TrainingStep;
  /** Loss and token accuracy on the held-out examples. */
  evaluate(options?: CallOptions): Evaluation;
  /** The fixed probe example (the first held-out one): target = the reference, predicted = the model's. */
  probe(): AlignmentReading;
  /**
   * A sentence typed from the vocabulary (translate: words separated by spaces, case and a
   * final . ! ? ignored; reverse: 8 digits, spaces optional), at most 1000 characters;
   * target = predicted = the model's output. Error naming the unknown words or the pattern.
   */
  translate(sentence: string): AlignmentReading;
  /**
   * Frees the model's memory in the engine; calling it again does nothing. (A trainer that is
   * garbage collected without it is freed too, some time later, by a FinalizationRegistry.)
   */
  dispose(): void;
}

export interface AttentionEngine {
  readonly build: BuildName;
  /** Whether the SIMD128 build is running. */
  readonly simd: boolean;
  /** Floats per vector in this build's kernels: 4 (SIMD128) or 1. */
  readonly simdWidth: number;
  /**
   * The tiled path's block sizes in this build (FlashAttention's B_r x B_c): attentionOutput's
   * 'tiled' path takes the queries `queries` at a time and the keys `keys` at a time.
   */
  readonly tileSizes: { readonly queries: number; readonly keys: number };
  /** Whether the learning module is loaded (createAttention({ learning: true })). */
  readonly learning: boolean;
  /**
   * { gradQ n x dk, gradK m x dk, gradV m x dv }: the gradient of sum(gradOutput * output);
   * masked entries get exactly 0, a fully masked row contributes nothing. The checks and
   * errors of attention(), and gradOutput's. Work: 'tiled' n*m*(4*dk+3*dv+96), 'full'
   * n*m*(3*dk+2*dv+64). Needs the learning module (else an Error saying so).
   */
  attentionBackward(args: AttentionBackwardArgs): AttentionGradients;
  /** A new trainer (see Trainer). Needs the learning module (else an Error saying so). */
  createTrainer(args: TrainerArgs): Trainer;
  /** createTrainer's options and their rules (the core's table). Needs the learning module. */
  trainerOptions(): readonly TrainerOptionRule[];
  /** Work n*m*(dk+dv+64). */
  attention(args: AttentionTraceArgs): AttentionTrace;
  /** n x dv. Work: 'tiled' n*m*(dk+dv+32); 'full' n*m*(dk+dv+64). */
  attentionOutput(args: AttentionOutputArgs): Float32Array;
  /** The trace by the scalar reference (plain loops, double accumulation). Work n*m*(3*(dk+dv)+64). */
  attentionReference(args: AttentionTraceArgs): AttentionTrace;
  /** Work 4*(n+m)*dModel*dModel+n*m*(2*dModel+64*heads). */
  multiHead(args: MultiHeadArgs): MultiHeadResult;
  /** Work trials*(dk*(24*(queries+keys)+queries*keys)+128*queries*keys). */
  saturation(args?: SaturationArgs): SaturationResult;
  /** n x m. Work: dot, scaledDot n*m*(ds+16); general n*m*(dh+16)+n*ds*dh; additive n*m*da*56+(n*ds+m*dh)*da. */
  scores(args: ScoresArgs): Float32Array;
  /** n x dh, c_i = sum_j a_ij h_j. Work n*m*(2*dh+4). */
  context(args: ContextArgs): Float32Array;
  /** Row softmax of rows x cols logits (-Infinity allowed: weight 0). Default: one row. Work rows*cols*56. */
  softmax(logits: Float32Array, rows?: number, cols?: number, options?: CallOptions): Float32Array;
  /** Work length*24. */
  rowStats(probabilities: Float32Array, options?: CallOptions): RowStats;
  /** J = diag(p) - p p^T, cols x cols, row-major. Work length*length*16. */
  softmaxJacobian(probabilities: Float32Array, options?: CallOptions): Float64Array;
  /** n x dModel sinusoidal encoding, row = position. Work n*dModel*72. */
  positionalEncoding(n: number, dModel: number, options?: CallOptions): Float32Array;
  /** rows x cols normals from attn::Rng(seed), the same stream as the native build. Work rows*cols*24. */
  randomNormal(args: RandomNormalArgs): Float32Array;
}

/** Loads the chosen build once per page and resolves to the engine (one object per build). */
export function createAttention(options?: CreateAttentionOptions): Promise<AttentionEngine>;

/** The build 'auto' picks in this environment. */
export function preferredBuild(): Promise<BuildName>;

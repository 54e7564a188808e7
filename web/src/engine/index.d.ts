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
// Learning (createAttention({ learning: true }), or { learning: 'basic' } for the
// backward pass and model 'attention' only): attentionBackward, createTrainer and
// trainerOptions. A trainer used after dispose() throws an Error naming the call.
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
  AlignmentReading, AttentionGradients, AttentionKind, AttentionMap, AttentionTrace, Evaluation, HeadScore, ModelName,
  MultiHeadResult, RawScaled, RowStats, SaturationResult, TaskName, TrainingStep,
} from '../../../cpp/bindings/attention.js';

export type {
  AlignmentReading, AttentionGradients, AttentionKind, AttentionMap, AttentionTrace, Evaluation, HeadScore, ModelName,
  MultiHeadResult, RawScaled, RowStats, SaturationResult, TaskName, TrainingStep,
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
   * Which module of the build to load (each a separate .wasm, so that a page downloads only
   * the code it runs): false (default), the attention module: attentionBackward, createTrainer
   * and trainerOptions throw. 'basic': attention-backward-<build>, the same core plus the
   * backward pass and the trainer of model 'attention' (about 53 KB more gzipped; createTrainer
   * with another model is an Error naming the option that loads it). true:
   * attention-learning-<build>, plus the model engine: every model (about 131 KB more).
   */
  learning?: LearningOption;
  /**
   * The .wasm bytes to instantiate instead of fetching the file (e.g. a page opened
   * from disk that carries them inline): one buffer for the module that is chosen, or
   * one per module. Used the first time a module loads; later calls share that engine.
   */
  wasmBinary?: WasmBytes | {
    simd?: WasmBytes; baseline?: WasmBytes;                   // learning: false
    backwardSimd?: WasmBytes; backwardBaseline?: WasmBytes;   // learning: 'basic'
    learningSimd?: WasmBytes; learningBaseline?: WasmBytes;   // learning: true
  };
}

/** createAttention's `learning`: no learning code, the basic learning module, or every model. */
export type LearningOption = boolean | 'basic';

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
 * The options of createTrainer, per model; the omitted ones take the core's defaults for the task
 * and model (engine.trainerOptions() lists every option with its kind, range, default and the
 * models and tasks it applies to: the core's table, attn/trainer_options.hpp, whose checks these
 * are). Errors name the option as written here and show the value as given: TypeError for an
 * unknown option, a value of the wrong type, a choice not in its list or an option that does not
 * apply to the chosen model or task ("window: applies to model 'luong' only, not to model
 * 'attention'"; task 'induction' with a model other than 'decoder'); Error for a value out of
 * its range ("learningRate: expected a number above 0 and at most 1, got -0.01"; "dModel:
 * expected an integer from 1 to 256 for model 'transformer', got 512"), and on an engine of
 * learning: 'basic' for a model it does not have; RangeError (naming createTrainer) for a
 * trainer that needs more memory than the live trainers of one engine may hold
 * (TRAINER_MEMORY_LIMIT: dispose() the ones no longer used), whose creation is more work than
 * the limit, or whose step() or evaluate() would be more work than any call may do.
 * `longRunning: true` here applies to every call of this trainer.
 */
export type TrainerArgs = AttentionModelArgs | RecurrentModelArgs | LuongModelArgs | TransformerModelArgs | DecoderModelArgs;

/** The options of every model. */
export interface TrainerArgsOfEveryModel extends CallOptions {
  /**
   * 'reverse': digits -> reversed; 'translate': a toy English -> Korean grammar (SVO -> SOV);
   * 'induction' (model 'decoder' only): random tokens in which a segment repeats, to complete.
   */
  task: TaskName;
  /** Initial weights and every batch come from it: same seed, same options -> same losses bit for bit. */
  seed: Seed;
  /** Model width: 'attention' 1 to 1024 (default 32); the engine's models 1 to 256 (default 64). */
  dModel?: number;
  /** AdamW's step size, above 0 and at most 1 (default 0.01 for 'attention', 0.003 for the engine's models). */
  learningRate?: number;
  /** Examples per step, 1 to 4096 (default 32). */
  batchSize?: number;
  /**
   * AdamW's decoupled weight decay, >= 0 with learningRate * weightDecay < 1 (default 0.5 for
   * 'attention', which decays every parameter; 0.01 for the engine's models, which decay their matrices only).
   */
  weightDecay?: number;
}

/** model 'attention' (the default): one cross-attention layer whose queries are learned target positions. */
export interface AttentionModelArgs extends TrainerArgsOfEveryModel {
  model?: 'attention';
  /** 'reverse' (8 digits) or 'translate' (the fixed six-token pattern). */
  task: 'reverse' | 'translate';
  /** Attention heads, 1 to 1024 and a divisor of dModel (default 2). */
  heads?: number;
  /** true (default): scores times 1/sqrt(dk); false: not scaled. */
  scale?: boolean;
}

/** The engine's sequence-to-sequence models read a source of the task ('reverse': sourceLength digits). */
interface EngineSeq2SeqArgs extends TrainerArgsOfEveryModel {
  task: 'reverse' | 'translate';
  /** task 'reverse': the digits of each source, 4 to 32 (default 8). */
  sourceLength?: number;
}

/** 'rnn': a GRU encoder-decoder without attention (the bottleneck); 'bahdanau': a bidirectional GRU encoder, additive attention on s_(t-1). */
export interface RecurrentModelArgs extends EngineSeq2SeqArgs {
  model: 'rnn' | 'bahdanau';
}

/** 'luong': a GRU encoder-decoder, attention on the current state h_t, h~_t = tanh(W_c [c_t; h_t]). */
export interface LuongModelArgs extends EngineSeq2SeqArgs {
  model: 'luong';
  /** 'dot' (default) h_t.h_s, 'general' h_t W_a h_s, 'concat' v_a tanh(W_a [h_t; h_s]). */
  score?: 'dot' | 'general' | 'concat';
  /** 'global' (default): every source position; 'local': a Gaussian around a predicted position (local-p). */
  window?: 'global' | 'local';
  /** true (default): h~_(t-1) is fed to the next step. */
  inputFeeding?: boolean;
}

/** The transformers' options. */
interface TransformerOptionArgs {
  /** Attention heads, a divisor of dModel (default 4; 'decoder' on 'induction': 1). */
  heads?: number;
  /** true (default): scores times 1/sqrt(dk). */
  scale?: boolean;
  /** Layers, 1 to 4 (default 2). */
  layers?: number;
  /** 'sinusoidal' (default, added), 'learned' (a table), 'none'. */
  positions?: 'sinusoidal' | 'learned' | 'none';
}

/** 'transformer': encoder-decoder: self-attention, causal self-attention and cross-attention per layer. */
export interface TransformerModelArgs extends EngineSeq2SeqArgs, TransformerOptionArgs {
  model: 'transformer';
}

/** 'decoder': decoder-only, one sequence (source, separator, target; the loss counts the target part). */
export interface DecoderModelArgs extends TrainerArgsOfEveryModel, TransformerOptionArgs {
  model: 'decoder';
  /** task 'reverse': the digits of each source, 4 to 32 (default 8). */
  sourceLength?: number;
  /** true (default): the causal mask in training (generation is causal always). */
  causal?: boolean;
  /** true: attention layers only, no MLP and no LayerNorm (default false). */
  attentionOnly?: boolean;
}

/**
 * Every option a trainer runs with, the defaults filled in (learningRate and weightDecay as
 * floats): those of every model, and those of its model (the others are absent).
 */
export interface TrainerOptions {
  readonly task: TaskName;
  readonly seed: Seed;
  readonly model: ModelName;
  readonly dModel: number;
  readonly learningRate: number;
  readonly batchSize: number;
  readonly weightDecay: number;
  readonly heads?: number;
  readonly scale?: boolean;
  readonly sourceLength?: number;
  readonly score?: 'dot' | 'general' | 'concat';
  readonly window?: 'global' | 'local';
  readonly inputFeeding?: boolean;
  readonly layers?: number;
  readonly positions?: 'sinusoidal' | 'learned' | 'none';
  readonly causal?: boolean;
  readonly attentionOnly?: boolean;
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

/** The core's count of a trainer's work (units of WORK_LIMIT) for its model and options. */
export interface TrainerWork {
  /** One step() (stepWork). */
  readonly step: number;
  /** One evaluate() (evaluateWork): every held-out example's forward pass and greedy decoding. */
  readonly evaluate: number;
  /** Making the trainer (createWork). */
  readonly create: number;
}

/** A head of a model, whose output evaluate({ ablate }) zeroes. */
export interface HeadRef {
  /** From 0, below the model's layers (the core's Error names ablate[i].layer otherwise). */
  readonly layer: number;
  /** From 0, below its heads. */
  readonly head: number;
  /** Which attention: needed for 'transformer' (it has all three); 'decoder' has 'decoder-self' only. */
  readonly kind?: AttentionKind;
}

export interface EvaluateOptions extends CallOptions {
  /**
   * Heads whose outputs are zeroed during this evaluation (the transformers only; at most 4096
   * entries): types checked by the engine (TypeError naming ablate[i].layer, ...), ranges by the
   * core (Error: "ablate[0].head: expected below 4, got 9").
   */
  ablate?: readonly HeadRef[];
  /** The first that many held-out examples (an integer >= 1; default: all of them). */
  examples?: number;
}

/** alignmentAgreement(): the alignment attention against the reference alignment. */
export interface AlignmentAgreement {
  /** Share of the aligned positions whose largest alignment weight is on the reference's source word. */
  agreement: number;
  /**
   * Share whose largest weight is on the source word after the reference's: on reversal, the
   * source of the digit just written (content addressing, one right of the anti-diagonal).
   */
  oneRight: number;
  /** Target positions the reference aligns (content words) that were read. */
  positions: number;
  /** Held-out sentences read. */
  examples: number;
}

export interface GenerateOptions extends CallOptions {
  /**
   * true (default): the model keeps its state (the recurrent state, or one key/value row per
   * token); false: it reads the whole prefix again at each step. Both give the same tokens and,
   * within 1e-5, the same weights.
   */
  cache?: boolean;
}

/** One token of greedy generation. */
export interface GenerationStep {
  /** The token generated ('' at the end). */
  readonly token: string;
  /** The model ended the sentence here (its end token). */
  readonly end: boolean;
  /** Rows of the key/value cache after this step (the recurrent models: steps taken; 0 when recomputing). */
  readonly cacheLength: number;
  /** This step's row of every attention of the decoder: maps of one row (rows = 1) each. */
  readonly weights: AttentionMap[];
}

export interface Generation {
  /** The tokens read (the sentence's, or the probe's; induction: the letters given). */
  readonly source: string[];
  /** The tokens generated, the end excluded. */
  readonly tokens: string[];
  readonly steps: GenerationStep[];
}

/**
 * A model trained by the core with AdamW (cpp/include/attn/trainer.hpp): model 'attention'
 * (token embedding + positional encoding, learned target positions as queries, one
 * cross-attention layer of `heads` heads with a residual, a linear read-out, softmax
 * cross-entropy), or one of the model engine's (cpp/src/models/: 'rnn', 'bahdanau', 'luong',
 * 'transformer', 'decoder'), trained by teacher forcing and decoding greedily. Synchronous:
 * run it in a Web Worker.
 * Work: each call's is counted from the core's counts for this trainer (`work`: stepWork,
 * evaluateWork, createWork) and checked against the limits like every call (RangeError naming
 * the call: "trainer.step(2000): count*stepWork: expected at most ..."):
 * step(count) count*stepWork; evaluate() examples*evaluateWork/heldOut (examples: all heldOut unless
 * given); alignmentAgreement(examples) examples*evaluateWork/heldOut; createTrainer createWork;
 * probe() evaluateWork/heldOut (one example's share of an evaluation);
 * translate() 2*evaluateWork/heldOut (the output generated, then read);
 * generate() evaluateWork/heldOut, with cache: false (T+1)*evaluateWork/heldOut (each of up to
 * T+1 steps reads the prefix again; T: targetLength);
 * headScores() examples*stepWork/batchSize (it reads `examples` held-out sequences, at most 64, forward
 * only, where a step reads batchSize of them forward and backward).
 * After dispose() every method but dispose() throws an Error naming it.
 */
export interface Trainer {
  readonly task: TaskName;
  readonly options: TrainerOptions;
  /** Floats the model learns. */
  readonly parameterCount: number;
  /** S: source tokens per sentence (the longest: 'attention' reverse 8, translate 6; the engine's tasks vary). */
  readonly sourceLength: number;
  /** T: target tokens per sentence (the longest). */
  readonly targetLength: number;
  /** Held-out examples that evaluate() reads (never trained on). */
  readonly heldOut: number;
  /** The core's counts of this trainer's work. */
  readonly work: TrainerWork;
  readonly vocabulary: Vocabulary;
  /**
   * alignment[t]: the source position target position t translates ('attention': every
   * sentence's, reverse 7 - t, translate 0, 1, 5, 3, 4, 2; the engine's tasks: the probe's; -1: none).
   */
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
  /**
   * Loss and token accuracy on the held-out examples by teacher forcing, and by free-running
   * greedy decoding (generatedAccuracy, sequenceAccuracy; the same as accuracy for 'attention',
   * whose outputs do not feed each other), with the heads of options.ablate zeroed, on the
   * first options.examples held-out examples (default: all of them; fewer cost less).
   */
  evaluate(options?: EvaluateOptions): Evaluation;
  /**
   * How often the alignment attention (AlignmentReading.weights) puts its largest weight on the
   * reference's source word, over the aligned target positions (content words; particles have
   * none) of the first `examples` (default 128) held-out sentences, read by teacher forcing.
   * 'rnn' has no attention: agreement 0 of 0 positions.
   */
  alignmentAgreement(examples?: number, options?: CallOptions): AlignmentAgreement;
  /**
   * The fixed probe example (the first held-out one): target = the reference, predicted = the
   * model's; layers = every attention map; reference = the reference alignment.
   */
  probe(options?: CallOptions): AlignmentReading;
  /**
   * A sentence typed from the vocabulary (translate: words separated by spaces, case and a
   * final . ! ? ignored; reverse: the digits, spaces optional), at most 1000 characters;
   * target = predicted = the model's output (the engine's models: generated greedily). Error
   * naming the unknown words or the pattern.
   */
  translate(sentence: string, options?: CallOptions): AlignmentReading;
  /**
   * Greedy generation, one token per step, of a typed sentence's output (as translate reads
   * it; omitted: the probe's source), with each step's attention weights. The engine's models
   * only (an Error for 'attention', which reads every target position at once).
   */
  generate(sentence?: string, options?: GenerateOptions): Generation;
  /**
   * Per head of a decoder-only model ('decoder'; an Error for the others), on held-out
   * sequences: its previous-token score and its prefix-matching score (Olsson et al. 2022).
   */
  headScores(options?: CallOptions): HeadScore[];
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
  /** Which module is loaded: createAttention's `learning` (false, 'basic' or true). */
  readonly learning: LearningOption;
  /**
   * { gradQ n x dk, gradK m x dk, gradV m x dv }: the gradient of sum(gradOutput * output);
   * masked entries get exactly 0, a fully masked row contributes nothing. The checks and
   * errors of attention(), and gradOutput's. Work: 'tiled' n*m*(4*dk+3*dv+96), 'full'
   * n*m*(3*dk+2*dv+64). Needs a learning module (else an Error saying so).
   */
  attentionBackward(args: AttentionBackwardArgs): AttentionGradients;
  /**
   * A new trainer (see Trainer). Needs a learning module (else an Error saying so); on
   * learning: 'basic', model 'attention' only (another model is an Error naming learning: true).
   */
  createTrainer(args: TrainerArgs): Trainer;
  /** createTrainer's options and their rules (the core's table). Needs a learning module. */
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

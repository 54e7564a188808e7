// The raw Embind modules built from cpp/bindings (attention-simd.mjs /
// attention-baseline.mjs: AttentionModule; attention-backward-<build>.mjs and
// attention-learning-<build>.mjs: LearningModule, the same plus the backward
// pass and the trainer: of model 'attention' only in the backward module, of
// every model in the learning module). Hand-written: Embind 3.1.6 cannot emit it.
//
// Not a public API: the engine (web/src/engine/index.js) is. Tests and the
// benchmark reach this module through web/src/engine/testing.js. The engine
// checks every argument before calling it; called directly, this module
// trusts that each array is a plain, attached, non-shared view outside its own
// memory, that each number fits its C++ type (sizes: integers from 0 to
// 2^32 - 1) and that each option is a string. Every function returns either
// its result or an Error object (RangeError for a shape, size or memory error,
// Error for a value error, TypeError for an option string it does not know),
// carrying the exact message. Arrays are copied in; every returned array is a
// fresh copy.
//
// The result types below are the engine's too (web/src/engine/index.d.ts
// re-exports them): the engine returns what this module returns.

/** 'inverseSqrtDk' = 1/sqrt(dk), 'none' = 1, 'given' = scaleFactor. */
export type ScaleKind = 'inverseSqrtDk' | 'none' | 'given';
/** 'keyPadding' reads validKeys, 'keep' the keep argument (n*m bytes). */
export type MaskKind = 'none' | 'causal' | 'keyPadding' | 'keep';
/** 'tiled' online softmax; 'full' one n x m matrix; 'scalar' the same on scalar kernels; 'reference' double. */
export type AttentionPath = 'tiled' | 'full' | 'scalar' | 'reference';
/** 'tiled' by blocks from the row log-sum-exp (never n x m); 'full' n x m matrices; 'reference' double. */
export type BackwardPath = 'tiled' | 'full' | 'reference';
export type TaskName = 'reverse' | 'translate' | 'induction';
export type ModelName = 'attention' | 'rnn' | 'bahdanau' | 'luong' | 'transformer' | 'decoder';
/** Which attention of a model: a transformer's encoder self-attention, (causal) decoder self-attention, or cross. */
export type AttentionKind = 'encoder-self' | 'decoder-self' | 'cross';
export type ScoreKind = 'dot' | 'scaledDot' | 'general' | 'additive';

export interface AttentionCall {
  n: number;
  m: number;
  dk: number;
  dv: number;
  scale: ScaleKind;
  /** A double; checked to fit a float before it is narrowed. */
  scaleFactor: number;
  mask: MaskKind;
  validKeys: number;
}

export interface MultiHeadCall {
  n: number;
  m: number;
  dModel: number;
  heads: number;
  mask: MaskKind;
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
  kind: ScoreKind;
  n: number;
  m: number;
  ds: number;
  dh: number;
  da: number;
}

/**
 * Every intermediate of one attention call. exps[i*m + j] = e^(masked_ij - expShifts[i]), where the
 * shift is 0 (the textbook e^(s_ij)) while every kept e^(s_ij) is a normal float and
 * max_j s_ij + ln m <= 88, else max_j masked_ij (the stable form); weights = exps / expSums, row by row.
 */
export interface AttentionTrace {
  scores: Float32Array;     // n x m       QK^T
  scaled: Float32Array;     // n x m       scale * QK^T
  masked: Float32Array;     // n x m       scaled with -Infinity where masked
  exps: Float32Array;       // n x m       e^(masked_ij - expShifts_i) (0 where masked)
  expSums: Float32Array;    // n           sum_j exps_ij (0 for a fully masked row)
  expShifts: Float32Array;  // n           0 (textbook) or max_j masked_ij (stable)
  weights: Float32Array;    // n x m       row softmax (0 where masked)
  terms?: Float32Array;     // n x m x dv  weights_ij v_j at (i*m + j)*dv; only with `terms: true`
  output: Float32Array;     // n x dv      weights V = sum_j terms_ij
  scale: number;            // the factor that was applied
}

export interface MultiHeadResult {
  output: Float32Array;         // n x dModel   concat W_O
  headWeights: Float32Array[];  // heads arrays of n x m
  q: Float32Array;              // n x dModel   X W_Q
  k: Float32Array;              // m x dModel   C W_K
  v: Float32Array;              // m x dModel   C W_V
  concat: Float32Array;         // n x dModel   Concat(head_1 .. head_h)
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

export interface RowStats {
  maxWeight: number;
  entropy: number;        // nats, 0 ln 0 = 0
  jacobianTrace: number;  // sum p(1-p)
}

/** dQ, dK, dV of L = sum(gradOutput * output). */
export interface AttentionGradients {
  gradQ: Float32Array;  // n x dk
  gradK: Float32Array;  // m x dk
  gradV: Float32Array;  // m x dv
}

/**
 * Every option of a trainer (attn::TrainerOptions) as start() returns them, by
 * their JavaScript names, the defaults filled in (learningRate and weightDecay
 * as the floats they train with); the seed as its decimal digits.
 */
export interface TrainerSettings {
  task: TaskName;
  seed: string;
  model: ModelName;
  dModel: number;
  batchSize: number;
  learningRate: number;
  weightDecay: number;
  // The options of some models only (the core's table says which), there for those.
  heads?: number;
  scale?: boolean;
  sourceLength?: number;
  score?: 'dot' | 'general' | 'concat';
  window?: 'global' | 'local';
  inputFeeding?: boolean;
  layers?: number;
  positions?: 'sinusoidal' | 'learned' | 'none';
  causal?: boolean;
  attentionOnly?: boolean;
}

/**
 * The options start() and trainerFootprint() take: only the given ones, each a
 * boolean, a number or a string (a seed as its decimal digits), by their
 * JavaScript names. The core's table checks and completes them.
 */
export type TrainerGiven = Record<string, boolean | number | string>;

/** One row of the core's table of the trainer's options (attn/trainer_options.hpp). */
export interface TrainerOptionRow {
  name: string;                 // as the JavaScript API spells it
  kind: 'choice' | 'count' | 'number' | 'flag' | 'seed';
  meaning: string;
  choices: string[];            // choice: the names
  minimum: number;              // count, number: the range (inclusive, but minimum when minimumExcluded)
  maximum: number;
  minimumExcluded: boolean;
  required: boolean;            // no default: createTrainer needs it
  models: string[];             // the models it applies to (empty: every model)
  tasks: string[];              // the tasks it applies to (empty: every task)
  defaults: { task: TaskName; model: string; value: boolean | number | string }[];
}

/** What a trainer of some options needs, before it is made (attn::Trainer::footprint). */
export interface TrainerFootprint {
  options: TrainerSettings;    // resolved
  sourceLength: number;        // S
  targetLength: number;        // T
  targetVocabulary: number;    // V
  heldOut: number;             // held-out examples
  parameters: number;          // floats the model learns
  bytes: number;               // the most memory it holds at once
  // The work of one step(), one evaluate() and of making the trainer, in the units of
  // web/src/engine/work-limits.js (the core's count for this model).
  stepWork: number;
  evaluateWork: number;
  createWork: number;
}

export interface TrainingStep {
  step: number;  // steps taken so far
  loss: number;  // mean training cross-entropy of the last step's batch, before its update
}

export interface Evaluation {
  loss: number;               // mean cross-entropy over the held-out target positions (teacher forcing)
  accuracy: number;           // share of held-out target positions whose most likely word is right (teacher forcing)
  generatedAccuracy: number;  // share of them right when the model decodes greedily from its own outputs
  sequenceAccuracy: number;   // share of held-out examples decoded right at every counted position
}

/** One attention of a model read on one example (attn/attention_map.hpp). */
export interface AttentionMap {
  kind: AttentionKind;
  layer: number;              // the transformer's layer (a decoder layer's self- and cross-attention share it); else 0
  rows: number;               // queries (target positions; the decoder-only model: every position)
  cols: number;               // keys (source positions; self-attention: the same positions)
  heads: Float32Array[];      // per head, rows x cols, row-major; each row sums to 1 (or is all 0)
  positions?: Float32Array;   // luong's local window: each row's predicted source position p_t
}

/** The model's reading of one source sentence (T target positions, S source tokens). */
export interface AlignmentReading {
  source: string[];            // S tokens
  target: string[];            // T words: the reference (probe) or the model's output (translate)
  predicted: string[];         // T words: the model's output
  weights: Float32Array;       // T x S attention weights, averaged over the heads
  headWeights: Float32Array[]; // heads arrays of T x S
  strongestSources: number[];  // T: per target position, the source position of its largest averaged weight
  layers: AttentionMap[];      // every attention map of the model on this example
  reference: number[];         // per target position, the source position it translates (-1: none, a particle)
}

/** generate()'s result, as the bindings name it (the engine renames words to tokens, maps to weights). */
export interface RawGeneration {
  source: string[];   // the words read (induction: the letters given)
  words: string[];    // the words generated, the end excluded
  steps: { word: string; end: boolean; cacheLength: number; maps: AttentionMap[] }[];
}

/** Per head of a decoder-only model (Olsson et al. 2022), on held-out sequences. */
export interface HeadScore {
  layer: number;
  head: number;
  previousToken: number;  // mean weight of position i on position i - 1
  prefixMatch: number;    // mean weight of position i on the token after an earlier occurrence of token i
}

export interface TaskDescription {
  sourceLength: number;  // S
  targetLength: number;  // T
  source: string[];      // token id -> text, source vocabulary
  target: string[];      // token id -> text, target vocabulary
  groups: { name: string; words: string[] }[];  // the source words by class, in the pattern's order
  pattern: string;       // the pattern every source sentence follows
  alignment: number[];   // T: the source position each target position translates (the engine's models: the probe's)
  heldOut: number;       // held-out examples (evaluate)
}

/** An attn::Trainer in the module's memory: free it with delete(). Every method returns its result or an Error. */
export interface TrainerHandle {
  /** Once, first: builds the trainer; returns the options it trains with. */
  start(given: TrainerGiven): Result<TrainerSettings>;
  step(count: number): Result<TrainingStep>;
  /** ablate: the heads whose outputs are zeroed (kind '' for the decoder's only kind); [] for none. */
  evaluate(ablate: { kind: string; layer: number; head: number }[], examples: number): Result<Evaluation>;
  probe(): Result<AlignmentReading>;
  /** The sentence as its UTF-16 code units (a lone surrogate reaches the core as itself). */
  translate(sentence: Uint16Array): Result<AlignmentReading>;
  /** Greedy decoding of the sentence (UTF-16 code units; none: the probe's source), with the cache or recomputing. */
  generate(sentence: Uint16Array, cache: boolean): Result<RawGeneration>;
  /** The decoder-only model's heads (an Error for the other models). */
  headScores(): Result<HeadScore[]>;
  /**
   * How often the alignment attention's largest weight is on the reference's source position, over the
   * first `examples` held-out examples (teacher forcing; particles excluded).
   */
  alignmentAgreement(examples: number): Result<{ agreement: number; oneRight: number; positions: number; examples: number }>;
  /** Steps taken so far (0 before start()). */
  stepsTaken(): number;
  task(): Result<TaskDescription>;
  /** Test entry only: every parameter, in the model's layout. */
  parameters(): Result<Float32Array>;
  /** Test entry only, model 'attention': the last step's batch. */
  lastBatch(): Result<{ sources: Int32Array; targets: Int32Array }>;
  /** Test entry only, the engine's models: the blocks of parameters(). */
  parameterBlocks(): Result<{ name: string; offset: number; rows: number; cols: number; role: 'matrix' | 'embedding' | 'bias' | 'gain' }[]>;
  /** Test entry only, the engine's models: the last step's batch (web/src/engine/testing.d.ts EngineBatch). */
  lastEngineBatch(): Result<{ size: number; sourceLength: number; targetLength: number; source: Int32Array;
    sourceLengths: Int32Array; input: Int32Array; output: Int32Array; counted: Uint8Array; targetLengths: Int32Array }>;
  delete(): void;
  isDeleted(): boolean;
}

type Result<T> = T | Error;

export interface AttentionModule {
  /**
   * `terms`: the trace holds the per-key terms weights_ij v_j. `reference`: by the scalar
   * reference (double accumulation) instead of the fast path.
   */
  attentionTrace(q: Float32Array, k: Float32Array, v: Float32Array, call: AttentionCall, keep: Uint8Array,
    terms: boolean, reference: boolean): Result<AttentionTrace>;
  /** Written into `out` (n*dv floats, checked by the caller) and `out` returned; undefined: a fresh array. */
  attentionOutput(q: Float32Array, k: Float32Array, v: Float32Array, call: AttentionCall, keep: Uint8Array,
    path: AttentionPath, out: Float32Array | undefined): Result<Float32Array>;
  /** `context` of length 0 = self-attention. */
  multiHead(x: Float32Array, context: Float32Array, wq: Float32Array, wk: Float32Array, wv: Float32Array,
    wo: Float32Array, call: MultiHeadCall, keep: Uint8Array): Result<MultiHeadResult>;
  saturation(call: SaturationCall): Result<SaturationResult>;
  /** wa/ua/va may be empty when the kind does not use them. */
  scores(s: Float32Array, h: Float32Array, call: ScoresCall, wa: Float32Array, ua: Float32Array,
    va: Float32Array): Result<Float32Array>;
  context(alignment: Float32Array, h: Float32Array, n: number, m: number, dh: number): Result<Float32Array>;
  softmax(logits: Float32Array, rows: number, cols: number): Result<Float32Array>;
  rowStats(probabilities: Float32Array): Result<RowStats>;
  softmaxJacobian(probabilities: Float32Array): Result<Float64Array>;
  positionalEncoding(n: number, dModel: number): Result<Float32Array>;
  randomNormal(seedHigh: number, seedLow: number, rows: number, cols: number, stddev: number): Result<Float32Array>;
  /** Test entry only: the raw generator streams (count <= 2^28). */
  randomStream(seedHigh: number, seedLow: number, count: number): Result<{
    normals: Float64Array; u64High: Uint32Array; u64Low: Uint32Array;
  }>;
  /**
   * The build's kernel variant: floats per vector (4 in the SIMD128 build, 1 in the baseline) and
   * the tiled path's block sizes B_r x B_c.
   */
  kernelFacts(): { lanes: number; blockQueries: number; blockKeys: number };

  // Emscripten's runtime, for the tests of the boundary (web/src/engine/testing.js).
  /** The shadow-stack pointer. */
  stackSave(): number;
  /** The number of live Embind handles. */
  count_emval_handles(): number;
  /** A byte view of the module's memory (a new one after the memory grows). */
  readonly HEAP8: Int8Array;
}

export interface LearningModule extends AttentionModule {
  attentionBackward(q: Float32Array, k: Float32Array, v: Float32Array, gradOutput: Float32Array, call: AttentionCall,
    keep: Uint8Array, path: BackwardPath): Result<AttentionGradients>;
  /** The core's table of the trainer's options. */
  trainerOptionTable(): Result<TrainerOptionRow[]>;
  /** What a trainer of these options needs (the errors of start()). */
  trainerFootprint(given: TrainerGiven): Result<TrainerFootprint>;
  /** Never fails; start() builds the trainer. */
  Trainer: new () => TrainerHandle;
}

export interface ModuleOptions {
  /** The .wasm bytes (Node: the module is built for the web and cannot fetch file:// URLs). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

/** The factory of either module (each file exports one). */
declare function createAttentionModule(options?: ModuleOptions): Promise<AttentionModule>;
export default createAttentionModule;

// The engine's test entry (testing.js): for tests and the benchmark, not part
// of the public API.
import type {
  AttentionEngine, AttentionBackwardArgs, AttentionGradients, AttentionOutputArgs, BuildName, CallOptions,
  CreateAttentionOptions, Seed, Trainer, TrainerArgs, WasmBytes,
} from './index.js';
import type { AttentionModule, AttentionPath, BackwardPath, LearningModule } from '../../../cpp/bindings/attention.js';

/** attentionOutput's paths: 'tiled', 'full', and for tests 'scalar' and 'reference'. */
export const ALL_PATHS: readonly AttentionPath[];
/** attentionBackward's paths: 'tiled', 'full', and for tests 'reference'. */
export const ALL_BACKWARD_PATHS: readonly BackwardPath[];

/** A block of an engine model's parameters (cpp/src/layers/parameters.hpp); only 'matrix' decays under AdamW. */
export interface ParameterBlock {
  /** e.g. 'decoder.0.attention.w_q' */
  name: string;
  /** Where it starts in parameters(); rows x cols floats, row-major. */
  offset: number;
  rows: number;
  cols: number;
  role: 'matrix' | 'embedding' | 'bias' | 'gain';
}

/** An engine model's batch (cpp/src/models/batch.hpp): B examples padded to the longest; rows example-major. */
export interface EngineBatch {
  size: number;
  /** S (0 for the decoder-only model) and T. */
  sourceLength: number;
  targetLength: number;
  /** B x S source ids (0 after each source's end), and each source's real length. */
  source: Int32Array;
  sourceLengths: Int32Array;
  /** B x T: the decoder's input (BOS, y_1, ...), what each position predicts, and 1 where the loss counts it. */
  input: Int32Array;
  output: Int32Array;
  counted: Uint8Array;
  /** B: positions before each example's padding (empty when none is padded). */
  targetLengths: Int32Array;
}

/** A trainer of the testing engine: its parameters and its last batch can be read. */
export interface TestingTrainer extends Trainer {
  /** Every parameter, in the model's layout (cpp/include/attn/seq2seq_model.hpp, or the engine's blocks). */
  parameters(): Float32Array;
  /** Model 'attention': the last step's batch: B x S source ids, B x T target ids. */
  lastBatch(): { sources: Int32Array; targets: Int32Array };
  /** The engine's models: the blocks of parameters(), in order. */
  parameterBlocks(): ParameterBlock[];
  /** The engine's models: the last step's batch. */
  lastEngineBatch(): EngineBatch;
}

export interface BoundaryState {
  /** The module's shadow-stack pointer. */
  stackPointer: number;
  /** Live Embind handles. */
  handles: number;
  /** Size of the wasm memory in bytes. */
  memoryBytes: number;
}

export interface TestingEngine extends Omit<AttentionEngine, 'attentionOutput' | 'attentionBackward' | 'createTrainer'> {
  /** n x dv by any path; 'reference' has the work of attentionReference. */
  attentionOutput(args: Omit<AttentionOutputArgs, 'path'> & { path?: AttentionPath }): Float32Array;
  /** By any path; 'reference' (double) has the work n*m*(6*(dk+dv)+96). */
  attentionBackward(args: Omit<AttentionBackwardArgs, 'path'> & { path?: BackwardPath }): AttentionGradients;
  createTrainer(args: TrainerArgs): TestingTrainer;
  /** The raw Emscripten module (the learning module with learning: true): no argument checks; returns its errors. */
  readonly module: AttentionModule | LearningModule;
  /** `count` normal() doubles, and `count` next_u64() from a second Rng(seed). Work count*48. */
  randomStream(args: { seed: Seed; count: number } & CallOptions): { normals: Float64Array; u64: BigUint64Array };
  boundaryState(): BoundaryState;
}

/** A testing engine on the same module as createAttention's engine of that build. */
export function createTestingEngine(settings?: CreateAttentionOptions): Promise<TestingEngine>;

/** The raw Emscripten module of one build (loaded once); its learning module with learning: true. */
export function loadBuild(build: BuildName, options: { wasmBinary?: WasmBytes; learning: true }): Promise<LearningModule>;
export function loadBuild(build: BuildName, options?: { wasmBinary?: WasmBytes; learning?: false }): Promise<AttentionModule>;

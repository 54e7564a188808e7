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

/** A trainer of the testing engine: its parameters and its last batch can be read. */
export interface TestingTrainer extends Trainer {
  /** Every parameter, in the model's layout (cpp/include/attn/seq2seq_model.hpp). */
  parameters(): Float32Array;
  /** The last step's batch: B x S source ids, B x T target ids. */
  lastBatch(): { sources: Int32Array; targets: Int32Array };
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

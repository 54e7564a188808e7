// The engine's test entry (testing.js): for tests and the benchmark, not part
// of the public API.
import type { AttentionEngine, AttentionArgs, BuildName, CallOptions, CreateAttentionOptions, Seed, WasmBytes } from './index.js';
import type { AttentionModule, AttentionPath } from '../../../cpp/bindings/attention.js';

/** attentionOutput's paths: 'tiled', 'full', and for tests 'scalar' and 'reference'. */
export const ALL_PATHS: readonly AttentionPath[];

export interface BoundaryState {
  /** The module's shadow-stack pointer. */
  stackPointer: number;
  /** Live Embind handles. */
  handles: number;
  /** Size of the wasm memory in bytes. */
  memoryBytes: number;
}

export interface TestingEngine extends Omit<AttentionEngine, 'attentionOutput'> {
  /** n x dv by any path; 'reference' has the work of attentionReference. */
  attentionOutput(args: AttentionArgs & { path?: AttentionPath }): Float32Array;
  /** The raw Emscripten module: no argument checks; returns its errors. */
  readonly module: AttentionModule;
  /** `count` normal() doubles, and `count` next_u64() from a second Rng(seed). Work count*48. */
  randomStream(args: { seed: Seed; count: number } & CallOptions): { normals: Float64Array; u64: BigUint64Array };
  boundaryState(): BoundaryState;
}

/** A testing engine on the same module as createAttention's engine of that build. */
export function createTestingEngine(settings?: CreateAttentionOptions): Promise<TestingEngine>;

/** The raw Emscripten module of one build (loaded once). */
export function loadBuild(build: BuildName, options?: { wasmBinary?: WasmBytes }): Promise<AttentionModule>;

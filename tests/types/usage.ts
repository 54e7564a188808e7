// A typed user of the engine's public API (web/src/engine/index.d.ts) and of its
// test entry (testing.d.ts, and through loadBuild the raw module's
// cpp/bindings/attention.d.ts). Never run: `tsc -p
// tests/types` type-checks it, so a declaration that is wrong, missing or `any`
// fails the JavaScript layer of npm test. Each @ts-expect-error is a misuse the
// declarations must reject (an unused one is itself an error).
import { createTestingEngine, loadBuild, type EngineBatch, type ParameterBlock } from '../../web/src/engine/testing.js';
import {
  createAttention, preferredBuild,
  type AlignmentReading, type AttentionEngine, type AttentionGradients, type AttentionTrace, type BuildName,
  type Evaluation, type MaskOption, type MultiHeadResult, type RowStats, type SaturationResult, type TaskName,
  type Trainer, type TrainerOptions, type TrainingStep, type Vocabulary, type AttentionMap, type Generation,
  type HeadScore, type LearningOption, type ModelName, type TrainerWork,
} from '../../web/src/engine/index.js';

export async function workedExample(): Promise<number[]> {
  const engine: AttentionEngine = await createAttention();
  const q = new Float32Array([1, 0]);
  const k = new Float32Array([1, 0, 0, 1, 1, 1]);
  const v = new Float32Array([2, 0, 0, 2, 1, 1]);
  const trace: AttentionTrace = engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2 });
  const scaledBy: number = trace.scale;
  const rows: Float32Array[] = [trace.scores, trace.scaled, trace.masked, trace.exps, trace.expSums, trace.expShifts,
    trace.weights, trace.output];
  // @ts-expect-error the arrays are Float32Array, not Float64Array
  const wide: Float64Array = trace.weights;
  // @ts-expect-error terms are there only when asked for: possibly undefined
  const termsAlways: Float32Array = trace.terms;
  const terms: Float32Array | undefined = engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2, terms: true }).terms;
  // @ts-expect-error terms is a boolean
  engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2, terms: 1 });
  // @ts-expect-error q must be a Float32Array, not a plain array
  engine.attention({ q: [1, 0], k, v, n: 1, m: 3, dk: 2, dv: 2 });
  // @ts-expect-error dv is required
  engine.attention({ q, k, v, n: 1, m: 3, dk: 2 });
  // @ts-expect-error no such mask
  engine.attention({ q, k, v, n: 1, m: 3, dk: 2, dv: 2, mask: 'diagonal' });
  // @ts-expect-error the engine is read-only
  engine.simd = false;
  void wide;
  void termsAlways;
  return [scaledBy, terms?.length ?? 0, ...rows.map((r) => r.length)];
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
  const into: Float32Array = engine.attentionOutput({ q: x, k: x, v: x, n: 4, m: 4, dk: 8, dv: 8, out: new Float32Array(32) });
  // @ts-expect-error out is a Float32Array
  engine.attentionOutput({ q: x, k: x, v: x, n: 4, m: 4, dk: 8, dv: 8, out: new Float64Array(32) });
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
  const reference: Float32Array = testing.attentionOutput({ q: x, k: x, v: x, n: 4, m: 4, dk: 8, dv: 8, path: 'reference', out: into });
  // @ts-expect-error the public engine has no randomStream (a test-only export)
  engine.randomStream({ seed: 1n, count: 4 });
  // @ts-expect-error seeds are numbers or bigints
  engine.randomNormal({ seed: '1', rows: 2, cols: 3 });
  void [chosen, flags, into, perHead, cross.output, saturated, scores, context, stats.jacobianTrace, jacobian, encoding, normals, stream, reference];
}

export async function rawModule(): Promise<number> {
  const module = await loadBuild('baseline');
  const width: number = module.kernelFacts().lanes;
  const result = module.softmax(new Float32Array([1, 2]), 1, 2);
  // The raw module returns its errors: narrow before use.
  if (result instanceof Error) throw result;
  const weights: Float32Array = result;
  // @ts-expect-error no such build
  await loadBuild('avx');
  return width + weights.length;
}

export async function learning(): Promise<number> {
  const engine = await createAttention({ learning: true, wasmBinary: { learningSimd: new Uint8Array(0) } });
  const learns: LearningOption = engine.learning;
  const q = new Float32Array(6), k = new Float32Array(8), v = new Float32Array(4);
  const gradients: AttentionGradients = engine.attentionBackward({
    q, k, v, n: 3, m: 4, dk: 2, dv: 1, gradOutput: new Float32Array(3), mask: 'causal', scale: false, path: 'full',
  });
  const shapes: Float32Array[] = [gradients.gradQ, gradients.gradK, gradients.gradV];
  // @ts-expect-error gradOutput is required
  engine.attentionBackward({ q, k, v, n: 3, m: 4, dk: 2, dv: 1 });
  // @ts-expect-error the public engine has no 'reference' backward path (a test-only one)
  engine.attentionBackward({ q, k, v, n: 3, m: 4, dk: 2, dv: 1, gradOutput: q, path: 'reference' });

  const trainer: Trainer = engine.createTrainer({ task: 'translate', seed: 7n, heads: 4, dModel: 64, scale: false,
    learningRate: 0.005, batchSize: 16, weightDecay: 0.1, longRunning: true });
  const task: TaskName = trainer.task;
  const options: TrainerOptions = trainer.options;
  const stepped: TrainingStep = trainer.step(10, { longRunning: true });
  const evaluation: Evaluation = trainer.evaluate();
  const probe: AlignmentReading = trainer.probe();
  const typed: AlignmentReading = trainer.translate('the young student reads an old book in the library');
  const vocabulary: Vocabulary = trainer.vocabulary;
  const words: readonly string[] = vocabulary.groups[0]?.words ?? [];
  const cells: number = probe.weights.length + probe.headWeights.length + probe.strongestSources.length;
  const aligned: boolean = probe.strongestSources.every((s, t) => s === trainer.alignment[t]);
  const sizes: number[] = [trainer.parameterCount, trainer.sourceLength, trainer.targetLength, trainer.heldOut];
  const gone: boolean = trainer.disposed;
  trainer.dispose();
  // @ts-expect-error no such task
  engine.createTrainer({ task: 'sort', seed: 1 });
  // @ts-expect-error the seed is required
  engine.createTrainer({ task: 'reverse' });
  // @ts-expect-error scale is true or false here, not a factor
  engine.createTrainer({ task: 'reverse', seed: 1, scale: 0.5 });
  // @ts-expect-error an option it does not know
  engine.createTrainer({ task: 'reverse', seed: 1, learningrate: 0.1 });
  // @ts-expect-error a trainer's options are read-only
  trainer.options.heads = 8;
  // @ts-expect-error the vocabulary is read-only
  trainer.vocabulary.groups[0]?.words.push('cat');
  // @ts-expect-error a sentence is a string
  trainer.translate(['the', 'young']);
  // @ts-expect-error the public trainer has no parameters() (a test-only one)
  trainer.parameters();

  // The engine's models (issue 22), on the basic module's engine or the full one.
  const basic = await createAttention({ learning: 'basic', wasmBinary: { backwardSimd: new Uint8Array(0) } });
  const onBasic: Trainer = basic.createTrainer({ task: 'reverse', seed: 1 });
  // @ts-expect-error no such learning module
  await createAttention({ learning: 'full' });
  const transformer = engine.createTrainer({ task: 'reverse', seed: 1, model: 'transformer', layers: 2, heads: 4,
    positions: 'learned', sourceLength: 16 });
  const model: ModelName = transformer.options.model;
  const layersGiven: number | undefined = transformer.options.layers;
  const work: TrainerWork = transformer.work;
  const ablated: Evaluation = transformer.evaluate({ ablate: [{ kind: 'cross', layer: 1, head: 0 }], longRunning: true });
  const freeRunning: number = ablated.generatedAccuracy + ablated.sequenceAccuracy;
  const firstSixtyFour: Evaluation = transformer.evaluate({ examples: 64 });
  const agreement: number = transformer.alignmentAgreement(32).agreement;
  void [firstSixtyFour, agreement];
  // @ts-expect-error examples is a count
  transformer.evaluate({ examples: '64' });
  const maps: AttentionMap[] = transformer.probe().layers;
  const firstHead: Float32Array | undefined = maps[0]?.heads[0];
  const alignment: number[] = transformer.translate('3 1 4 1 5 9 2 6').reference;
  const generation: Generation = transformer.generate('3 1 4 1 5 9 2 6', { cache: false });
  const tokens: string[] = generation.tokens;
  const stepMaps: AttentionMap[] = generation.steps[0]?.weights ?? [];
  const cacheRows: number = generation.steps[0]?.cacheLength ?? 0;
  const probed: Generation = transformer.generate();
  const decoder = engine.createTrainer({ task: 'induction', seed: 1, model: 'decoder', attentionOnly: true, causal: true });
  const scores: HeadScore[] = decoder.headScores();
  const prefix: number = (scores[0]?.prefixMatch ?? 0) + (scores[0]?.previousToken ?? 0);
  const luong = engine.createTrainer({ task: 'translate', seed: 1, model: 'luong', score: 'general', window: 'local',
    inputFeeding: false });
  const positions: Float32Array | undefined = luong.probe().layers[0]?.positions;
  // @ts-expect-error no such model
  engine.createTrainer({ task: 'reverse', seed: 1, model: 'gpt' });
  // @ts-expect-error a head's layer is a number
  transformer.evaluate({ ablate: [{ layer: '0', head: 0 }] });
  // @ts-expect-error no such attention kind
  transformer.evaluate({ ablate: [{ kind: 'self', layer: 0, head: 0 }] });
  // @ts-expect-error cache is true or false
  transformer.generate(undefined, { cache: 1 });
  // @ts-expect-error no such score
  engine.createTrainer({ task: 'reverse', seed: 1, model: 'luong', score: 'cosine' });
  // @ts-expect-error the induction task is the decoder's
  engine.createTrainer({ task: 'induction', seed: 1, model: 'transformer' });
  // @ts-expect-error the positions are a choice
  engine.createTrainer({ task: 'reverse', seed: 1, model: 'decoder', positions: true });
  void [onBasic, model, layersGiven, work.step + work.evaluate + work.create, freeRunning, firstHead, alignment, tokens,
    stepMaps, cacheRows, probed, prefix, positions];

  const testing = await createTestingEngine({ build: 'simd', learning: true });
  const testingTrainer = testing.createTrainer({ task: 'reverse', seed: 1 });
  const parameters: Float32Array = testingTrainer.parameters();
  const batch: { sources: Int32Array; targets: Int32Array } = testingTrainer.lastBatch();
  const engineTrainer = testing.createTrainer({ task: 'translate', seed: 1, model: 'transformer' });
  const blocks: ParameterBlock[] = engineTrainer.parameterBlocks();
  const decayed: boolean = blocks[0].role === 'matrix';
  const engineBatch: EngineBatch = engineTrainer.lastEngineBatch();
  const counted: Uint8Array = engineBatch.counted;
  // @ts-expect-error a block's role is one of four
  const wrongRole: boolean = blocks[0].role === 'weight';
  const reference: AttentionGradients = testing.attentionBackward({ q, k, v, n: 3, m: 4, dk: 2, dv: 1, gradOutput: q,
    path: 'reference' });
  const raw = await loadBuild('simd', { learning: true });
  const handle = new raw.Trainer();
  const started = handle.start({ task: 'reverse', seed: '1', heads: 2, dModel: 32, batchSize: 32,
    scale: true, learningRate: 0.01, weightDecay: 0.5 });
  if (started instanceof Error) throw started;
  const defaults = raw.trainerFootprint({ task: 'translate', seed: '1' });
  if (!(defaults instanceof Error)) void [defaults.stepWork, defaults.evaluateWork, defaults.createWork];
  const rawGeneration = handle.generate(new Uint16Array(0), true);
  if (!(rawGeneration instanceof Error)) void rawGeneration.steps[0]?.maps;
  const rawEvaluation = handle.evaluate([{ kind: '', layer: 0, head: 0 }], 64);
  if (!(rawEvaluation instanceof Error)) void rawEvaluation.generatedAccuracy;
  const rawAgreement = handle.alignmentAgreement(64);
  if (!(rawAgreement instanceof Error)) void [rawAgreement.agreement, rawAgreement.positions, rawAgreement.examples];
  // @ts-expect-error evaluate names how many held-out examples it reads
  void handle.evaluate([]);
  handle.delete();
  // @ts-expect-error the attention module has no trainer
  void new (await loadBuild('simd')).Trainer();
  void [learns, shapes, task, options, stepped, evaluation, typed, words, cells, aligned, sizes, gone, parameters, batch,
    reference, started.dModel, defaults, decayed, counted, wrongRole];
  return shapes.length;
}

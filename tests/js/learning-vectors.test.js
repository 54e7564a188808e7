// Native vs wasm on the shared vectors of the learning code.
// build/test-vectors/learning.json is written by the native build
// (tests/native/write_learning_vectors.cpp; see its header): attention backward
// cases with the double reference's gradients, and per task a trainer with the
// default options, seed 42: its first batch, initial parameters, the task's
// data, the losses of three steps, the parameters after them, the held-out
// evaluation and the probe's reading. Both wasm builds must give the same
// batch, initial parameters and task data bit for bit (integer draws and the
// portable sampler: the same bits by construction), the double reference's
// gradients within two float spacings (below), and the float results within
// the one tolerance rule of engine-helpers.js.
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { expectClose, withinTolerance } from './engine-helpers.js';

const VECTORS = process.env.ATTN_LEARNING_VECTORS ??
  fileURLToPath(new URL('../../build/test-vectors/learning.json', import.meta.url));

// Not a silent skip: without the native vectors this whole file fails.
function loadVectors() {
  if (!existsSync(VECTORS)) {
    throw new Error(`${VECTORS} is missing: run the native build first (bash scripts/build-native.sh --no-bench ` +
      '--target write_learning_vectors && build/native/bin/write_learning_vectors build/test-vectors/learning.json), ' +
      'or npm run test:js, which does both');
  }
  return JSON.parse(readFileSync(VECTORS, 'utf8'));
}

const f32 = (array) => Float32Array.from(array);

// The gap between |x| (a float) and the next float up.
function floatSpacing(x) {
  const bits = new Uint32Array(Float32Array.of(Math.abs(x)).buffer);
  bits[0] += 1;
  return new Float32Array(bits.buffer)[0] - Math.abs(x);
}

// The double reference rounds each gradient to float once, from sums in double whose exp comes from each
// build's libm (glibc natively, musl in wasm: either may differ in the last bit, and both are within 1 ulp of
// exp). Two such doubles lie a few double roundings of the terms apart, so their floats are equal or
// neighbours: within two float spacings, or 1e-15 for an entry whose terms of order 1 cancel.
function expectSameRoundedDouble(actual, expected, label) {
  expect(actual.length, label).toBe(expected.length);
  expected.forEach((e, i) => {
    const tolerance = 2 * floatSpacing(e) + 1e-15;
    expect(Math.abs(actual[i] - e) <= tolerance, `${label}[${i}]: ${actual[i]} vs ${e} within ${tolerance}`).toBe(true);
  });
}
const maskOf = (mask) => (Array.isArray(mask) ? Uint8Array.from(mask) : mask);

describe('the shared learning vectors exist', () => {
  it('build/test-vectors/learning.json was written by the native build', () => {
    const vectors = loadVectors();
    expect(vectors.attentionBackward.length).toBeGreaterThan(0);
    expect(vectors.trainer.map((t) => t.task)).toEqual(['reverse', 'translate']);
    expect(vectors.tokenize.length).toBeGreaterThan(0);
  });
});

describe.each(['simd', 'baseline'])('native vs wasm, learning (%s build)', (build) => {
  const engine = () => createTestingEngine({ build, learning: true });

  it('attention backward: every path against the native double reference', async () => {
    const e = await engine();
    for (const c of loadVectors().attentionBackward) {
      const args = {
        q: f32(c.q), k: f32(c.k), v: f32(c.v), gradOutput: f32(c.gradOutput), n: c.n, m: c.m, dk: c.dk, dv: c.dv,
        scale: c.scale ?? undefined, mask: maskOf(c.mask),
      };
      const reference = e.attentionBackward({ ...args, path: 'reference' });
      for (const key of ['gradQ', 'gradK', 'gradV']) {
        expectSameRoundedDouble(reference[key], c.expected[key].map(Math.fround), `${c.name} reference ${key}`);
      }
      for (const path of ['tiled', 'full']) {
        const gradients = e.attentionBackward({ ...args, path });
        for (const key of ['gradQ', 'gradK', 'gradV']) expectClose(gradients[key], c.expected[key], `${c.name} ${path} ${key}`);
      }
    }
  });

  it.each([0, 1])('trainer %i: options, task data, first batch and initial parameters are the native ones, exactly', async (index) => {
    const e = await engine();
    const c = loadVectors().trainer[index];
    const trainer = e.createTrainer({ task: c.task, seed: c.seed });
    try {
      expect(trainer.options).toEqual({ task: c.task, seed: c.seed, model: c.model, heads: c.heads, dModel: c.dModel, scale: c.scale,
        learningRate: Math.fround(c.learningRate), batchSize: c.batchSize, weightDecay: Math.fround(c.weightDecay) });
      expect(trainer.parameterCount).toBe(c.parameterCount);
      const { taskData } = c;
      expect(trainer.vocabulary.source).toEqual(taskData.sourceVocabulary);
      expect(trainer.vocabulary.target).toEqual(taskData.targetVocabulary);
      expect(trainer.vocabulary.groups).toEqual(taskData.groups);
      expect(trainer.vocabulary.pattern).toBe(taskData.pattern);
      expect(trainer.alignment).toEqual(taskData.alignment);
      expect(trainer.heldOut).toBe(taskData.heldOut);
      expect(trainer.probe().source).toEqual(c.probeAfter3Steps.source);
      expect(trainer.probe().target).toEqual(c.probeAfter3Steps.target);

      const parameters = trainer.parameters();
      expect(parameters.length).toBe(c.parameterCount);
      expect(c.parameterIndices.map((i) => parameters[i])).toEqual(c.initialParameters.map(Math.fround));
      trainer.step(1);
      const batch = trainer.lastBatch();
      expect(Array.from(batch.sources)).toEqual(c.firstBatch.sources);
      expect(Array.from(batch.targets)).toEqual(c.firstBatch.targets);
    } finally {
      trainer.dispose();
    }
  });

  it.each([0, 1])('trainer %i: losses, parameters, evaluation and probe weights within float tolerance', async (index) => {
    const e = await engine();
    const c = loadVectors().trainer[index];
    const trainer = e.createTrainer({ task: c.task, seed: c.seed });
    try {
      const before = trainer.evaluate();
      expect(withinTolerance(before.loss, c.evaluateBefore.loss), `loss before ${before.loss} vs ${c.evaluateBefore.loss}`).toBe(true);
      // Accuracy counts argmaxes: within one held-out position of heldOut * T.
      const position = 1 / (trainer.heldOut * trainer.targetLength);
      expect(Math.abs(before.accuracy - c.evaluateBefore.accuracy)).toBeLessThanOrEqual(position);
      const losses = [1, 2, 3].map((step) => {
        const result = trainer.step(1);
        expect(result.step).toBe(step);
        return result.loss;
      });
      expectClose(losses, c.losses, `${c.task} losses (the first is the initial loss)`);
      const parameters = trainer.parameters();
      expectClose(c.parameterIndices.map((i) => parameters[i]), c.parametersAfter3Steps, `${c.task} parameters after 3 steps`);
      const after = trainer.evaluate();
      expect(withinTolerance(after.loss, c.evaluateAfter3Steps.loss), `loss after ${after.loss}`).toBe(true);
      expect(Math.abs(after.accuracy - c.evaluateAfter3Steps.accuracy)).toBeLessThanOrEqual(position);
      const probe = trainer.probe();
      expect(probe.predicted).toEqual(c.probeAfter3Steps.predicted);
      expectClose(probe.weights, c.probeAfter3Steps.weights, `${c.task} probe weights after 3 steps`);
    } finally {
      trainer.dispose();
    }
  });

  it('typed sentences read as the native tokenizer reads them', async () => {
    const e = await engine();
    for (const c of loadVectors().tokenize) {
      const trainer = e.createTrainer({ task: c.task, seed: 1 });
      const reading = trainer.translate(c.sentence);
      expect(reading.source, c.sentence).toEqual(c.ids.map((id) => trainer.vocabulary.source[id]));
      trainer.dispose();
    }
  });
});

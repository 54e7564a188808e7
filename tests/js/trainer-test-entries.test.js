// The testing engine's entries into an engine model's trainer (web/src/engine/testing.js), which the
// transformer race of npm run bench stands on (bench/race/training/transformer-workload.mjs: the peer
// builds the same model from parameterBlocks() and trains it on lastEngineBatch()): the blocks tile
// parameters() in order, each with the role AdamW reads, and the batch is teacher forcing's shift of one
// padded batch (models/batch.hpp). The 'attention' model and the engine's each refuse the other's entries.
import { describe, expect, it } from 'vitest';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { thrown } from './engine-helpers.js';

const BOS = 0;
const EOS = 1;  // cpp/src/models/vocabulary.hpp

// The role a block's name implies (layers/parameters.hpp: only matrices decay under AdamW).
const roleOf = (name) => (name.endsWith('.embedding') ? 'embedding' : name.endsWith('.gain') ? 'gain'
  : /\.(bias|b\d?)$/.test(name) ? 'bias' : 'matrix');

describe('parameterBlocks and lastEngineBatch of an engine model (transformer on translate, SIMD build)', () => {
  it('the blocks tile parameters() in order, one name each, each with the role of its kind', async () => {
    const t = await createTestingEngine({ build: 'simd', learning: true });
    const trainer = t.createTrainer({ task: 'translate', seed: 3, model: 'transformer', dModel: 16, batchSize: 4 });
    const blocks = trainer.parameterBlocks();
    let end = 0;
    for (const block of blocks) {
      expect(block.offset, block.name).toBe(end);
      expect(block.rows * block.cols, block.name).toBeGreaterThan(0);
      expect(block.role, block.name).toBe(roleOf(block.name));
      end += block.rows * block.cols;
    }
    expect(end).toBe(trainer.parameters().length);
    expect(end).toBe(trainer.parameterCount);
    expect(new Set(blocks.map((b) => b.name)).size).toBe(blocks.length);
    // Its shapes are the options': d_model columns of the embeddings, the read-out onto the target vocabulary.
    const byName = Object.fromEntries(blocks.map((b) => [b.name, b]));
    expect([byName['encoder.embedding'].rows, byName['encoder.embedding'].cols])
      .toEqual([trainer.vocabulary.source.length, 16]);
    expect([byName['output.w'].rows, byName['output.w'].cols]).toEqual([16, byName['decoder.embedding'].rows]);
    // The values at a block's offset are that block's: a gain starts at 1, a bias at 0.
    const values = trainer.parameters();
    const at = (name) => values.subarray(byName[name].offset, byName[name].offset + byName[name].cols);
    expect(Array.from(at('encoder.0.norm1.gain'))).toEqual(new Array(16).fill(1));
    expect(Array.from(at('encoder.0.norm1.bias'))).toEqual(new Array(16).fill(0));
    trainer.dispose();
  });

  it("the last step's batch: padded sources, the decoder's input one step behind its output, counted up to EOS", async () => {
    const t = await createTestingEngine({ build: 'simd', learning: true });
    const trainer = t.createTrainer({ task: 'translate', seed: 3, model: 'transformer', dModel: 16, batchSize: 6 });
    trainer.step();
    const batch = trainer.lastEngineBatch();
    const { size: B, sourceLength: S, targetLength: T } = batch;
    expect(B).toBe(6);
    expect([batch.source.length, batch.sourceLengths.length, batch.targetLengths.length]).toEqual([B * S, B, B]);
    for (const array of [batch.input, batch.output, batch.counted]) expect(array.length).toBe(B * T);
    expect(Math.max(...batch.sourceLengths)).toBe(S);
    expect(Math.max(...batch.targetLengths)).toBe(T);
    // The sentences vary in length (so the race's check exercises the padding masks).
    expect(new Set(batch.sourceLengths).size).toBeGreaterThan(1);
    for (let b = 0; b < B; b++) {
      const length = batch.targetLengths[b];
      const row = (array) => Array.from(array.subarray(b * T, (b + 1) * T));
      const [input, output, counted] = [row(batch.input), row(batch.output), row(batch.counted)];
      expect(input[0]).toBe(BOS);
      expect(output[length - 1]).toBe(EOS);
      expect(input.slice(1, length)).toEqual(output.slice(0, length - 1));
      expect(counted).toEqual(Array.from({ length: T }, (_, i) => (i < length ? 1 : 0)));
      expect(output.slice(length).every((id) => id === 0)).toBe(true);
      expect(Array.from(batch.source.subarray(b * S + batch.sourceLengths[b], (b + 1) * S)).every((id) => id === 0)).toBe(true);
    }
    // The next step draws another batch.
    trainer.step();
    expect(trainer.lastEngineBatch().source).not.toEqual(batch.source);
    trainer.dispose();
  });

  it("each kind of model refuses the other's entries, by name, and keeps working", async () => {
    const t = await createTestingEngine({ build: 'simd', learning: true });
    const engineModel = t.createTrainer({ task: 'reverse', seed: 1, model: 'transformer', dModel: 16, batchSize: 4 });
    const attention = t.createTrainer({ task: 'reverse', seed: 1 });
    const message = (call) => thrown(call).message;
    expect(message(() => engineModel.lastBatch())).toBe("lastBatch: model 'attention' only; the engine's models: lastEngineBatch()");
    for (const entry of ['parameterBlocks', 'lastEngineBatch']) {
      expect(message(() => attention[entry]())).toBe(`${entry}: the engine's models only; model 'attention': parameters() and lastBatch()`);
    }
    expect(engineModel.step().step).toBe(1);
    expect(attention.step().step).toBe(1);
    engineModel.dispose();
    attention.dispose();
  });
});

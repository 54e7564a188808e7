// createAttention({ wasmBinary }): the engine instantiates from bytes it is
// given instead of reading or fetching the .wasm file (the single-file page
// carries them inline, base64). Its own file: the engine caches one module per
// build per page, and this test must be the first to load the builds.
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { createAttention } from '../../web/src/engine/index.js';
import { loadBuild } from '../../web/src/engine/testing.js';

const bytes = (build) => readFileSync(new URL(`../../web/src/engine/wasm/attention-${build}.wasm`, import.meta.url));

const WORKED = {
  q: new Float32Array([1, 0]), k: new Float32Array([1, 0, 0, 1, 1, 1]), v: new Float32Array([2, 0, 0, 2, 1, 1]),
  n: 1, m: 3, dk: 2, dv: 2,
};

test('a wrong type for wasmBinary is a TypeError naming the option', async () => {
  await expect(createAttention({ wasmBinary: 'AGFzbQ==' })).rejects.toThrow(TypeError);
  await expect(createAttention({ wasmBinary: 'AGFzbQ==' })).rejects.toThrow(/wasmBinary/);
  await expect(createAttention({ build: 'simd', wasmBinary: { simd: [0, 97] } })).rejects.toThrow(/wasmBinary\.simd/);
});

test('the given bytes are what is instantiated: garbage fails, and a later call may retry', async () => {
  await expect(createAttention({ build: 'baseline', wasmBinary: new Uint8Array([1, 2, 3, 4]) })).rejects.toThrow();
  const engine = await createAttention({ build: 'baseline', wasmBinary: { baseline: bytes('baseline') } });
  expect(engine.build).toBe('baseline');
  const { weights, output } = engine.attention(WORKED);
  expect(weights[0]).toBeCloseTo(0.401, 3);
  expect(output[0]).toBeCloseTo(1.203, 3);
});

test('one buffer serves the build that is chosen; later calls share the engine', async () => {
  const raw = bytes('simd');
  const engine = await createAttention({ build: 'simd', wasmBinary: raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) });
  expect(engine.simd).toBe(true);
  expect(await createAttention({ build: 'simd' })).toBe(engine);
  expect(await loadBuild('simd')).toBe(await loadBuild('simd', { wasmBinary: raw }));
  expect(engine.attention(WORKED).output[1]).toBeCloseTo(0.797, 3);
});

test('the learning module instantiates from its own bytes ({ learningSimd, learningBaseline }, or one buffer)', async () => {
  const learning = (build) => readFileSync(new URL(`../../web/src/engine/wasm/attention-learning-${build}.wasm`, import.meta.url));
  await expect(createAttention({ learning: 'yes' })).rejects.toThrow(new TypeError("options.learning: expected true, 'basic' or false, got 'yes'"));
  await expect(createAttention({ build: 'baseline', learning: true, wasmBinary: { learningBaseline: [0, 97] } }))
    .rejects.toThrow(/wasmBinary\.learningBaseline/);
  // The attention module's bytes are not the learning module's: instantiating them gives no trainer.
  await expect(createAttention({ build: 'baseline', learning: true, wasmBinary: bytes('baseline') })).rejects.toThrow();
  const engine = await createAttention({ build: 'baseline', learning: true, wasmBinary: { baseline: bytes('baseline'),
    learningBaseline: learning('baseline') } });
  expect([engine.build, engine.learning]).toEqual(['baseline', true]);
  const trainer = engine.createTrainer({ task: 'reverse', seed: 1 });
  expect(trainer.step(2).step).toBe(2);
  trainer.dispose();
  const simd = await createAttention({ build: 'simd', learning: true, wasmBinary: learning('simd') });
  expect(simd.attentionBackward({ ...WORKED, gradOutput: new Float32Array([1, 0]) }).gradV[0]).toBeCloseTo(0.401, 3);
  expect(await createAttention({ build: 'simd', learning: true })).toBe(simd);
});

test("the basic learning module instantiates from its own bytes ({ backwardSimd, backwardBaseline })", async () => {
  const backward = (build) => readFileSync(new URL(`../../web/src/engine/wasm/attention-backward-${build}.wasm`, import.meta.url));
  await expect(createAttention({ build: 'baseline', learning: 'basic', wasmBinary: { backwardBaseline: 'AGFzbQ==' } }))
    .rejects.toThrow(/wasmBinary\.backwardBaseline/);
  // One key per module: the attention module's bytes beside it are for the attention module.
  const engine = await createAttention({ build: 'baseline', learning: 'basic', wasmBinary: {
    baseline: bytes('baseline'), backwardBaseline: backward('baseline') } });
  expect([engine.build, engine.learning]).toEqual(['baseline', 'basic']);
  const trainer = engine.createTrainer({ task: 'translate', seed: 1 });
  expect(trainer.step(1).step).toBe(1);
  trainer.dispose();
  expect(await loadBuild('baseline', { learning: 'basic' })).not.toBe(await loadBuild('baseline', { learning: true }));
});

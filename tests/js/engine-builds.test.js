// The two WebAssembly builds: 'auto' picks SIMD where supported, each build is
// loaded once, the SIMD .wasm really holds f32x4 instructions and the baseline
// none, and both builds agree on random shapes (odd sizes around the vector
// width, masks, every output path).
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { simd as simdSupported } from 'wasm-feature-detect';
import { createAttention, preferredBuild } from '../../web/src/engine/index.js';
import { loadBuild } from '../../web/src/engine/testing.js';
import { expectClose, loadBoth, randomMatrix, seededRandom, thrown } from './engine-helpers.js';

const wasmFile = (build) => fileURLToPath(new URL(`../../web/src/engine/wasm/attention-${build}.wasm`, import.meta.url));
const learningWasmFile = (build) => fileURLToPath(new URL(`../../web/src/engine/wasm/attention-learning-${build}.wasm`, import.meta.url));
const backwardWasmFile = (build) => fileURLToPath(new URL(`../../web/src/engine/wasm/attention-backward-${build}.wasm`, import.meta.url));

// Counts f32x4 instructions in the disassembly (wabt's wasm-objdump).
function countF32x4(build, file = wasmFile) {
  const listing = execFileSync('wasm-objdump', ['-d', file(build)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return listing.split('\n').filter((line) => /\bf32x4\./.test(line)).length;
}

describe('choosing and loading a build', () => {
  it("'auto' is the SIMD build where SIMD128 validates (Node 20: yes)", async () => {
    expect(await simdSupported()).toBe(true);
    expect(await preferredBuild()).toBe('simd');
    const engine = await createAttention();
    expect(engine.build).toBe('simd');
    expect(engine.simd).toBe(true);
    expect(engine.simdWidth).toBe(4);
    const baseline = await createAttention({ build: 'baseline' });
    expect([baseline.build, baseline.simd, baseline.simdWidth]).toEqual(['baseline', false, 1]);
  });

  it('each build is loaded once, however many callers ask at the same time', async () => {
    const engines = await Promise.all(Array.from({ length: 5 }, () => createAttention({ build: 'auto' })));
    expect(new Set(engines).size).toBe(1);
    expect(engines[0]).toBe(await createAttention({ build: 'simd' }));
    expect(await loadBuild('simd')).toBe(await loadBuild('simd'));
    expect(await loadBuild('simd')).not.toBe(await loadBuild('baseline'));
    // The learning module of a build is another module, also loaded once.
    const learning = await Promise.all(Array.from({ length: 3 }, () => createAttention({ build: 'simd', learning: true })));
    expect(new Set(learning).size).toBe(1);
    expect(learning[0]).not.toBe(engines[0]);
    expect(await loadBuild('simd', { learning: true })).not.toBe(await loadBuild('simd'));
    expect(typeof (await loadBuild('simd', { learning: true })).Trainer).toBe('function');
    expect((await loadBuild('simd')).Trainer).toBe(undefined);
    // The basic learning module too: a third module, with its own engine.
    const basic = await Promise.all(Array.from({ length: 3 }, () => createAttention({ build: 'simd', learning: 'basic' })));
    expect(new Set(basic).size).toBe(1);
    expect(basic[0].learning).toBe('basic');
    expect([learning[0].learning, engines[0].learning]).toEqual([true, false]);
    expect(new Set([basic[0], learning[0], engines[0]]).size).toBe(3);
    const basicModule = await loadBuild('simd', { learning: 'basic' });
    expect(new Set([basicModule, await loadBuild('simd', { learning: true }), await loadBuild('simd')]).size).toBe(3);
    expect(typeof basicModule.Trainer).toBe('function');
    await expect(createAttention({ learning: 'full' })).rejects.toThrow(
      new TypeError("options.learning: expected true, 'basic' or false, got 'full'"));
  });

  it("the basic learning module trains model 'attention' only: another model is the core's error naming the module that has it", async () => {
    for (const build of ['simd', 'baseline']) {
      const basic = await createAttention({ build, learning: 'basic' });
      const trainer = basic.createTrainer({ task: 'reverse', seed: 1 });
      expect(trainer.step(2).step).toBe(2);
      trainer.dispose();
      for (const model of ['rnn', 'bahdanau', 'luong', 'transformer', 'decoder']) {
        const error = thrown(() => basic.createTrainer({ task: 'reverse', seed: 1, model }));
        expect(error.constructor, model).toBe(Error);
        expect(error.message).toBe(`model: '${model}' is a model of the engine, which this WebAssembly module does not ` +
          "have: createAttention({ learning: true }) loads it");
      }
      // Its options are still checked first, and the full module trains the same options.
      expect(() => basic.createTrainer({ task: 'reverse', seed: 1, model: 'transformer', window: 'local' }))
        .toThrow(new TypeError("window: applies to model 'luong' only, not to model 'transformer'"));
      const full = await createAttention({ build, learning: true });
      const transformer = full.createTrainer({ task: 'reverse', seed: 1, model: 'transformer' });
      expect(transformer.step(1).step).toBe(1);
      transformer.dispose();
    }
  });

  it('the learning modules: SIMD128 arithmetic in the SIMD build only; the engine in the larger one', () => {
    for (const file of [learningWasmFile, backwardWasmFile]) {
      expect(countF32x4('simd', file)).toBeGreaterThan(0);
      expect(countF32x4('baseline', file)).toBe(0);
    }
    for (const build of ['simd', 'baseline']) {
      const [attention, backward, learning] = [wasmFile, backwardWasmFile, learningWasmFile]
        .map((file) => readFileSync(file(build)).length);
      expect(attention < backward && backward < learning, `${build}: ${attention} ${backward} ${learning}`).toBe(true);
    }
  });

  it('rejects an unknown build name', async () => {
    await expect(createAttention({ build: 'avx' })).rejects.toThrow(TypeError);
    await expect(createAttention(null)).rejects.toThrow(TypeError);
  });
});

describe('what is inside the .wasm files', () => {
  it('the SIMD build contains f32x4 instructions and the baseline build none', () => {
    expect(countF32x4('simd')).toBeGreaterThan(20);
    expect(countF32x4('baseline')).toBe(0);
  });

  it('both are valid WebAssembly, and only the SIMD one uses the 0xfd (SIMD) opcode space', () => {
    for (const build of ['simd', 'baseline']) {
      expect(WebAssembly.validate(readFileSync(wasmFile(build))), build).toBe(true);
    }
    const listing = execFileSync('wasm-objdump', ['-d', wasmFile('baseline')], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(listing).not.toMatch(/\b(v128|[if](8x16|16x8|32x4|64x2))\./);
  });
});

describe('SIMD and baseline builds agree', () => {
  it('on random shapes around the vector width, with and without masks', async () => {
    const [simd, baseline] = await loadBoth();
    const random = seededRandom(2024);
    const sizes = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64];
    const pick = () => sizes[Math.floor(random() * sizes.length)];
    for (let trial = 0; trial < 40; trial++) {
      const n = pick(), m = pick(), dk = pick(), dv = pick();
      const args = {
        q: randomMatrix(random, n, dk), k: randomMatrix(random, m, dk), v: randomMatrix(random, m, dv),
        n, m, dk, dv,
        mask: [undefined, 'causal', { validKeys: Math.ceil(m / 2) }][trial % 3],
        scale: [undefined, false, 0.3][trial % 4 === 3 ? 2 : trial % 2],
      };
      const label = `trial ${trial} (n=${n} m=${m} dk=${dk} dv=${dv})`;
      const a = simd.attention(args), b = baseline.attention(args);
      for (const key of ['scores', 'scaled', 'weights', 'output']) expectClose(a[key], b[key], `${label} ${key}`);
      const reference = baseline.attentionReference(args).output;
      for (const path of ['tiled', 'full']) {
        expectClose(simd.attentionOutput({ ...args, path }), reference, `${label} simd ${path}`);
        expectClose(baseline.attentionOutput({ ...args, path }), reference, `${label} baseline ${path}`);
      }
    }
  });

  it('on multi-head self- and cross-attention', async () => {
    const [simd, baseline] = await loadBoth();
    const random = seededRandom(77);
    for (const [n, m, dModel, heads] of [[5, 5, 12, 3], [3, 9, 16, 4], [7, 2, 8, 8]]) {
      const w = () => randomMatrix(random, dModel, dModel, 0.5);
      const args = {
        x: randomMatrix(random, n, dModel), heads, wq: w(), wk: w(), wv: w(), wo: w(),
        ...(n === m ? { mask: 'causal' } : { context: randomMatrix(random, m, dModel) }),
      };
      const a = simd.multiHead(args), b = baseline.multiHead(args);
      expectClose(a.output, b.output, `output ${n}x${m}`);
      a.headWeights.forEach((weights, h) => expectClose(weights, b.headWeights[h], `head ${h}`));
    }
  });

  it('on the experiments, bit for bit where only + - * / sqrt are used', async () => {
    const [simd, baseline] = await loadBoth();
    expect(simd.randomNormal({ seed: 1, rows: 64, cols: 64 })).toEqual(baseline.randomNormal({ seed: 1, rows: 64, cols: 64 }));
    const options = { dk: 64, queries: 8, keys: 8, trials: 50, seed: 3 };
    const a = simd.saturation(options), b = baseline.saturation(options);
    expect(a.logitStd).toBe(b.logitStd);
    for (const key of ['maxWeight', 'entropy', 'gradient', 'saturatedShare']) {
      expectClose([a[key].raw, a[key].scaled], [b[key].raw, b[key].scaled], key);
    }
  });
});

// Native vs wasm on the shared test vectors. build/test-vectors/vectors.json is
// written by the native build (tests/native/write_test_vectors.cpp: attention
// cases with the scalar reference's trace, multi-head, saturation, the raw random
// streams and positional encodings). Both wasm builds must match it under the one
// tolerance rule of engine-helpers.js; the random streams must match bit for bit.
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAttention } from '../../web/src/engine/index.js';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { expectClose, withinTolerance, ABS_TOL, REL_TOL } from './engine-helpers.js';

const VECTORS = process.env.ATTN_TEST_VECTORS ??
  fileURLToPath(new URL('../../build/test-vectors/vectors.json', import.meta.url));

// Not a silent skip: without the native vectors this whole file fails.
function loadVectors() {
  if (!existsSync(VECTORS)) {
    throw new Error(`${VECTORS} is missing: run the native build first ` +
      '(bash scripts/build-native.sh && build/native/bin/write_test_vectors build/test-vectors/vectors.json), ' +
      'or npm test, which does both');
  }
  return JSON.parse(readFileSync(VECTORS, 'utf8'));
}

const f32 = (array) => Float32Array.from(array);
const maskOf = (mask) => (Array.isArray(mask) ? Uint8Array.from(mask) : mask ?? undefined);

describe('the shared test vectors exist', () => {
  it('build/test-vectors/vectors.json was written by the native build', () => {
    const vectors = loadVectors();
    for (const key of ['attention', 'multiHead', 'saturation', 'random', 'positionalEncoding']) {
      expect(vectors[key], key).toBeInstanceOf(Array);
      expect(vectors[key].length, key).toBeGreaterThan(0);
    }
  });
});

describe.each(['simd', 'baseline'])('native vs wasm (%s build)', (build) => {
  const engine = () => createAttention({ build });

  it('attention: every case, every intermediate, every output path', async () => {
    const e = await engine();
    for (const c of loadVectors().attention) {
      const args = {
        q: f32(c.q), k: f32(c.k), v: f32(c.v), n: c.n, m: c.m, dk: c.dk, dv: c.dv,
        scale: c.scale ?? undefined, mask: maskOf(c.mask),
      };
      const trace = e.attention({ ...args, terms: true });
      for (const key of ['scores', 'scaled', 'exps', 'expSums', 'expShifts', 'weights', 'terms', 'output']) {
        expectClose(trace[key], c.expected[key], `${c.name} ${key}`);
      }
      for (const path of ['tiled', 'full']) {
        expectClose(e.attentionOutput({ ...args, path }), c.expected.output, `${c.name} attentionOutput ${path}`);
      }
      const reference = e.attentionReference(args);
      for (const key of ['exps', 'expSums', 'weights']) expectClose(reference[key], c.expected[key], `${c.name} reference ${key}`);
    }
  });

  it('multi-head: output and per-head weights', async () => {
    const e = await engine();
    for (const c of loadVectors().multiHead) {
      const result = e.multiHead({
        x: f32(c.x), context: c.context ? f32(c.context) : undefined, heads: c.heads,
        wq: f32(c.wq), wk: f32(c.wk), wv: f32(c.wv), wo: f32(c.wo), mask: maskOf(c.mask),
        n: c.n, m: c.m, dModel: c.dModel,
      });
      expectClose(result.output, c.expected.output, `${c.name} output`);
      expect(result.headWeights).toHaveLength(c.heads);
      result.headWeights.forEach((w, h) => expectClose(w, c.expected.headWeights[h], `${c.name} head ${h}`));
    }
  });

  it('saturation experiment: the same statistics from the same seed', async () => {
    const e = await engine();
    for (const c of loadVectors().saturation) {
      const r = e.saturation({ dk: c.dk, queries: c.queries, keys: c.keys, trials: c.trials, seed: c.seed });
      const label = `dk=${c.dk} queries=${c.queries} trials=${c.trials}`;
      expect(withinTolerance(r.logitStd, c.expected.logitStd), `${label} logitStd ${r.logitStd} vs ${c.expected.logitStd}`).toBe(true);
      for (const key of ['maxWeight', 'entropy', 'gradient', 'saturatedShare']) {
        expectClose([r[key].raw, r[key].scaled], [c.expected[key].raw, c.expected[key].scaled], `${label} ${key}`);
      }
    }
  });

  it('random streams are bit-identical to native (normals and raw 64-bit draws)', async () => {
    const e = await engine();
    const testing = await createTestingEngine({ build });
    for (const c of loadVectors().random) {
      const { normals, u64 } = testing.randomStream({ seed: c.seed, count: c.count });
      expect(Array.from(normals), `seed ${c.seed} normals`).toEqual(c.normals);
      expect(Array.from(u64, String), `seed ${c.seed} u64`).toEqual(c.u64);
      // The float matrices the page uses are those normals rounded to float.
      const matrix = e.randomNormal({ seed: c.seed, rows: 1, cols: c.count });
      expect(Array.from(matrix), `seed ${c.seed} normal_matrix`).toEqual(c.normals.map(Math.fround));
    }
  });

  it('positional encodings', async () => {
    const e = await engine();
    for (const c of loadVectors().positionalEncoding) {
      expectClose(e.positionalEncoding(c.n, c.dModel), c.expected, `PE ${c.n}x${c.dModel}`);
    }
  });
});

it(`states its tolerance: |wasm - native| <= ${ABS_TOL} + ${REL_TOL} |native|`, () => {
  expect(withinTolerance(1 + REL_TOL, 1)).toBe(true);
  expect(withinTolerance(1 + 3 * REL_TOL, 1)).toBe(false);
});

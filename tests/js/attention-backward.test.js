// attentionBackward against checks that do not use the core:
// - the gradients of the double reference path ('reference') against central
//   finite differences of L = sum(gradOutput * O), O computed here in double by
//   an independent forward pass (doubleAttention below), on odd small shapes,
//   for every scale kind and every mask kind: the largest error of each tensor
//   within 1e-6 of its largest derivative (the rule of tests/native/gradient_check.hpp);
// - the SIMD paths ('full', 'tiled') against the reference on the odd sizes of
//   the forward tests (around the SIMD width and the 64-row blocks), within the
//   one tolerance rule of engine-helpers.js, in both builds;
// - exact zeros: a fully masked query row gets dQ = 0, a key no query sees
//   gets dK = dV = 0, in every path;
// - the checks and errors of attention(), and gradOutput's.
import { describe, it, expect } from 'vitest';
import { createAttention } from '../../web/src/engine/index.js';
import { createTestingEngine } from '../../web/src/engine/testing.js';
import { expectClose, randomMatrix, seededRandom, thrown } from './engine-helpers.js';

// O = softmax(scale Q K^T, -inf where keep = 0) V in double; a fully masked row is 0.
function doubleAttention(q, k, v, { n, m, dk, dv }, scale, keep) {
  const out = new Float64Array(n * dv);
  const p = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < m; j++) {
      if (!keep[i * m + j]) continue;
      let s = 0;
      for (let c = 0; c < dk; c++) s += q[i * dk + c] * k[j * dk + c];
      p[j] = s * scale;
      max = Math.max(max, p[j]);
    }
    if (max === -Infinity) continue;
    let sum = 0;
    for (let j = 0; j < m; j++) {
      p[j] = keep[i * m + j] ? Math.exp(p[j] - max) : 0;
      sum += p[j];
    }
    for (let j = 0; j < m; j++) for (let c = 0; c < dv; c++) out[i * dv + c] += (p[j] / sum) * v[j * dv + c];
  }
  return out;
}

// The keep-matrix (1 = may attend) of each mask option, as attention() reads it.
function keepMatrix(mask, n, m) {
  const keep = new Uint8Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      keep[i * m + j] = mask === undefined ? 1 : mask === 'causal' ? Number(j <= i)
        : mask instanceof Uint8Array ? mask[i * m + j] : Number(j < mask.validKeys);
    }
  }
  return keep;
}

const scaleFactor = (scale, dk) => (scale === undefined || scale === true ? 1 / Math.sqrt(dk) : scale === false ? 1 : scale);

// Central differences of L = sum(gradOutput * O) with respect to every entry of q, k and v.
function finiteDifferences(args, h = 1e-5) {
  const { gradOutput } = args;
  const scale = scaleFactor(args.scale, args.dk);
  const keep = keepMatrix(args.mask, args.n, args.m);
  const inputs = { gradQ: Float64Array.from(args.q), gradK: Float64Array.from(args.k), gradV: Float64Array.from(args.v) };
  const loss = () => {
    const o = doubleAttention(inputs.gradQ, inputs.gradK, inputs.gradV, args, scale, keep);
    return o.reduce((sum, x, i) => sum + x * gradOutput[i], 0);
  };
  const gradients = {};
  for (const [name, x] of Object.entries(inputs)) {
    gradients[name] = x.map((value, i) => {
      x[i] = value + h;
      const up = loss();
      x[i] = value - h;
      const down = loss();
      x[i] = value;
      return (up - down) / (2 * h);
    });
  }
  return gradients;
}

// max |analytic - numeric| / max |numeric|, per tensor (gradient_check.hpp's rule).
function relativeError(analytic, numeric) {
  let error = 0;
  let largest = 0;
  for (let i = 0; i < numeric.length; i++) {
    error = Math.max(error, Math.abs(analytic[i] - numeric[i]));
    largest = Math.max(largest, Math.abs(numeric[i]));
  }
  return largest === 0 ? error : error / largest;
}

function problem(seed, n, m, dk, dv, extra = {}) {
  const random = seededRandom(seed);
  return {
    q: randomMatrix(random, n, dk, 1.5), k: randomMatrix(random, m, dk, 1.5), v: randomMatrix(random, m, dv),
    gradOutput: randomMatrix(random, n, dv), n, m, dk, dv, ...extra,
  };
}

// Every mask kind for an n x m problem, with a fully masked row and a key nobody sees in the keep-matrix.
function masksFor(n, m) {
  const keep = new Uint8Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) keep[i * m + j] = Number((i + 2 * j) % 3 !== 0 && j !== m - 1);
  if (n > 1) keep.fill(0, m, 2 * m);  // query 1: fully masked
  return { none: undefined, causal: 'causal', 'key padding': { validKeys: Math.max(1, m - 2) }, 'all keys padding': { validKeys: 0 }, keep };
}

const SHAPES = [[1, 1, 1, 1], [3, 5, 2, 3], [5, 3, 3, 1], [7, 4, 5, 3]];
const SCALES = { default: undefined, off: false, 'given 0.7': 0.7 };

describe('the double reference against finite differences of an independent double forward pass', () => {
  it.each(SHAPES)('n=%i m=%i dk=%i dv=%i, every scale and mask kind: within 1e-6 of the largest derivative', async (n, m, dk, dv) => {
    const t = await createTestingEngine({ build: 'simd', learning: true });
    let checked = 0;
    for (const [scaleName, scale] of Object.entries(SCALES)) {
      for (const [maskName, mask] of Object.entries(masksFor(n, m))) {
        const args = problem(n * 100 + m * 10 + dk, n, m, dk, dv, { scale, mask });
        const analytic = t.attentionBackward({ ...args, path: 'reference' });
        const numeric = finiteDifferences(args);
        for (const name of ['gradQ', 'gradK', 'gradV']) {
          const error = relativeError(analytic[name], numeric[name]);
          expect(error, `${name}, scale ${scaleName}, mask ${maskName}`).toBeLessThanOrEqual(1e-6);
        }
        checked++;
      }
    }
    expect(checked).toBe(15);
  });

  it('the gradient is not trivially zero: a scaled problem has derivatives of order one', async () => {
    const t = await createTestingEngine({ build: 'simd', learning: true });
    const args = problem(5, 3, 5, 2, 3);
    const { gradQ, gradK, gradV } = t.attentionBackward({ ...args, path: 'reference' });
    for (const g of [gradQ, gradK, gradV]) expect(Math.max(...g.map(Math.abs))).toBeGreaterThan(0.05);
  });
});

// The sizes of the forward tests: around the SIMD width (4) and the tiled blocks (64).
const SIZES = [1, 3, 4, 5, 7, 8, 9, 17, 31, 33, 65];

describe.each(['simd', 'baseline'])('the SIMD paths against the reference (%s build)', (build) => {
  it('full and tiled, every n and m of the odd sizes, every mask kind, dk = 5, dv = 3', async () => {
    const t = await createTestingEngine({ build, learning: true });
    let pairs = 0;
    for (const n of SIZES) {
      for (const m of SIZES) {
        for (const [maskName, mask] of Object.entries(masksFor(n, m))) {
          const args = problem(n * 97 + m, n, m, 5, 3, { mask, scale: m % 2 ? undefined : 0.9 });
          const reference = t.attentionBackward({ ...args, path: 'reference' });
          for (const path of ['full', 'tiled']) {
            const gradients = t.attentionBackward({ ...args, path });
            for (const name of ['gradQ', 'gradK', 'gradV']) {
              expectClose(gradients[name], reference[name], `${path} ${name} n=${n} m=${m} mask ${maskName}`);
            }
          }
        }
        pairs++;
      }
    }
    expect(pairs).toBe(121);
  });

  it('wider heads (dk = dv = 64, 17) and scores in the hundreds stay within tolerance', async () => {
    const t = await createTestingEngine({ build, learning: true });
    for (const [n, m, d, spread] of [[33, 65, 64, 1], [9, 17, 17, 1], [5, 7, 8, 12]]) {
      const random = seededRandom(n + m + d);
      const args = { q: randomMatrix(random, n, d, spread), k: randomMatrix(random, m, d, spread), v: randomMatrix(random, m, d),
        gradOutput: randomMatrix(random, n, d), n, m, dk: d, dv: d, scale: spread > 1 ? 1 : undefined };
      const reference = t.attentionBackward({ ...args, path: 'reference' });
      for (const path of ['full', 'tiled']) {
        const gradients = t.attentionBackward({ ...args, path });
        for (const name of ['gradQ', 'gradK', 'gradV']) expectClose(gradients[name], reference[name], `${path} ${name} ${n}x${m}x${d}`);
      }
    }
  });

  it('exact zeros: a fully masked query row gets dQ = 0 and a key no query sees gets dK = dV = 0, in every path', async () => {
    const t = await createTestingEngine({ build, learning: true });
    const n = 4, m = 5, dk = 3, dv = 2;
    const keep = new Uint8Array([1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0]);  // row 1 masked, key 4 unseen
    const args = problem(77, n, m, dk, dv, { mask: keep });
    for (const path of ['reference', 'full', 'tiled']) {
      const { gradQ, gradK, gradV } = t.attentionBackward({ ...args, path });
      expect(Array.from(gradQ.subarray(dk, 2 * dk)), `${path} dQ row 1`).toEqual([0, 0, 0]);
      expect(Array.from(gradK.subarray(4 * dk)), `${path} dK row 4`).toEqual([0, 0, 0]);
      expect(Array.from(gradV.subarray(4 * dv)), `${path} dV row 4`).toEqual([0, 0]);
      expect(gradQ.every(Number.isFinite) && gradK.every(Number.isFinite) && gradV.every(Number.isFinite), path).toBe(true);
      // Every other row has a gradient.
      expect(gradQ.subarray(0, dk).some((x) => x !== 0), `${path} dQ row 0`).toBe(true);
    }
    // Every key padding: every row fully masked, every gradient exactly 0 (never NaN).
    for (const path of ['reference', 'full', 'tiled']) {
      const { gradQ, gradK, gradV } = t.attentionBackward({ ...args, mask: { validKeys: 0 }, path });
      expect([...gradQ, ...gradK, ...gradV].every((x) => x === 0), path).toBe(true);
    }
  });

  it('the tiled path never holds an n x m matrix: at n = m = 2048 it grows the memory by less than 1/8 of one, the full path by more than one', async () => {
    const t = await createTestingEngine({ build, learning: true });
    const n = 2048, d = 8;
    const args = problem(2048, n, n, d, d);
    const matrixBytes = n * n * 4;
    const before = t.boundaryState().memoryBytes;
    const tiled = t.attentionBackward({ ...args, path: 'tiled' });
    const afterTiled = t.boundaryState().memoryBytes;
    expect(afterTiled - before).toBeLessThan(matrixBytes / 8);
    const full = t.attentionBackward({ ...args, path: 'full' });
    expect(t.boundaryState().memoryBytes - afterTiled).toBeGreaterThan(matrixBytes);  // it holds three
    for (const name of ['gradQ', 'gradK', 'gradV']) expectClose(tiled[name], full[name], `${name} at n = ${n}`);
  });
});

// Issue 25, item 4: q = (1e20, 0), keys (1e20, 0), (1e19, 0), (0, 0). The scaled scores (7.07e39, 7.07e38,
// 0) do not fit in a float, but the weights (1, 0, 0), the output v_0 and the gradients do:
// dV = P^T dO = (dO, 0, 0), and dS = P (dP - D) = 0 (D = dP_0), so dQ = dK = 0. Every path returns them
// (the tiled path refused before: its forward could not keep the row's log-sum-exp 7.07e39 in a float);
// attention() alone refuses, naming the score, because the trace returns the scores.
describe.each(['simd', 'baseline'])('the same answer on every path beyond the float range (%s build)', (build) => {
  it('attentionBackward on tiled, full and reference; attentionOutput on tiled and full; attention() names the score', async () => {
    const t = await createTestingEngine({ build, learning: true });
    const args = {
      q: new Float32Array([1e20, 0]), k: new Float32Array([1e20, 0, 1e19, 0, 0, 0]), v: new Float32Array([1, 2, 3, 4, 5, 6]),
      gradOutput: new Float32Array([1, -1]), n: 1, m: 3, dk: 2, dv: 2,
    };
    for (const path of ['tiled', 'full', 'reference']) {
      const { gradQ, gradK, gradV } = t.attentionBackward({ ...args, path });
      expect([Array.from(gradQ), Array.from(gradK), Array.from(gradV)], path).toEqual([[0, 0], [0, 0, 0, 0, 0, 0], [1, -1, 0, 0, 0, 0]]);
    }
    for (const path of ['tiled', 'full']) expect(Array.from(t.attentionOutput({ ...args, path })), path).toEqual([1, 2]);
    expect(thrown(() => t.attention(args)).message).toMatch(
      /^scores\[0\]\[0\]: q_0 \. k_0 = 1\.00000004e\+40 is beyond the float range \(\|x\| <= 3\.40282347e\+38\)$/);
  });
});

describe('attentionBackward: the checks and errors of attention(), and gradOutput\'s', () => {
  const worked = () => ({
    q: new Float32Array([1, 0]), k: new Float32Array([1, 0, 0, 1, 1, 1]), v: new Float32Array([2, 0, 0, 2, 1, 1]),
    gradOutput: new Float32Array([1, 0]), n: 1, m: 3, dk: 2, dv: 2,
  });

  it('each bad argument is named with what was expected and what was given; the engine keeps working', async () => {
    const e = await createAttention({ build: 'simd', learning: true });
    const args = worked();
    const cases = [
      [{ q: [1, 0] }, TypeError, 'q: expected a Float32Array, got an Array of length 2'],
      [{ gradOutput: undefined }, TypeError, 'gradOutput: expected a Float32Array, got undefined'],
      [{ gradOutput: new Float64Array(2) }, TypeError, 'gradOutput: expected a Float32Array, got a Float64Array of length 2'],
      [{ gradOutput: new Float32Array(3) }, RangeError, 'gradOutput: expected n*d_v = 1*2 = 2 floats, got 3'],
      [{ gradOutput: new Float32Array([0, NaN]) }, Error, 'gradOutput[1]: expected a finite number, got NaN'],
      [{ k: new Float32Array(5) }, RangeError, 'k: expected m*d_k = 3*2 = 6 floats, got 5'],
      [{ q: new Float32Array([Infinity, 0]) }, Error, 'q[0]: expected a finite number, got inf'],
      [{ n: -1 }, RangeError, 'n: expected an integer from 0 to 4294967295, got -1'],
      [{ dk: 0 }, RangeError, 'dk: expected at least 1, got 0'],
      [{ mask: 'upper' }, TypeError, "mask: expected 'none', 'causal', { validKeys } or a Uint8Array(n*m) keep-matrix, got 'upper'"],
      [{ mask: new Uint8Array([1, 2, 1]) }, Error, 'mask[1]: expected 0 or 1, got 2'],
      [{ mask: { validKeys: 4 } }, Error, 'mask.validKeys: expected at most m = 3, got 4'],
      [{ scale: '2' }, TypeError, "scale: expected a number, true or false, got '2'"],
      [{ scale: -2 }, Error, 'scale: expected a finite positive number from 1.40129846e-45 to 3.40282347e+38, got -2'],
      [{ path: 'reference' }, TypeError, "path: expected 'tiled' or 'full', got 'reference'"],
      [{ path: 'fast' }, TypeError, "path: expected 'tiled' or 'full', got 'fast'"],
    ];
    for (const path of ['tiled', 'full']) {
      for (const [changes, Type, message] of cases) {
        const error = thrown(() => e.attentionBackward({ path, ...args, ...changes }));
        expect(error, `${path} ${JSON.stringify(Object.keys(changes))}`).toBeInstanceOf(Type);
        expect(error.message, `${path} ${Object.keys(changes)}`).toBe(message);
      }
    }
    expect(() => e.attentionBackward(null)).toThrow(new TypeError('attentionBackward: expected an options object, got null'));
    // Still computes: d/dq of o_0 = sum_j p_j v_j0 for the worked example.
    const { gradQ } = e.attentionBackward(args);
    expectClose(gradQ, (await createTestingEngine({ build: 'simd', learning: true })).attentionBackward({ ...args, path: 'reference' }).gradQ);
  });

  it('the same error as attention() for the same bad attention arguments', async () => {
    const e = await createAttention({ build: 'simd', learning: true });
    const args = worked();
    for (const changes of [{ k: new Float32Array(5) }, { q: new Float32Array([NaN, 0]) }, { m: 0 }, { mask: new Uint8Array(2) },
      { scale: 1e39 }, { v: [1] }]) {
      const forward = thrown(() => e.attention({ ...args, ...changes }));
      const backward = thrown(() => e.attentionBackward({ ...args, ...changes }));
      expect([backward.constructor, backward.message], Object.keys(changes).join()).toEqual([forward.constructor, forward.message]);
    }
  });

  it('an engine without the learning module says how to get it', async () => {
    const lean = await createAttention({ build: 'simd' });
    expect(lean.learning).toBe(false);
    expect(() => lean.attentionBackward(worked())).toThrow(new Error('attentionBackward: this engine runs the attention ' +
      'module only, without the learning code; create it with createAttention({ learning: true })'));
    expect((await createAttention({ build: 'simd', learning: true })).learning).toBe(true);
  });
});

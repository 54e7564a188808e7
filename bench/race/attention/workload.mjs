// The attention workload of the race: O = softmax(Q K^T / sqrt(d)) V with
// Q n x d, K m x d, V m x d (row-major Float32Array), n = m, d = 64, no mask.
// Every contender's call takes the three Float32Arrays and returns O as a
// Float32Array (n x d): copying in and out is part of each call, as it is for
// a user of each library.
//
// Correctness: each contender's output is compared, before it is timed, with the
// project's double-precision reference (attentionOutput path 'reference',
// attn::reference) on the first and the last CHECK_ROWS query rows (all rows
// when n <= 2 * CHECK_ROWS; each output row depends on its own query row and
// on all of K and V, so a row subset is an exact check of those rows).
export const D = 64;
export const CHECK_ROWS = 128;

// The tolerance rule of the whole bench (the same in bench/native/attention_bench.cpp):
// per element |x - reference| <= absolute + relative * |reference|.
export const TOLERANCE = { absolute: 1e-5, relative: 1e-4 };

// 4 n m d flops per call: 2 n m d for Q K^T and 2 n m d for P V (the softmax's O(n m) not counted).
export const flopsOf = (n, m, d) => 4 * n * m * d;

// engine: a project engine (createTestingEngine, which has the 'reference' path), for the inputs (its seeded normal
// generator). Q, K, V ~ N(0, 1).
export function makeProblem(engine, n, d = D) {
  const m = n;
  const q = engine.randomNormal({ seed: 1000 + n, rows: n, cols: d });
  const k = engine.randomNormal({ seed: 2000 + n, rows: m, cols: d });
  const v = engine.randomNormal({ seed: 3000 + n, rows: m, cols: d });
  return { n, m, d, q, k, v, flops: flopsOf(n, m, d) };
}

// The reference outputs of the checked rows, from the project's double path.
export function addReference(engine, problem) {
  const { n, m, d, q, k, v } = problem;
  const blocks = n <= 2 * CHECK_ROWS ? [[0, n]] : [[0, CHECK_ROWS], [n - CHECK_ROWS, CHECK_ROWS]];
  const checkedRows = [];
  const reference = [];
  for (const [first, rows] of blocks) {
    reference.push(engine.attentionOutput({ q: q.subarray(first * d, (first + rows) * d), k, v, n: rows, m, dk: d, dv: d,
      path: 'reference', longRunning: true }));
    for (let r = 0; r < rows; r++) checkedRows.push(first + r);
  }
  return Object.assign(problem, { checkedRows, reference: concat(reference) });
}

function concat(arrays) {
  const out = new Float32Array(arrays.reduce((sum, a) => sum + a.length, 0));
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out;
}

// output: n x d -> { ok, maxError, failures } on the checked rows (addReference first).
export function checkOutput(problem, output) {
  const { d, checkedRows, reference } = problem;
  if (!(output instanceof Float32Array) || output.length !== problem.n * d) {
    return { ok: false, maxError: Infinity, failures: -1,
      why: `expected a Float32Array of n*d = ${problem.n * d}, got ${output?.constructor?.name} of ${output?.length}` };
  }
  let maxError = 0;
  let failures = 0;
  checkedRows.forEach((row, r) => {
    for (let c = 0; c < d; c++) {
      const expected = reference[r * d + c];
      const error = Math.abs(output[row * d + c] - expected);
      maxError = Number.isNaN(error) ? Infinity : Math.max(maxError, error);
      if (!(error <= TOLERANCE.absolute + TOLERANCE.relative * Math.abs(expected))) failures++;
    }
  });
  return { ok: failures === 0, maxError, failures };
}

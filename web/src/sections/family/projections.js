// Section 8, the note on the Transformer's score: scaled dot-product with
// projections is Luong's general score. For a decoder state s and an encoder
// state h, with q = W_Q^T s and k = W_K^T h (rows: Q = S W_Q, K = H W_K),
//
//   q^T k / sqrt(d_k) = s^T (W_Q W_K^T / sqrt(d_k)) h = s^T W_a h,
//   W_a = W_Q W_K^T / sqrt(d_k)   (d x d, rank at most d_k: W_Q and W_K are d x d_k).
//
// Both sides are computed by the engine's scores() on the toy's states (every
// product is the engine's: a matrix product A B is the dot score of A's rows
// with B's columns, i.e. scores({ kind: 'dot', s: A, h: B^T })); the rank of W_a
// by Gaussian elimination here, on the numbers the engine returned. Plain
// module, no DOM: tests/js/family.test.js.

// d_k below the toy's d = 4, so that "rank at most d_k" says something.
export const KEY_DIM = 2;
// The projections' own stream of normals: the toy's seed plus this (another
// draw than the toy's states, still fixed by the seed).
export const PROJECTION_SEED_OFFSET = 7919;
// A pivot counts as zero below this share of W_a's largest entry: float32
// rounding leaves residues near 1e-7 of it; a direction of a random W_a is
// many orders above.
export const RANK_TOLERANCE = 1e-4;

// rows x cols, row-major -> its transpose.
function transpose(a, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = a[i * cols + j];
  return out;
}

// A B (A: rows x inner, B: inner x cols) by the engine: row i of A against column j of B.
export function engineProduct(engine, a, b, rows, inner, cols) {
  return engine.scores({ kind: 'dot', s: a, h: transpose(b, inner, cols), n: rows, m: cols, ds: inner, dh: inner });
}

// W_Q and W_K (each d x d_k, entries N(0, 1/d)) for the toy of `seed`.
export function drawProjections(engine, seed, d, dk = KEY_DIM) {
  const draw = engine.randomNormal({ seed: Number(seed) + PROJECTION_SEED_OFFSET, rows: 2 * d, cols: dk, stddev: 1 / Math.sqrt(d) });
  return { dk, wq: draw.slice(0, d * dk), wk: draw.slice(d * dk) };
}

// The rank of a rows x cols matrix by Gaussian elimination with partial
// pivoting (in doubles), and the size of each pivot in the order found;
// elimination stops where the largest remaining entry is below tolerance x
// the matrix's largest entry (those entries are listed as `residue`).
export function matrixRank(values, rows, cols, tolerance = RANK_TOLERANCE) {
  const a = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => values[i * cols + j]));
  const largest = Math.max(...Array.from(values, Math.abs));
  const pivots = [];
  let residue = 0;
  for (let col = 0, row = 0; col < cols && row < rows; col++) {
    let best = row;
    for (let i = row + 1; i < rows; i++) if (Math.abs(a[i][col]) > Math.abs(a[best][col])) best = i;
    if (Math.abs(a[best][col]) <= tolerance * largest) {
      residue = Math.max(residue, Math.abs(a[best][col]));
      continue;
    }
    [a[row], a[best]] = [a[best], a[row]];
    pivots.push(Math.abs(a[row][col]));
    for (let i = row + 1; i < rows; i++) {
      const f = a[i][col] / a[row][col];
      for (let j = col; j < cols; j++) a[i][j] -= f * a[row][j];
    }
    row += 1;
  }
  return { rank: pivots.length, pivots, residue, largest };
}

// Both scores of the toy's current decoder states against its encoder states:
//   scaled: (S W_Q)(H W_K)^T / sqrt(d_k)   the engine's 'scaledDot' on the projections
//   general: S W_a H^T                    the engine's 'general' with W_a = W_Q W_K^T / sqrt(d_k)
// and how far apart they are, W_a and its rank.
export function projectionIdentity(engine, toy, { wq, wk, dk }) {
  const { n, m, d, encoder } = toy;
  const current = toy.decoder.slice(d, (n + 1) * d);   // s_1 .. s_n, Luong's h_t
  const q = engineProduct(engine, current, wq, n, d, dk);
  const k = engineProduct(engine, encoder, wk, m, d, dk);
  const scaled = engine.scores({ kind: 'scaledDot', s: q, h: k, n, m, ds: dk, dh: dk });
  // W_Q W_K^T / sqrt(d_k): the scaled dot score of W_Q's rows against W_K's rows.
  const wa = engine.scores({ kind: 'scaledDot', s: wq, h: wk, n: d, m: d, ds: dk, dh: dk });
  const general = engine.scores({ kind: 'general', s: current, h: encoder, n, m, ds: d, dh: d, wa });
  let difference = 0;
  let largestScore = 0;
  for (let i = 0; i < scaled.length; i++) {
    difference = Math.max(difference, Math.abs(scaled[i] - general[i]));
    largestScore = Math.max(largestScore, Math.abs(scaled[i]));
  }
  return { d, dk, n, m, wq, wk, wa, scaled, general, difference, largestScore, ...matrixRank(wa, d, d) };
}

// Whether the computation shows the identity: the two score matrices equal up
// to float32 rounding (a few units in the last place of the largest score) and
// W_a's rank at most d_k. The page says so, or says what came out instead.
export const EQUAL_WITHIN = 1e-5;
export function identityHolds(p) {
  return p.difference <= EQUAL_WITHIN * Math.max(1, p.largestScore) && p.rank <= p.dk;
}

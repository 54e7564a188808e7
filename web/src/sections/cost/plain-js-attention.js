// Attention in plain JavaScript: the textbook triple loop, no wasm, no SIMD.
// The baseline the benchmarks compare the engine against (scripts/bench-wasm.mjs
// and the page's live cost section).
//
//   output = softmax(Q K^T * scale) V      Q n x dk, K m x dk, V m x dv, row-major
//   scale defaults to 1/sqrt(dk); the softmax subtracts the row maximum.
export function plainJsAttention({ q, k, v, n, m, dk, dv, scale = 1 / Math.sqrt(dk) }) {
  const output = new Float32Array(n * dv);
  const row = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    // scores of query i: s_j = scale * q_i . k_j
    let max = -Infinity;
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let t = 0; t < dk; t++) s += q[i * dk + t] * k[j * dk + t];
      s *= scale;
      row[j] = s;
      if (s > max) max = s;
    }
    // softmax: w_j = exp(s_j - max) / sum_l exp(s_l - max)
    let sum = 0;
    for (let j = 0; j < m; j++) {
      const e = Math.exp(row[j] - max);
      row[j] = e;
      sum += e;
    }
    // output_i = sum_j w_j v_j   (rows of V in order: contiguous reads)
    const acc = new Float64Array(dv);
    for (let j = 0; j < m; j++) {
      const w = row[j];
      for (let c = 0; c < dv; c++) acc[c] += w * v[j * dv + c];
    }
    for (let c = 0; c < dv; c++) output[i * dv + c] = acc[c] / sum;
  }
  return output;
}

// reference.cpp — the scalar reference: the attention formula as plain loops,
// every sum accumulated in double. No SIMD, no tiling, no cleverness: the ground
// truth the fast paths are tested against (llm.c's attention_forward style).
#include <algorithm>
#include <cmath>
#include <limits>

#include "attn/reference.hpp"

namespace attn::reference {

void softmax_row(double* x, std::size_t len) {
  double row_max = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < len; ++j) row_max = std::max(row_max, x[j]);
  if (row_max == -std::numeric_limits<double>::infinity()) {  // every key masked
    for (std::size_t j = 0; j < len; ++j) x[j] = 0.0;
    return;
  }
  double sum = 0.0;
  for (std::size_t j = 0; j < len; ++j) {
    x[j] = std::exp(x[j] - row_max);  // exp(-inf) = 0
    sum += x[j];
  }
  for (std::size_t j = 0; j < len; ++j) x[j] /= sum;
}

AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options) {
  validate_attention_inputs(q, k, v, shape);
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  const float scale = options.scale.factor(d_k);
  const std::vector<std::uint8_t> keep = keep_matrix(options.mask, n, m);

  AttentionTrace trace;
  trace.scale = scale;
  trace.scores.resize(n * m);
  trace.scaled.resize(n * m);
  trace.masked.resize(n * m);
  trace.weights.resize(n * m);
  trace.output.resize(n * d_v);
  std::vector<double> row(m);

  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < m; ++j) {
      // pass 1: s_ij = q_i . k_j
      double s = 0.0;
      for (std::size_t c = 0; c < d_k; ++c) s += static_cast<double>(q[i * d_k + c]) * k[j * d_k + c];
      // pass 2: scaled_ij = scale * s_ij;  pass 3: -inf where masked
      const double scaled = static_cast<double>(scale) * s;
      trace.scores[i * m + j] = static_cast<float>(s);
      trace.scaled[i * m + j] = static_cast<float>(scaled);
      row[j] = keep[i * m + j] ? scaled : -std::numeric_limits<double>::infinity();
      trace.masked[i * m + j] = static_cast<float>(row[j]);
    }
    // pass 4: p_i = softmax(masked_i)
    softmax_row(row.data(), m);
    for (std::size_t j = 0; j < m; ++j) trace.weights[i * m + j] = static_cast<float>(row[j]);
    // pass 5: o_i = sum_j p_ij v_j
    for (std::size_t c = 0; c < d_v; ++c) {
      double o = 0.0;
      for (std::size_t j = 0; j < m; ++j) o += row[j] * v[j * d_v + c];
      trace.output[i * d_v + c] = static_cast<float>(o);
    }
  }
  return trace;
}

}  // namespace attn::reference

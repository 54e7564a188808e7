// reference.cpp — the scalar reference: the attention formula as plain loops,
// every sum accumulated in double. No SIMD, no tiling, no cleverness: the ground
// truth the fast paths are tested against (llm.c's attention_forward style),
// and the safe path they take for rows whose floats could overflow.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention_row.hpp"
#include "trace_steps.hpp"
#include "attn/reference.hpp"
#include "validation.hpp"

namespace attn {

namespace reference {

double softmax_row(double* x, std::size_t len) {
  double row_max = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < len; ++j) row_max = std::max(row_max, x[j]);
  if (row_max == -std::numeric_limits<double>::infinity()) {  // every key masked
    for (std::size_t j = 0; j < len; ++j) x[j] = 0.0;
    return row_max;
  }
  double sum = 0.0;
  for (std::size_t j = 0; j < len; ++j) {
    x[j] = std::exp(x[j] - row_max);  // exp(-inf) = 0
    sum += x[j];
  }
  for (std::size_t j = 0; j < len; ++j) x[j] /= sum;
  return row_max + std::log(sum);  // ln sum_j exp(x_j)
}

}  // namespace reference

namespace detail {

void attention_row_in_double(const AttentionProblem& problem, std::size_t i, double* row, const RowOutputs& out) {
  const std::size_t m = problem.shape.m, d_k = problem.shape.d_k, d_v = problem.shape.d_v;
  const float* q_i = problem.q + i * d_k;
  for (std::size_t j = 0; j < m; ++j) {
    // pass 1: s_ij = q_i . k_j
    double s = 0.0;
    for (std::size_t c = 0; c < d_k; ++c) s += static_cast<double>(q_i[c]) * problem.k[j * d_k + c];
    // pass 2: scaled_ij = scale * s_ij;  pass 3: -inf where masked
    const double scaled = static_cast<double>(problem.scale) * s;
    const std::size_t at = i * m + j;
    if (out.scores) out.scores[at] = to_float_or_raise(s, {"scores", "q_{i} . k_{j}"}, i, j);
    if (out.scaled) out.scaled[at] = to_float_or_raise(scaled, {"scaled", "scale * q_{i} . k_{j}"}, i, j);
    row[j] = problem.rule.keeps(i, j) ? scaled : -std::numeric_limits<double>::infinity();
    if (out.masked) out.masked[at] = static_cast<float>(row[j]);  // scaled (checked above) or -inf
  }
  // pass 4: p_i = softmax(masked_i), and L_i = ln sum_j exp(masked_ij)
  const double log_sum_exp = reference::softmax_row(row, m);
  if (out.log_sum_exp) out.log_sum_exp[i] = log_sum_exp;  // -inf for a fully masked row
  if (out.weights)
    for (std::size_t j = 0; j < m; ++j) out.weights[i * m + j] = static_cast<float>(row[j]);
  // pass 5: o_i = sum_j p_ij v_j
  if (out.output) {
    for (std::size_t c = 0; c < d_v; ++c) {
      double o = 0.0;
      for (std::size_t j = 0; j < m; ++j) o += row[j] * problem.v[j * d_v + c];
      out.output[i * d_v + c] = static_cast<float>(o);
    }
  }
}

}  // namespace detail

namespace reference {

AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options, TraceTerms terms) {
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);
  const std::size_t n = shape.n, m = shape.m;
  const std::size_t term_count = detail::trace_term_count(problem, terms);
  AttentionTrace trace;
  trace.scale = problem.scale;
  trace.scores.resize(n * m);
  trace.scaled.resize(n * m);
  trace.masked.resize(n * m);
  trace.weights.resize(n * m);
  trace.output.resize(n * shape.d_v);
  std::vector<double> row(m);
  const detail::RowOutputs out = detail::outputs_of(trace);
  for (std::size_t i = 0; i < n; ++i) detail::attention_row_in_double(problem, i, row.data(), out);
  detail::reference_exponentials(trace, n, m);
  detail::trace_terms(problem, term_count, trace);
  return trace;
}

}  // namespace reference

}  // namespace attn

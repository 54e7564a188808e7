// backward_range.cpp — the float-range bounds of the backward passes and their
// double path (formulas in backward_range.hpp).
#include "backward_range.hpp"

#include <algorithm>

#include "reference_backward.hpp"

namespace attn::detail {

BackwardBounds backward_bounds(const BackwardNorms& norms, float scale, std::size_t n, std::size_t m,
                               double weight_bound) {
  const double factor = std::max(1.0, static_cast<double>(scale));
  const double w = weight_bound;
  const double row_weight_sum = w == 1.0 ? 1.0 : static_cast<double>(m) * w;  // sum_j P_ij
  const double column_weight_sum = static_cast<double>(n) * w;                 // sum_i P_ij
  const double score_gradient = norms.grad_output * (norms.value + norms.output);  // |dS_ij| / P_ij
  BackwardBounds b;
  b.grad_q = factor * row_weight_sum * score_gradient * norms.key;
  b.grad_k = factor * column_weight_sum * score_gradient * norms.query;
  b.grad_v = column_weight_sum * norms.grad_output;
  // Every comparison is false for NaN (an inf * 0 of empty norms cannot occur: norms of finite rows).
  b.fits_float = factor * norms.query * norms.key <= kSafeMagnitude && norms.value <= kSafeMagnitude &&
                 w * score_gradient <= kSafeMagnitude && b.grad_q <= kSafeMagnitude &&
                 b.grad_k <= kSafeMagnitude && b.grad_v <= kSafeMagnitude;
  return b;
}

AttentionGradients gradients_in_double(const float* q, const float* k, const float* v, const float* grad_output,
                                       const AttentionShape& shape, float scale, const std::uint8_t* keep) {
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  const std::vector<double> q_d(q, q + n * d_k), k_d(k, k + m * d_k), v_d(v, v + m * d_v),
      grad_output_d(grad_output, grad_output + n * d_v);
  std::vector<double> grad_q(n * d_k), grad_k(m * d_k), grad_v(m * d_v);
  reference_attention_backward(q_d.data(), k_d.data(), v_d.data(), grad_output_d.data(), shape, scale, keep,
                               grad_q.data(), grad_k.data(), grad_v.data());
  AttentionGradients g{std::vector<float>(n * d_k), std::vector<float>(m * d_k), std::vector<float>(m * d_v)};
  to_floats_or_raise(grad_q, g.q.data(), d_k, {"grad_q", "(scale dS K)[{i}][{j}]"});
  to_floats_or_raise(grad_k, g.k.data(), d_k, {"grad_k", "(scale dS^T Q)[{i}][{j}]"});
  to_floats_or_raise(grad_v, g.v.data(), d_v, {"grad_v", "(P^T dO)[{i}][{j}]"});
  return g;
}

}  // namespace attn::detail

// attention_backward_passes.cpp — the passes of attention forward and backward
// on the SIMD kernels (kernels::best), into the caller's buffers.
#include "attention_backward_passes.hpp"

#include <algorithm>

#include "attention/mask_rule.hpp"
#include "validation.hpp"
#include "kernels/kernels.hpp"
#include "kernels/matrix_ops.hpp"

namespace attn::detail {

void attention_forward_into(const float* q, const float* k, const float* v, const AttentionShape& shape, float scale,
                            const KeepRule& rule, float* weights, float* output, float* scratch) {
  const std::size_t n = shape.n, m = shape.m;
  product_abt(q, k, weights, n, m, shape.d_k, scratch);       // pass 1: S = Q K^T
  kernels::scale_in_place(scale, weights, n * m);       // pass 2: S = scale S
  mask_block(weights, n, m, 0, 0, rule);                      // pass 3: -inf where masked
  softmax_rows_any_length(weights, n, m, scratch);            // pass 4: P = softmax_rows(S)
  if (output) kernels::matmul_ab(weights, v, output, n, m, shape.d_v);  // pass 5: O = P V
}

std::size_t attention_backward_scratch_floats(const AttentionShape& shape) {
  const std::size_t n = shape.n, m = shape.m;
  // dP/dS, then one region for what the passes need one after the other:
  // K^T and the row statistics (forward), blocks of P^T and dS^T, V^T
  return n * m + std::max({matmul_atb_scratch_floats(n, m), m * std::max(shape.d_k, shape.d_v), 2 * n});
}

void attention_backward_from_weights(const float* q, const float* k, const float* v, const float* weights,
                                     const float* grad_output, const AttentionShape& shape, float scale,
                                     float* grad_q, float* grad_k, float* grad_v, float* scratch) {
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  float* d_scores = scratch;            // dP, then dS                     n x m
  float* transposed = scratch + n * m;  // blocks of P^T, then of dS^T     64 x n
  float* values_transposed = scratch + n * m;  // V^T (between the two)    d_v x m

  // pass 1: dV = P^T dO                                      (m x d_v)
  matmul_atb(weights, grad_output, grad_v, n, m, d_v, transposed);

  // pass 2: dP = dO V^T                                      (n x m)
  product_abt(grad_output, v, d_scores, n, m, d_v, values_transposed);

  // pass 3: D_i = sum_j P_ij dP_ij, which is rowsum(dO_i * O_i) since
  //         O_i = sum_j P_ij V_j; then dS_ij = P_ij (dP_ij - D_i) in place.
  //         Where P_ij = 0 (masked, or a fully masked row) dS_ij is set to
  //         exactly 0, whatever dP_ij holds.
  for (std::size_t i = 0; i < n; ++i) {
    const float* p_row = weights + i * m;
    float* ds_row = d_scores + i * m;
    const float d_i = kernels::dot(p_row, ds_row, m);
    for (std::size_t j = 0; j < m; ++j) ds_row[j] = p_row[j] == 0.0f ? 0.0f : p_row[j] * (ds_row[j] - d_i);
  }

  // pass 4: dQ = scale dS K                                  (n x d_k)
  kernels::matmul_ab(d_scores, k, grad_q, n, m, d_k);
  kernels::scale_in_place(scale, grad_q, n * d_k);

  // pass 5: dK = scale dS^T Q                                (m x d_k)
  matmul_atb(d_scores, q, grad_k, n, m, d_k, transposed);
  kernels::scale_in_place(scale, grad_k, m * d_k);
}

void require_finite_matrix(const char* arg, FloatSpan data, const char* formula, std::size_t rows,
                           std::size_t cols) {
  require_length(arg, data, formula, rows, cols);
  require_finite(arg, data);
}

}  // namespace attn::detail

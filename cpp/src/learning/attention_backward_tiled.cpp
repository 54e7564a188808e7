// attention_backward_tiled.cpp — attn::attention_backward_tiled: the backward
// pass by blocks (FlashAttention-2, Dao 2023, Algorithm 2), never holding an
// n x m matrix. The weights are recomputed block by block from the forward
// pass's row log-sum-exp L_i:  P_ij = exp(S_ij - L_i).
//
// Outer loop over key blocks j (B_c keys), whose dK_j, dV_j accumulate in
// B_c-row buffers; inner loop over query blocks i (B_r queries):
//   S_ij  = scale Q_i K_j^T, -inf where masked        (B_r x B_c)
//   P_ij  = exp(S_ij - L_i)                           (0 where masked; 0 for a fully masked row, L_i = -inf)
//   dV_j += P_ij^T dO_i
//   dP_ij = dO_i V_j^T
//   dS_ij = P_ij * (dP_ij - D_i),  D_i = rowsum(dO_i * O_i), computed once before the loops
//   dQ_i += scale dS_ij K_j
//   dK_j += scale dS_ij^T Q_i
//
// Memory: D (n floats), and blocks: S/P and dP/dS (B_r x B_c each), one
// transpose (B_c x B_r), dK_j and dV_j (B_c rows), two products (B_r x d_k,
// B_c x max(d_k, d_v)); besides the inputs and the gradients.
#include <algorithm>
#include <cmath>
#include <limits>

#include "validation.hpp"
#include "attention_backward_passes.hpp"
#include "attn/backward.hpp"
#include "attn/error.hpp"
#include "kernels/kernels.hpp"
#include "matrix_ops.hpp"
#include "tile_plan.hpp"

namespace attn {

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// ValueError at the first entry of L that is NaN or +inf (-inf marks a fully
// masked row and is allowed).
void require_log_sum_exp_values(FloatSpan log_sum_exp) {
  for (std::size_t i = 0; i < log_sum_exp.size(); ++i) {
    const float value = log_sum_exp[i];
    if (std::isnan(value) || value == std::numeric_limits<float>::infinity()) {
      throw ValueError("forward.log_sum_exp[" + std::to_string(i) + "]: expected a finite number or -inf, got " +
                       detail::describe_value(value));
    }
  }
}

}  // namespace

AttentionGradients testing::attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                                     const TiledAttentionForward& forward, const AttentionShape& shape,
                                                     const AttentionOptions& options,
                                                     const testing::TileSizes& tiles) {
  const detail::TilePlan plan = detail::plan_tiles(q, k, v, shape, options, tiles);
  detail::require_finite_matrix("grad_output", grad_output, "n*d_v", shape.n, shape.d_v);
  detail::require_finite_matrix("forward.output", forward.output, "n*d_v", shape.n, shape.d_v);
  detail::require_length("forward.log_sum_exp", forward.log_sum_exp, "n", shape.n);
  require_log_sum_exp_values(forward.log_sum_exp);
  const std::size_t block_rows = plan.block_rows, block_cols = plan.block_cols;  // B_r, B_c
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  const float scale = plan.scale;
  const float* dO = grad_output.data();

  AttentionGradients gradients{std::vector<float>(n * d_k, 0.0f), std::vector<float>(m * d_k),
                               std::vector<float>(m * d_v)};

  // D_i = rowsum(dO_i * O_i)
  std::vector<float> d_rows(n);
  for (std::size_t i = 0; i < n; ++i) d_rows[i] = kernels::dot(dO + i * d_v, forward.output.data() + i * d_v, d_v);

  const std::size_t block = detail::checked_product("B_r*B_c", block_rows, block_cols);
  std::vector<float> p(block), d_scores(block), transposed(block);  // P_ij, dP_ij then dS_ij, a transpose
  std::vector<float> grad_k_block(detail::checked_product("B_c*d_k", block_cols, d_k));
  std::vector<float> grad_v_block(detail::checked_product("B_c*d_v", block_cols, d_v));
  std::vector<float> query_product(detail::checked_product("B_r*d_k", block_rows, d_k));
  std::vector<float> key_product(detail::checked_product("B_c*d", block_cols, std::max(d_k, d_v)));

  for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {  // key/value block j
    const std::size_t cols = std::min(block_cols, m - k0);
    const float* k_j = k.data() + k0 * d_k;
    const float* v_j = v.data() + k0 * d_v;
    std::fill(grad_k_block.begin(), grad_k_block.end(), 0.0f);
    std::fill(grad_v_block.begin(), grad_v_block.end(), 0.0f);

    for (std::size_t q0 = 0; q0 < n; q0 += block_rows) {  // query block i
      const std::size_t rows = std::min(block_rows, n - q0);
      const float* q_i = q.data() + q0 * d_k;
      const float* do_i = dO + q0 * d_v;

      // S_ij = scale Q_i K_j^T, -inf where masked; P_ij = exp(S_ij - L_i)
      detail::block_scores(plan, q_i, k_j, rows, cols, d_k, q0, k0, p.data());
      bool any_weight = false;
      for (std::size_t r = 0; r < rows; ++r) {
        float* p_row = p.data() + r * cols;
        const float l_r = forward.log_sum_exp[q0 + r];
        if (l_r == kMinusInfinity) {
          std::fill(p_row, p_row + cols, 0.0f);  // a fully masked row
          continue;
        }
        any_weight = kernels::exp_shifted_sum(p_row, cols, l_r) > 0.0f || any_weight;
      }
      if (!any_weight) continue;  // every weight of the block is 0 (masked): it adds nothing

      // dV_j += P_ij^T dO_i
      detail::matmul_atb(p.data(), do_i, key_product.data(), rows, cols, d_v, transposed.data());
      detail::add_in_place(key_product.data(), grad_v_block.data(), cols * d_v);

      // dP_ij = dO_i V_j^T; dS_ij = P_ij (dP_ij - D_i), exactly 0 where P_ij = 0
      kernels::matmul_abt(do_i, v_j, d_scores.data(), rows, cols, d_v);
      for (std::size_t r = 0; r < rows; ++r) {
        const float* p_row = p.data() + r * cols;
        float* ds_row = d_scores.data() + r * cols;
        const float d_r = d_rows[q0 + r];
        for (std::size_t c = 0; c < cols; ++c) ds_row[c] = p_row[c] == 0.0f ? 0.0f : p_row[c] * (ds_row[c] - d_r);
      }

      // dQ_i += scale dS_ij K_j
      kernels::matmul_ab(d_scores.data(), k_j, query_product.data(), rows, cols, d_k);
      kernels::axpy(scale, query_product.data(), gradients.q.data() + q0 * d_k, rows * d_k);

      // dK_j += dS_ij^T Q_i   (times scale once, below)
      detail::matmul_atb(d_scores.data(), q_i, key_product.data(), rows, cols, d_k, transposed.data());
      detail::add_in_place(key_product.data(), grad_k_block.data(), cols * d_k);
    }

    // dK_j = scale sum_i dS_ij^T Q_i;  dV_j = sum_i P_ij^T dO_i
    kernels::scale_in_place(scale, grad_k_block.data(), cols * d_k);
    std::copy_n(grad_k_block.data(), cols * d_k, gradients.k.data() + k0 * d_k);
    std::copy_n(grad_v_block.data(), cols * d_v, gradients.v.data() + k0 * d_v);
  }
  return gradients;
}

AttentionGradients attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                            const TiledAttentionForward& forward, const AttentionShape& shape,
                                            const AttentionOptions& options) {
  return testing::attention_backward_tiled(q, k, v, grad_output, forward, shape, options, testing::TileSizes{});
}

}  // namespace attn

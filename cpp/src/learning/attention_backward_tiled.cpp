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
//
// The forward comes from the caller: a row whose scores exceed its L_i by
// more than 1 and more than rounding explains (not the log-sum-exp of this
// call's scores) raises ValueError naming forward.log_sum_exp[i], so that
// P_ij <= e. Float range
// (backward_range.hpp): a call whose float intermediates could overflow is
// computed in double from q, k, v and grad_output (the forward is not used).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "validation.hpp"
#include "attention_backward_passes.hpp"
#include "attn/backward.hpp"
#include "backward_range.hpp"
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

// The largest weight exp(S_ij - L_i) the pass accepts: e (S_ij <= L_i + 1).
const double kLargestWeight = std::exp(1.0);

// How far a score recomputed here may lie above the forward's L_i by rounding
// alone: the forward and this pass compute S_ij = scale q_i . k_j in float in
// different orders, each within gamma(d_k + 2) scale |q_i| |k_j| of the exact
// score (Higham's bound for a dot product and the product by the scale), and
// L_i = m_i + ln l_i carries its own rounding, u |L_i|; twice each, for safety.
// (At |S| ~ 4e8 a float's spacing is 32: the two orders can differ by that.)
double rounding_slack(const detail::TilePlan& plan, std::size_t d_k, float log_sum_exp) {
  constexpr double u = 0x1p-24;
  const double k = static_cast<double>(d_k) + 2.0;
  const double gamma = k * u / (1.0 - k * u);
  return 4.0 * gamma * std::abs(static_cast<double>(plan.scale)) * plan.norms.query * plan.norms.key +
         2.0 * u * std::abs(static_cast<double>(log_sum_exp));
}

// The L_i the pass uses for row i, whose largest recomputed score is S_i:
// L_i itself while S_i <= L_i + 1 (P_ij <= e); S_i where S_i exceeds it only by
// rounding (then P_ij <= 1: L_i >= max_j S_ij for the exact scores); else
// ValueError: L_i = ln sum_j exp(S_ij) >= max_j S_ij for this call's scores,
// so a larger score means the forward is another call's.
float checked_log_sum_exp(float largest_score, float log_sum_exp, double slack, std::size_t i) {
  if (largest_score - log_sum_exp <= 1.0f || largest_score == kMinusInfinity) return log_sum_exp;
  if (static_cast<double>(largest_score) - log_sum_exp <= 1.0 + slack) return largest_score;
  throw ValueError("forward.log_sum_exp[" + std::to_string(i) + "]: expected the log-sum-exp of row " +
                   std::to_string(i) + "'s scores (at least their maximum, " + detail::describe_value(largest_score) +
                   "), got " + detail::describe_value(log_sum_exp) + " (the forward of another call?)");
}

}  // namespace

AttentionGradients testing::attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                                     const TiledAttentionForward& forward, const AttentionShape& shape,
                                                     const AttentionOptions& options,
                                                     const testing::TileSizes& tiles) {
  const detail::TilePlan plan = detail::plan_tiles(q, k, v, shape, options, tiles);
  detail::require_length("grad_output", grad_output, "n*d_v", shape.n, shape.d_v);
  const double grad_output_norm = detail::largest_row_norm("grad_output", grad_output.data(), shape.n, shape.d_v);
  detail::require_length("forward.output", forward.output, "n*d_v", shape.n, shape.d_v);
  const double output_norm = detail::largest_row_norm("forward.output", forward.output.data(), shape.n, shape.d_v);
  detail::require_length("forward.log_sum_exp", forward.log_sum_exp, "n", shape.n);
  require_log_sum_exp_values(forward.log_sum_exp);

  const detail::BackwardNorms norms{plan.norms.query, plan.norms.key, plan.norms.value, grad_output_norm,
                                    output_norm};
  if (!detail::backward_bounds(norms, plan.scale, shape.n, shape.m, kLargestWeight).fits_float) {
    detail::checked_product("n*m", shape.n, shape.m);  // the double path holds the n x m keep-matrix
    const std::vector<std::uint8_t> keep = keep_matrix(options.mask, shape.n, shape.m);
    return detail::gradients_in_double(q.data(), k.data(), v.data(), grad_output.data(), shape, plan.scale,
                                       keep.data());
  }
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
        const float l_used = checked_log_sum_exp(kernels::max_value(p_row, cols), l_r,
                                                 rounding_slack(plan, d_k, l_r), q0 + r);
        any_weight = kernels::exp_shifted_sum(p_row, cols, l_used) > 0.0f || any_weight;
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

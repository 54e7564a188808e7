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
// B_c x max(d_k, d_v)), once per thread; besides the inputs and the gradients.
//
// Threads (AttentionOptions::threads, natively): the key blocks split over
// them for dK and dV, then the query blocks for dQ, bit-identical to one
// thread (below).
//
// The forward comes from the caller: a row whose scores exceed its L_i by
// more than 1 and more than rounding explains (not the log-sum-exp of this
// call's scores) raises ValueError naming forward.log_sum_exp[i], so that
// P_ij <= e. Float range
// (backward_range.hpp): a call whose float intermediates could overflow is
// computed in double from q, k, v and grad_output (the forward is not used).
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "validation.hpp"
#include "attention_backward_passes.hpp"
#include "attn/backward.hpp"
#include "backward_range.hpp"
#include "attn/error.hpp"
#include "kernels/kernels.hpp"
#include "matrix_ops.hpp"
#include "parallel/thread_pool.hpp"
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
  detail::checked_product("B_c*d_k", block_cols, d_k);
  detail::checked_product("B_c*d_v", block_cols, d_v);
  detail::checked_product("B_r*d_k", block_rows, d_k);
  detail::checked_product("B_c*d", block_cols, std::max(d_k, d_v));

  // One task's buffers: P_ij, dP_ij then dS_ij, a transpose, dK_j and dV_j,
  // two products.
  struct Buffers {
    std::vector<float> p, d_scores, transposed, grad_k_block, grad_v_block, query_product, key_product;
  };
  const auto make_buffers = [&] {
    return Buffers{std::vector<float>(block), std::vector<float>(block), std::vector<float>(block),
                   std::vector<float>(block_cols * d_k), std::vector<float>(block_cols * d_v),
                   std::vector<float>(block_rows * d_k), std::vector<float>(block_cols * std::max(d_k, d_v))};
  };

  // Block (i, j): P_ij and dS_ij, then what the caller asks for: dV_j and dK_j
  // into the task's B_c-row buffers, dQ_i into the gradient. Each (i, j) is
  // computed the same way whichever pass or thread runs it.
  const auto block_step = [&](Buffers& b, std::size_t q0, std::size_t k0, bool keys, bool queries) {
    const std::size_t rows = std::min(block_rows, n - q0), cols = std::min(block_cols, m - k0);
    const float* q_i = q.data() + q0 * d_k;
    const float* do_i = dO + q0 * d_v;
    const float* k_j = k.data() + k0 * d_k;
    const float* v_j = v.data() + k0 * d_v;

    // S_ij = scale Q_i K_j^T, -inf where masked; P_ij = exp(S_ij - L_i)
    detail::block_scores(plan, q_i, k_j, rows, cols, d_k, q0, k0, b.p.data());
    bool any_weight = false;
    for (std::size_t r = 0; r < rows; ++r) {
      float* p_row = b.p.data() + r * cols;
      const float l_r = forward.log_sum_exp[q0 + r];
      if (l_r == kMinusInfinity) {
        std::fill(p_row, p_row + cols, 0.0f);  // a fully masked row
        continue;
      }
      const float l_used = checked_log_sum_exp(kernels::max_value(p_row, cols), l_r,
                                               rounding_slack(plan, d_k, l_r), q0 + r);
      any_weight = kernels::exp_shifted_sum(p_row, cols, l_used) > 0.0f || any_weight;
    }
    if (!any_weight) return;  // every weight of the block is 0 (masked): it adds nothing

    // dV_j += P_ij^T dO_i
    if (keys) {
      detail::matmul_atb(b.p.data(), do_i, b.key_product.data(), rows, cols, d_v, b.transposed.data());
      detail::add_in_place(b.key_product.data(), b.grad_v_block.data(), cols * d_v);
    }

    // dP_ij = dO_i V_j^T; dS_ij = P_ij (dP_ij - D_i), exactly 0 where P_ij = 0
    kernels::matmul_abt(do_i, v_j, b.d_scores.data(), rows, cols, d_v);
    for (std::size_t r = 0; r < rows; ++r) {
      const float* p_row = b.p.data() + r * cols;
      float* ds_row = b.d_scores.data() + r * cols;
      const float d_r = d_rows[q0 + r];
      for (std::size_t c = 0; c < cols; ++c) ds_row[c] = p_row[c] == 0.0f ? 0.0f : p_row[c] * (ds_row[c] - d_r);
    }

    // dQ_i += scale dS_ij K_j
    if (queries) {
      kernels::matmul_ab(b.d_scores.data(), k_j, b.query_product.data(), rows, cols, d_k);
      kernels::axpy(scale, b.query_product.data(), gradients.q.data() + q0 * d_k, rows * d_k);
    }

    // dK_j += dS_ij^T Q_i   (times scale once, in finish_keys)
    if (keys) {
      detail::matmul_atb(b.d_scores.data(), q_i, b.key_product.data(), rows, cols, d_k, b.transposed.data());
      detail::add_in_place(b.key_product.data(), b.grad_k_block.data(), cols * d_k);
    }
  };
  // dK_j = scale sum_i dS_ij^T Q_i;  dV_j = sum_i P_ij^T dO_i
  const auto finish_keys = [&](Buffers& b, std::size_t k0) {
    const std::size_t cols = std::min(block_cols, m - k0);
    kernels::scale_in_place(scale, b.grad_k_block.data(), cols * d_k);
    std::copy_n(b.grad_k_block.data(), cols * d_k, gradients.k.data() + k0 * d_k);
    std::copy_n(b.grad_v_block.data(), cols * d_v, gradients.v.data() + k0 * d_v);
  };

  const std::size_t key_blocks = (m + block_cols - 1) / block_cols, query_blocks = (n + block_rows - 1) / block_rows;
  // Five products of 2 n m d flops each (S and dK at d_k, dQ at d_k, dP and dV at d_v).
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(m) * static_cast<double>(3 * d_k + 2 * d_v);
  const std::size_t threads = detail::threads_worth(options.threads, flops);
  if (threads <= 1 || key_blocks * query_blocks <= 1) {
    // One thread: key blocks outer, query blocks inner, every product of a block at once.
    Buffers b = make_buffers();
    for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {
      std::fill(b.grad_k_block.begin(), b.grad_k_block.end(), 0.0f);
      std::fill(b.grad_v_block.begin(), b.grad_v_block.end(), 0.0f);
      for (std::size_t q0 = 0; q0 < n; q0 += block_rows) block_step(b, q0, k0, true, true);
      finish_keys(b, k0);
    }
    return gradients;
  }
  // Threads: dK_j and dV_j by key blocks (each task owns its j), then dQ_i by
  // query blocks (each task owns its i), each summed over the other index in
  // the same order as above, so the gradients are bit-identical to one
  // thread's; S_ij, P_ij and dS_ij are computed twice (7 products a block
  // instead of 5). A refusal is the one the single thread would meet first:
  // the lowest key block's.
  std::vector<std::exception_ptr> refusals(key_blocks);
  auto key_task = [&](std::size_t j) {
    try {
      Buffers b = make_buffers();
      const std::size_t k0 = j * block_cols;
      for (std::size_t q0 = 0; q0 < n; q0 += block_rows) block_step(b, q0, k0, true, false);
      finish_keys(b, k0);
    } catch (...) {
      refusals[j] = std::current_exception();
    }
  };
  detail::parallel_for(key_blocks, threads, key_task);
  for (const std::exception_ptr& refusal : refusals)
    if (refusal) std::rethrow_exception(refusal);
  auto query_task = [&](std::size_t i) {
    Buffers b = make_buffers();
    const std::size_t q0 = i * block_rows;
    for (std::size_t k0 = 0; k0 < m; k0 += block_cols) block_step(b, q0, k0, false, true);
  };
  detail::parallel_for(query_blocks, threads, query_task);
  return gradients;
}

AttentionGradients attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                            const TiledAttentionForward& forward, const AttentionShape& shape,
                                            const AttentionOptions& options) {
  return testing::attention_backward_tiled(q, k, v, grad_output, forward, shape, options, testing::TileSizes{});
}

}  // namespace attn

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
// The blocks are held transposed, as in the forward pass (attention/tiled.cpp),
// the query rows along the vector lanes, so that each of the five products is
// one of the forward's block kernels or the kernels' A B, without a transpose
// or a packing per block (attn/kernels.hpp):
//   S_ij^T  = scale K_j Q_i^T          block_scores (Q_i^T made once per query block)
//   P_ij^T  = exp(S_ij^T - L_i)        block_weights, one lane per query row
//   dV_j   += P_ij^T dO_i              matmul_ab_add
//   dS_ij^T = P_ij^T (V_j dO_i^T - D_i)  block_score_gradients: block_scores' product (dO_i^T made
//                                      once per query block), finished into dS^T
//   dQ_i^T += K_j^T dS_ij^T            block_accumulate (times scale once, when dQ_i leaves the layout)
//   dK_j   += dS_ij^T Q_i              matmul_ab_add (times scale once, in finish_keys)
//
// Memory: D, L and the query blocks moved into the layout once (Q_i^T and dO_i^T,
// and the blocks shorter than a whole number of vectors, Q_i and dO_i with zero
// rows: the last block, or all with blocks of another size), and dQ^T (d_k x B_r per query block), in the thread's scratch buffer
// (scratch.hpp); then blocks: P^T and dS^T (B_c x B_r each), dK_j and dV_j
// (B_c rows), once per thread; besides the inputs and the gradients.
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
// computed in double from q, k, v and grad_output (the forward is not used:
// its L, kept in double, may lie beyond the float range); on the float path
// every score lies within 2^126, so L_i does too, and is used as a float.
//
// Large scores (a bound on |S_ij| beyond 2^10): the pass recomputes each row's
// statistics from its own scores first (m_i and l_i, an extra sweep of
// block_scores and block_softmax over the key blocks) and takes
// P_ij = exp(S_ij - m_i) / l_i. The forward's L_i cannot give these weights:
// a float L_i = m_i + ln l_i loses ln l_i once a float's spacing at m_i exceeds
// it (two tied keys at scores of 3e17 got weights 1 and 1 instead of 1/2 and
// 1/2, so the gradients were twice the full path's), and a score recomputed here
// one spacing (2^-13 at 2^10) from the forward's changes its weight by that
// factor. L_i is then only checked (the forward of another call is refused).
#include <algorithm>
#include <cfloat>
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
#include "attention/mask_rule.hpp"
#include "attention/tiled.hpp"
#include "kernels/kernels.hpp"
#include "parallel/thread_pool.hpp"
#include "scratch.hpp"
#include "tile_plan.hpp"

namespace attn {

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// ShapeError unless L has n entries; ValueError at the first entry that is NaN
// or +inf (-inf marks a fully masked row and is allowed).
void require_log_sum_exp(const std::vector<double>& log_sum_exp, std::size_t n) {
  if (log_sum_exp.size() != n) {
    throw ShapeError("forward.log_sum_exp: expected n = " + std::to_string(n) + " numbers, got " +
                     std::to_string(log_sum_exp.size()));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double value = log_sum_exp[i];
    if (std::isnan(value) || value == std::numeric_limits<double>::infinity()) {
      throw ValueError("forward.log_sum_exp[" + std::to_string(i) + "]: expected a finite number or -inf, got " +
                       detail::describe_value(value));
    }
  }
}

// L_i as the float the float path uses. There every score lies within 2^126
// (backward_bounds), so this call's L_i (between the largest score and it plus
// ln m) fits in a float: one beyond it is another call's.
float log_sum_exp_as_float(double log_sum_exp, std::size_t i) {
  if (log_sum_exp == -std::numeric_limits<double>::infinity() || std::fabs(log_sum_exp) <= FLT_MAX)
    return static_cast<float>(log_sum_exp);
  throw ValueError("forward.log_sum_exp[" + std::to_string(i) + "]: expected the log-sum-exp of row " +
                   std::to_string(i) + "'s scores, which lie within the float range, got " +
                   detail::describe_value(log_sum_exp) + " (the forward of another call?)");
}

// The largest weight exp(S_ij - L_i) the pass accepts: e (S_ij <= L_i + 1).
const double kLargestWeight = std::exp(1.0);

// Scores up to this bound use the forward's L_i (above): a float's spacing
// there is at most 2^-13, so a score's rounding changes its weight by at most
// about 1e-4 (relative).
constexpr double kLargestScoreForForwardStatistics = 0x1p10;

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

AttentionGradients detail::attention_backward_tiled_with(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                                         const TiledAttentionForward& forward,
                                                         const AttentionShape& shape, const AttentionOptions& options,
                                                         const testing::TileSizes& tiles) {
  const detail::TilePlan plan = detail::plan_tiles(q, k, v, shape, options, tiles);
  detail::require_length("grad_output", grad_output, "n*d_v", shape.n, shape.d_v);
  const double grad_output_norm = detail::largest_row_norm("grad_output", grad_output.data(), shape.n, shape.d_v);
  detail::require_length("forward.output", forward.output, "n*d_v", shape.n, shape.d_v);
  const double output_norm = detail::largest_row_norm("forward.output", forward.output.data(), shape.n, shape.d_v);
  require_log_sum_exp(forward.log_sum_exp, shape.n);

  const detail::BackwardNorms norms{plan.norms.query, plan.norms.key, plan.norms.value, grad_output_norm,
                                    output_norm};
  if (!detail::backward_bounds(norms, plan.scale, shape.n, shape.m, kLargestWeight).fits_float) {
    detail::checked_product("n*m", shape.n, shape.m);  // the double path holds the n x m keep-matrix
    const std::vector<std::uint8_t> keep = keep_matrix(options.mask, shape.n, shape.m);
    return detail::gradients_in_double(q.data(), k.data(), v.data(), grad_output.data(), shape, plan.scale,
                                       keep.data());
  }
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t block_rows = plan.block_rows, block_cols = plan.block_cols;  // B_r, B_c
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  const std::size_t rows_p = (block_rows + kernels.lanes - 1) / kernels.lanes * kernels.lanes;  // B_r, padded
  const std::size_t key_blocks = (m + block_cols - 1) / block_cols, query_blocks = (n + block_rows - 1) / block_rows;
  const float scale = plan.scale;
  const float* dO = grad_output.data();
  const bool own_statistics = std::abs(static_cast<double>(scale)) * plan.norms.query * plan.norms.key >
                              kLargestScoreForForwardStatistics;
  detail::checked_product("B_r*B_c", rows_p, block_cols);
  detail::checked_product("B_c*d", block_cols, std::max(d_k, d_v));
  detail::checked_product("T_r*B_r*d", detail::checked_product("T_r*B_r", query_blocks, rows_p), 3 * d_k + 2 * d_v + 3);

  AttentionGradients gradients{std::vector<float>(n * d_k), std::vector<float>(m * d_k), std::vector<float>(m * d_v)};

  // The query blocks in the layout, once: Q_i^T, dO_i^T (padding lanes 0), D_i
  // (0 on padding), the shift of each row's weights (L_i as a float, or with
  // own statistics m_i, and 1 / l_i; -inf and 0 on padding: no weights); Q_i
  // and dO_i with zero rows up to rows_p for the blocks [first_padded, T_r) that have fewer rows (the products of dK_j and dV_j take
  // rows_p rows of them): the last block with the variant's blocks (B_r =
  // rows_p), every block with blocks of another size; and, on one thread, dQ_i^T
  // of every block. In this thread's scratch buffer (reused from call to call:
  // fresh pages for each call cost more than the products at n = 1024).
  const std::size_t first_padded = block_rows != rows_p ? 0 : n % rows_p != 0 ? query_blocks - 1 : query_blocks;
  const std::size_t padded_lanes = (query_blocks - first_padded) * rows_p;
  // Five products of 2 n m d flops each (S and dK at d_k, dQ at d_k, dP and dV at d_v).
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(m) * static_cast<double>(3 * d_k + 2 * d_v);
  const std::size_t threads = detail::threads_worth(options.threads, flops);
  const bool one_thread = threads <= 1 || key_blocks * query_blocks <= 1;
  const std::size_t lanes_total = query_blocks * rows_p;  // T_r * B_r, padded
  detail::Scratch scratch(detail::ScratchUse::BackwardBlocks, lanes_total * (d_k + d_v + 3 + (one_thread ? d_k : 0)) +
                                                                padded_lanes * (d_k + d_v));
  float* next = scratch.data();
  const auto take = [&](std::size_t count) { float* part = next; next += count; return part; };
  float* const queries_t = take(lanes_total * d_k);
  float* const grad_outputs_t = take(lanes_total * d_v);
  float* const d_rows = take(lanes_total);
  float* const shift_rows = take(lanes_total);
  float* const inverse_sum_rows = take(lanes_total);  // 1 / l_i (own statistics only)
  float* const queries_padded = take(padded_lanes * d_k);
  float* const grad_outputs_padded = take(padded_lanes * d_v);
  float* const all_grad_q_t = one_thread ? take(lanes_total * d_k) : nullptr;
  std::fill(d_rows, d_rows + lanes_total, 0.0f);
  std::fill(shift_rows, shift_rows + lanes_total, kMinusInfinity);  // (own statistics: the running max)
  std::fill(inverse_sum_rows, inverse_sum_rows + lanes_total, 0.0f);  // (own statistics: the running sum)
  std::fill(queries_padded, queries_padded + padded_lanes * d_k, 0.0f);
  std::fill(grad_outputs_padded, grad_outputs_padded + padded_lanes * d_v, 0.0f);
  if (one_thread) std::fill(all_grad_q_t, all_grad_q_t + lanes_total * d_k, 0.0f);
  for (std::size_t i = 0; i < query_blocks; ++i) {
    const std::size_t q0 = i * block_rows, rows = std::min(block_rows, n - q0);
    kernels.transpose_block(q.data() + q0 * d_k, rows, d_k, rows_p, queries_t + i * rows_p * d_k);
    kernels.transpose_block(dO + q0 * d_v, rows, d_v, rows_p, grad_outputs_t + i * rows_p * d_v);
    for (std::size_t r = 0; r < rows; ++r) {  // D_i = rowsum(dO_i * O_i)
      d_rows[i * rows_p + r] = kernels::dot(dO + (q0 + r) * d_v, forward.output.data() + (q0 + r) * d_v, d_v);
      if (!own_statistics) shift_rows[i * rows_p + r] = log_sum_exp_as_float(forward.log_sum_exp[q0 + r], q0 + r);
    }
    if (i >= first_padded) {
      std::copy_n(q.data() + q0 * d_k, rows * d_k, queries_padded + (i - first_padded) * rows_p * d_k);
      std::copy_n(dO + q0 * d_v, rows * d_v, grad_outputs_padded + (i - first_padded) * rows_p * d_v);
    }
  }
  const auto query_rows = [&](std::size_t i) {
    return i < first_padded ? q.data() + i * block_rows * d_k : queries_padded + (i - first_padded) * rows_p * d_k;
  };
  const auto grad_output_rows = [&](std::size_t i) {
    return i < first_padded ? dO + i * block_rows * d_v : grad_outputs_padded + (i - first_padded) * rows_p * d_v;
  };

  // One task's buffers: P^T, dS^T, the block's row max and shifts, dK_j and
  // dV_j; ones (block_accumulate's correction).
  struct Buffers {
    std::vector<float> p_t, ds_t, block_max, shift, grad_k_block, grad_v_block, ones;
  };
  const auto make_buffers = [&] {
    return Buffers{std::vector<float>(block_cols * rows_p), std::vector<float>(block_cols * rows_p),
                   std::vector<float>(rows_p), std::vector<float>(rows_p), std::vector<float>(block_cols * d_k),
                   std::vector<float>(block_cols * d_v), std::vector<float>(rows_p, 1.0f)};
  };

  // S_ij^T = scale K_j Q_i^T, -inf where masked, into b.p_t, and each row's
  // largest score into b.block_max; false if the mask hides the whole block.
  const auto masked_scores = [&](Buffers& b, std::size_t i, std::size_t k0) {
    const std::size_t q0 = i * block_rows, rows = std::min(block_rows, n - q0), cols = std::min(block_cols, m - k0);
    if (plan.rule.hides_block(q0, rows, k0, cols)) return false;  // every weight 0: it adds nothing
    float* p_t = b.p_t.data();
    kernels.block_scores(k.data() + k0 * d_k, queries_t + i * rows_p * d_k, p_t, cols, rows_p, d_k, scale,
                         b.block_max.data());
    if (!plan.rule.keeps_everything()) {
      detail::mask_block_transposed(p_t, rows, cols, rows_p, q0, k0, plan.rule);
      for (std::size_t r = 0; r < rows; ++r) {
        float largest = kMinusInfinity;
        for (std::size_t c = 0; c < cols; ++c) largest = std::max(largest, p_t[c * rows_p + r]);
        b.block_max[r] = largest;
      }
    }
    return true;
  };

  // Own statistics (large scores): m_i and l_i of each row from this pass's
  // scores (the forward's online softmax, block_softmax), over every key block;
  // then shift_i = m_i and 1 / l_i, and L_i checked against m_i.
  if (own_statistics) {
    auto statistics_task = [&](std::size_t i) {
      Buffers b = make_buffers();
      float* running_max = shift_rows + i * rows_p;
      float* running_sum = inverse_sum_rows + i * rows_p;
      for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {
        if (masked_scores(b, i, k0))
          kernels.block_softmax(b.p_t.data(), std::min(block_cols, m - k0), rows_p, b.block_max.data(), running_max,
                                running_sum, b.shift.data());
      }
    };
    detail::parallel_for(query_blocks, threads, statistics_task);
    for (std::size_t i = 0; i < query_blocks; ++i) {
      const std::size_t q0 = i * block_rows, rows = std::min(block_rows, n - q0);
      for (std::size_t r = 0; r < rows_p; ++r) {
        float& row_max = shift_rows[i * rows_p + r];
        float& inverse_sum = inverse_sum_rows[i * rows_p + r];
        if (r < rows) {
          const float l_r = log_sum_exp_as_float(forward.log_sum_exp[q0 + r], q0 + r);
          if (l_r != kMinusInfinity) checked_log_sum_exp(row_max, l_r, rounding_slack(plan, d_k, l_r), q0 + r);
        }
        const bool has_weights = r < rows && inverse_sum > 0.0f;  // l_i > 0
        inverse_sum = has_weights ? 1.0f / inverse_sum : 0.0f;
        if (!has_weights) row_max = kMinusInfinity;  // padding, or a fully masked row: no weights
      }
    }
  }

  // Block (i, j): P_ij^T and dS_ij^T, then what the caller asks for: dV_j and
  // dK_j into the task's B_c-row buffers, dQ_i^T into grad_q_t (d_k x rows_p).
  // Each (i, j) is computed the same way whichever pass or thread runs it.
  const auto block_step = [&](Buffers& b, std::size_t i, std::size_t k0, bool keys, float* grad_q_t) {
    const std::size_t q0 = i * block_rows, cols = std::min(block_cols, m - k0);
    // S_ij^T = scale K_j Q_i^T, -inf where masked
    if (!masked_scores(b, i, k0)) return;
    const float* do_t = grad_outputs_t + i * rows_p * d_v;
    const float* d_i = d_rows + i * rows_p;
    const float* shift_i = shift_rows + i * rows_p;
    const float* k_j = k.data() + k0 * d_k;
    const float* v_j = v.data() + k0 * d_v;
    float* p_t = b.p_t.data();
    float* ds_t = b.ds_t.data();

    // The shifts: L_i, checked against the block's largest scores; or m_i (own statistics)
    for (std::size_t r = 0; r < rows_p; ++r) {
      const float s_r = shift_i[r];  // -inf on padding rows: no weights
      b.shift[r] = s_r == kMinusInfinity ? std::numeric_limits<float>::infinity()  // a fully masked row: P = 0
                   : own_statistics     ? s_r
                                        : checked_log_sum_exp(b.block_max[r], s_r, rounding_slack(plan, d_k, s_r), q0 + r);
    }
    // P_ij^T = exp(S_ij^T - L_i), or exp(S_ij^T - m_i) / l_i
    kernels.block_weights(p_t, cols, rows_p, b.shift.data());
    if (own_statistics) {
      const float* inverse_sum = inverse_sum_rows + i * rows_p;
      for (std::size_t c = 0; c < cols; ++c)
        for (std::size_t r = 0; r < rows_p; ++r) p_t[c * rows_p + r] *= inverse_sum[r];
    }

    // dV_j += P_ij^T dO_i
    if (keys) {
      kernels.matmul_ab_add(p_t, grad_output_rows(i), b.grad_v_block.data(), cols, rows_p, d_v);
    }

    // dS_ij^T = P_ij^T (V_j dO_i^T - D_i), exactly +0 where P_ij = 0: V_j dO_i^T - D_i is finite
    // (backward_bounds: every float intermediate fits), so P = 0 makes the product +-0, and the
    // kernel's + 0 turns -0 into +0
    kernels.block_score_gradients(v_j, do_t, p_t, d_i, ds_t, cols, rows_p, d_v);

    // dQ_i^T += K_j^T dS_ij^T   (times scale once, when dQ_i leaves the layout)
    if (grad_q_t) kernels.block_accumulate(k_j, ds_t, b.ones.data(), grad_q_t, cols, rows_p, d_k);

    // dK_j += dS_ij^T Q_i   (times scale once, in finish_keys)
    if (keys) {
      kernels.matmul_ab_add(ds_t, query_rows(i), b.grad_k_block.data(), cols, rows_p, d_k);
    }
  };
  // dK_j = scale sum_i dS_ij^T Q_i;  dV_j = sum_i P_ij^T dO_i
  const auto finish_keys = [&](Buffers& b, std::size_t k0) {
    const std::size_t cols = std::min(block_cols, m - k0);
    kernels::scale_in_place(scale, b.grad_k_block.data(), cols * d_k);
    std::copy_n(b.grad_k_block.data(), cols * d_k, gradients.k.data() + k0 * d_k);
    std::copy_n(b.grad_v_block.data(), cols * d_v, gradients.v.data() + k0 * d_v);
  };
  // dQ_i = scale (dQ_i^T)^T
  const std::vector<float> scales(rows_p, scale);
  const auto finish_queries = [&](std::size_t i, const float* grad_q_t) {
    const std::size_t q0 = i * block_rows;
    kernels.untranspose_block(grad_q_t, scales.data(), std::min(block_rows, n - q0), d_k, rows_p,
                              gradients.q.data() + q0 * d_k);
  };

  if (one_thread) {
    // One thread: key blocks outer, query blocks inner, every product of a block
    // at once; dQ^T of every query block held until the end.
    Buffers b = make_buffers();
    for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {
      std::fill(b.grad_k_block.begin(), b.grad_k_block.end(), 0.0f);
      std::fill(b.grad_v_block.begin(), b.grad_v_block.end(), 0.0f);
      for (std::size_t i = 0; i < query_blocks; ++i) block_step(b, i, k0, true, all_grad_q_t + i * d_k * rows_p);
      finish_keys(b, k0);
    }
    for (std::size_t i = 0; i < query_blocks; ++i) finish_queries(i, all_grad_q_t + i * d_k * rows_p);
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
      for (std::size_t i = 0; i < query_blocks; ++i) block_step(b, i, k0, true, nullptr);
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
    std::vector<float> grad_q_t(d_k * rows_p, 0.0f);
    for (std::size_t k0 = 0; k0 < m; k0 += block_cols) block_step(b, i, k0, false, grad_q_t.data());
    finish_queries(i, grad_q_t.data());
  };
  detail::parallel_for(query_blocks, threads, query_task);
  return gradients;
}

AttentionGradients attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                            const TiledAttentionForward& forward, const AttentionShape& shape,
                                            const AttentionOptions& options) {
  // The variant's blocks, as the forward's: B_r a whole number of the micro-kernel's tiles
  return detail::attention_backward_tiled_with(q, k, v, grad_output, forward, shape, options, detail::variant_tiles());
}

AttentionGradients testing::attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                                     const TiledAttentionForward& forward, const AttentionShape& shape,
                                                     const AttentionOptions& options, const TileSizes& tiles) {
  return detail::attention_backward_tiled_with(q, k, v, grad_output, forward, shape, options, tiles);
}

}  // namespace attn

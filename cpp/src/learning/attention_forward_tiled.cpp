// attention_forward_tiled.cpp — attn::attention_forward_tiled: the online-softmax
// forward pass of attention_tiled.cpp (FlashAttention-2, Algorithm 1), which
// also keeps, per query row, the log-sum-exp of its scores for the backward
// pass:  L_r = m_r + ln(l_r)  (m_r the row max, l_r = sum_j exp(S_rj - m_r)).
// (A variant of attn::attention_output's loop, kept apart until the two are
// unified.)
//
// Memory: one B_r x B_c block of scores, one B_r x d_v block P~ V_j, m and l
// of B_r entries, besides the n x d_v output and the n entries of L.
//
// Float range: as in attn::attention_output, a call whose float
// intermediates could overflow is computed in double (forward_in_double); an
// L_i beyond the float range (scores of 1e40) raises ValueError naming it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "validation.hpp"
#include "attn/backward.hpp"
#include "attn/error.hpp"
#include "kernels/kernels.hpp"
#include "tile_plan.hpp"

namespace attn {

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// The forward pass in double, row by row (for inputs whose float
// intermediates could overflow: float_range.hpp): O_i rounded to float (a
// convex combination of value rows, it fits), L_i rounded or refused.
TiledAttentionForward forward_in_double(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                        const detail::TilePlan& plan) {
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  TiledAttentionForward result{std::vector<float>(n * d_v, 0.0f), std::vector<float>(n, kMinusInfinity)};
  std::vector<double> row(m), output(d_v);
  for (std::size_t i = 0; i < n; ++i) {
    double largest = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < m; ++j) {
      double s = 0.0;
      for (std::size_t c = 0; c < d_k; ++c) s += static_cast<double>(q[i * d_k + c]) * k[j * d_k + c];
      row[j] = plan.rule.keeps(i, j) ? static_cast<double>(plan.scale) * s : -std::numeric_limits<double>::infinity();
      largest = std::max(largest, row[j]);
    }
    if (largest == -std::numeric_limits<double>::infinity()) continue;  // fully masked: O_i = 0, L_i = -inf
    double sum = 0.0;
    std::fill(output.begin(), output.end(), 0.0);
    for (std::size_t j = 0; j < m; ++j) {
      const double e = std::exp(row[j] - largest);  // exp(-inf) = 0
      sum += e;
      for (std::size_t c = 0; c < d_v; ++c) output[c] += e * v[j * d_v + c];
    }
    for (std::size_t c = 0; c < d_v; ++c) result.output[i * d_v + c] = static_cast<float>(output[c] / sum);
    const double log_sum_exp = largest + std::log(sum);
    const float rounded = static_cast<float>(log_sum_exp);
    if (!std::isfinite(rounded)) {
      throw ValueError("log_sum_exp[" + std::to_string(i) + "]: ln sum_j exp(S_" + std::to_string(i) + "j) = " +
                       detail::describe_value(log_sum_exp) + " is beyond the float range (|x| <= " +
                       detail::describe_value(std::numeric_limits<float>::max()) + ")");
    }
    result.log_sum_exp[i] = rounded;
  }
  return result;
}

}  // namespace

TiledAttentionForward testing::attention_forward_tiled(FloatSpan q, FloatSpan k, FloatSpan v,
                                                       const AttentionShape& shape, const AttentionOptions& options,
                                                       const testing::TileSizes& tiles) {
  const detail::TilePlan plan = detail::plan_tiles(q, k, v, shape, options, tiles);
  // l_r <= m and |O_r| <= m max_j |v_j| before the division (float_range.hpp)
  if (!detail::FloatPathCheck(plan.norms, plan.scale, static_cast<double>(shape.m)).every_row())
    return forward_in_double(q, k, v, shape, plan);
  const std::size_t block_rows = plan.block_rows, block_cols = plan.block_cols;  // B_r, B_c
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;

  TiledAttentionForward result{std::vector<float>(n * d_v, 0.0f), std::vector<float>(n, kMinusInfinity)};
  std::vector<float> block(detail::checked_product("B_r*B_c", block_rows, block_cols));        // S_ij, then P~_ij
  std::vector<float> weighted_values(detail::checked_product("B_r*d_v", block_rows, d_v));    // P~_ij V_j
  std::vector<float> running_max(block_rows), running_sum(block_rows);                         // m_r, l_r

  for (std::size_t q0 = 0; q0 < n; q0 += block_rows) {  // query block i
    const std::size_t rows = std::min(block_rows, n - q0);
    std::fill(running_max.begin(), running_max.end(), kMinusInfinity);
    std::fill(running_sum.begin(), running_sum.end(), 0.0f);
    float* output = result.output.data() + q0 * d_v;

    for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {  // key/value block j
      const std::size_t cols = std::min(block_cols, m - k0);

      // S_ij = scale Q_i K_j^T, -inf where masked             (rows x cols)
      detail::block_scores(plan, q.data() + q0 * d_k, k.data() + k0 * d_k, rows, cols, d_k, q0, k0, block.data());

      // m_new = max(m_r, rowmax(S_ij)); P~_ij = exp(S_ij - m_new);
      // l_r = exp(m_r - m_new) l_r + rowsum(P~_ij); O_r = exp(m_r - m_new) O_r
      for (std::size_t r = 0; r < rows; ++r) {
        float* p_row = block.data() + r * cols;
        const float m_new = std::max(running_max[r], kernels::max_value(p_row, cols));
        if (m_new == kMinusInfinity) {  // nothing visible yet for this row
          std::fill(p_row, p_row + cols, 0.0f);
          continue;
        }
        const float row_sum = kernels::exp_shifted_sum(p_row, cols, m_new);
        const float correction = std::exp(running_max[r] - m_new);  // exp(-inf) = 0 on the first block
        running_sum[r] = correction * running_sum[r] + row_sum;
        running_max[r] = m_new;
        if (correction != 1.0f) kernels::scale_in_place(correction, output + r * d_v, d_v);
      }

      // O_i += P~_ij V_j
      kernels::matmul_ab(block.data(), v.data() + k0 * d_v, weighted_values.data(), rows, cols, d_v);
      kernels::axpy(1.0f, weighted_values.data(), output, rows * d_v);
    }

    // O_i = diag(l_i)^-1 O_i and L_i = m_i + ln(l_i); a fully masked row
    // (l_r = 0) keeps O_r = 0 and L_r = -inf.
    for (std::size_t r = 0; r < rows; ++r) {
      if (running_sum[r] > 0.0f) {
        kernels::scale_in_place(1.0f / running_sum[r], output + r * d_v, d_v);
        result.log_sum_exp[q0 + r] = running_max[r] + std::log(running_sum[r]);
      }
    }
  }
  return result;
}

TiledAttentionForward attention_forward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                              const AttentionOptions& options) {
  return testing::attention_forward_tiled(q, k, v, shape, options, testing::TileSizes{});
}

}  // namespace attn

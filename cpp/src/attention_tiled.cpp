// attention_tiled.cpp — attention output by blocks with an online softmax
// (FlashAttention, Dao et al. 2022, Algorithm 1), never holding the n x m matrix.
//
// The queries are cut into T_r blocks of B_r rows, the keys and values into T_c
// blocks of B_c rows. For one query block Q_i the keys stream past block by
// block; each query row r keeps
//   m_r  the largest score seen so far (running max),
//   l_r  sum_j exp(s_rj - m_r) over the keys seen so far (running sum),
//   O_r  sum_j exp(s_rj - m_r) v_j, not yet divided by l_r (the accumulator).
// When block j brings a larger max m_new, whatever was accumulated against the
// old max is rescaled by exp(m_old - m_new), so at the end
//   O_r / l_r = sum_j softmax(s_r)_j v_j,
// exactly the output of the full path, up to rounding.
//
// Masks: a masked score is -inf, whose exp is 0. A row that has seen only -inf
// so far has m_r = -inf; it skips the block (nothing to add, and exp(-inf -
// -inf) would be NaN). A row whose keys are all masked ends with l_r = 0 and
// keeps its zero output row.
//
// Memory: one B_r x B_c block of scores S_ij, one B_r x d_v block P V_j, and
// m, l of B_r entries, besides the n x d_v output.
#include <algorithm>
#include <cmath>
#include <limits>

#include "attention_passes.hpp"
#include "attn/attention.hpp"
#include "attn/kernels.hpp"
#include "mask_rule.hpp"
#include "validation.hpp"

namespace attn {

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// The running state of one block of query rows (B_r of them, the last block
// may have fewer).
struct QueryBlockState {
  std::vector<float> running_max;  // m_r
  std::vector<float> running_sum;  // l_r
  explicit QueryBlockState(std::size_t rows) : running_max(rows, kMinusInfinity), running_sum(rows, 0.0f) {}
};

}  // namespace

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options, const TileSizes& tiles) {
  validate_attention_operands(q, k, v, shape);  // no n*m limit: the n x m matrix is never held
  detail::require_dimension("tiles.queries", tiles.queries);
  detail::require_dimension("tiles.keys", tiles.keys);
  const std::size_t block_rows = std::min(tiles.queries, shape.n);  // B_r
  const std::size_t block_cols = std::min(tiles.keys, shape.m);     // B_c
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  const float scale = options.scale.factor(d_k);
  const detail::KeepRule rule(options.mask, n, m);

  std::vector<float> output(n * d_v, 0.0f);  // O, accumulated unnormalised
  std::vector<float> block(detail::checked_product("B_r*B_c", block_rows, block_cols));  // S_ij, then P~_ij
  std::vector<float> weighted_values(detail::checked_product("B_r*d_v", block_rows, d_v));  // P~_ij V_j

  for (std::size_t q0 = 0; q0 < n; q0 += block_rows) {  // query block i
    const std::size_t rows = std::min(block_rows, n - q0);
    QueryBlockState state(rows);

    for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {  // key/value block j
      const std::size_t cols = std::min(block_cols, m - k0);

      // S_ij = scale * Q_i K_j^T                           (rows x cols)
      kernels::best::matmul_abt(q.data() + q0 * d_k, k.data() + k0 * d_k, block.data(), rows, cols, d_k);
      kernels::best::scale_in_place(scale, block.data(), rows * cols);
      detail::mask_block(block.data(), rows, cols, q0, k0, rule);  // -inf where masked

      // Per row: m_new = max(m_r, rowmax(S_ij)); P~_ij = exp(S_ij - m_new);
      // l_r = exp(m_r - m_new) l_r + rowsum(P~_ij). P~_ij overwrites S_ij.
      for (std::size_t r = 0; r < rows; ++r) {
        float* p_row = block.data() + r * cols;
        const float block_max = kernels::best::max_value(p_row, cols);
        const float m_new = std::max(state.running_max[r], block_max);
        if (m_new == kMinusInfinity) {  // nothing visible yet for this row
          std::fill(p_row, p_row + cols, 0.0f);
          continue;
        }
        const float row_sum = kernels::best::exp_shifted_sum(p_row, cols, m_new);
        const float correction = std::exp(state.running_max[r] - m_new);  // exp(-inf) = 0 on the first block
        state.running_sum[r] = correction * state.running_sum[r] + row_sum;
        state.running_max[r] = m_new;
        // O_r = exp(m_r - m_new) O_r  (before P~_ij V_j is added below)
        if (correction != 1.0f) kernels::best::scale_in_place(correction, output.data() + (q0 + r) * d_v, d_v);
      }

      // O_i += P~_ij V_j
      kernels::best::matmul_ab(block.data(), v.data() + k0 * d_v, weighted_values.data(), rows, cols, d_v);
      for (std::size_t r = 0; r < rows; ++r) {
        kernels::best::axpy(1.0f, weighted_values.data() + r * d_v, output.data() + (q0 + r) * d_v, d_v);
      }
    }

    // O_i = diag(l_i)^-1 O_i; a fully masked row (l_r = 0) stays zero
    for (std::size_t r = 0; r < rows; ++r) {
      if (state.running_sum[r] > 0.0f) {
        kernels::best::scale_in_place(1.0f / state.running_sum[r], output.data() + (q0 + r) * d_v, d_v);
      }
    }
  }
  return output;
}

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options) {
  return attention_output(q, k, v, shape, options, TileSizes{});
}

}  // namespace attn

// tiled.cpp — attention output by blocks with an online softmax
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
// Float range: each exp(s_rj - m_r) <= 1, so l_r <= m and |O_r| <= m max_j |v_j|;
// rows for which that or the scores could leave the float range are computed
// in double instead (float_range.hpp).
//
// Memory: one B_r x B_c block of scores S_ij, one B_r x d_v block P V_j, and
// m, l of B_r entries, besides the n x d_v output.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attn/attention.hpp"
#include "attn/testing.hpp"
#include "kernels/kernels.hpp"
#include "problem.hpp"
#include "reference/attention_row.hpp"
#include "validation.hpp"

namespace attn {

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// What one query block needs besides the output: the B_r x B_c block S_ij
// (then P~_ij), the B_r x d_v block P~_ij V_j, and m_r, l_r.
struct TileScratch {
  std::vector<float> block, weighted_values, running_max, running_sum;
  TileScratch(std::size_t block_rows, std::size_t block_cols, std::size_t d_v)
      : block(block_rows * block_cols), weighted_values(block_rows * d_v), running_max(block_rows),
        running_sum(block_rows) {}
};

// Output rows [q0, q0 + rows) of the problem (query block i), unnormalised
// accumulation then O_i = diag(l_i)^-1 O_i.
void query_block(const detail::AttentionProblem& p, const kernels::KernelTable& kernels, std::size_t q0,
                 std::size_t rows, std::size_t block_cols, TileScratch& scratch, float* output) {
  const std::size_t m = p.shape.m, d_k = p.shape.d_k, d_v = p.shape.d_v;
  float* block = scratch.block.data();
  float* running_max = scratch.running_max.data();  // m_r
  float* running_sum = scratch.running_sum.data();  // l_r
  float* out = output + q0 * d_v;                   // O_i
  std::fill(running_max, running_max + rows, kMinusInfinity);
  std::fill(running_sum, running_sum + rows, 0.0f);
  std::fill(out, out + rows * d_v, 0.0f);

  for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {  // key/value block j
    const std::size_t cols = std::min(block_cols, m - k0);

    // S_ij = scale * Q_i K_j^T                           (rows x cols)
    kernels.matmul_abt(p.q + q0 * d_k, p.k + k0 * d_k, block, rows, cols, d_k);
    kernels.scale_in_place(p.scale, block, rows * cols);
    detail::mask_block(block, rows, cols, q0, k0, p.rule);  // -inf where masked

    // Per row: m_new = max(m_r, rowmax(S_ij)); P~_ij = exp(S_ij - m_new);
    // l_r = exp(m_r - m_new) l_r + rowsum(P~_ij). P~_ij overwrites S_ij.
    for (std::size_t r = 0; r < rows; ++r) {
      float* p_row = block + r * cols;
      const float block_max = kernels.max_value(p_row, cols);
      const float m_new = std::max(running_max[r], block_max);
      if (m_new == kMinusInfinity) {  // nothing visible yet for this row
        std::fill(p_row, p_row + cols, 0.0f);
        continue;
      }
      const float row_sum = kernels.exp_shifted_sum(p_row, cols, m_new);
      const float correction = std::exp(running_max[r] - m_new);  // exp(-inf) = 0 on the first block
      running_sum[r] = correction * running_sum[r] + row_sum;
      running_max[r] = m_new;
      // O_r = exp(m_r - m_new) O_r  (before P~_ij V_j is added below)
      if (correction != 1.0f) kernels.scale_in_place(correction, out + r * d_v, d_v);
    }

    // O_i += P~_ij V_j
    kernels.matmul_ab(block, p.v + k0 * d_v, scratch.weighted_values.data(), rows, cols, d_v);
    for (std::size_t r = 0; r < rows; ++r) kernels.axpy(1.0f, scratch.weighted_values.data() + r * d_v, out + r * d_v, d_v);
  }

  // O_i = diag(l_i)^-1 O_i; a fully masked row (l_r = 0) stays zero
  for (std::size_t r = 0; r < rows; ++r) {
    if (running_sum[r] > 0.0f) kernels.scale_in_place(1.0f / running_sum[r], out + r * d_v, d_v);
  }
}

// The tiled path on a checked problem, into output (n x d_v).
void tiled_output(const detail::AttentionProblem& p, const testing::TileSizes& tiles, float* output) {
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t block_rows = std::min(tiles.queries, p.shape.n);  // B_r
  const std::size_t block_cols = std::min(tiles.keys, p.shape.m);     // B_c
  detail::checked_product("B_r*B_c", block_rows, block_cols);
  detail::checked_product("B_r*d_v", block_rows, p.shape.d_v);
  TileScratch scratch(block_rows, block_cols, p.shape.d_v);
  for (std::size_t q0 = 0; q0 < p.shape.n; q0 += block_rows)
    query_block(p, kernels, q0, std::min(block_rows, p.shape.n - q0), block_cols, scratch, output);

  // Rows whose float intermediates could leave the float range: again, in double.
  const detail::FloatPathCheck float_path(p.norms, p.scale, static_cast<double>(p.shape.m));  // l_r <= m
  if (float_path.every_row()) return;
  std::vector<double> row(p.shape.m);
  for (std::size_t i = 0; i < p.shape.n; ++i) {
    if (!float_path.row(p.q + i * p.shape.d_k, p.shape.d_k))
      detail::attention_row_in_double(p, i, row.data(), {.output = output});
  }
}

}  // namespace

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options) {
  return testing::attention_output(q, k, v, shape, options, testing::TileSizes{});
}

namespace testing {

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options, const TileSizes& tiles) {
  // no n*m limit: the n x m matrix is never held
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Streamed);
  detail::require_dimension("tiles.queries", tiles.queries);
  detail::require_dimension("tiles.keys", tiles.keys);
  std::vector<float> output(shape.n * shape.d_v);
  tiled_output(problem, tiles, output.data());
  return output;
}

}  // namespace testing

}  // namespace attn

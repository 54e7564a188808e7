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
#include "parallel/thread_pool.hpp"
#include "reference/attention_row.hpp"
#include "scratch.hpp"
#include "validation.hpp"

namespace attn {

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// Below this many flops per thread, another thread costs more than it saves:
// waking a parked worker takes tens of microseconds on a busy machine, and
// 2^22 flops take about 80 (so n = m <= 128 at d = 64 stays on one thread).
constexpr double kMinFlopsPerThread = 0x1p22;

// One query block's working memory, carved from one scratch buffer: the
// B_r x B_c block S_ij (then P~_ij), the B_r x d_v block P~_ij V_j, and m_r, l_r.
struct BlockScratch {
  float *block, *weighted_values, *running_max, *running_sum;
  static std::size_t floats(std::size_t block_rows, std::size_t block_cols, std::size_t d_v) {
    return block_rows * block_cols + block_rows * d_v + 2 * block_rows;
  }
  BlockScratch(float* memory, std::size_t block_rows, std::size_t block_cols, std::size_t d_v)
      : block(memory),
        weighted_values(block + block_rows * block_cols),
        running_max(weighted_values + block_rows * d_v),
        running_sum(running_max + block_rows) {}
};

// Output rows [q0, q0 + rows) of the problem (query block i): unnormalised
// accumulation over the key blocks, then O_i = diag(l_i)^-1 O_i.
void query_block(const detail::AttentionProblem& p, const kernels::KernelTable& kernels, std::size_t q0,
                 std::size_t rows, std::size_t block_cols, const BlockScratch& scratch, float* output) {
  const std::size_t m = p.shape.m, d_k = p.shape.d_k, d_v = p.shape.d_v;
  float* block = scratch.block;
  float* running_max = scratch.running_max;  // m_r
  float* running_sum = scratch.running_sum;  // l_r
  float* out = output + q0 * d_v;            // O_i
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
    kernels.matmul_ab(block, p.v + k0 * d_v, scratch.weighted_values, rows, cols, d_v);
    for (std::size_t r = 0; r < rows; ++r) kernels.axpy(1.0f, scratch.weighted_values + r * d_v, out + r * d_v, d_v);
  }

  // O_i = diag(l_i)^-1 O_i; a fully masked row (l_r = 0) stays zero
  for (std::size_t r = 0; r < rows; ++r) {
    if (running_sum[r] > 0.0f) kernels.scale_in_place(1.0f / running_sum[r], out + r * d_v, d_v);
  }
}

// The tiled path on a checked problem, into output (n x d_v): the query blocks
// split over up to `threads` threads, each block computed the same way on
// whichever thread runs it (so the output is bit-identical for any number).
void tiled_output(const detail::AttentionProblem& p, const testing::TileSizes& tiles, std::size_t threads,
                  float* output) {
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t n = p.shape.n, m = p.shape.m, d_k = p.shape.d_k, d_v = p.shape.d_v;
  const std::size_t block_rows = std::min(tiles.queries, n);  // B_r
  const std::size_t block_cols = std::min(tiles.keys, m);     // B_c
  detail::checked_product("B_r*B_c", block_rows, block_cols);
  detail::checked_product("B_r*d_v", block_rows, d_v);
  const std::size_t scratch_floats = BlockScratch::floats(block_rows, block_cols, d_v);
  const std::size_t blocks = (n + block_rows - 1) / block_rows;  // T_r

  auto compute_block = [&](std::size_t i) {
    detail::Scratch scratch(detail::ScratchUse::TileBlocks, scratch_floats);
    const std::size_t q0 = i * block_rows;
    query_block(p, kernels, q0, std::min(block_rows, n - q0), block_cols,
                BlockScratch(scratch.data(), block_rows, block_cols, d_v), output);
  };
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(m) * static_cast<double>(d_k + d_v);
  const double worth_it = std::max(1.0, std::floor(flops / kMinFlopsPerThread));
  const std::size_t thread_count = static_cast<std::size_t>(
      std::min(static_cast<double>(detail::resolve_thread_count(threads)), worth_it));
  detail::parallel_for(blocks, thread_count, compute_block);

  // Rows whose float intermediates could leave the float range: again, in double.
  const detail::FloatPathCheck float_path(p.norms, p.scale, static_cast<double>(m));  // l_r <= m
  if (float_path.every_row()) return;
  std::vector<double> row(m);
  for (std::size_t i = 0; i < n; ++i) {
    if (!float_path.row(p.q + i * d_k, d_k)) detail::attention_row_in_double(p, i, row.data(), {.output = output});
  }
}

// The checks of the tiled path (no n*m limit: the n x m matrix is never held).
detail::AttentionProblem check_tiled_call(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                          const AttentionOptions& options) {
  return detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Streamed);
}

}  // namespace

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options) {
  return testing::attention_output(q, k, v, shape, options, testing::TileSizes{});
}

void attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                      const AttentionOptions& options, std::span<float> output) {
  const detail::AttentionProblem problem = check_tiled_call(q, k, v, shape, options);
  detail::require_length("output", output, "n*d_v", shape.n, shape.d_v);
  tiled_output(problem, testing::TileSizes{}, options.threads, output.data());
}

namespace testing {

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options, const TileSizes& tiles) {
  const detail::AttentionProblem problem = check_tiled_call(q, k, v, shape, options);
  detail::require_dimension("tiles.queries", tiles.queries);
  detail::require_dimension("tiles.keys", tiles.keys);
  std::vector<float> output(shape.n * shape.d_v);
  tiled_output(problem, tiles, options.threads, output.data());
  return output;
}

}  // namespace testing

}  // namespace attn

// tiled.cpp — attention output by blocks with an online softmax
// (FlashAttention, Dao et al. 2022, Algorithm 1, in the loop order of
// FlashAttention-2: each query block is one task and streams every key block
// past, its output kept unnormalised until the end), never holding the n x m
// matrix.
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
// The block is held transposed, its query rows along the vector lanes, and
// each step is three kernels of the variant in use (attn/kernels.hpp: the
// register-blocked products S_ij^T = scale K_j Q_i^T and O_i^T += V_j^T P_ij^T,
// and the online softmax between them, one lane per query row).
//
// Masks: a masked score is -inf, whose exp is 0. A row that has seen only -inf
// so far has m_r = -inf; the softmax shifts it by 0 instead of m_r (every
// exp(-inf - 0) is 0, where exp(-inf - -inf) would be NaN). A row whose keys
// are all masked ends with l_r = 0 and keeps its zero output row. Blocks that
// a causal or padding mask hides entirely are skipped.
//
// Float range: each exp(s_rj - m_r) <= 1, so l_r <= m and |O_r| <= m max_j |v_j|;
// rows for which that or the scores could leave the float range are computed
// in double instead (float_range.hpp).
//
// The log-sum-exp (for the backward pass, attn/backward.hpp): when asked for,
// each row also gives L_r = m_r + ln(l_r) = ln sum_j exp(s_rj) (-inf for a
// fully masked row; in double with the row where the row is computed in double).
//
// Memory: the block Q_i^T (d_k x B_r), one B_c x B_r block of scores S_ij^T, the
// d_v x B_r accumulator O_i^T and four numbers per row, besides the n x d_v output.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attn/attention.hpp"
#include "attn/testing.hpp"
#include "kernels/kernels.hpp"
#include "problem.hpp"
#include "tiled.hpp"
#include "parallel/thread_pool.hpp"
#include "attention/attention_row.hpp"
#include "scratch.hpp"
#include "validation.hpp"

namespace attn {

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// One query block's working memory, carved from one scratch buffer, each part
// 64-byte aligned. The block is held transposed (attn/kernels.hpp, the block
// kernels): its rows, padded to rows_p (a multiple of the variant's lanes), run
// along the vector lanes.
//   q_t  d_k x rows_p   Q_i^T (padding rows 0)     s_t  B_c x rows_p   S_ij^T, then P~_ij^T
//   o_t  d_v x rows_p   O_i^T, unnormalised        m_r, l_r, correction, the block's row max: rows_p each
struct BlockScratch {
  static constexpr std::size_t kAlignFloats = 16;
  static std::size_t aligned(std::size_t floats) { return (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }
  static std::size_t padded_rows(std::size_t rows, std::size_t lanes) { return (rows + lanes - 1) / lanes * lanes; }
  static std::size_t floats(std::size_t rows_p, std::size_t block_cols, std::size_t d_k, std::size_t d_v) {
    return kAlignFloats + aligned(d_k * rows_p) + aligned(block_cols * rows_p) + aligned(d_v * rows_p) +
           4 * aligned(rows_p);
  }
  float *q_t, *s_t, *o_t, *running_max, *running_sum, *correction, *block_max;
  BlockScratch(float* memory, std::size_t rows_p, std::size_t block_cols, std::size_t d_k, std::size_t d_v) {
    const auto address = reinterpret_cast<std::uintptr_t>(memory);
    float* next = memory + (kAlignFloats - address / sizeof(float) % kAlignFloats) % kAlignFloats;
    auto take = [&](std::size_t count) { float* part = next; next += aligned(count); return part; };
    q_t = take(d_k * rows_p);
    s_t = take(block_cols * rows_p);
    o_t = take(d_v * rows_p);
    running_max = take(rows_p);
    running_sum = take(rows_p);
    correction = take(rows_p);
    block_max = take(rows_p);
  }
};

// Output rows [q0, q0 + rows) of the problem (query block i): unnormalised
// accumulation over the key blocks, then O_i = diag(l_i)^-1 O_i; and their
// L_r if log_sum_exp is not null.
void query_block(const detail::AttentionProblem& p, const kernels::KernelTable& kernels, std::size_t q0,
                 std::size_t rows, std::size_t block_cols, const BlockScratch& scratch, float* output,
                 double* log_sum_exp) {
  const std::size_t m = p.shape.m, d_k = p.shape.d_k, d_v = p.shape.d_v;
  const std::size_t rows_p = BlockScratch::padded_rows(rows, kernels.lanes);
  float* q_t = scratch.q_t;
  float* s_t = scratch.s_t;
  float* o_t = scratch.o_t;
  kernels.transpose_block(p.q + q0 * d_k, rows, d_k, rows_p, q_t);  // Q_i^T, the padding rows 0
  std::fill(scratch.running_max, scratch.running_max + rows_p, kMinusInfinity);  // m_r
  std::fill(scratch.running_sum, scratch.running_sum + rows_p, 0.0f);            // l_r
  std::fill(o_t, o_t + d_v * rows_p, 0.0f);                                      // O_i^T

  for (std::size_t k0 = 0; k0 < m; k0 += block_cols) {  // key/value block j
    const std::size_t cols = std::min(block_cols, m - k0);
    if (p.rule.hides_block(q0, rows, k0, cols)) continue;  // every weight 0: nothing to add

    // S_ij^T = scale K_j Q_i^T, and rowmax(S_ij)        (cols x rows_p)
    kernels.block_scores(p.k + k0 * d_k, q_t, s_t, cols, rows_p, d_k, p.scale, scratch.block_max);
    const bool masked = !p.rule.keeps_everything();
    if (masked) detail::mask_block_transposed(s_t, rows, cols, rows_p, q0, k0, p.rule);  // -inf where masked

    // Per row: m_new = max(m_r, rowmax(S_ij)); P~_ij = exp(S_ij - m_new);
    // l_r = exp(m_r - m_new) l_r + rowsum(P~_ij). P~_ij^T overwrites S_ij^T.
    // (A mask invalidates the row max of block_scores: the softmax finds it again.)
    kernels.block_softmax(s_t, cols, rows_p, masked ? nullptr : scratch.block_max, scratch.running_max,
                          scratch.running_sum, scratch.correction);

    // O_i = diag(exp(m_r - m_new)) O_i + P~_ij V_j        (transposed: O_i^T)
    kernels.block_accumulate(p.v + k0 * d_v, s_t, scratch.correction, o_t, cols, rows_p, d_v);
  }

  // O_i = diag(l_i)^-1 O_i, out of the transposed block; a fully masked row (l_r = 0) stays zero
  float* inverse_sum = scratch.correction;  // (free now)
  for (std::size_t r = 0; r < rows; ++r)
    inverse_sum[r] = scratch.running_sum[r] > 0.0f ? 1.0f / scratch.running_sum[r] : 0.0f;
  kernels.untranspose_block(o_t, inverse_sum, rows, d_v, rows_p, output + q0 * d_v);

  // L_r = m_r + ln(l_r), in double; -inf for a fully masked row (l_r = 0)
  if (log_sum_exp) {
    for (std::size_t r = 0; r < rows; ++r)
      log_sum_exp[q0 + r] = scratch.running_sum[r] > 0.0f ? static_cast<double>(scratch.running_max[r]) +
                                                                 std::log(static_cast<double>(scratch.running_sum[r]))
                                                           : -std::numeric_limits<double>::infinity();
  }
}

}  // namespace

void detail::tiled_forward(const detail::AttentionProblem& p, const testing::TileSizes& tiles, std::size_t threads,
                           float* output, double* log_sum_exp) {
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t n = p.shape.n, m = p.shape.m, d_k = p.shape.d_k, d_v = p.shape.d_v;
  const std::size_t block_rows = std::min(tiles.queries, n);  // B_r
  const std::size_t block_cols = std::min(tiles.keys, m);     // B_c
  const std::size_t rows_p = BlockScratch::padded_rows(block_rows, kernels.lanes);
  detail::checked_product("B_r*B_c", rows_p, block_cols);
  detail::checked_product("B_r*d_k", rows_p, d_k);
  detail::checked_product("B_r*d_v", rows_p, d_v);
  const std::size_t scratch_floats = BlockScratch::floats(rows_p, block_cols, d_k, d_v);
  const std::size_t blocks = (n + block_rows - 1) / block_rows;  // T_r

  auto compute_block = [&](std::size_t i) {
    detail::Scratch scratch(detail::ScratchUse::TileBlocks, scratch_floats);
    const std::size_t q0 = i * block_rows;
    query_block(p, kernels, q0, std::min(block_rows, n - q0), block_cols,
                BlockScratch(scratch.data(), rows_p, block_cols, d_k, d_v), output, log_sum_exp);
  };
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(m) * static_cast<double>(d_k + d_v);
  detail::parallel_for(blocks, detail::threads_worth(threads, flops), compute_block);

  // Rows whose float intermediates could leave the float range: again, in double.
  const detail::FloatPathCheck float_path(p.norms, p.scale, static_cast<double>(m));  // l_r <= m
  if (float_path.every_row()) return;
  std::vector<double> row(m);
  for (std::size_t i = 0; i < n; ++i) {
    if (!float_path.row(p.q + i * d_k, d_k))
      detail::attention_row_in_double(p, i, row.data(), {.output = output, .log_sum_exp = log_sum_exp});
  }
}

testing::TileSizes detail::variant_tiles() {
  const kernels::KernelTable& kernels = kernels::active();
  return {kernels.block_queries, kernels.block_keys};
}

detail::AttentionProblem detail::check_tiled_call(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                                  const AttentionOptions& options) {
  return detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Streamed);
}

detail::AttentionProblem detail::check_tiled_call(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                                  const AttentionOptions& options, const testing::TileSizes& tiles) {
  AttentionProblem problem = check_tiled_call(q, k, v, shape, options);
  require_dimension("tiles.queries", tiles.queries);
  require_dimension("tiles.keys", tiles.keys);
  return problem;
}

std::vector<float> detail::attention_output_with(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                                 const AttentionOptions& options, const testing::TileSizes& tiles) {
  const detail::AttentionProblem problem = detail::check_tiled_call(q, k, v, shape, options, tiles);
  std::vector<float> output(shape.n * shape.d_v);
  detail::tiled_forward(problem, tiles, options.threads, output.data(), nullptr);
  return output;
}

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options) {
  return detail::attention_output_with(q, k, v, shape, options, detail::variant_tiles());
}

void attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                      const AttentionOptions& options, std::span<float> output) {
  const detail::AttentionProblem problem = detail::check_tiled_call(q, k, v, shape, options);
  detail::require_length("output", output, "n*d_v", shape.n, shape.d_v);
  detail::tiled_forward(problem, detail::variant_tiles(), options.threads, output.data(), nullptr);
}

namespace testing {

std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options, const TileSizes& tiles) {
  return detail::attention_output_with(q, k, v, shape, options, tiles);
}

}  // namespace testing

}  // namespace attn

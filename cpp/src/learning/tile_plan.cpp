// tile_plan.cpp — the shared set-up of the tiled passes.
#include "tile_plan.hpp"

#include <algorithm>

#include "attention/mask_rule.hpp"
#include "attention/problem.hpp"
#include "validation.hpp"
#include "kernels/kernels.hpp"

namespace attn::detail {

TilePlan plan_tiles(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                    const AttentionOptions& options, const testing::TileSizes& tiles) {
  const AttentionProblem problem = check_attention_call(q, k, v, shape, options, ScoreMatrix::Streamed);
  require_dimension("tiles.queries", tiles.queries);
  require_dimension("tiles.keys", tiles.keys);
  return {std::min(tiles.queries, shape.n), std::min(tiles.keys, shape.m), problem.scale, problem.rule,
          problem.norms};
}

void block_scores(const TilePlan& plan, const float* q_i, const float* k_j, std::size_t rows, std::size_t cols,
                  std::size_t d_k, std::size_t q0, std::size_t k0, float* scores) {
  kernels::matmul_abt(q_i, k_j, scores, rows, cols, d_k);
  kernels::scale_in_place(plan.scale, scores, rows * cols);
  mask_block(scores, rows, cols, q0, k0, plan.rule);
}

}  // namespace attn::detail

// tile_plan.cpp — the shared set-up of the tiled passes.
#include "tile_plan.hpp"

#include <algorithm>

#include "../attention_passes.hpp"
#include "../validation.hpp"
#include "attn/kernels.hpp"

namespace attn::detail {

TilePlan plan_tiles(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                    const AttentionOptions& options, const TileSizes& tiles) {
  validate_attention_operands(q, k, v, shape);
  require_dimension("tiles.queries", tiles.queries);
  require_dimension("tiles.keys", tiles.keys);
  return {std::min(tiles.queries, shape.n), std::min(tiles.keys, shape.m), options.scale.factor(shape.d_k),
          KeepRule(options.mask, shape.n, shape.m)};
}

void block_scores(const TilePlan& plan, const float* q_i, const float* k_j, std::size_t rows, std::size_t cols,
                  std::size_t d_k, std::size_t q0, std::size_t k0, float* scores) {
  kernels::best::matmul_abt(q_i, k_j, scores, rows, cols, d_k);
  kernels::best::scale_in_place(plan.scale, scores, rows * cols);
  mask_block(scores, rows, cols, q0, k0, plan.rule);
}

}  // namespace attn::detail

// tile_plan.cpp — the set-up of the tiled backward pass.
#include "tile_plan.hpp"

#include <algorithm>

#include "attention/mask_rule.hpp"
#include "attention/tiled.hpp"

namespace attn::detail {

TilePlan plan_tiles(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                    const AttentionOptions& options, const testing::TileSizes& tiles) {
  const AttentionProblem problem = check_tiled_call(q, k, v, shape, options, tiles);
  return {std::min(tiles.queries, shape.n), std::min(tiles.keys, shape.m), problem.scale, problem.rule,
          problem.norms};
}

}  // namespace attn::detail

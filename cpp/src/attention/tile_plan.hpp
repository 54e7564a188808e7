// tile_plan.hpp (internal) — what the tiled backward pass sets up: the checks,
// the block sizes B_r x B_c, the scale, the mask rule and the operands' norms.
#pragma once

#include "attention/mask_rule.hpp"
#include "attn/attention.hpp"
#include "float_range.hpp"
#include "attn/testing.hpp"

namespace attn::detail {

struct TilePlan {
  std::size_t block_rows;  // B_r = min(tiles.queries, n)
  std::size_t block_cols;  // B_c = min(tiles.keys, m)
  float scale;
  KeepRule rule;           // points into options.mask: options must outlive the plan
  OperandNorms norms;      // the largest row norms of q, k, v (float_range.hpp)
};

// Checks q, k, v against shape (validate_attention_operands: no n*m limit, the
// n x m matrix is never held) and the tile sizes ("tiles.queries: expected at
// least 1, got 0"); raises the errors of Scale::factor and of the mask.
TilePlan plan_tiles(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                    const AttentionOptions& options, const testing::TileSizes& tiles);

}  // namespace attn::detail

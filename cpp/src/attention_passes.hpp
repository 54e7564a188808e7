// attention_passes.hpp (internal) — scaled dot-product attention on inputs that
// the public entry point has already checked. Shared by attn::attention and
// attn::multi_head (one call per head).
#pragma once

#include "attn/attention.hpp"
#include "mask_rule.hpp"

namespace attn::detail {

// A rows x cols block of scores whose (0, 0) is query first_query, key
// first_key: -inf where the rule forbids that query to see that key.
void mask_block(float* scores, std::size_t rows, std::size_t cols, std::size_t first_query, std::size_t first_key,
                const KeepRule& rule);

// q n x d_k, k m x d_k, v m x d_v (shape), all valid; `scale` the factor.
AttentionTrace attention_passes(const float* q, const float* k, const float* v, const AttentionShape& shape,
                                float scale, const KeepRule& rule);

}  // namespace attn::detail

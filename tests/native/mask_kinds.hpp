// mask_kinds.hpp — one mask of every kind on n x m, for the tests that run a
// path under each (backward_test, tiled_attention_test).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/attention.hpp"
#include "attn/random.hpp"

namespace attn_test {

// None, causal, half the keys padding, every key padding (all rows fully
// masked), and a random keep-matrix (each cell kept with probability 1/2)
// with row n/2 fully masked.
inline std::vector<attn::Mask> every_mask_kind(std::size_t n, std::size_t m, attn::Rng& rng) {
  std::vector<std::uint8_t> keep(n * m);
  for (auto& bit : keep) bit = rng.uniform() < 0.5 ? 1 : 0;
  for (std::size_t j = 0; j < m; ++j) keep[(n / 2) * m + j] = 0;
  return {attn::Mask::none(), attn::Mask::causal(), attn::Mask::key_padding((m + 1) / 2),
          attn::Mask::key_padding(0), attn::Mask::explicit_keep(keep)};
}

}  // namespace attn_test

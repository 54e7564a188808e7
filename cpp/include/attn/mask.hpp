// attn/mask.hpp — which keys each query may attend to.
//
// A mask is turned into a keep-matrix `keep` (n x m, 1 = query i may attend to
// key j). Masked scores become -inf before the softmax, so their weights are
// exactly 0. A row whose keys are all masked gets zero weights and a zero
// output row (never NaN).
#pragma once

#include <cstdint>
#include <vector>

#include "attn/shapes.hpp"

namespace attn {

struct Mask {
  enum class Kind {
    None,        // every query sees every key
    Causal,      // query i sees keys j <= i (top-left aligned when n != m)
    KeyPadding,  // keys j >= valid_keys are padding and seen by no query
    Keep,        // an explicit n x m keep-matrix
  };
  Kind kind = Kind::None;
  std::size_t valid_keys = 0;  // Kind::KeyPadding only
  std::vector<std::uint8_t> keep;  // Kind::Keep only, n*m entries, 0 or 1

  static Mask none() { return {}; }
  static Mask causal() { return {Kind::Causal, 0, {}}; }
  static Mask key_padding(std::size_t valid_keys) { return {Kind::KeyPadding, valid_keys, {}}; }
  static Mask explicit_keep(std::vector<std::uint8_t> keep) { return {Kind::Keep, 0, std::move(keep)}; }
};

// -> keep n x m, the keep-matrix of `mask` (1 = may attend). Raises ShapeError if an
// explicit keep-matrix does not have n*m entries, ValueError if an entry is not
// 0 or 1 or valid_keys > m.
std::vector<std::uint8_t> keep_matrix(const Mask& mask, std::size_t n, std::size_t m);

}  // namespace attn

// mask_rule.hpp (internal) — a Mask, checked once against n x m, that answers
// "may query i attend to key j?" without building the n x m keep-matrix, so
// the tiled path can apply any mask block by block; and mask_block, the one
// masking pass of every path.
#pragma once

#include <cstdint>

#include "attn/mask.hpp"

namespace attn::detail {

class KeepRule {
 public:
  // Raises the errors documented at attn::keep_matrix. Keeps a pointer into
  // mask.keep: `mask` must outlive the rule.
  KeepRule(const Mask& mask, std::size_t n, std::size_t m);

  bool keeps(std::size_t i, std::size_t j) const {
    switch (kind_) {
      case Mask::Kind::None: return true;
      case Mask::Kind::Causal: return j <= i;
      case Mask::Kind::KeyPadding: return j < valid_keys_;
      case Mask::Kind::Keep: return keep_[i * m_ + j] != 0;
    }
    return true;
  }
  bool keeps_everything() const { return kind_ == Mask::Kind::None; }
  // True if the rule forbids every query of [first_query, first_query + rows)
  // every key of [first_key, first_key + cols) (known without looking: causal
  // blocks above the diagonal, padding blocks past the valid keys), so a path
  // may skip the block. False says nothing.
  bool hides_block(std::size_t first_query, std::size_t rows, std::size_t first_key, std::size_t cols) const {
    (void)cols;
    switch (kind_) {
      case Mask::Kind::Causal: return first_key > first_query + rows - 1;
      case Mask::Kind::KeyPadding: return first_key >= valid_keys_;
      default: return false;
    }
  }

 private:
  Mask::Kind kind_;
  std::size_t valid_keys_;
  const std::uint8_t* keep_;
  std::size_t m_;
};

// A rows x cols block of scores whose (0, 0) is query first_query, key
// first_key: -inf where the rule forbids that query to see that key.
void mask_block(float* scores, std::size_t rows, std::size_t cols, std::size_t first_query, std::size_t first_key,
                const KeepRule& rule);

// The same on a block stored transposed, key by key (the tiled path's S^T):
// the score of query first_query + r and key first_key + c at scores_t[c * stride + r].
void mask_block_transposed(float* scores_t, std::size_t rows, std::size_t cols, std::size_t stride,
                           std::size_t first_query, std::size_t first_key, const KeepRule& rule);

}  // namespace attn::detail

// mask.cpp — checking a Mask against n x m, masking a block of scores, and
// the keep-matrix.
#include <limits>
#include <string>

#include "attn/error.hpp"
#include "attn/mask.hpp"
#include "mask_rule.hpp"
#include "validation.hpp"

namespace attn {

namespace detail {

KeepRule::KeepRule(const Mask& mask, std::size_t n, std::size_t m)
    : kind_(mask.kind), valid_keys_(mask.valid_keys), keep_(mask.keep.data()), m_(m) {
  switch (mask.kind) {
    case Mask::Kind::None:
    case Mask::Kind::Causal:
      break;
    case Mask::Kind::KeyPadding:
      if (mask.valid_keys > m) {
        throw ValueError("mask.valid_keys: expected at most m = " + std::to_string(m) + ", got " +
                         std::to_string(mask.valid_keys));
      }
      break;
    case Mask::Kind::Keep: {
      const std::size_t expected = checked_product("n*m", n, m);
      if (mask.keep.size() != expected) {
        throw ShapeError("mask.keep: expected n*m = " + std::to_string(n) + "*" + std::to_string(m) + " = " +
                         std::to_string(expected) + " entries, got " + std::to_string(mask.keep.size()));
      }
      for (std::size_t index = 0; index < expected; ++index) {
        if (mask.keep[index] > 1) {
          throw ValueError("mask.keep[" + std::to_string(index) + "]: expected 0 or 1, got " +
                           std::to_string(mask.keep[index]));
        }
      }
      break;
    }
    default:
      throw ValueError("mask.kind: expected None, Causal, KeyPadding or Keep, got " +
                       std::to_string(static_cast<int>(mask.kind)));
  }
}

void mask_block(float* scores, std::size_t rows, std::size_t cols, std::size_t first_query, std::size_t first_key,
                const KeepRule& rule) {
  if (rule.keeps_everything()) return;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (!rule.keeps(first_query + r, first_key + c)) scores[r * cols + c] = -std::numeric_limits<float>::infinity();
}

void mask_block_transposed(float* scores_t, std::size_t rows, std::size_t cols, std::size_t stride,
                           std::size_t first_query, std::size_t first_key, const KeepRule& rule) {
  if (rule.keeps_everything()) return;
  for (std::size_t c = 0; c < cols; ++c)
    for (std::size_t r = 0; r < rows; ++r)
      if (!rule.keeps(first_query + r, first_key + c)) scores_t[c * stride + r] = -std::numeric_limits<float>::infinity();
}

}  // namespace detail

std::vector<std::uint8_t> keep_matrix(const Mask& mask, std::size_t n, std::size_t m) {
  // Sizes first, before any loop: m = 0 or n*m beyond memory end here at once.
  detail::require_dimension("n", n);
  detail::require_dimension("m", m);
  detail::checked_product("n*m", n, m);
  const detail::KeepRule rule(mask, n, m);
  std::vector<std::uint8_t> keep(n * m);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) keep[i * m + j] = rule.keeps(i, j) ? 1 : 0;
  return keep;
}

}  // namespace attn

// Sinusoidal positional encoding against its formula, and the property that
// makes it useful: PE(pos + k) is PE(pos) rotated, pair by pair, by an angle
// that depends on k only.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attn/positional_encoding.hpp"
#include "test_support.hpp"

namespace {

using attn_test::close;

// frequency of pair i: 1 / 10000^(2i / d_model) = exp(-2i ln(10000) / d_model)
double frequency(std::size_t pair, std::size_t d_model) {
  return std::exp(-2.0 * static_cast<double>(pair) * std::log(10000.0) / static_cast<double>(d_model));
}

TEST(PositionalEncoding, ValuesFollowTheFormula) {
  for (std::size_t d_model : {4u, 7u, 16u}) {
    const std::size_t n = 12;
    const auto pe = attn::positional_encoding(n, d_model);
    ASSERT_EQ(pe.size(), n * d_model);
    for (std::size_t pos : {0u, 1u, 5u, 11u}) {
      for (std::size_t col = 0; col < d_model; ++col) {
        const double angle = static_cast<double>(pos) * frequency(col / 2, d_model);
        const double expected = col % 2 == 0 ? std::sin(angle) : std::cos(angle);
        EXPECT_TRUE(close(pe[pos * d_model + col], expected)) << "pos " << pos << " col " << col;
      }
    }
  }
  const auto pe = attn::positional_encoding(2, 2);
  EXPECT_EQ(pe[0], 0.0f);  // sin 0
  EXPECT_EQ(pe[1], 1.0f);  // cos 0
  EXPECT_TRUE(close(pe[2], std::sin(1.0)));
  EXPECT_TRUE(close(pe[3], std::cos(1.0)));
}

TEST(PositionalEncoding, ShiftIsARotationOfEachPair) {
  const std::size_t n = 40, d_model = 8, shift = 3;
  const auto pe = attn::positional_encoding(n, d_model);
  for (std::size_t pos = 0; pos + shift < n; pos += 5) {
    for (std::size_t pair = 0; pair < d_model / 2; ++pair) {
      const double b = shift * frequency(pair, d_model);
      const double s = pe[pos * d_model + 2 * pair], c = pe[pos * d_model + 2 * pair + 1];
      // sin(a + b) = sin a cos b + cos a sin b,  cos(a + b) = cos a cos b - sin a sin b
      EXPECT_TRUE(close(pe[(pos + shift) * d_model + 2 * pair], s * std::cos(b) + c * std::sin(b)));
      EXPECT_TRUE(close(pe[(pos + shift) * d_model + 2 * pair + 1], c * std::cos(b) - s * std::sin(b)));
    }
  }
}

}  // namespace

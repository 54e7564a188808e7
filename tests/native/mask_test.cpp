// Masks: the keep-matrix of each kind, -inf before the softmax, weight exactly
// 0, and the fully masked row (zero weights, zero output, never NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attn/attention.hpp"
#include "attn/mask.hpp"
#include "attn/random.hpp"
#include "attn/reference.hpp"
#include "attn/testing.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;
using attn_test::close;
using Keep = std::vector<std::uint8_t>;
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

TEST(Mask, KeepMatrixOfEachKind) {
  EXPECT_EQ(attn::keep_matrix(attn::Mask::none(), 2, 3), (Keep{1, 1, 1, 1, 1, 1}));
  // causal, top-left aligned: query i sees keys j <= i
  EXPECT_EQ(attn::keep_matrix(attn::Mask::causal(), 3, 4), (Keep{1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0}));
  EXPECT_EQ(attn::keep_matrix(attn::Mask::key_padding(2), 2, 4), (Keep{1, 1, 0, 0, 1, 1, 0, 0}));
  const Keep explicit_keep = {0, 1, 1, 0};
  EXPECT_EQ(attn::keep_matrix(attn::Mask::explicit_keep(explicit_keep), 2, 2), explicit_keep);
}

struct Case {
  const char* name;
  attn::Mask mask;
};

std::vector<Case> every_mask(std::size_t n, std::size_t m) {
  attn::Rng rng(200);
  Keep keep(n * m);
  for (auto& bit : keep) bit = rng.uniform() < 0.6 ? 1 : 0;
  for (std::size_t j = 0; j < m; ++j) keep[1 * m + j] = 0;  // row 1 fully masked
  return {{"causal", attn::Mask::causal()},
          {"key_padding", attn::Mask::key_padding(m / 2)},
          {"explicit", attn::Mask::explicit_keep(keep)}};
}

TEST(Mask, MaskedScoresAreMinusInfinityAndTheirWeightsExactlyZero) {
  const std::size_t n = 6, m = 9;
  attn::Rng rng(201);
  const auto q = rng.normal_matrix(n, 4), k = rng.normal_matrix(m, 4), v = rng.normal_matrix(m, 3);
  const attn::AttentionShape shape{n, m, 4, 3};
  for (const Case& c : every_mask(n, m)) {
    SCOPED_TRACE(c.name);
    attn::AttentionOptions options;
    options.mask = c.mask;
    const auto trace = attn::attention(q, k, v, shape, options);
    const auto keep = attn::keep_matrix(c.mask, n, m);
    for (std::size_t i = 0; i < n; ++i) {
      double visible_sum = 0;
      bool any_visible = false;
      for (std::size_t j = 0; j < m; ++j) {
        const std::size_t ij = i * m + j;
        if (keep[ij]) {
          EXPECT_EQ(trace.masked[ij], trace.scaled[ij]);
          visible_sum += trace.weights[ij];
          any_visible = true;
        } else {
          EXPECT_EQ(trace.masked[ij], kMinusInf);
          EXPECT_EQ(trace.weights[ij], 0.0f);
        }
      }
      EXPECT_TRUE(close(visible_sum, any_visible ? 1.0 : 0.0)) << "row " << i;
    }
    const auto expected = attn::reference::attention(q, k, v, shape, options);
    EXPECT_TRUE(all_close(trace.weights, expected.weights));
    EXPECT_TRUE(all_close(trace.output, expected.output));
  }
}

// Masking key j renormalises the row over the other keys: the same as not
// having key j at all.
TEST(Mask, PaddingEqualsDroppingThePaddedKeys) {
  const std::size_t n = 4, m = 10, valid = 6;
  attn::Rng rng(202);
  const auto q = rng.normal_matrix(n, 5), k = rng.normal_matrix(m, 5), v = rng.normal_matrix(m, 2);
  attn::AttentionOptions options;
  options.mask = attn::Mask::key_padding(valid);
  const auto padded = attn::attention(q, k, v, {n, m, 5, 2}, options);
  const auto dropped = attn::attention(q, std::vector<float>(k.begin(), k.begin() + valid * 5),
                                       std::vector<float>(v.begin(), v.begin() + valid * 2), {n, valid, 5, 2});
  EXPECT_TRUE(all_close(padded.output, dropped.output));
}

TEST(Mask, FullyMaskedRowsGiveZeroWeightsAndZeroOutputNeverNaN) {
  const std::size_t n = 3, m = 5;
  attn::Rng rng(203);
  const auto q = rng.normal_matrix(n, 2), k = rng.normal_matrix(m, 2), v = rng.normal_matrix(m, 4);
  const attn::AttentionShape shape{n, m, 2, 4};
  Keep keep(n * m, 1);
  for (std::size_t j = 0; j < m; ++j) keep[0 * m + j] = keep[2 * m + j] = 0;  // rows 0 and 2 see nothing
  for (const attn::Mask& mask : {attn::Mask::key_padding(0), attn::Mask::explicit_keep(keep)}) {
    attn::AttentionOptions options;
    options.mask = mask;
    const auto full_keep = attn::keep_matrix(mask, n, m);
    const auto trace = attn::attention(q, k, v, shape, options);
    const auto reference = attn::reference::attention(q, k, v, shape, options);
    const auto tiled = attn::testing::attention_output(q, k, v, shape, options, {2, 2});
    for (std::size_t i = 0; i < n; ++i) {
      bool row_masked = true;
      for (std::size_t j = 0; j < m; ++j) row_masked = row_masked && !full_keep[i * m + j];
      if (!row_masked) continue;
      for (std::size_t j = 0; j < m; ++j) {
        EXPECT_EQ(trace.weights[i * m + j], 0.0f);
        EXPECT_EQ(reference.weights[i * m + j], 0.0f);
      }
      for (std::size_t c = 0; c < 4; ++c) {
        EXPECT_EQ(trace.output[i * 4 + c], 0.0f);
        EXPECT_EQ(reference.output[i * 4 + c], 0.0f);
        EXPECT_EQ(tiled[i * 4 + c], 0.0f);
      }
    }
    EXPECT_TRUE(all_close(trace.output, reference.output));
    EXPECT_TRUE(all_close(tiled, reference.output));
  }
}

}  // namespace

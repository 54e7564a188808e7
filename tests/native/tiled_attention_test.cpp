// The tiled online-softmax path (attention_output) and the output-only full
// path (attention_output_full) against the reference: lengths shorter than a
// block, not a multiple of it, exactly one block, many blocks; every mask kind;
// large scores that force rescaling; every path on every kernel variant.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "attn/random.hpp"
#include "attn/reference.hpp"
#include "attn/testing.hpp"
#include "mask_kinds.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;
using attn_test::every_mask_kind;

TEST(TiledAttention, MatchesFullPathForEveryMaskAndBlockShape) {
  const std::size_t lengths[][2] = {{1, 1}, {1, 9}, {5, 3}, {7, 13}, {16, 16}, {17, 33}, {70, 65}};
  const attn::testing::TileSizes tiles[] = {{1, 1}, {2, 3}, {4, 8}, {16, 16}, {64, 64}, {100, 7}};
  attn::Rng rng(300);
  for (const auto& [n, m] : lengths) {
    const std::size_t d_k = 6, d_v = 5;
    const auto q = rng.normal_matrix(n, d_k), k = rng.normal_matrix(m, d_k), v = rng.normal_matrix(m, d_v);
    const attn::AttentionShape shape{n, m, d_k, d_v};
    for (const attn::Mask& mask : every_mask_kind(n, m, rng)) {
      attn::AttentionOptions options;
      options.mask = mask;
      const auto expected = attn::reference::attention(q, k, v, shape, options).output;
      EXPECT_TRUE(all_close(attn::attention(q, k, v, shape, options).output, expected));
      EXPECT_TRUE(all_close(attn::attention_output(q, k, v, shape, options), expected));
      EXPECT_TRUE(all_close(attn::attention_output_full(q, k, v, shape, options), expected));
      for (const attn::testing::TileSizes& tile : tiles) {
        EXPECT_TRUE(all_close(attn::testing::attention_output(q, k, v, shape, options, tile), expected))
            << "n=" << n << " m=" << m << " mask kind " << static_cast<int>(mask.kind) << " tiles " << tile.queries
            << "x" << tile.keys;
      }
    }
  }
}

// Each path of the library on each kernel variant this CPU runs, forced, at
// widths around the vector widths W = 16, 8, 4 and lengths shorter than a
// block or not a multiple of it, with the variant's own block sizes and with
// blocks whose rows are not a multiple of any vector width.
TEST(TiledAttention, EveryPathMatchesTheReferenceOnEveryKernelVariant) {
  const std::size_t shapes[][4] = {{1, 1, 1, 1},   {3, 5, 15, 17}, {17, 9, 16, 8},  {5, 33, 31, 33},
                                   {70, 65, 8, 7}, {2, 130, 4, 3}, {65, 1, 65, 63}};
  attn::Rng rng(302);
  for (const attn::kernels::KernelTable* variant : attn::testing::kernel_variants()) {
    const attn::testing::ForceKernelVariant force(variant->name);
    for (const auto& s : shapes) {
      SCOPED_TRACE(::testing::Message() << variant->name << " " << s[0] << "," << s[1] << "," << s[2] << "," << s[3]);
      const auto q = rng.normal_matrix(s[0], s[2]), k = rng.normal_matrix(s[1], s[2]), v = rng.normal_matrix(s[1], s[3]);
      const attn::AttentionShape shape{s[0], s[1], s[2], s[3]};
      attn::AttentionOptions options;
      options.mask = attn::Mask::causal();
      const auto expected = attn::reference::attention(q, k, v, shape, options);
      const auto trace = attn::attention(q, k, v, shape, options);
      EXPECT_TRUE(all_close(trace.scores, expected.scores));
      EXPECT_TRUE(all_close(trace.weights, expected.weights));
      EXPECT_TRUE(all_close(trace.output, expected.output));
      EXPECT_TRUE(all_close(attn::attention_output_full(q, k, v, shape, options), expected.output));
      EXPECT_TRUE(all_close(attn::attention_output(q, k, v, shape, options), expected.output));
      for (const attn::testing::TileSizes& tile : {attn::testing::TileSizes{16, 8}, attn::testing::TileSizes{33, 9},
                                                   attn::testing::TileSizes{7, 13}})
        EXPECT_TRUE(all_close(attn::testing::attention_output(q, k, v, shape, options, tile), expected.output))
            << "tiles " << tile.queries << "x" << tile.keys;
    }
  }
}

// Scores of a few hundred with the largest key last: the running max rises at
// each block and every earlier partial sum must be rescaled by exp(m_old - m_new).
TEST(TiledAttention, RescalesWhenTheRunningMaxGrows) {
  const std::size_t n = 3, m = 40;
  std::vector<float> k(m);
  for (std::size_t j = 0; j < m; ++j) k[j] = static_cast<float>(10 * j);  // increasing scores 0 .. 390
  const std::vector<float> q = {1.0f, 0.5f, -0.25f};
  attn::Rng rng(301);
  const auto v = rng.normal_matrix(m, 4);
  const attn::AttentionShape shape{n, m, 1, 4};
  attn::AttentionOptions options;
  options.scale = attn::Scale::by(0.05f);
  const auto expected = attn::reference::attention(q, k, v, shape, options).output;
  for (const attn::testing::TileSizes& tile : {attn::testing::TileSizes{1, 1}, attn::testing::TileSizes{2, 3}, attn::testing::TileSizes{3, 16}}) {
    EXPECT_TRUE(all_close(attn::testing::attention_output(q, k, v, shape, options, tile), expected));
  }
}

// The tiled path never holds the n x m matrix, so it takes sizes whose n x m
// matrix would not fit (n*m > kMaxMatrixElements), where the full path refuses.
// Equal keys give uniform weights: every output row is the mean of v.
TEST(TiledAttention, TakesSequencesWhoseScoreMatrixWouldNotFit) {
  const std::size_t n = 16400, m = 16400;  // n*m = 268,960,000 > 2^28
  ASSERT_GT(n * m, attn::kMaxMatrixElements);
  const std::vector<float> q(n, 1.0f), k(m, 0.5f);
  std::vector<float> v(m);
  double mean = 0;
  for (std::size_t j = 0; j < m; ++j) mean += v[j] = static_cast<float>(j % 7) - 3.0f;
  mean /= static_cast<double>(m);
  const attn::AttentionShape shape{n, m, 1, 1};

  EXPECT_THROW(attn::attention(q, k, v, shape), attn::SizeError);
  EXPECT_THROW(attn::attention_output_full(q, k, v, shape), attn::SizeError);
  const auto output = attn::attention_output(q, k, v, shape);
  ASSERT_EQ(output.size(), n);
  EXPECT_TRUE(all_close(output, std::vector<float>(n, static_cast<float>(mean))));
}

}  // namespace

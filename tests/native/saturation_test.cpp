// The sqrt(d_k) experiment: raw logits saturate the softmax as d_k grows,
// scaled ones do not. The articles' figures come from another generator, so
// they are matched to within a sampling allowance, stated per check.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attn/saturation.hpp"

namespace {

attn::SaturationResult run(std::size_t d_k, std::size_t queries, std::size_t keys, std::size_t trials,
                           std::uint64_t seed = 2024) {
  attn::SaturationOptions options;
  options.d_k = d_k;
  options.queries = queries;
  options.keys = keys;
  options.trials = trials;
  options.seed = seed;
  return attn::saturation(options);
}

const std::size_t kArticle003Dims[] = {4, 16, 64, 256, 1024};

TEST(Saturation, LogitStdGrowsLikeSqrtDk) {
  for (std::size_t d_k : kArticle003Dims) {
    const auto result = run(d_k, 8, 8, 200);
    // 12800 logits: the std estimate is within a few percent
    EXPECT_NEAR(result.logit_std / std::sqrt(static_cast<double>(d_k)), 1.0, 0.05) << "d_k " << d_k;
  }
}

TEST(Saturation, RawSaturatesScaledStaysPut) {
  std::vector<attn::SaturationResult> results;
  for (std::size_t d_k : kArticle003Dims) results.push_back(run(d_k, 8, 8, 200));
  for (std::size_t i = 1; i < results.size(); ++i) {
    EXPECT_GT(results[i].max_weight.raw, results[i - 1].max_weight.raw);
    EXPECT_LT(results[i].gradient.raw, results[i - 1].gradient.raw);
    EXPECT_LT(results[i].entropy.raw, results[i - 1].entropy.raw);
  }
  EXPECT_GT(results.back().max_weight.raw, 0.95);   // article 003: .968
  EXPECT_LT(results.back().gradient.raw, 0.07);     // article 003: .0465
  for (const auto& r : results) {                   // article 003: scaled entropy 1.72-1.75
    EXPECT_NEAR(r.entropy.scaled, 1.735, 0.06);
    EXPECT_NEAR(r.max_weight.scaled, 0.35, 0.03);   // article 003: .34-.36
    EXPECT_NEAR(r.gradient.scaled, 0.77, 0.03);     // article 003: about .77
    EXPECT_LT(r.entropy.scaled, std::log(8.0));     // below uniform
  }
}

// Article 002: d_k = 64, 8 keys, 5000 trials (one query each).
TEST(Saturation, Article002Figures) {
  const auto result = run(64, 1, 8, 5000);
  EXPECT_NEAR(result.max_weight.raw, 0.879, 0.02);
  EXPECT_NEAR(result.max_weight.scaled, 0.361, 0.02);
  EXPECT_NEAR(result.saturated_share.raw, 0.38, 0.03);
  EXPECT_EQ(result.saturated_share.scaled, 0.0);
  EXPECT_NEAR(result.gradient.raw, 0.172, 0.02);
  EXPECT_NEAR(result.gradient.scaled, 0.768, 0.02);
}

TEST(Saturation, SameSeedSameResultOtherSeedOtherResult) {
  const auto a = run(32, 4, 6, 50, 5), b = run(32, 4, 6, 50, 5), c = run(32, 4, 6, 50, 6);
  EXPECT_EQ(a.logit_std, b.logit_std);
  EXPECT_EQ(a.max_weight.raw, b.max_weight.raw);
  EXPECT_EQ(a.entropy.scaled, b.entropy.scaled);
  EXPECT_EQ(a.gradient.raw, b.gradient.raw);
  EXPECT_NE(a.logit_std, c.logit_std);
}

}  // namespace

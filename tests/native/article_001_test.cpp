// The worked example of article 001 (a Quanta column): one query, three keys.
//   d_k = 2, q = (1, 0), keys (1,0), (0,1), (1,1), values (2,0), (0,2), (1,1)
// Expected values are recomputed here from the formula with std::exp; the
// article's rounded figures are checked to the digits it prints.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attn/attention.hpp"
#include "attn/reference.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;

const std::vector<float> kQuery = {1, 0};
const std::vector<float> kKeys = {1, 0, 0, 1, 1, 1};
const std::vector<float> kValues = {2, 0, 0, 2, 1, 1};
const attn::AttentionShape kShape{1, 3, 2, 2};

// softmax of the scores (1, 0, 1) times `scale`, and the weighted sum of the values
struct Expected {
  std::vector<double> weights, output;
};
Expected expected_for_scale(double scale) {
  const double scores[3] = {1.0, 0.0, 1.0};  // q . k_j
  double exps[3], sum = 0;
  for (int j = 0; j < 3; ++j) sum += exps[j] = std::exp(scale * scores[j]);
  Expected e;
  for (int j = 0; j < 3; ++j) e.weights.push_back(exps[j] / sum);
  e.output = {e.weights[0] * 2 + e.weights[2] * 1, e.weights[1] * 2 + e.weights[2] * 1};
  return e;
}

double rounded3(double x) { return std::round(x * 1000.0) / 1000.0; }

TEST(Article001, ScaledWeightsAndOutputFollowTheFormula) {
  const Expected expected = expected_for_scale(1.0 / std::sqrt(2.0));
  const attn::AttentionTrace trace = attn::attention(kQuery, kKeys, kValues, kShape);
  EXPECT_TRUE(all_close(trace.scores, std::vector<double>{1, 0, 1}));
  EXPECT_TRUE(all_close(trace.scaled, std::vector<double>{1 / std::sqrt(2.0), 0, 1 / std::sqrt(2.0)}));
  EXPECT_TRUE(all_close(trace.weights, expected.weights));
  EXPECT_TRUE(all_close(trace.output, expected.output));
  EXPECT_TRUE(all_close(attn::reference::attention(kQuery, kKeys, kValues, kShape).output, expected.output));
  EXPECT_TRUE(all_close(attn::attention_output(kQuery, kKeys, kValues, kShape), expected.output));
}

TEST(Article001, ScaledFiguresRoundToThoseOfTheArticle) {
  const attn::AttentionTrace trace = attn::attention(kQuery, kKeys, kValues, kShape);
  EXPECT_EQ(rounded3(trace.weights[0]), 0.401);
  EXPECT_EQ(rounded3(trace.weights[1]), 0.198);
  EXPECT_EQ(rounded3(trace.weights[2]), 0.401);
  EXPECT_EQ(rounded3(trace.output[0]), 1.203);
  EXPECT_EQ(rounded3(trace.output[1]), 0.797);
}

TEST(Article001, UnscaledWeightsFollowTheFormulaAndTheArticle) {
  const Expected expected = expected_for_scale(1.0);
  attn::AttentionOptions options;
  options.scale = attn::Scale::none();
  const attn::AttentionTrace trace = attn::attention(kQuery, kKeys, kValues, kShape, options);
  EXPECT_EQ(trace.scale, 1.0f);
  EXPECT_TRUE(all_close(trace.weights, expected.weights));
  EXPECT_TRUE(all_close(trace.output, expected.output));
  EXPECT_EQ(rounded3(trace.weights[0]), 0.422);
  EXPECT_EQ(rounded3(trace.weights[1]), 0.155);
  EXPECT_EQ(rounded3(trace.weights[2]), 0.422);
}

// The exponentials, their sum and the terms w_j v_j the walkthrough shows, worked out
// by hand in 30-digit decimal arithmetic (not with std::exp as the test above does):
// s = (1/sqrt 2, 0, 1/sqrt 2), e^(1/sqrt 2) = 2.02811498164747245..., the sum
// 2 e^(1/sqrt 2) + 1 = 5.05622996329494490...; w_1 = w_3 = 0.40111209267978591...,
// w_2 = 0.19777581464042818... Unscaled: e^1 = 2.71828182845904524..., sum 2e + 1.
TEST(Article001, ExponentialsSumAndTermsOfTheTrace) {
  const double e_scaled = 2.02811498164747245, w1 = 0.40111209267978591, w2 = 0.19777581464042818;
  for (const auto& trace : {attn::attention(kQuery, kKeys, kValues, kShape, {}, attn::TraceTerms::Included),
                            attn::reference::attention(kQuery, kKeys, kValues, kShape, {}, attn::TraceTerms::Included)}) {
    EXPECT_EQ(trace.exp_shifts, std::vector<float>{0.0f});  // the textbook e^(s_j), as the article writes it
    EXPECT_TRUE(all_close(trace.exps, std::vector<double>{e_scaled, 1.0, e_scaled}));
    EXPECT_TRUE(all_close(trace.exp_sums, std::vector<double>{5.05622996329494490}));
    // w_1 v_1 = w_1 (2, 0), w_2 v_2 = w_2 (0, 2), w_3 v_3 = w_3 (1, 1)
    EXPECT_TRUE(all_close(trace.terms, std::vector<double>{2 * w1, 0, 0, 2 * w2, w1, w1}));
    EXPECT_EQ(rounded3(trace.exps[0]), 2.028);  // the article's figures, to the digits it prints
    EXPECT_EQ(rounded3(trace.exp_sums[0]), 5.056);
  }
  attn::AttentionOptions unscaled;
  unscaled.scale = attn::Scale::none();
  const auto trace = attn::attention(kQuery, kKeys, kValues, kShape, unscaled);
  EXPECT_TRUE(all_close(trace.exps, std::vector<double>{2.71828182845904524, 1.0, 2.71828182845904524}));
  EXPECT_TRUE(all_close(trace.exp_sums, std::vector<double>{6.43656365691809047}));
  EXPECT_TRUE(trace.terms.empty());
}

}  // namespace

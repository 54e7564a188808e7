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

}  // namespace
